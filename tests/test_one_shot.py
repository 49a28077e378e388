"""A one-shot process ends as ``sys.exit`` would: threads joined, atexit run, output
flushed, the same status — only the interpreter's teardown is skipped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(("value", "status"), [("3", 3), ("0", 0), ("None", 0), ("256 + 4", 4)])
def test_status_is_the_one_sys_exit_gives(value: str, status: int) -> None:
    done = _run(f"from bastion.one_shot import finish\nfinish({value})")
    assert done.returncode == status
    assert done.stderr == ""


def test_a_text_goes_to_stderr_with_status_1() -> None:
    done = _run("from bastion.one_shot import finish\nfinish('bad input')")
    assert (done.returncode, done.stderr) == (1, "bad input\n")


def test_threads_atexit_and_buffered_output_all_finish_first() -> None:
    code = (
        "import atexit, sys, threading, time\n"
        "from bastion.one_shot import finish\n"
        "atexit.register(lambda: sys.stdout.write('atexit;'))\n"
        "def late():\n    time.sleep(0.2)\n    sys.stdout.write('thread;')\n"
        "threading.Thread(target=late).start()\n"
        "sys.stdout.write('buffered;')\n"
        "finish(5)\n"
    )
    done = _run(code)
    assert (done.returncode, done.stdout) == (5, "buffered;thread;atexit;")


def test_the_collector_is_off_after_no_collector() -> None:
    done = _run("import gc\nfrom bastion.one_shot import finish, no_collector\nno_collector()\nprint(gc.isenabled())\nfinish(0)")
    assert done.stdout == "False\n"


def test_a_failed_flush_of_stdout_exits_120() -> None:
    """As Python does when stdout cannot be flushed at exit (a closed pipe)."""
    code = "import sys\nfrom bastion.one_shot import finish\nsys.stdout.write('x' * 10)\nfinish(0)"
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the child's flush fails
    try:
        done = subprocess.run([sys.executable, "-I", "-c", code], stdout=write_end, stderr=subprocess.DEVNULL,
                              timeout=60, check=False)
    finally:
        os.close(write_end)
    assert done.returncode == 120


@pytest.mark.parametrize(("argv", "collector"), [(["check", "--isolated", "--", "ls"], "False"),
                                                  (["check", "--isolated", "--batch"], "True")])
def test_a_batch_keeps_the_collector(tmp_path: Path, argv: list[str], collector: str) -> None:
    """``check --batch`` decides many calls in one process: it keeps the collector."""
    code = ("import atexit, gc, sys\natexit.register(lambda: print('COLLECTOR', gc.isenabled(), file=sys.stderr))\n"
            f"sys.argv = ['bastion', *{argv!r}]\nfrom bastion.cli import entry\nentry()")
    env = dict(os.environ, BASTION_AUDIT="0", BASTION_CONFIG_DIR=str(tmp_path / "c"), BASTION_STATE_DIR=str(tmp_path / "s"))
    done = subprocess.run([sys.executable, "-I", "-c", code], input="", capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120, check=False)
    assert f"COLLECTOR {collector}" in done.stderr
