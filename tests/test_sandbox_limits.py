"""Timeouts, output cap, environment allowlist and rlimits — on the real kernel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bastion.sandbox import EXIT_TIMEOUT, landlock
from bastion.sandbox.cgroups import Limits, RunCgroup
from bastion.sandbox.limits import OutputCap, filter_env, is_secret_name
from sandbox_util import BACKENDS, make_world
from waiting import PATIENCE, none_left


@pytest.fixture
def world(tmp_path: Path):
    return make_world(tmp_path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_grandchild_that_called_setsid_dies_at_the_timeout(world, backend):
    beacon = world.project / "beacon"
    command = (
        f"setsid sh -c 'while true; do date +%s%N > {beacon}; sleep 0.05; done' & "
        "setsid nohup sleep 1000 >/dev/null 2>&1 & sleep 1000"
    )
    result = world.sandbox(backend).run(command, cwd=str(world.project), timeout=1)
    assert result.timed_out and result.exit_code == EXIT_TIMEOUT  # not the 1000 s of its sleep
    assert beacon.exists()
    none_left(str(beacon), "the loop that wrote the beacon was ended with the rest of the tree")


@pytest.mark.parametrize("backend", BACKENDS)
def test_background_processes_end_with_the_command(world, backend):
    beacon = world.project / "beacon"
    result = world.sandbox(backend).run(
        f"setsid sh -c 'sleep 600; echo late > {beacon}' & echo done", cwd=str(world.project), timeout=PATIENCE
    )
    assert result.exit_code == 0 and result.stdout == "done\n"
    none_left(str(beacon), "the background process was ended with the command")
    assert not beacon.exists()


_BIG_OUTPUT = """
import json, sys
from bastion.sandbox import Sandbox

def peak_rss_kb():
    # VmHWM belongs to this program's memory map; ru_maxrss would carry the peak of the
    # (much larger) test process it was forked from across execve
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

result = Sandbox(backend=sys.argv[1], warn=None).run(
    "yes 0123456789abcdef | head -c 1000000000", cwd=sys.argv[2], timeout=120, max_output=100_000)
