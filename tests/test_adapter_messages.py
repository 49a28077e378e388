"""What a person and the model read when bastion blocks or asks, per client: what was
blocked and how to allow it; "nobody can be asked" only where nobody can; the reason in
front of the person in Gemini CLI and in Claude Code's prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters import claude_code, codex, gemini
from bastion.hook import run as hook
from test_adapters_hooks import EVENT, SHELL, WRITE, payload, reason_of

MODULES = {"claude-code": claude_code, "codex": codex, "gemini": gemini}


@pytest.mark.parametrize("client", ["codex", "gemini"])
@pytest.mark.parametrize(
    ("tool", "tool_input", "how"),
    [
        ("write", {"file_path": "src/app.py", "content": "x"}, "bastion rules add 'Edit("),
        ("shell", {"command": "npm publish"}, "run it yourself, or add an allow rule"),
        ("shell", {"command": "echo x >> .git/hooks/pre-commit"}, "make this change yourself"),
    ],
)
def test_a_client_that_cannot_ask_says_so_and_how_to_allow(client: str, tool: str, tool_input: dict, how: str,
                                                            project: Path) -> None:
    name = (WRITE if tool == "write" else SHELL)[client]
    reply = hook.run(MODULES[client], payload(client, name, tool_input, project))
    reason = reason_of(client, reply)
    assert "cannot show bastion's questions, so this is denied; it would have asked" in reason
    assert "nobody can be asked" not in reason
    assert how in reason


@pytest.mark.parametrize("mode", ["bypassPermissions"])  # dontAsk denies in its own words
def test_nobody_can_be_asked_where_that_is_true(mode: str, project: Path) -> None:
    reply = hook.run(claude_code, payload("claude-code", "Write", {"file_path": ".git/hooks/pre-commit", "content": "x"}, project,
                                          mode=mode))
    assert reason_of("claude-code", reply).startswith(f"bastion: nobody can be asked here ({mode} mode)")


def test_gemini_shows_a_block_to_the_person(project: Path) -> None:
    reply = hook.run(gemini, payload("gemini", "run_shell_command", {"command": "rm -rf ~"}, project))
    out = json.loads(reply.stdout)
    assert out["decision"] == "deny" and out["systemMessage"] == out["reason"] and "rm -rf" in out["systemMessage"]
    allowed = json.loads(hook.run(gemini, payload("gemini", "run_shell_command", {"command": "ls"}, project)).stdout)
    assert allowed["decision"] == "allow" and "systemMessage" not in allowed


def test_gemini_failure_is_shown_too(project: Path) -> None:
    reply = hook.run(gemini, b'{"hook_event_name": "BeforeTool", "tool_name": 5}')
    out = json.loads(reply.stdout)
    assert out["decision"] == "deny" and "could not check" in out["systemMessage"]


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [("Write", {"file_path": ".claude/settings.json", "content": "{}"}), ("Read", {"file_path": "~/.ssh/id_rsa"})],
)
def test_claude_code_ask_puts_the_reason_in_front_of_the_person(tool: str, tool_input: dict, project: Path) -> None:
    """Claude Code's prompt shows its own text for a sensitive file and none for a Read:
    the reason goes as systemMessage too, which Claude Code shows the person."""
    reply = hook.run(claude_code, payload("claude-code", tool, tool_input, project))
    out = json.loads(reply.stdout)
    assert out["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert out["systemMessage"] == out["hookSpecificOutput"]["permissionDecisionReason"]
    assert out["systemMessage"].startswith("bastion: ")


def test_claude_code_allow_and_deny_carry_no_system_message(project: Path) -> None:
    for command in ("ls", "rm -rf ~"):
        out = json.loads(hook.run(claude_code, payload("claude-code", "Bash", {"command": command}, project)).stdout)
        assert "systemMessage" not in out, out


def test_event_names_are_the_clients() -> None:
    assert EVENT == {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
