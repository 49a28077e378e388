"""Bounded cost of settings: reading is linear in a file's size, a file over the byte or
rule limit grants nothing (its deny and ask rules are kept as far as read), and the hook
answers within its deadline — in its own process and through the decision server.

No test here asserts a duration: linear reading is shown by counting how often a file's
text is scanned, the deadline by who answered (a held call gets the fail-closed answer,
never its own), and the server's independence by the order of the answers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bastion.engine import Guard
from bastion.model import Mode, ToolCall, Verdict
from bastion.policy import settings as S
from bastion.policy.settings import (
    MAX_PATTERNS_PER_FILE,
    MAX_RULES_PER_FILE,
    MAX_SETTINGS_BYTES,
    load_policy,
)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "BASTION_CONFIG_DIR": str(tmp_path / "config"),
        "BASTION_STATE_DIR": str(tmp_path / "state"),
        "BASTION_MANAGED_SETTINGS": str(tmp_path / "managed" / "managed-settings.json"),
        "BASTION_AUDIT": "0",
    }


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    return project


def put(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def project_file(root: Path) -> Path:
    return root / ".bastion" / "settings.json"


def texts(policy: S.Policy, behavior: str) -> list[str]:
    return [rule.text for rule in policy.rules_for(behavior)]


class Counting:
    """A compiled pattern that counts its ``finditer`` calls (one call = one scan)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.scans = pattern, 0

    def finditer(self, *args: Any) -> Any:
        self.scans += 1
        return self.pattern.finditer(*args)


def the_issue_file(limit: int = MAX_SETTINGS_BYTES) -> tuple[str, int]:
    """The probe's file: one megabyte of deny rules, compact JSON (about 63,000 rules)."""
    rules: list[str] = []
    size = len('{"permissions":{"deny":[]}}')
    while True:
        rule = f"Bash(x{len(rules)})"
        if size + len(rule) + 3 > limit:
            break
        rules.append(rule)
        size += len(rule) + 3
    return json.dumps({"permissions": {"deny": rules}}, separators=(",", ":")), len(rules)


# --------------------------------------------------------------------------- reading is linear