print(json.dumps({"exit": result.exit_code, "truncated": result.truncated, "stdout": len(result.stdout),
                  "marker": result.stdout.count("[bastion: output truncated: "), "tail": result.stdout[-24:],
                  "rss_kb": peak_rss_kb()}))
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_gigabyte_of_output_stays_within_the_cap_and_memory(world, backend):
    """The runner in its own process, so its peak RSS is its own."""
    proc = subprocess.run(
        [sys.executable, "-c", _BIG_OUTPUT, backend, str(world.project)], capture_output=True, text=True, timeout=180
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["exit"] == 0 and report["truncated"]
    assert report["stdout"] <= 100_000 + 100  # the cap plus the marker line
    assert report["marker"] == 1
    assert report["tail"] == "0123456789abcdef\n0123456"  # 10**9 % 17 == 7: the very last bytes
    assert report["rss_kb"] < 120_000, f"peak RSS {report['rss_kb']} kB"


@pytest.mark.parametrize("backend", BACKENDS)
def test_truncation_marker_names_what_was_dropped(world, backend):
    result = world.sandbox(backend).run("seq 1 100000", cwd=str(world.project), max_output=1000)
    assert result.truncated
    assert result.stdout.startswith("1\n2\n3\n")
    assert result.stdout.endswith("99999\n100000\n")
    assert "[bastion: output truncated: " in result.stdout
    omitted = int(result.stdout.split("output truncated: ")[1].split(" ")[0])
    assert omitted == len("".join(f"{i}\n" for i in range(1, 100001))) - 1000


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_environment_is_an_allowlist(world, backend):
    secrets = {
        "GITHUB_TOKEN": "ghp_x", "AWS_SECRET_ACCESS_KEY": "a", "AWS_REGION": "eu", "OPENAI_API_KEY": "k",
        "DB_PASSWORD": "p", "MY_SECRET_THING": "s", "NPM_TOKEN": "n", "RANDOM_VAR": "r", "LC_ALL": "C",
        "NODE_ENV": "test", "TZ": "UTC",
    }
    sandbox = world.sandbox(backend, extra_env=secrets)
    result = sandbox.run(["env"], cwd=str(world.project), env_allow=["NODE_*", "NPM_TOKEN", "NPM_*"])
    seen = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    for name in ("GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "OPENAI_API_KEY", "DB_PASSWORD",
                 "MY_SECRET_THING", "RANDOM_VAR", "BASTION_CONFIG_DIR"):
        assert name not in seen, name
    assert seen["NPM_TOKEN"] == "n"  # named exactly: allowed
    assert seen["NODE_ENV"] == "test" and seen["LC_ALL"] == "C" and seen["TZ"] == "UTC"
    assert seen["HOME"] == str(world.home) and seen["TMPDIR"] == "/tmp"


@pytest.mark.parametrize("backend", BACKENDS)
def test_rlimits_apply(world, backend):
    result = world.sandbox(backend).run("ulimit -c; ulimit -f", cwd=str(world.project))
    core, fsize = result.stdout.split()
    assert core == "0"
    assert int(fsize) * 512 <= 8 << 30  # ulimit -f is in 512-byte blocks


@pytest.mark.parametrize("backend", BACKENDS)
def test_exit_status_and_signals_come_through(world, backend):
    sandbox = world.sandbox(backend)
    assert sandbox.run("exit 7", cwd=str(world.project)).exit_code == 7
    assert sandbox.run("kill -TERM $$", cwd=str(world.project)).exit_code == 128 + 15
    assert sandbox.run(["no-such-program-xyz"], cwd=str(world.project)).exit_code == 127


@pytest.mark.parametrize("backend", BACKENDS)
def test_enforced_says_what_held(world, backend):
    result = world.sandbox(backend).run(["true"], cwd=str(world.project))
    enforced = result.enforced
    assert enforced["backend"] == backend
    assert enforced["pid_namespace"] and enforced["network"] == "none"
    assert enforced["seccomp_unix_sockets"]
    assert enforced["write_roots"] == [str(world.project)]
    assert enforced["missing"] == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_unix_sockets_are_refused(world, backend, tmp_path):
    result = world.sandbox(backend).run(
        [sys.executable, "-I", "-c", "import socket; socket.socket(socket.AF_UNIX); print('made')"],
        cwd=str(world.project),
    )
    assert result.exit_code != 0 and "made" not in result.stdout
    assert "Operation not permitted" in result.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_warnings_go_to_the_warn_stream(world, backend):
    import io

    stream = io.StringIO()
    world.sandbox(backend, warn=stream).run(f"touch {world.home}/x", cwd=str(world.project))
    assert stream.getvalue() == f"bastion: sandbox blocked a write to {world.home}/x (outside the workspace and the write roots)\n"


# --------------------------------------------------------------------------- pure parts


@pytest.mark.parametrize(
    "name, secret",
    [("GITHUB_TOKEN", True), ("github_user", True), ("AWS_PROFILE", True), ("SSH_KEY", True),
     ("my_password_file", True), ("CLIENT_SECRET_ID", True), ("PATH", False), ("TOKENIZER", False), ("LANG", False)],
)
def test_secret_names(name, secret):
    assert is_secret_name(name) is secret


def test_filter_env_keeps_base_names_and_forces_tmpdir():
    env = filter_env({"PATH": "/bin", "TMPDIR": "/var/tmp", "LC_CTYPE": "C", "EDITOR": "vi"})
    assert env == {"PATH": "/bin", "TMPDIR": "/tmp", "LC_CTYPE": "C"}


@given(chunks=st.lists(st.binary(max_size=5000), max_size=40), limit=st.integers(0, 20000))
@settings(max_examples=200, deadline=None)
def test_output_cap_keeps_head_and_tail_exactly(chunks, limit):
    cap = OutputCap(limit)
    live = b"".join(cap.feed(c) for c in chunks)
    whole = b"".join(chunks)
    assert len(cap.head) + len(cap.tail) <= limit
    if len(whole) <= limit:
        assert not cap.truncated and cap.value() == whole and live + cap.rest() == whole
    else:
        assert cap.truncated
        assert cap.value().startswith(whole[: cap.head_limit])
        assert cap.value().endswith(whole[len(whole) - cap.tail_limit :] if cap.tail_limit else b"")
        assert cap.omitted == len(whole) - cap.head_limit - cap.tail_limit
        assert live + cap.rest() == cap.value()


def test_cap_marker_counts_bytes():
    cap = OutputCap(8)
    cap.feed(b"abcdefghijklmnop")
    assert cap.value() == b"abcdef\n[bastion: output truncated: 8 bytes omitted]\nop"


@pytest.mark.skipif(landlock.abi() == 0, reason="needs Landlock to fall back to")
def test_a_broken_bubblewrap_falls_back_to_landlock_and_says_so(monkeypatch, world, tmp_path):
    from bastion.sandbox import bwrap

    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(bwrap, "find", lambda: str(fake))
    import io

    stream = io.StringIO()
    result = world.sandbox("auto", warn=stream).run("echo ran", cwd=str(world.project))
    assert result.stdout == "ran\n" and result.enforced["backend"] == "landlock"
    assert result.enforced["missing"] == [
        "bubblewrap failed: bwrap: No permissions to create a new namespace",
        "bubblewrap could not start here; used landlock instead",
    ]
    assert "bastion: sandbox enforced less: bubblewrap failed" in stream.getvalue()


def test_a_broken_bubblewrap_that_was_asked_for_is_an_error(monkeypatch, world, tmp_path):
    from bastion.sandbox import SandboxError, bwrap

    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(bwrap, "find", lambda: str(fake))
    with pytest.raises(SandboxError, match="bubblewrap could not start a sandbox: bwrap: setting up uid map"):
        world.sandbox("bwrap").run("echo ran", cwd=str(world.project))


def test_runner_never_runs_without_confinement(monkeypatch, world):
    from bastion.sandbox import SandboxUnavailable, bwrap, landlock

    monkeypatch.setattr(bwrap, "find", lambda: None)
    monkeypatch.setattr(landlock, "abi", lambda: 0)
    marker = world.project / "ran"
    with pytest.raises(SandboxUnavailable):
        world.sandbox("auto").run(f"touch {marker}", cwd=str(world.project))
    assert not marker.exists()
    assert os.path.exists(world.project)


def _cgroups_or_skip(limits: Limits) -> None:
    group, why = RunCgroup.create(limits)
    if group is None:
        pytest.skip(f"cgroups are not writable on this machine: {why}")
    group.remove()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fork_bomb_meets_the_process_limit(world, backend):
    _cgroups_or_skip(Limits(processes=32))
    result = world.sandbox(backend, limits=Limits(processes=32)).run(
        "for i in $(seq 200); do sleep 5 & done; wait", cwd=str(world.project), timeout=20
    )
    assert result.exit_code != 0
    assert "fork" in result.stderr.lower() or "resource temporarily unavailable" in result.stderr.lower()
    assert {"kind": "limit", "target": "processes",
            "detail": "the run reached its limit of 32 processes and threads"} in result.violations
    assert result.enforced["cgroup_limits"] == {"processes": 32}
    assert "bastion: sandbox limit hit: the run reached its limit of 32 processes and threads" in result.notes()


@pytest.mark.parametrize("backend", BACKENDS)
def test_memory_beyond_the_limit_is_killed_and_reported(world, backend):
    _cgroups_or_skip(Limits(memory_mb=64))
    script = "x = bytearray(400 << 20); print(len(x))"
    result = world.sandbox(backend, limits=Limits(memory_mb=64)).run(
        [sys.executable, "-c", script], cwd=str(world.project), timeout=30
    )
    assert result.exit_code == 128 + 9, result.stderr  # SIGKILL from the kernel's OOM killer
    assert any(v["kind"] == "limit" and v["target"] == "memory" for v in result.violations)
    # the same program with room to spare runs normally
    fine = world.sandbox(backend, limits=Limits(memory_mb=1024)).run(
        [sys.executable, "-c", script], cwd=str(world.project), timeout=30
    )
    assert fine.exit_code == 0 and fine.stdout.strip() == str(400 << 20)


@pytest.mark.parametrize("backend", BACKENDS)
def test_limits_are_opt_in_and_a_run_leaves_no_cgroup_behind(world, backend):
    _cgroups_or_skip(Limits(processes=64))
    before = _bastion_cgroups()
    plain = world.sandbox(backend).run("true", cwd=str(world.project))
    assert plain.exit_code == 0 and "cgroup_limits" not in plain.enforced
    limited = world.sandbox(backend, limits=Limits(processes=64, cpus=0.5)).run("true", cwd=str(world.project))
    assert limited.exit_code == 0
    assert limited.enforced["cgroup_limits"] == {"processes": 64, "cpus": 0.5}
    assert _bastion_cgroups() == before


def _bastion_cgroups() -> set[str]:
    found = set()
    for root, dirs, _files in os.walk("/sys/fs/cgroup"):
        found.update(os.path.join(root, d) for d in dirs if d.startswith("bastion-run-"))
        if root.count("/") > 6:
            dirs.clear()
    return found


def test_a_cgroup_that_cannot_be_made_in_full_leaves_nothing_behind(monkeypatch):
    _cgroups_or_skip(Limits(processes=64, memory_mb=256, cpus=1.0))
    before = _bastion_cgroups()
    real_mkdir = Path.mkdir
    made: list[Path] = []

    def second_fails(self: Path, *args, **kwargs) -> None:
        if self.name.startswith("bastion-run-") and made:
            raise PermissionError(13, "Permission denied")
        real_mkdir(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(Path, "mkdir", second_fails)
    group, why = RunCgroup.create(Limits(processes=64, memory_mb=256, cpus=1.0))
    assert group is None and "not writable" in why
    assert made and _bastion_cgroups() == before


@pytest.mark.parametrize("bad", [{"processes": 2}, {"memory_mb": 0}, {"cpus": -1.0}])
def test_limits_too_small_to_start_a_sandbox_are_refused(bad):
    with pytest.raises(ValueError):
        Limits(**bad)
