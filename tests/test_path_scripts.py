"""A shell given a script name without a folder that the folder lacks runs the first file
of that name on PATH (bash; POSIX sh may): bastion reads that file, and asks when none is
on its PATH, since the agent's shell may add folders it does not see. A name the folder
has, a path with a folder and interpreters that do not search PATH stay as they were."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.engine import Guard
from bastion.model import ToolCall, Verdict


@pytest.fixture
def guard_on_path(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Guard:
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "deploy.sh").write_text("rm -rf ~\n")
    (tools / "greet.sh").write_text("echo hello\n")
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ.get('PATH', '')}")
    (project / "run.sh").write_text("echo hi\n")
    (project / "sub").mkdir()
    (project / "sub" / "x.sh").write_text("ls\n")
    return Guard.from_settings(str(project), isolated=True)


def _verdict(guard: Guard, project: Path, command: str) -> Verdict:
    return guard.check(ToolCall("Bash", {"command": command}, cwd=str(project))).verdict


@pytest.mark.parametrize("command", ["bash deploy.sh", "sh deploy.sh", "cd sub && bash deploy.sh", "sudo bash deploy.sh"])
def test_the_file_on_path_is_read(guard_on_path: Guard, project: Path, command: str) -> None:
    assert _verdict(guard_on_path, project, command) is Verdict.DENY


@pytest.mark.parametrize("command", ["sh malicious.sh", "bash setup.sh --fast", "ksh install.sh", "bash greet.sh"])
def test_a_bare_name_the_folder_lacks_asks(guard_on_path: Guard, project: Path, command: str) -> None:
    # none on PATH: unknown; greet.sh is on PATH but outside the workspace
    assert _verdict(guard_on_path, project, command) is Verdict.ASK


@pytest.mark.parametrize("command", ["bash run.sh", "sh run.sh", "cd sub && bash x.sh", "bash ./missing.sh",
                                     "zsh missing.sh", "python3 missing.py", "bash -n missing.sh"])
def test_the_folder_file_or_no_search(guard_on_path: Guard, project: Path, command: str) -> None:
    assert _verdict(guard_on_path, project, command) is Verdict.ALLOW
