"""Settings kept by the warm decision server while their files are unchanged (``policy.cache``).

A kept Policy must never outlive a change: an edit, a new or removed file, a guard
plugin edited in place, or another project's or caller's settings. An unchanged second
load reads no file at all (only stats).
"""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.hook import client as hookc, server as hookd
from bastion.policy import settings
from bastion.policy.cache import PolicyCache, identity

PAST = time.time() - 3600


@pytest.fixture
def cache() -> Iterator[PolicyCache]:
    """The server's cache, turned on for one test and off afterwards."""
    settings.cache_policies(False)
    kept = settings.cache_policies()
    assert kept is not None
    try:
        yield kept
    finally:
        settings.cache_policies(False)


def _write(path: Path, data: dict, *, when: float | None = PAST) -> None:
    """Write settings; ``when``: their mtime (in the past, so the cache may keep them)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    if when is not None:
        os.utime(path, (when, when))


def _rules(policy: settings.Policy) -> list[str]:
    return [f"{rule.behavior}:{rule.text}" for rule in policy.rules]


class _Reads:
    """Counts files opened for reading (``open`` and ``os.open``) while active."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        real_open, real_os_open = builtins.open, os.open

        def counting_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.paths.append(str(file))
            return real_open(file, *args, **kwargs)

        def counting_os_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.paths.append(str(path))
            return real_os_open(path, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", counting_open)
        monkeypatch.setattr(os, "open", counting_os_open)


def _settings_everywhere(project: Path, env: dict[str, str]) -> None:
    _write(Path(env["BASTION_CONFIG_DIR"]) / "settings.json", {"permissions": {"deny": ["Bash(curl:*)"]}})
    _write(project / ".bastion" / "settings.json", {"permissions": {"ask": ["Bash(make:*)"]}})
    _write(project / ".claude" / "settings.local.json", {"permissions": {"deny": ["Read(./secret)"]}})
    _write(Path(env["HOME"]) / ".claude" / "settings.json", {"permissions": {"deny": ["Bash(nc:*)"]}})


def test_unchanged_second_load_reads_no_file(project: Path, bastion_env: dict[str, str], cache: PolicyCache,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _settings_everywhere(project, bastion_env)
    first = settings.load_policy(str(project))
    assert "deny:Bash(curl:*)" in _rules(first) and "deny:Read(./secret)" in _rules(first)
    reads = _Reads(monkeypatch)
    second = settings.load_policy(str(project / "src"))  # a sub-folder of the same project
    monkeypatch.undo()
    assert reads.paths == []
    assert second is first and (cache.loads, cache.hits) == (1, 1)


def test_the_cache_off_reads_every_time(project: Path, bastion_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    settings.cache_policies(False)
    _settings_everywhere(project, bastion_env)
    settings.load_policy(str(project))
    reads = _Reads(monkeypatch)
    settings.load_policy(str(project))
    monkeypatch.undo()
    assert len(reads.paths) >= 4  # a library user or one-shot hook: every file, every time


@pytest.mark.parametrize("change", ["edit same size", "edit", "replace", "delete", "create", "chmod"])
def test_any_change_to_a_settings_file_reloads(project: Path, bastion_env: dict[str, str], cache: PolicyCache,
                                               change: str) -> None:
    local = project / ".bastion" / "settings.local.json"
    if change != "create":
        _write(local, {"permissions": {"deny": ["Bash(aaa:*)"]}})
    before = settings.load_policy(str(project))
    if change == "edit same size":  # in place, same size, and even the same mtime: the inode's ctime moves
        local.write_text(json.dumps({"permissions": {"deny": ["Bash(bbb:*)"]}}))
        os.utime(local, (PAST, PAST))
    elif change == "edit":
        local.write_text(json.dumps({"permissions": {"deny": ["Bash(bbbb:*)"]}}))
    elif change == "replace":  # an editor's atomic save: a new inode
        fresh = local.with_suffix(".tmp")
        _write(fresh, {"permissions": {"deny": ["Bash(bbb:*)"]}})
        os.replace(fresh, local)
    elif change == "delete":
        local.unlink()
    elif change == "create":
        _write(local, {"permissions": {"deny": ["Bash(bbb:*)"]}})
    elif change == "chmod":
        local.chmod(0)
    after = settings.load_policy(str(project))
    assert after is not before and cache.loads == 2
    if change == "chmod":
        assert any("cannot read settings" in error for error in after.errors) or os.getuid() == 0
    elif change == "delete":
        assert "deny:Bash(aaa:*)" not in _rules(after)
    else:
        assert "deny:Bash(bbb:*)" in _rules(after) or "deny:Bash(bbbb:*)" in _rules(after)


def test_trust_and_guard_plugins_are_watched(project: Path, bastion_env: dict[str, str], cache: PolicyCache) -> None:
    _write(project / ".bastion" / "settings.json", {"permissions": {"allow": ["Bash(make:*)"]}})
    untrusted = settings.load_policy(str(project))
    assert "allow:Bash(make:*)" not in _rules(untrusted)
    settings.trust(project)
    trusted = settings.load_policy(str(project))
    assert "allow:Bash(make:*)" in _rules(trusted)

    trust_list = Path(bastion_env["BASTION_STATE_DIR"]) / "trusted.json"
    os.utime(trust_list, (PAST, PAST))  # kept from here on: nothing was changed just now
    guard = Path(bastion_env["BASTION_CONFIG_DIR"]) / "guards" / "g.yaml"
    guard.parent.mkdir(parents=True, exist_ok=True)
    guard.write_text('id: g1\ntool: Bash\npatterns:\n  - match: "frob"\n    verdict: deny\n    reason: "no"\n')
    os.utime(guard, (PAST, PAST))
    os.utime(guard.parent, (PAST, PAST))
    with_guard = settings.load_policy(str(project))
    assert with_guard is not trusted and [g.id for g in with_guard.plugins] == ["g1"]
    assert settings.load_policy(str(project)) is with_guard
    guard.write_text(guard.read_text().replace("g1", "g2"))  # in place: its folder does not change
    os.utime(guard, (PAST + 1, PAST + 1))
    os.utime(guard.parent, (PAST, PAST))
    edited = settings.load_policy(str(project))
    assert edited is not with_guard and [g.id for g in edited.plugins] == ["g2"]


def test_recently_changed_files_are_not_kept(project: Path, bastion_env: dict[str, str], cache: PolicyCache) -> None:
    """Changed within the timestamp granularity, a file may change again without a new mtime."""
    _write(project / ".bastion" / "settings.json", {"permissions": {"deny": ["Bash(x:*)"]}}, when=None)
    settings.load_policy(str(project))
    settings.load_policy(str(project))
    assert cache.loads == 2 and cache.hits == 0


def test_projects_and_callers_never_share_settings(tmp_path: Path, bastion_env: dict[str, str], cache: PolicyCache) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    _write(one / ".bastion" / "settings.json", {"permissions": {"deny": ["Bash(one:*)"]}})
    _write(two / ".bastion" / "settings.json", {"permissions": {"deny": ["Bash(two:*)"]}})
    assert _rules(settings.load_policy(str(one))) == ["deny:Bash(one:*)"]
    assert _rules(settings.load_policy(str(two))) == ["deny:Bash(two:*)"]
    other_config = tmp_path / "other-config"
    _write(other_config / "settings.json", {"permissions": {"deny": ["Bash(other:*)"]}})
    env = {**bastion_env, "BASTION_CONFIG_DIR": str(other_config)}
    assert "deny:Bash(other:*)" in _rules(settings.load_policy(str(one), env=env))
    assert "deny:Bash(other:*)" not in _rules(settings.load_policy(str(one)))
    assert _rules(settings.load_policy(str(one), isolated=True)) == []


def test_threads_get_their_own_projects(tmp_path: Path, bastion_env: dict[str, str], cache: PolicyCache) -> None:
    roots = [tmp_path / f"p{i}" for i in range(8)]
    for i, root in enumerate(roots):
        _write(root / ".bastion" / "settings.json", {"permissions": {"deny": [f"Bash(p{i}:*)"]}})
    wrong: list[str] = []

    def work(i: int) -> None:
        for _ in range(20):
            if _rules(settings.load_policy(str(roots[i]))) != [f"deny:Bash(p{i}:*)"]:
                wrong.append(str(i))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(roots))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_identity_tells_absence_and_change(tmp_path: Path) -> None:
    path = tmp_path / "f"
    assert identity(str(path)) == ("absent",)
    assert identity(str(path / "below")) == ("absent",)
    path.write_text("a")
    first = identity(str(path))
    path.write_text("ab")
    assert identity(str(path)) != first


# --------------------------------------------------------------------------- the real server


@pytest.fixture
def runtime() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bh-"))
    os.chmod(folder, 0o700)
    try:
        yield folder
    finally:
        hookd.stop_servers(str(folder))
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def _hook(project: Path, env: dict[str, str]) -> str:
    text = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "frobnicate --all"},
                       "cwd": str(project), "session_id": "s", "permission_mode": "default"})
    done = subprocess.run([sys.executable, "-I", "-m", "bastion", "hook", "claude-code"], input=text,
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    return json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"]


def test_the_server_sees_an_edited_settings_file(project: Path, bastion_env: dict[str, str], runtime: Path) -> None:
    env = {**bastion_env, "BASTION_RUNTIME_DIR": str(runtime)}
    settings.trust(project)
    local = project / ".bastion" / "settings.local.json"
    _write(local, {"permissions": {"allow": ["Bash(frobnicate:*)"]}})
    assert _hook(project, env) == "allow"  # decided in-process; a server is started
    path = hookc.socket_path(env)
    deadline = time.monotonic() + 30
    while not os.path.exists(path):
        assert time.monotonic() < deadline, "the decision server did not start"
        time.sleep(0.05)
    assert _hook(project, env) == "allow"  # the server, which now keeps these settings
    assert _hook(project, env) == "allow"
    local.write_text(json.dumps({"permissions": {"deny": ["Bash(frobnicate:*)"]}}))
    assert _hook(project, env) == "deny"
    local.unlink()
    assert _hook(project, env) == "ask"


def test_the_server_turns_the_cache_on_and_answers_from_it(project: Path, bastion_env: dict[str, str],
                                                          cache: PolicyCache) -> None:
    """``hook.server.answer`` (what each server thread runs) through the kept settings."""
    settings.trust(project)
    trust_list = Path(bastion_env["BASTION_STATE_DIR"]) / "trusted.json"
    os.utime(trust_list, (PAST, PAST))
    local = project / ".bastion" / "settings.local.json"
    _write(local, {"permissions": {"allow": ["Bash(frobnicate:*)"]}})
    text = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "frobnicate"},
                       "cwd": str(project), "session_id": "s", "permission_mode": "default"}).encode()
    data = hookc.encode_request("claude-code", str(project), bastion_env, text)

    def verdict() -> str:
        _code, out, _err = hookc.decode_reply(hookd.answer(data))  # type: ignore[misc]
        return json.loads(out)["hookSpecificOutput"]["permissionDecision"]

    assert [verdict(), verdict(), verdict()] == ["allow"] * 3
    assert cache.loads == 1 and cache.hits >= 2
    _write(local, {"permissions": {"deny": ["Bash(frobnicate:*)"]}}, when=PAST + 5)
    assert verdict() == "deny" and cache.loads == 2
