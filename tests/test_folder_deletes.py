"""A delete that cannot remove the folder it names (``rm /``, ``rm -- -rf /``) is an
ordinary delete, not a wipe of the folder; a recursive one, a link to a folder and an
empty folder with ``rm -d``/``rmdir`` still count (bastion.files.folder_deletes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion import tamper
from bastion.core.context import PathUse
from bastion.engine import Guard
from bastion.files.folder_deletes import leaves_folder
from bastion.model import Mode, ToolCall, Verdict
from bastion.shell.syntax.parse import parse


def _decide(project: Path, command: str, mode: Mode = Mode.DEFAULT) -> object:
    guard = Guard.from_settings(str(project), isolated=True, mode=mode)
    return guard.check(ToolCall("Bash", {"command": command.replace("{package}", tamper.package_dir())},
                                cwd=str(project)))


# `--` ends the options: `-rf` is a file name, and a plain rm fails on a folder.
FAILS_ON_THE_FOLDER = [
    "rm -- -rf /",
    'rm "--" -rf /',
    "rm /",
    "rm -f -- /usr",
    "rm -v -- -r /etc",
    "unlink /usr",
    "rmdir /",
    "rm -- -rf ~",
    "rm {package}",
]

# The same folders, deleted for real.
STILL_DENIED = [
    "rm -rf /",
    "rm -r -- /usr",
    "rm -Rf /etc",
    "rm --recursive /",
    "rm -rf ~",
    "sudo rm -fr /usr",
    "bash -c 'rm -r /usr'; rm /usr",
    "rm -rf {package}",
    "rm -r {package}/..",
]


@pytest.mark.parametrize("command", FAILS_ON_THE_FOLDER)
def test_a_delete_that_fails_on_the_folder_is_not_denied(project: Path, command: str) -> None:
    decision = _decide(project, command)
    assert decision.verdict is not Verdict.DENY, decision.reason


@pytest.mark.parametrize("command", STILL_DENIED)
@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.BYPASS])
def test_a_delete_that_removes_the_folder_is_denied(project: Path, command: str, mode: Mode) -> None:
    decision = _decide(project, command, mode)
    assert decision.verdict is Verdict.DENY, decision.reason


@pytest.mark.skipif(not os.path.islink("/bin"), reason="/bin is not a link on this system (no merged /usr)")
def test_removing_the_bin_link_of_merged_usr_is_denied(project: Path) -> None:
    decision = _decide(project, "rm /bin", Mode.BYPASS)
    assert decision.verdict is Verdict.DENY, decision.reason


def _use(command: str, raw: str, home: str = "/nonexistent") -> bool:
    commands = parse(command).commands
    name = os.path.basename(commands[-1].argv[0])
    return leaves_folder(PathUse("delete", raw, raw, name), commands, home)


def test_what_a_plain_delete_leaves(tmp_path: Path) -> None:
    full, empty, link, file = tmp_path / "full", tmp_path / "empty", tmp_path / "link", tmp_path / "file"
    full.mkdir()
    (full / "x").write_text("x")
    empty.mkdir()
    link.symlink_to(full)
    file.write_text("x")
    assert _use(f"rm {full}", str(full))
    assert _use(f"rm -d {full}", str(full))  # -d removes empty folders only
    assert _use(f"rmdir {full}", str(full))
    assert not _use(f"rm -d {empty}", str(empty))
    assert not _use(f"rmdir {empty}", str(empty))
    assert not _use(f"rm {link}", str(link))  # removes the link itself
    assert not _use(f"rm {file}", str(file))
    assert not _use(f"rm -r {full}", str(full))
    assert not _use(f"find {full} -delete", str(full))  # a deleter not known here counts
    assert not _use(f"cd {tmp_path} && rm full", "full")  # relative: depends on the cd
    assert not _use(f"rm {tmp_path}/missing", f"{tmp_path}/missing")
