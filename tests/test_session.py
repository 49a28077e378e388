"""Grants, denial tracking and the audit log around a decision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion import state
from bastion.audit import log
from bastion.audit.log import audit_path
from bastion.engine import Guard
from bastion.model import ToolCall, Verdict
from bastion.session import GrantRefused, decide, grant


def guard_for(project: Path, env: dict[str, str]) -> Guard:
    return Guard.from_settings(str(project), isolated=True, env=env)


def test_session_grant_allows_the_same_command_again(project, bastion_env):
    guard = guard_for(project, bastion_env)
    call = ToolCall("Bash", {"command": "frobnicate   --all"}, cwd=str(project), session_id="s1")
    first = decide(guard, call)
    assert first.verdict is Verdict.ASK
    grant(call, first, "session", env=bastion_env)
    again = decide(guard_for(project, bastion_env), ToolCall("Bash", {"command": "frobnicate --all"}, cwd=str(project), session_id="s1"))
    assert again.verdict is Verdict.ALLOW and again.source.value == "user_temporary"
    other_session = decide(guard, ToolCall("Bash", {"command": "frobnicate --all"}, cwd=str(project), session_id="s2"))
    assert other_session.verdict is Verdict.ASK
    other_command = decide(guard, ToolCall("Bash", {"command": "frobnicate --none"}, cwd=str(project), session_id="s1"))
    assert other_command.verdict is Verdict.ASK


def test_destructive_calls_never_get_a_session_or_always_grant(project, bastion_env):
    guard = guard_for(project, bastion_env)
    call = ToolCall("Bash", {"command": "git push --force origin main"}, cwd=str(project), session_id="s1")
    decision = decide(guard, call)
    assert decision.verdict is Verdict.ASK
    assert decision.no_grant and decision.suggestions == []
    for scope in ("session", "always"):
        with pytest.raises(GrantRefused):
            grant(call, decision, scope, env=bastion_env)


def test_always_grant_saves_a_self_testing_rule(project, bastion_env, tmp_path):
    guard = guard_for(project, bastion_env)
    call = ToolCall("Bash", {"command": "frobnicate --all"}, cwd=str(project), session_id="s1")
    decision = decide(guard, call)
    target = tmp_path / "user-settings.json"
    grant(call, decision, "always", env=bastion_env, settings_file=target)
    saved = json.loads(target.read_text())
    entry = saved["permissions"]["allow"][0]
    assert entry["rule"] == "Bash(frobnicate:*)" and entry["match"] == ["frobnicate --all"]
    rechecked = Guard.from_settings(str(project), isolated=True, settings_files=[str(target)], env=bastion_env)
    assert rechecked.check(call).verdict is Verdict.ALLOW


def test_three_denials_in_a_row_interrupt(project, bastion_env):
    guard = guard_for(project, bastion_env)
    results = [
        decide(guard, ToolCall("Bash", {"command": "rm -rf /"}, cwd=str(project), session_id="loop"))
        for _ in range(3)
    ]
    assert [r.interrupt for r in results] == [False, False, True]
    assert "3 denials in a row" in results[-1].reason
    # an allowed call resets the streak
    decide(guard, ToolCall("Bash", {"command": "ls"}, cwd=str(project), session_id="loop"))
    after = decide(guard, ToolCall("Bash", {"command": "rm -rf /"}, cwd=str(project), session_id="loop"))
    assert not after.interrupt


def test_twenty_denials_in_a_session_interrupt(project, bastion_env):
    guard = guard_for(project, bastion_env)
    last = None
    for index in range(20):
        decide(guard, ToolCall("Bash", {"command": "ls"}, cwd=str(project), session_id="many"))
        last = decide(guard, ToolCall("Bash", {"command": "rm -rf /"}, cwd=str(project), session_id="many"))
        if index < 19:
            assert not last.interrupt
    assert last.interrupt and "20 denials" in last.reason


def test_audit_log_has_one_redacted_line_per_decision(project, bastion_env):
    guard = guard_for(project, bastion_env)
    secret = "ghp_" + "a" * 36
    decide(guard, ToolCall("Bash", {"command": f"git push https://{secret}@github.com/x/y"}, cwd=str(project), session_id="a"))
    decide(guard, ToolCall("Read", {"file_path": "src/app.py"}, cwd=str(project), session_id="a"))
    path = audit_path(guard.policy, bastion_env)
    assert path == state.state_dir(bastion_env) / "audit.jsonl"
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert secret not in lines[0] and log.REDACTED in first["input"]["command"]
    assert first["input_digest"].startswith("sha256:")
    assert {"time", "session", "tool", "decision", "layer", "source", "reason", "trace"} <= first.keys()
    assert json.loads(lines[1])["decision"] == "allow"


def test_audit_location_is_configurable_and_can_be_switched_off(project, bastion_env, tmp_path):
    custom = tmp_path / "elsewhere" / "audit.jsonl"
    settings = tmp_path / "s.json"
    settings.write_text(json.dumps({"audit": {"path": str(custom)}}))
    guard = Guard.from_settings(str(project), isolated=True, settings_files=[str(settings)], env=bastion_env)
    decide(guard, ToolCall("Bash", {"command": "ls"}, cwd=str(project)))
    assert len(custom.read_text().splitlines()) == 1
    settings.write_text(json.dumps({"audit": {"enabled": False}}))
    guard = Guard.from_settings(str(project), isolated=True, settings_files=[str(settings)], env=bastion_env)
    assert audit_path(guard.policy, bastion_env) is None


@pytest.mark.parametrize(
    "value, hidden",
    [
        ({"command": "export OPENAI_API_KEY=sk-" + "x" * 30}, "sk-" + "x" * 30),
        ({"command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz'"}, "abcdefghijklmnopqrstuvwxyz"),
        ({"api_key": "plain-value-123"}, "plain-value-123"),
        ({"command": "aws configure set aws_access_key_id AKIAABCDEFGHIJKLMNOP"}, "AKIAABCDEFGHIJKLMNOP"),
        ({"command": "mysql --password=hunter22 db"}, "hunter22"),
    ],
)
def test_redaction(value, hidden):
    assert hidden not in json.dumps(log.redact(value))


def test_a_session_grant_for_one_file_does_not_cover_another(project, bastion_env):
    guard = guard_for(project, bastion_env)
    call = ToolCall("Write", {"file_path": "src/a.py", "content": ""}, cwd=str(project), session_id="g")
    grant(call, decide(guard, call), "session", env=bastion_env)
    assert decide(guard, call).verdict is Verdict.ALLOW
    other = ToolCall("Write", {"file_path": "/etc/motd", "content": ""}, cwd=str(project), session_id="g")
    assert decide(guard, other).verdict is Verdict.ASK


def test_removals_never_offer_grants(project, bastion_env):
    (project / "build").mkdir()
    decision = decide(guard_for(project, bastion_env), ToolCall("Bash", {"command": "rm -rf build"}, cwd=str(project), session_id="r"))
    assert decision.verdict is Verdict.ASK and decision.no_grant and decision.suggestions == []
