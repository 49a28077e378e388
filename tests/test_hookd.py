"""The hook's fast path: the thin client (``hookc``) and the warm decision server (``hookd``).

The server must answer exactly what the in-process hook answers, under the caller's
environment; whenever it cannot, the client decides in-process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.hook import client as hookc, server as hookd


@pytest.fixture
def runtime() -> Iterator[Path]:
    """A short socket folder (socket paths are limited to ~100 bytes); servers stopped after."""
    folder = Path(tempfile.mkdtemp(prefix="bh-"))
    os.chmod(folder, 0o700)
    try:
        yield folder
    finally:
        hookd.stop_servers(str(folder))
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def _call(project: Path, tool: str = "Read", tool_input: dict | None = None) -> str:
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": tool,
                       "tool_input": tool_input or {"file_path": "src/app.py"},
                       "cwd": str(project), "session_id": "s", "permission_mode": "default"})


def _hook(text: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-m", "bastion", "hook", "claude-code"], input=text,
                          capture_output=True, text=True, env=env, timeout=60)


def _wait_for_socket(path: str) -> None:
    deadline = time.monotonic() + 30
    while not os.path.exists(path):
        assert time.monotonic() < deadline, "the decision server did not start"
        time.sleep(0.05)


def _audit(env: dict[str, str]) -> list[dict]:
    path = Path(env["BASTION_STATE_DIR"]) / "audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_request_round_trip() -> None:
    data = hookc.encode_request("codex", "/work/p", {"HOME": "/h", "X": "a=b\nc"}, b'{"x": 1}')
    assert hookd.parse_request(data) == ("codex", "/work/p", {"HOME": "/h", "X": "a=b\nc"}, b'{"x": 1}')


@pytest.mark.parametrize("data", [b"", b"garbage", b"bastion-hook/0 codex 3\nabc", b"bastion-hook/1 codex x\n"])
def test_unknown_requests_are_handed_back(data: bytes) -> None:
    assert hookc.decode_reply(hookd.answer(data))[0] == hookc.STALE


@pytest.mark.parametrize("data", [b"", b"x", b"0\n", b"0 5\nabc", b"a b\n"])
def test_malformed_replies_are_refused(data: bytes) -> None:
    assert hookc.decode_reply(data) is None


def test_server_answers_like_the_in_process_hook(project: Path, bastion_env: dict[str, str], runtime: Path) -> None:
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime)}
    text = _call(project)
    first = _hook(text, env)  # no server yet: decided here, and a server is started
    _wait_for_socket(hookc.socket_path(env))
    second = _hook(text, env)  # answered by the server
    alone = _hook(text, {**env, "BASTION_HOOK_SERVER": "0"})
    assert first.returncode == second.returncode == alone.returncode == 0
    assert first.stdout == second.stdout == alone.stdout
    assert json.loads(second.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert len(_audit(env)) == 3  # every path records the decision in the caller's audit log


def test_server_uses_each_callers_settings(project: Path, bastion_env: dict[str, str], runtime: Path, tmp_path: Path) -> None:
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime)}
    _hook(_call(project), env)
    _wait_for_socket(hookc.socket_path(env))
    strict_config = tmp_path / "strict"
    strict_config.mkdir()
    (strict_config / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Read"]}}))
    strict = _hook(_call(project), {**env, "BASTION_CONFIG_DIR": str(strict_config)})  # same state dir: same server
    relaxed = _hook(_call(project), env)
    assert json.loads(strict.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert json.loads(relaxed.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"


def test_shared_socket_folder_is_not_used(project: Path, bastion_env: dict[str, str], runtime: Path) -> None:
    os.chmod(runtime, 0o777)
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime)}
    done = _hook(_call(project), env)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert not any(runtime.iterdir())  # decided in-process; no server was started there


def test_a_dead_socket_falls_back(project: Path, bastion_env: dict[str, str], runtime: Path) -> None:
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime), "BASTION_HOOK_SERVER": "0"}
    path = hookc.socket_path(env)
    Path(path).write_text("not a socket")
    done = _hook(_call(project, "Write", {"file_path": "/etc/x", "content": "x"}), {**env, "BASTION_HOOK_SERVER": "1"})
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"


def test_changed_code_is_noticed(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("x = 1\n")
    files = {str(source): source.stat().st_mtime}
    assert not hookd._changed(files)
    os.utime(source, (0, 0))
    assert hookd._changed(files)
    source.unlink()
    assert hookd._changed(files)


def test_hook_client_imports_almost_nothing(project: Path, bastion_env: dict[str, str], runtime: Path) -> None:
    """The process that answers from the server never loads the engine or the CLI."""
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime)}
    _hook(_call(project), env)
    _wait_for_socket(hookc.socket_path(env))
    probe = (  # what is loaded when the process ends (``one_shot.finish`` runs the atexit handlers)
        "import atexit, sys, runpy\n"
        "atexit.register(lambda: print('LOADED', sorted(m for m in sys.modules if m.startswith('bastion')), file=sys.stderr))\n"
        "sys.argv = ['bastion', 'hook', 'claude-code']\n"
        "runpy.run_module('bastion', run_name='__main__')\n"
    )
    done = subprocess.run([sys.executable, "-I", "-c", probe], input=_call(project), capture_output=True, text=True,
                          env=env, timeout=60)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"
    # bastion.provenance imports only os: it checks that no project chose the server's socket;
    # bastion.early imports only os: the state folder's rule, which the socket's name depends on
    # bastion.one_shot imports only sys: how the one-shot process ends
    assert ("LOADED ['bastion', 'bastion.early', 'bastion.hook', 'bastion.hook.client', 'bastion.one_shot', "
            "'bastion.provenance']"
            in done.stderr)


def test_server_protects_each_callers_own_files(project: Path, bastion_env: dict[str, str], runtime: Path, tmp_path: Path) -> None:
    """bastion's own config folder is protected; the server must use the caller's, not its own."""
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime)}
    _hook(_call(project), env)
    _wait_for_socket(hookc.socket_path(env))
    other_config = tmp_path / "other-config"
    caller = {**env, "BASTION_CONFIG_DIR": str(other_config)}
    text = _call(project, "Write", {"file_path": str(other_config / "settings.json"), "content": "{}"})
    served = _hook(text, caller)
    alone = _hook(text, {**caller, "BASTION_HOOK_SERVER": "0"})
    assert served.stdout == alone.stdout
    assert json.loads(served.stdout)["hookSpecificOutput"]["permissionDecision"] != "allow"
