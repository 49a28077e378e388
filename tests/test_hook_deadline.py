"""The hook answers within its deadline, and one slow project never holds up another.

A call is made slow the way a hung file system would: the test holds the lock of the
call's session state file, so the decision cannot finish until the test lets go. No
test asserts a duration: the deadline shows in who answered (the fail-closed answer that
names the deadline, never the call's own decision), and the server's independence in the
order the answers arrive (an unrelated project is answered while the held one is not).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import bastion.hook as transport
from bastion import state
from bastion.hook import client as hookc, server as hookd
from conftest import throwaway_workspace
from test_settings_bounds import the_issue_file

EVENT = {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
SHELL = {"claude-code": "Bash", "codex": "Bash", "gemini": "run_shell_command"}
LATE = "within its 1 s deadline"


def payload(client: str, project: str, command: str = "ls", session: str = "s-1", mode: str = "default") -> bytes:
    data: dict[str, Any] = {"session_id": session, "hook_event_name": EVENT[client], "tool_name": SHELL[client],
                            "tool_input": {"command": command}, "cwd": project}
    if client != "gemini":
        data["permission_mode"] = mode
    return json.dumps(data).encode()


@contextlib.contextmanager
def held(session: str, env: dict[str, str]) -> Iterator[Path]:
    """Hold the lock of a session's state file: a call of that session cannot finish."""
    path = Path(str(state.session_file(session, env)) + ".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield path
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def blocked_on(lock: Path, call: socket.socket) -> None:
    """Wait until some process waits for ``lock`` (Linux lists waiters in /proc/locks
    with ``->``): the held ``call`` is then inside its decision, not still in a queue."""
    locks = Path("/proc/locks")
    if not locks.exists():
        pytest.skip("needs /proc/locks to see that a call is held")
    inode = f":{lock.stat().st_ino} "
    deadline = time.monotonic() + 60
    while not any("->" in line and inode in line for line in locks.read_text().splitlines()):
        if answered(call):  # handed back (Stale), or answered without waiting: the test is wrong
            raise AssertionError(f"the held call was answered: {answer(call)}")
        assert time.monotonic() < deadline, "the held call never reached its lock"
        time.sleep(0.02)


def hook(client: str, raw: bytes, env: dict[str, str], cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bastion", "hook", client], input=raw, capture_output=True,
                          env=env, cwd=cwd, timeout=120, check=False)


def claude_decision(stdout: bytes) -> tuple[str, str]:
    out = json.loads(stdout)["hookSpecificOutput"]
    return out["permissionDecision"], out.get("permissionDecisionReason", "")


def fail_closed(client: str, reply: tuple[int, bytes, bytes], mode: str = "default") -> None:
    """The client's own fail-closed answer for a late call, and one line on stderr."""
    code, out, err = reply
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and LATE in lines[0], lines
    if client == "claude-code":
        verdict, reason = claude_decision(out)
        assert verdict == ("deny" if mode == "bypassPermissions" else "ask") and LATE in reason
        assert code == 0
    elif client == "codex":
        assert code == 2 and not out.strip()
    else:
        answer = json.loads(out)
        assert answer["decision"] == "deny" and LATE in answer["reason"] and code == 0


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[str, dict[str, str]]:
    project, env = throwaway_workspace(tmp_path)
    return project, {**env, "BASTION_HOOK_DEADLINE": "1"}


@pytest.fixture
def runtime() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bd-"))
    os.chmod(folder, 0o700)
    try:
        yield folder
    finally:
        hookd.stop_servers(str(folder))
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def test_the_deadline_is_one_setting_with_a_cap() -> None:
    assert transport.DEADLINE == 5.0 and transport.deadline_seconds({}) == transport.DEADLINE
    assert transport.deadline_seconds({"BASTION_HOOK_DEADLINE": "2.5"}) == 2.5
    for value in ("0", "-1", "nan", "soon", ""):
        assert transport.deadline_seconds({"BASTION_HOOK_DEADLINE": value}) == transport.DEADLINE
    for value in ("1e9", "inf"):  # never past the client's own hook timeout
        assert transport.deadline_seconds({"BASTION_HOOK_DEADLINE": value}) == transport.MAX_DEADLINE < 30


# --------------------------------------------------------------------------- in the hook's own process


@pytest.mark.parametrize("client", sorted(EVENT))
def test_in_process_a_late_call_gets_the_fail_closed_answer(client: str, workspace: tuple[str, dict[str, str]]) -> None:
    project, env = workspace
    env = {**env, "BASTION_HOOK_SERVER": "0"}
    with held("s-1", env):
        done = hook(client, payload(client, project), env, project)
    fail_closed(client, (done.returncode, done.stdout, done.stderr))
    assert b"Traceback" not in done.stderr


def test_in_process_nobody_to_ask_makes_the_late_answer_a_deny(workspace: tuple[str, dict[str, str]]) -> None:
    project, env = workspace
    env = {**env, "BASTION_HOOK_SERVER": "0"}
    with held("s-1", env):
        done = hook("claude-code", payload("claude-code", project, mode="bypassPermissions"), env, project)
    fail_closed("claude-code", (done.returncode, done.stdout, done.stderr), mode="bypassPermissions")


def test_in_process_a_call_in_time_is_decided_as_usual(workspace: tuple[str, dict[str, str]]) -> None:
    project, env = workspace
    env = {**env, "BASTION_HOOK_SERVER": "0", "BASTION_HOOK_DEADLINE": str(transport.MAX_DEADLINE)}  # a busy machine is not late
    done = hook("claude-code", payload("claude-code", project), env, project)
    assert claude_decision(done.stdout)[0] == "allow" and done.stderr == b""


# --------------------------------------------------------------------------- through the decision server


class Stale(Exception):
    """The server handed a call back or went away: bastion's code changed on disk while
    the test ran (others edit this tree), and a fresh server must be started."""


def retried(scenario: Callable[[], None]) -> None:
    """Run a server scenario, from a fresh server, until no code change interrupts it."""
    for _ in range(5):
        try:
            return scenario()
        except Stale:
            time.sleep(0.5)
    pytest.fail("bastion's code kept changing on disk: the server handed every try back")


def start(runtime: Path, env: dict[str, str]) -> str:
    path = hookc.socket_path({**env, "BASTION_RUNTIME_DIR": str(runtime)})
    hookc.start_server(path)
    deadline = time.monotonic() + 60
    while not os.path.exists(path):
        assert time.monotonic() < deadline, "the decision server did not start"
        time.sleep(0.05)
    return path


def send(path: str, client: str, raw: bytes, cwd: str, env: dict[str, str]) -> socket.socket:
    """Send one call to the server; the answer is read later (:func:`answer`)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(60)
    try:
        sock.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        sock.close()
        raise Stale() from None
    sock.sendall(hookc.encode_request(client, cwd, env, raw))
    sock.shutdown(socket.SHUT_WR)
    return sock


def answered(sock: socket.socket) -> bool:
    return bool(select.select([sock], [], [], 0)[0])


def answer(sock: socket.socket) -> tuple[int, bytes, bytes]:
    with sock:
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    reply = hookc.decode_reply(b"".join(chunks))
    if reply is None or reply[0] == hookc.STALE:
        raise Stale()
    return reply


@pytest.mark.parametrize("client", sorted(EVENT))
def test_through_the_server_a_late_call_gets_the_fail_closed_answer(client: str, workspace: tuple[str, dict[str, str]],
                                                                     runtime: Path) -> None:
    project, env = workspace

    def scenario() -> None:
        path = start(runtime, env)
        with held("s-1", env):
            reply = answer(send(path, client, payload(client, project), project, env))
        fail_closed(client, reply)

    retried(scenario)


def test_a_slow_project_never_holds_up_another(tmp_path: Path, runtime: Path) -> None:
    """Project A has the probe's 1 MB settings file and its call is held inside its
    decision; project B's call, sent after that, is answered — with its own decision —
    while A's is not; A then gets its own decision."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    slow, slow_env = throwaway_workspace(tmp_path / "a")
    quick, quick_env = throwaway_workspace(tmp_path / "b")
    Path(slow, ".bastion").mkdir()
    Path(slow, ".bastion", "settings.json").write_text(the_issue_file()[0])
    slow_env = {**slow_env, "BASTION_HOOK_DEADLINE": str(transport.MAX_DEADLINE)}  # A waits for the test, not the clock
    quick_env = {**quick_env, "BASTION_HOOK_DEADLINE": str(transport.MAX_DEADLINE)}  # B is answered on its merits

    def scenario() -> None:
        path = start(runtime, slow_env)
        with held("a", slow_env) as lock:
            first = send(path, "claude-code", payload("claude-code", slow, "x17", session="a"), slow, slow_env)
            blocked_on(lock, first)
            second = send(path, "claude-code", payload("claude-code", quick, "git status", session="b"), quick, quick_env)
            code, out, err = answer(second)
            assert code == 0 and claude_decision(out)[0] == "allow" and err == b""
            assert not answered(first)
        code, out, err = answer(first)
        verdict, reason = claude_decision(out)
        assert verdict == "deny" and "Bash(x17)" in reason  # its own decision, from a rule of the huge file
        assert b"more than the 5000 a settings file may hold" in err

    retried(scenario)


def test_calls_of_one_project_take_turns(workspace: tuple[str, dict[str, str]], runtime: Path) -> None:
    """A second call of a project whose first call is held waits for its turn; past its
    deadline it is answered fail-closed — never decided alongside."""
    project, env = workspace
    long_env = {**env, "BASTION_HOOK_DEADLINE": str(transport.MAX_DEADLINE)}

    def scenario() -> None:
        path = start(runtime, env)
        with held("first", env) as lock:
            first = send(path, "claude-code", payload("claude-code", project, session="first"), project, long_env)
            blocked_on(lock, first)  # the first call has its project's turn
            second = send(path, "claude-code", payload("claude-code", project, session="second"), project, env)
            fail_closed("claude-code", answer(second))
            assert not answered(first)
        assert claude_decision(answer(first)[1])[0] == "allow"

    retried(scenario)


def test_the_client_answers_itself_when_the_server_does_not(workspace: tuple[str, dict[str, str]], runtime: Path) -> None:
    """A server that takes the call and never answers: the thin client gives the
    fail-closed answer at the deadline, rather than starting over in its own process."""
    project, env = workspace
    env = {**env, "BASTION_RUNTIME_DIR": str(runtime)}
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with mute:
        mute.bind(hookc.socket_path(env))
        mute.listen(4)  # connections queue, nobody accepts them
        done = hook("claude-code", payload("claude-code", project), env, project)
    fail_closed("claude-code", (done.returncode, done.stdout, done.stderr))
