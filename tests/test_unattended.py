"""Nobody to ask means no: wherever no person can answer (bypassPermissions, dontAsk, a
client or run that cannot prompt), an immune ask comes out as a deny that says what
would have been asked — through every adapter and ``bastion run``. The engine itself
keeps its mode semantics (``bastion check --mode bypassPermissions`` still says ask)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters import claude_code, codex, gemini
from bastion.adapters.agent_sdk import BastionPermissions
from bastion.approve.headless import nobody_to_ask
from bastion.engine import Guard
from bastion.hook import run as hook
from bastion.hook.protocol import Reply
from bastion.model import Mode, ToolCall, Verdict
from conftest import run_bastion

ATTENDED = ["default", "acceptEdits", "plan"]
UNATTENDED = ["bypassPermissions", "dontAsk"]


@pytest.mark.parametrize(
    ("mode", "can_prompt", "expected"),
    [
        (None, True, None),
        (Mode.DEFAULT, True, None),
        (Mode.ACCEPT_EDITS, True, None),
        (Mode.PLAN, True, None),
        (Mode.BYPASS, True, "bypassPermissions mode"),
        (Mode.DONT_ASK, True, "dontAsk mode"),
        (Mode.DEFAULT, False, "a headless run"),
        (Mode.BYPASS, False, "bypassPermissions mode"),
    ],
)
def test_one_answer_to_can_a_person_answer(mode: Mode | None, can_prompt: bool, expected: str | None) -> None:
    assert nobody_to_ask(mode, can_prompt=can_prompt) == expected


def _protected_writes(project: Path) -> list[tuple[str, dict[str, Any]]]:
    home = Path(os.environ["HOME"])
    return [
        ("Write", {"file_path": str(project / ".git" / "hooks" / "pre-commit"), "content": "#!/bin/sh\nmake lint\n"}),
        ("Write", {"file_path": str(home / ".bashrc"), "content": "alias ll='ls -l'\n"}),
        ("Edit", {"file_path": str(project / ".envrc"), "old_string": "", "new_string": "export A=1\n"}),
        ("Bash", {"command": "echo 'make lint' >> .git/hooks/pre-commit"}),
        ("Bash", {"command": "cp hooks/pre-commit .git/hooks/pre-commit"}),
    ]


def _claude_payload(project: Path, tool: str, tool_input: dict[str, Any], mode: str) -> str:
    return json.dumps({
        "session_id": "s-unattended", "transcript_path": "/dev/null", "cwd": str(project),
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
        "permission_mode": mode, "tool_use_id": "toolu_1",
    })


def _claude_verdict(reply: Reply) -> tuple[str, str]:
    out = json.loads(reply.stdout)["hookSpecificOutput"]
    return out["permissionDecision"], out["permissionDecisionReason"]


@pytest.mark.parametrize("mode", ATTENDED + UNATTENDED)
def test_claude_code_denies_protected_writes_when_nobody_answers(project: Path, mode: str) -> None:
    """Claude Code lets a hook's ``ask`` through in bypassPermissions mode: bastion must
    say deny there (and in dontAsk), and keep asking where the person sees the prompt."""
    for tool, tool_input in _protected_writes(project):
        reply = hook.run(claude_code, _claude_payload(project, tool, tool_input, mode))
        verdict, reason = _claude_verdict(reply)
        if mode in UNATTENDED:
            assert verdict == "deny", (tool, tool_input, reason)
            assert "protected" in reason, reason  # says what would have been asked
        else:
            assert verdict == "ask", (tool, tool_input, reason)


def test_the_engine_keeps_its_mode_semantics(project: Path) -> None:
    """``bastion check --mode bypassPermissions`` answers ask for an immune ask: its caller
    may be able to ask. Only the adapters know that nobody can."""
    guard = Guard.from_settings(str(project), isolated=True, mode=Mode.BYPASS)
    for tool, tool_input in _protected_writes(project):
        decision = guard.check(ToolCall(tool, tool_input, cwd=str(project)))
        assert decision.verdict is Verdict.ASK and decision.immune, (tool, decision.reason)


def test_bypass_still_allows_ordinary_work(project: Path) -> None:
    for tool, tool_input in [("Bash", {"command": "git status"}), ("Bash", {"command": "rm -rf build"}),
                             ("Write", {"file_path": str(project / "src" / "app.py"), "content": "x = 1\n"})]:
        verdict, reason = _claude_verdict(hook.run(claude_code, _claude_payload(project, tool, tool_input, "bypassPermissions")))
        assert verdict == "allow", (tool_input, reason)


def test_the_hook_process_says_deny_in_bypass_mode(project: Path, bastion_env: dict[str, str]) -> None:
    """The installed command, in its own process (and through the decision server)."""
    tool, tool_input = _protected_writes(project)[0]
    for server in ("0", "1"):
        env = {**bastion_env, "BASTION_HOOK_SERVER": server, "BASTION_RUNTIME_DIR": str(project.parent / f"rt{server}")}
        done = run_bastion("hook", "claude-code", stdin=_claude_payload(project, tool, tool_input, "bypassPermissions"),
                           env=env)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", done.stdout
    from bastion.hook.server import stop_servers

    stop_servers(str(project.parent / "rt1"))


@pytest.mark.parametrize(("client", "event"), [(codex, "PreToolUse"), (gemini, "BeforeTool")])
def test_clients_that_cannot_prompt_deny_and_say_why(project: Path, client: Any, event: str) -> None:
    tool = "Bash" if client is codex else "run_shell_command"
    payload = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": event, "tool_name": tool,
                          "tool_input": {"command": "echo 'make lint' >> .git/hooks/pre-commit"}})
    reply = hook.run(client, payload)
    out = json.loads(reply.stdout)
    reason = out.get("reason") or out["hookSpecificOutput"]["permissionDecisionReason"]
    assert (out.get("decision") or out["hookSpecificOutput"]["permissionDecision"]) == "deny"
    assert client.HEADLESS in reason and "protected" in reason, reason


def test_agent_sdk_approve_callback_is_not_asked_in_bypass_mode(project: Path) -> None:
    asked: list[str] = []

    def approve(call: ToolCall, decision: Any) -> bool:
        asked.append(call.tool)
        return True

    permissions = BastionPermissions(str(project), approve=approve)
    tool, tool_input = _protected_writes(project)[0]
    assert permissions.decide(tool, tool_input, mode="default").verdict is Verdict.ALLOW  # the person said yes
    assert asked == ["Write"]
    decision = permissions.decide(tool, tool_input, mode="bypassPermissions")
    assert decision.verdict is Verdict.DENY and "bypassPermissions" in decision.reason
    assert asked == ["Write"]


def test_bastion_run_in_bypass_mode_denies_an_immune_ask(project: Path, bastion_env: dict[str, str]) -> None:
    hook_file = project / ".git" / "hooks" / "pre-commit"
    done = subprocess.run(
        [sys.executable, "-m", "bastion", "run", "--mode", "bypassPermissions", "--no-audit", "--",
         f"echo 'make lint' >> {hook_file}"],
        cwd=project, env=bastion_env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0 and not hook_file.exists(), done.stderr
    assert "bypassPermissions" in done.stderr, done.stderr
