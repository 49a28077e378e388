"""Grants: keys, session grants and "always" rules, including real concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from bastion import state
from bastion.model import ToolCall
from bastion.policy.grants import (
    SettingsWriteError,
    add_session_grant,
    grant_key,
    save_always_rule,
    session_grants,
)
from bastion.policy.rules import RuleError
from bastion.policy.settings import load_policy


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        "HOME": str(home),
        "BASTION_CONFIG_DIR": str(tmp_path / "config"),
        "BASTION_STATE_DIR": str(tmp_path / "state"),
        "BASTION_MANAGED_SETTINGS": str(tmp_path / "managed.json"),
    }


KEYS = [
    (ToolCall("Bash", {"command": "npm   test\t--ci"}), None, "Bash:npm test --ci"),
    (ToolCall("run_shell_command", {"command": " ls -la "}), None, "Bash:ls -la"),
    (ToolCall("shell", {"command": ["git", "status"]}), None, "Bash:git status"),
    (ToolCall("Bash", {"command": "ignored"}), "git  log", "Bash:git log"),
    (ToolCall("Write", {"file_path": "/a"}), None, "Write:/a"),
    (ToolCall("write_file", {"file_path": "b/../a"}, cwd="/p"), None, "Write:/p/a"),
    (ToolCall("MultiEdit", {"file_path": "/a"}), None, "Edit:/a"),
    (ToolCall("WebFetch", {"url": "https://x"}), None, "WebFetch:https://x"),
    (ToolCall("TodoWrite", {}), None, "TodoWrite"),
    (ToolCall("mcp__github__create_issue", {}), None, "mcp__github__create_issue"),
]


@pytest.mark.parametrize("call,normalized,expected", KEYS)
def test_grant_key(call: ToolCall, normalized: str | None, expected: str) -> None:
    assert grant_key(call, normalized) == expected


# --------------------------------------------------------------------------- session grants


def test_session_grants_round_trip_and_keep_other_keys(env: dict[str, str]) -> None:
    assert session_grants("s1", env) == frozenset()
    path = state.session_file("s1", env)
    state.write_atomic(path, json.dumps({"denials": {"count": 2}, "grants": ["Write", 7]}))
    add_session_grant("s1", "Bash:npm test", env)
    add_session_grant("s1", "Bash:npm test", env)  # no duplicate
    add_session_grant("s1", "Edit", env)
    assert session_grants("s1", env) == frozenset({"Write", "Bash:npm test", "Edit"})
    data = json.loads(path.read_text())
    assert data["denials"] == {"count": 2}
    assert data["grants"] == ["Write", "Bash:npm test", "Edit"]
    assert session_grants("s2", env) == frozenset()  # sessions are separate


def test_corrupt_session_file_reads_as_no_grants(env: dict[str, str]) -> None:
    path = state.session_file("s", env)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert session_grants("s", env) == frozenset()
    path.write_text('{"grants": "Write"}')
    assert session_grants("s", env) == frozenset()


# --------------------------------------------------------------------------- always rules


def test_save_rule_creates_file_and_loads_back(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "proj" / ".bastion" / "settings.json"
    save_always_rule(target, "Bash(npm test:*)", examples=["npm test -- -x"], env=env)
    save_always_rule(target, "Read", env=env)
    save_always_rule(target, "Bash(rm -rf:*)", behavior="deny", env=env)
    data = json.loads(target.read_text())
    assert data == {
        "permissions": {
            "allow": [{"rule": "Bash(npm test:*)", "match": ["npm test -- -x"]}, "Read"],
            "deny": ["Bash(rm -rf:*)"],
        }
    }
    policy = load_policy(str(tmp_path / "proj"), env=env, isolated=True, extra_files=[str(target)])
    assert policy.errors == ()
    assert [r.text for r in policy.rules] == ["Bash(npm test:*)", "Read", "Bash(rm -rf:*)"]


def test_save_rule_keeps_everything_else_and_skips_duplicates(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "settings.json"
    original = {
        "sandbox": {"enabled": True},
        "permissions": {"allow": ["Glob", {"rule": "Bash(ls:*)", "match": ["ls -la"]}], "defaultMode": "plan"},
        "zzz": [1, 2],
    }
    target.write_text(json.dumps(original))
    save_always_rule(target, "Bash(ls:*)", env=env)  # present as an object
    save_always_rule(target, "Glob", examples=["Glob"], env=env)  # present as a string
    assert json.loads(target.read_text()) == original
    save_always_rule(target, "Bash(git status)", env=env)
    data = json.loads(target.read_text())
    assert list(data) == ["sandbox", "permissions", "zzz"]  # key order kept
    assert data["permissions"]["allow"][-1] == "Bash(git status)"
    assert data["permissions"]["defaultMode"] == "plan" and data["sandbox"] == {"enabled": True}


@pytest.mark.parametrize(
    "text,needle",
    [
        ('{"permissions": {"allow": ["Read"],}', "invalid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"permissions": ["Read"]}', "'permissions' is not an object"),
        ('{"permissions": {"allow": "Read"}}', "'permissions.allow' is not a list"),
    ],
)
def test_unusable_file_is_left_untouched(tmp_path: Path, env: dict[str, str], text: str, needle: str) -> None:
    folder = tmp_path / "cfg"
    folder.mkdir()
    target = folder / "settings.json"
    target.write_text(text)
    with pytest.raises(SettingsWriteError) as info:
        save_always_rule(target, "Bash(ls)", env=env)
    assert needle in str(info.value) and str(target) in str(info.value)
    assert target.read_text() == text
    assert sorted(p.name for p in folder.iterdir()) == ["settings.json", "settings.json.lock"]  # no temp file left


def test_invalid_json_error_has_position(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "settings.json"
    target.write_text('{\n  "a": 1\n  "b": 2\n}')
    with pytest.raises(SettingsWriteError, match=r"settings\.json:3:3: invalid JSON: Expecting ',' delimiter"):
        save_always_rule(target, "Read", env=env)


def test_bad_rules_are_refused_before_writing(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "settings.json"
    with pytest.raises(RuleError):
        save_always_rule(target, "Bash(oops", env=env)
    with pytest.raises(SettingsWriteError, match="does not match its own example 'npm publish'"):
        save_always_rule(target, "Bash(npm test:*)", examples=["npm publish"], env=env)
    with pytest.raises(SettingsWriteError, match="behavior"):
        save_always_rule(target, "Read", behavior="sometimes", env=env)
    assert not target.exists()


def test_path_examples_use_the_file_anchor(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "proj" / ".bastion" / "settings.local.json"
    save_always_rule(target, "Edit(/src/**)", examples=["src/app.py"], env=env)
    assert json.loads(target.read_text())["permissions"]["allow"] == [{"rule": "Edit(/src/**)", "match": ["src/app.py"]}]


# --------------------------------------------------------------------------- concurrency


def _save_rule_worker(target: str, index: int, barrier: Any, env: dict[str, str]) -> None:
    barrier.wait()
    save_always_rule(Path(target), f"Bash(tool{index} run:*)", examples=[f"tool{index} run --fast"], env=env)


def _session_worker(session: str, prefix: str, count: int, barrier: Any, env: dict[str, str]) -> None:
    barrier.wait()
    for i in range(count):
        add_session_grant(session, f"Bash:{prefix} {i}", env)


def _run_all(target: Any, args_list: list[tuple[Any, ...]]) -> None:
    """Start one real process per argument tuple (its last item is the env) and release
    them together through a barrier, so the writes truly overlap."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(len(args_list))
    procs = [ctx.Process(target=target, args=(*args[:-1], barrier, args[-1])) for args in args_list]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
    assert [proc.exitcode for proc in procs] == [0] * len(procs)


def test_eight_processes_saving_rules_at_once_lose_nothing(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "settings.json"
    target.write_text(json.dumps({"permissions": {"deny": ["Bash(rm:*)"]}, "audit": {"enabled": True}}))
    _run_all(_save_rule_worker, [(str(target), i, env) for i in range(8)])
    data = json.loads(target.read_text())
    rules = sorted(entry["rule"] for entry in data["permissions"]["allow"])
    assert rules == sorted(f"Bash(tool{i} run:*)" for i in range(8))
    assert data["permissions"]["deny"] == ["Bash(rm:*)"] and data["audit"] == {"enabled": True}


def test_session_grants_from_two_processes_are_both_kept(env: dict[str, str]) -> None:
    _run_all(_session_worker, [("shared", "a", 25, env), ("shared", "b", 25, env)])
    grants = session_grants("shared", env)
    assert grants == {f"Bash:a {i}" for i in range(25)} | {f"Bash:b {i}" for i in range(25)}
