"""Waiting on events, not on times: tests run on busy machines, so they wait for what
they need to see (a file, a finished process, screen text) with a generous upper bound,
and assert order and outcome, never how long something took."""

from __future__ import annotations

import os
import shlex
import signal
import time
from collections.abc import Callable
from pathlib import Path

#: The upper bound on any wait; only reached when something is really wrong.
PATIENCE = 60.0


def until(condition: Callable[[], object], what: str, seconds: float = PATIENCE) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` when it never does."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def running(pid: int) -> bool:
    """Is process ``pid`` still running? (A zombie nobody reaped has finished.)"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


def gone(pidfile: Path, what: str = "the process ended") -> None:
    """Wait until the process whose id a shell wrote to ``pidfile`` (``echo $$ > …``) is gone."""
    until(lambda: pidfile.exists() and pidfile.read_text().strip(), f"{pidfile.name} was written")
    pid = int(pidfile.read_text())
    until(lambda: not running(pid), what)


def wait_for_file_sh(path: Path, seconds: float = PATIENCE) -> str:
    """A shell snippet that waits until ``path`` exists (bounded, so nothing is left
    running for ever when a test fails)."""
    rounds = int(seconds / 0.05)
    quoted = shlex.quote(str(path))
    return f"i=0; while [ ! -e {quoted} ] && [ $i -lt {rounds} ]; do sleep 0.05; i=$((i+1)); done"


def _ancestry() -> set[int]:
    """This process and the ones that started it."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def holding(token: str) -> list[int]:
    """Running processes (other than this test and its parents) whose command line
    contains ``token`` (a unique path, say)."""
    found, mine = [], _ancestry()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if token.encode() in cmdline and running(int(entry.name)):
            found.append(int(entry.name))
    return found


def none_left(token: str, what: str, seconds: float = PATIENCE) -> None:
    """Wait until no process holds ``token`` in its command line; when some are still
    there at the bound, end them (never leave them behind) and fail."""
    try:
        until(lambda: not holding(token), what, seconds)
    except AssertionError:
        for pid in holding(token):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        raise
