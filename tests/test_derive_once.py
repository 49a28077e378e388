"""Derive once: the shell facts the check computed are what the explainer, the saved
rule's examples and the post-tool scan use — the command is parsed once per call.

The parser is counted with a wrapper around the real one (nothing is mocked): only
parses of the call's own command count, not the parses of code nested in it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion import Guard, ToolCall
from bastion.shell.meaning import analyse as analyse_module
from bastion.shell.syntax import parse as parse_module


class _Counts:
    def __init__(self, command: str) -> None:
        self.command = command
        self.parses = 0
        self.analyses = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Counts]:
    counts = _Counts("")
    real_parse, real_analyse = parse_module.parse, analyse_module.analyse

    def parse(text, *args, **kwargs):  # type: ignore[no-untyped-def]
        if text == counts.command:
            counts.parses += 1
        return real_parse(text, *args, **kwargs)

    def analyse(parsed, *args, **kwargs):  # type: ignore[no-untyped-def]
        if getattr(parsed, "source", None) == counts.command:
            counts.analyses += 1
        return real_analyse(parsed, *args, **kwargs)

    monkeypatch.setattr(parse_module, "parse", parse)
    monkeypatch.setattr(analyse_module, "analyse", analyse)
    yield counts


def _asking_command(guard: Guard, project: Path) -> tuple[ToolCall, object]:
    """A shell call that asks and offers an allow rule (so every consumer has work)."""
    for command in ("npm run build", "make build", "cargo build", "frobnicate --all"):
        call = ToolCall("Bash", {"command": command}, cwd=str(project), session_id="s1")
        decision = guard.check(call)
        if decision.verdict.value == "ask" and decision.suggestions:
            return call, decision
    pytest.fail("no asking command with a suggested rule")


def test_check_explain_and_saved_rule_parse_once(project: Path, bastion_env: dict[str, str], counted: _Counts,
                                                 tmp_path: Path) -> None:
    from bastion.approve.explainer import explain
    from bastion.session import grant

    (project / "Makefile").write_text("build:\n\techo hi\n")
    (project / "package.json").write_text(json.dumps({"scripts": {"build": "echo hi"}}))
    guard = Guard.from_settings(str(project))
    call, _ = _asking_command(guard, project)
    counted.command = call.command or ""
    decision = guard.check(call)  # the check: one parse, one analysis
    assert (counted.parses, counted.analyses) == (1, 1)
    explanation = explain(call, decision)
    assert explanation.what.startswith("Runs ")
    stored = grant(call, decision, "always", settings_file=tmp_path / "settings.json", env=bastion_env)
    assert "saved" in stored
    saved = json.loads((tmp_path / "settings.json").read_text())["permissions"]["allow"]
    assert saved and saved[0]["match"]  # the rule's own examples, from the check's parse
    assert (counted.parses, counted.analyses) == (1, 1)


def test_a_changed_input_is_parsed_afresh(project: Path, bastion_env: dict[str, str], counted: _Counts) -> None:
    """Facts are only reused for the very call they were derived for."""
    from bastion.approve.explainer import explain

    guard = Guard.from_settings(str(project))
    decision = guard.check(ToolCall("Bash", {"command": "make build"}, cwd=str(project)))
    other = ToolCall("Bash", {"command": "make test"}, cwd=str(project))
    counted.command = "make test"
    assert decision.facts_about(other) is None
    explain(other, decision)
    assert counted.parses == 1


def test_post_tool_use_reuses_the_decisions_analysis(project: Path, bastion_env: dict[str, str], counted: _Counts) -> None:
    from bastion.hook import run as hook_run

    client = hook_run.client_module("claude-code")
    command = "cat README.md .env"
    (project / "README.md").write_text("hello\n")
    (project / ".env").write_text("TOKEN=abc\n")
    counted.command = command
    base = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(project), "session_id": "s2",
            "permission_mode": "default"}
    pre = hook_run.run(client, json.dumps({**base, "hook_event_name": "PreToolUse"}).encode(), bastion_env, str(project))
    assert pre.exit_code == 0
    assert (counted.parses, counted.analyses) == (1, 1)
    post = hook_run.run(client, json.dumps({**base, "hook_event_name": "PostToolUse",
                                            "tool_response": {"stdout": "hello\nTOKEN=abc\n"}}).encode(),
                        bastion_env, str(project))
    assert post.exit_code == 0
    assert (counted.parses, counted.analyses) == (1, 1)
    from bastion.injection.taint import taint_of

    taint = taint_of("s2", bastion_env)
    assert taint is not None and any(".env" in str(item) for item in taint.secrets)  # recorded from the check's analysis


def test_post_tool_use_without_its_pre_call_analyses_itself(project: Path, bastion_env: dict[str, str],
                                                           counted: _Counts) -> None:
    from bastion.hook import run as hook_run

    client = hook_run.client_module("claude-code")
    command = "cat notes.txt"
    counted.command = command
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(project), "session_id": "s3",
               "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_response": {"stdout": "x"}}
    assert hook_run.run(client, json.dumps(payload).encode(), bastion_env, str(project)).exit_code == 0
    assert counted.analyses == 1
