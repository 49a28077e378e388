"""``find_up`` remembers which names a settled folder holds: the memory must never hide a
file added or removed since (the folder's modification time changes with either)."""

from __future__ import annotations

import os
import time

from bastion.shell.meaning.tasks_files import find_up

NAMES = ("pytest.ini", "pyproject.toml")


def _settle(folder: str) -> None:
    old = time.time() - 3600
    os.utime(folder, (old, old))


def test_a_file_added_to_a_remembered_folder_is_found(tmp_path):
    below = tmp_path / "src" / "tests"
    below.mkdir(parents=True)
    for folder in (tmp_path, tmp_path / "src", below):
        _settle(str(folder))
    assert find_up(str(below), NAMES, stop=str(tmp_path)) is None
    assert find_up(str(below), NAMES, stop=str(tmp_path)) is None  # now remembered
    (tmp_path / "pyproject.toml").write_text("")
    assert find_up(str(below), NAMES, stop=str(tmp_path)) == str(tmp_path / "pyproject.toml")


def test_a_removed_file_is_not_found(tmp_path):
    (tmp_path / "pytest.ini").write_text("")
    _settle(str(tmp_path))
    assert find_up(str(tmp_path), NAMES, stop=str(tmp_path)) == str(tmp_path / "pytest.ini")
    (tmp_path / "pytest.ini").unlink()
    assert find_up(str(tmp_path), NAMES, stop=str(tmp_path)) is None


def test_a_name_that_became_a_folder_is_not_found(tmp_path):
    (tmp_path / "pytest.ini").write_text("")
    _settle(str(tmp_path))
    assert find_up(str(tmp_path), NAMES, stop=str(tmp_path)) == str(tmp_path / "pytest.ini")
    (tmp_path / "pytest.ini").unlink()
    (tmp_path / "pytest.ini").mkdir()
    assert find_up(str(tmp_path), NAMES, stop=str(tmp_path)) is None


def test_a_recently_changed_folder_is_checked_live(tmp_path):
    """Two changes within the clock's granularity leave the same modification time."""
    assert find_up(str(tmp_path), NAMES, stop=str(tmp_path)) is None
    stamp = os.stat(tmp_path).st_mtime_ns
    (tmp_path / "pytest.ini").write_text("")
    os.utime(tmp_path, ns=(stamp, stamp))  # as if in the same tick
    assert find_up(str(tmp_path), NAMES, stop=str(tmp_path)) == str(tmp_path / "pytest.ini")


def test_names_with_a_folder_part_are_checked_live(tmp_path):
    _settle(str(tmp_path))
    names = ("node_modules/.bin/jest",)
    assert find_up(str(tmp_path), names, stop=str(tmp_path)) is None
    (tmp_path / "node_modules" / ".bin").mkdir(parents=True)
    (tmp_path / "node_modules" / ".bin" / "jest").write_text("")
    _settle(str(tmp_path))
    assert find_up(str(tmp_path), names, stop=str(tmp_path)) == str(tmp_path / "node_modules/.bin/jest")
