"""A shell given a script name without a folder that the folder lacks runs the first file
of that name on PATH (bash; POSIX sh may): bastion reads that file (outside the workspace,
it asks; harmful, it is denied). A name the folder has, a path with a folder, a name PATH
lacks or names a binary for (the command fails) and interpreters that do not search PATH
stay as they were."""

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


@pytest.mark.parametrize("command", ["bash greet.sh", "sh greet.sh --fast", "ksh greet.sh", "cd sub && bash -x greet.sh"])
def test_a_harmless_file_on_path_is_outside_the_workspace(guard_on_path: Guard, project: Path, command: str) -> None:
    assert _verdict(guard_on_path, project, command) is Verdict.ASK


@pytest.mark.parametrize("command", ["bash run.sh", "sh run.sh", "cd sub && bash x.sh", "bash ./missing.sh",
                                     "sh malicious.sh", "bash -l echo ok", "bash -- -c 'echo ok'",
                                     "zsh missing.sh", "python3 missing.py", "bash -n deploy.sh"])
def test_the_folder_file_or_no_search(guard_on_path: Guard, project: Path, command: str) -> None:
    assert _verdict(guard_on_path, project, command) is Verdict.ALLOW
