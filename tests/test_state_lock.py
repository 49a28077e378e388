"""``state.locked``: an exclusive lock on ``path.lock`` for the block, let go however the
block ends (it is a small class, not ``contextlib.contextmanager``, so a fresh decision
does without contextlib)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from bastion import state


def _free(lock: Path) -> bool:
    """Whether another open file of ``lock`` can take the lock now."""
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_locked_holds_the_lock_for_the_block_and_makes_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "state.json"
    before = _open_files()
    with state.locked(path) as held:
        assert held is None
        assert not _free(path.with_name("state.json.lock"))
    assert _free(path.with_name("state.json.lock"))
    assert _open_files() == before


def test_locked_lets_go_when_the_block_fails(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    before = _open_files()
    with pytest.raises(KeyError, match="inside"), state.locked(path):
        raise KeyError("inside")
    assert _free(tmp_path / "state.json.lock")
    assert _open_files() == before


def test_update_json_runs_under_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "counts.json"
    seen: list[bool] = []

    def change(value: dict[str, int]) -> dict[str, int]:
        seen.append(_free(tmp_path / "counts.json.lock"))
        return {**value, "n": value.get("n", 0) + 1}

    assert state.update_json(path, change, {}) == {"n": 1}
    assert state.update_json(path, change, {}) == {"n": 2}
    assert seen == [False, False]