def test_positions_are_found_with_one_scan_however_many_rules_are_wrong(root: Path, env: dict[str, str],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    counter = Counting(S._TOKENS)
    monkeypatch.setattr(S, "_TOKENS", counter)
    lines = ['{"permissions": {"deny": [']
    lines += [f'  "Bash(oops{i}",' for i in range(2000)]
    lines += ['  "Bash(rm:*)"', "]}}"]
    path = put(project_file(root), "\n".join(lines))
    policy = load_policy(str(root), env=env)
    assert texts(policy, "deny") == ["Bash(rm:*)"]
    assert len(policy.errors) == 2000
    assert policy.errors[0].startswith(f"{path}:2:3: permissions.deny[0]: invalid rule 'Bash(oops0'")
    assert policy.errors[1999].startswith(f"{path}:2001:3: permissions.deny[1999]:")
    assert counter.scans == 1


def test_a_file_without_errors_is_never_scanned_for_positions(root: Path, env: dict[str, str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    counter = Counting(S._TOKENS)
    monkeypatch.setattr(S, "_TOKENS", counter)
    put(project_file(root), json.dumps({"permissions": {"deny": [f"Read(/r{i})" for i in range(3000)],
                                                        "defaultMode": "plan"}, "files": {"protected": [".x"]}}))
    policy = load_policy(str(root), env=env)
    assert policy.errors == () and len(texts(policy, "deny")) == 3000
    assert counter.scans == 0


def test_positions_skip_comments_and_point_at_the_literal(root: Path, env: dict[str, str]) -> None:
    path = put(project_file(root), '{\n // "Frob" in a comment\n "permissions": {"deny": ["Bahs", "Bash(rm:*)"],}\n}')
    (error,) = load_policy(str(root), env=env).errors[1:]  # the first says it was read leniently
    assert error.startswith(f"{path}:3:27: permissions.deny[0]: invalid rule 'Bahs'")


def test_the_probe_file_loads_and_its_first_deny_rules_hold(root: Path, env: dict[str, str]) -> None:
    text, count = the_issue_file()
    assert count > 60_000 and len(text) <= MAX_SETTINGS_BYTES
    path = put(project_file(root), text)
    guard = Guard.from_settings(str(root), env=env)
    (error,) = guard.policy.errors
    assert error == (f"{path}: {count} rules, more than the {MAX_RULES_PER_FILE} a settings file may hold; "
                     f"only its first {MAX_RULES_PER_FILE} deny and ask rules are used")
    assert len(guard.policy.rules_for("deny")) == MAX_RULES_PER_FILE
    assert guard.check(ToolCall(tool="Bash", input={"command": "x17"}, cwd=str(root))).verdict is Verdict.DENY
    assert guard.check(ToolCall(tool="Bash", input={"command": "ls"}, cwd=str(root))).verdict is Verdict.ALLOW


# --------------------------------------------------------------------------- the limits


def test_too_many_rules_drop_every_allow_and_keep_deny_then_ask(root: Path, env: dict[str, str]) -> None:
    S.trust(root, env)  # even a trusted file grants nothing once it is over the limit
    deny = [f"Bash(d{i})" for i in range(MAX_RULES_PER_FILE - 10)]
    ask = [f"Bash(a{i})" for i in range(20)]
    data = {"permissions": {"allow": ["Bash(ls)", "Read"], "deny": deny, "ask": ask, "defaultMode": "bypassPermissions"},
            "sandbox": {"enabled": False}}
    path = put(project_file(root), json.dumps(data))
    policy = load_policy(str(root), env=env)
    (error,) = policy.errors
    assert error.startswith(f"{path}: {MAX_RULES_PER_FILE + 12} rules, more than the {MAX_RULES_PER_FILE}")
    assert texts(policy, "allow") == [] and policy.default_mode is None and "sandbox" not in policy.sections
    assert texts(policy, "deny") == deny and texts(policy, "ask") == ask[:10]


def test_too_many_file_patterns_keep_the_first_and_grant_nothing(root: Path, env: dict[str, str]) -> None:
    S.trust(root, env)
    protected = [f"dir{i}/**" for i in range(MAX_PATTERNS_PER_FILE - 1)]
    data = {"permissions": {"allow": ["Bash(ls)"], "deny": ["Bash(rm:*)"], "additionalDirectories": ["/"]},
            "files": {"protected": protected, "credentials": ["a.key", "b.key"]}}
    path = put(project_file(root), json.dumps(data))
    policy = load_policy(str(root), env=env)
    (error,) = policy.errors
    assert error == (f"{path}: {MAX_PATTERNS_PER_FILE + 1} patterns in 'files', more than the {MAX_PATTERNS_PER_FILE} "
                     f"a settings file may hold; only its first {MAX_PATTERNS_PER_FILE} patterns and its deny and ask "
                     "rules are used")
    assert texts(policy, "allow") == [] and texts(policy, "deny") == ["Bash(rm:*)"]
    assert policy.additional_directories == ()
    assert policy.section("files") == {"protected": protected, "credentials": ["a.key"]}


def test_a_file_at_the_limit_is_read_in_full(root: Path, env: dict[str, str]) -> None:
    S.trust(root, env)
    deny = [f"Bash(d{i})" for i in range(MAX_RULES_PER_FILE - 1)]
    put(project_file(root), json.dumps({"permissions": {"allow": ["Bash(ls)"], "deny": deny, "defaultMode": "plan"}}))
    policy = load_policy(str(root), env=env)
    assert policy.errors == ()
    assert texts(policy, "allow") == ["Bash(ls)"] and policy.default_mode is Mode.PLAN


def test_an_oversized_file_keeps_the_deny_and_ask_rules_read_and_grants_nothing(root: Path, env: dict[str, str]) -> None:
    S.trust(root, env)
    head = '{"permissions": {"defaultMode": "bypassPermissions", "allow": ["Bash", "Write"],\n "deny": ["Bash(rm:*)", '
    filler = ", ".join(f'"Read(/secret/{i})"' for i in range(MAX_SETTINGS_BYTES // 20))
    path = put(project_file(root), head + filler + '],\n "ask": ["Bash(git push:*)"]}}')
    assert path.stat().st_size > MAX_SETTINGS_BYTES
    policy = load_policy(str(root), env=env)
    assert policy.errors[0] == (f"{path}: larger than {MAX_SETTINGS_BYTES} bytes, the limit for a settings file; "
                                "only the deny and ask rules read from it are used")
    deny = texts(policy, "deny")
    assert deny[:2] == ["Bash(rm:*)", "Read(/secret/0)"] and len(deny) <= MAX_RULES_PER_FILE
    assert texts(policy, "allow") == [] and texts(policy, "ask") == [] and policy.default_mode is None
    guard = Guard.from_settings(str(root), env=env)
    call = ToolCall(tool="Bash", input={"command": "rm -rf build"}, cwd=str(root), mode=Mode.BYPASS)
    assert guard.check(call).verdict is Verdict.DENY


def test_a_cut_off_file_keeps_the_deny_rules_it_still_has(root: Path, env: dict[str, str]) -> None:
    text = '{"permissions": {"allow": ["Bash"], "deny": ["Bash(rm:*)", {"rule": "Read(./.env)", "match": ["x"]}, "Bash(dd'
    path = put(project_file(root), text)
    policy = load_policy(str(root), env=env)
    assert policy.errors[0].startswith(f"{path}:1:") and "only its deny and ask rules" in policy.errors[0]
    assert texts(policy, "deny") == ["Bash(rm:*)", "Read(./.env)"] and texts(policy, "allow") == []


def test_a_file_that_is_not_utf8_keeps_its_deny_rules(root: Path, env: dict[str, str]) -> None:
    path = project_file(root)
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"permissions": {"allow": ["Bash"], "deny": ["Bash(rm:*)"], "ask": ["Write(\xff)"]}}')
    policy = load_policy(str(root), env=env)
    assert policy.errors[0].startswith(f"{path}: not UTF-8")
    assert texts(policy, "deny") == ["Bash(rm:*)"] and texts(policy, "allow") == []


def test_salvage_resumes_after_each_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of unterminated lists: each is scanned once, from where the last ended."""
    counter = Counting(S._LIST_TOKENS)
    monkeypatch.setattr(S, "_LIST_TOKENS", counter)
    raw = '{"deny": ["Bash(rm:*)", ' + '"deny": [' * 20_000  # every later list lies inside the first
    assert S._salvage_rules(raw) == {"permissions": {"deny": ["Bash(rm:*)", "deny"]}}
    assert counter.scans == 1
    raw = '{"deny": ["a"], "ask": ["b"], "deny": ["c"]}'
    assert S._salvage_rules(raw) == {"permissions": {"deny": ["a", "c"], "ask": ["b"]}}
    assert counter.scans == 4


def test_the_limits_live_in_one_place() -> None:
    assert (MAX_SETTINGS_BYTES, MAX_RULES_PER_FILE, MAX_PATTERNS_PER_FILE) == (1 << 20, 5000, 1000)
    source = Path(S.__file__).read_text()
    for name in ("MAX_SETTINGS_BYTES", "MAX_RULES_PER_FILE", "MAX_PATTERNS_PER_FILE"):
        assert source.count(f"{name} =") == 1
