"""The clients' own harmless tools, and tools bastion does not know.

Headless runs refuse what would ask, so a client's own planning, todo, waiting and
asking tools (Claude Code's ``WaitForMcpServers``, Codex's ``request_user_input``,
Gemini's ``enter_plan_mode`` …) must be allowed, with the reason each is harmless in
its catalog row. A tool bastion does not know still asks where a person can answer, and
where nobody can it is denied with a reason naming the tool and how to allow it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters import claude_code, codex, gemini
from bastion.engine import Guard
from bastion.hook import run as hook
from bastion.model import TOOL_CATALOG, Kind, Mode, Tier, ToolCall, Verdict, internal_tools
from bastion.policy.rules import parse_rule
from conftest import run_bastion

CLIENTS = {"claude-code": claude_code, "codex": codex, "gemini": gemini}
EVENT = {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}

#: Tools named in the issue, each as its client spells it.
ISSUE_TOOLS = {
    "claude-code": ["WaitForMcpServers", "CronList", "TodoWrite"],
    "codex": ["request_user_input", "get_goal"],
    "gemini": ["enter_plan_mode", "list_background_processes"],
}
#: Tools that start or schedule work: never harmless, whatever the client.
WORK_MAKERS = {
    "claude-code": ["CronCreate", "ScheduleWakeup", "Task", "Agent", "RemoteTrigger"],
    "codex": ["spawn_agent", "create_goal", "update_goal"],
    "gemini": ["invoke_agent"],
}


def run_hook(client: str, project: Path, tool: str, tool_input: dict | None = None, mode: str = "default") -> dict:
    data = {"session_id": f"s-{client}", "transcript_path": "/dev/null", "cwd": str(project),
            "hook_event_name": EVENT[client], "tool_name": tool, "tool_input": tool_input or {}}
    if client != "gemini":
        data.update(permission_mode=mode, tool_use_id="t1")
    reply = hook.run(CLIENTS[client], json.dumps(data))
    if client == "codex" and not reply.stdout:
        return {"decision": "allow", "reason": ""}
    out = json.loads(reply.stdout)
    if client == "gemini":
        return out
    spec = out["hookSpecificOutput"]
    return {"decision": spec["permissionDecision"], "reason": spec["permissionDecisionReason"]}


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_each_client_has_one_table_of_its_own_harmless_tools(client: str) -> None:
    table = internal_tools(client)
    assert set(ISSUE_TOOLS[client]) <= set(table)
    for name, why in table.items():
        spec = TOOL_CATALOG[name]
        assert why and spec.kind is Kind.OTHER and spec.tier is Tier.READ_ONLY, name
    assert not set(WORK_MAKERS[client]) & set(table)


def test_every_catalog_row_names_its_client() -> None:
    for spec in TOOL_CATALOG.values():
        assert spec.clients and set(spec.clients) <= set(CLIENTS), spec.name


# --------------------------------------------------------------------------- harmless tools


@pytest.mark.parametrize(("client", "tool"), [(c, t) for c, tools in sorted(ISSUE_TOOLS.items()) for t in tools])
def test_the_issues_tools_are_allowed_headless(project: Path, bastion_env: dict[str, str], client: str,
                                               tool: str) -> None:
    assert run_hook(client, project, tool)["decision"] == "allow"


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.PLAN, Mode.DONT_ASK])
def test_every_harmless_tool_is_allowed_in_every_mode(project: Path, bastion_env: dict[str, str], client: str,
                                                      mode: Mode) -> None:
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env, mode=mode)
    for tool in internal_tools(client):
        decision = guard.check(ToolCall(tool, {}, cwd=str(project)))
        assert decision.verdict is Verdict.ALLOW, (tool, decision.reason)


@pytest.mark.parametrize(("client", "tool"), [(c, t) for c, tools in sorted(WORK_MAKERS.items()) for t in tools])
def test_tools_that_create_work_are_not_waved_through(project: Path, bastion_env: dict[str, str], client: str,
                                                      tool: str) -> None:
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    assert guard.check(ToolCall(tool, {"prompt": "x"}, cwd=str(project))).verdict is Verdict.ASK
    assert run_hook(client, project, tool, {"prompt": "x"})["decision"] in ("ask", "deny")


# --------------------------------------------------------------------------- unknown tools


def test_an_unknown_tool_asks_where_a_person_can_answer(project: Path, bastion_env: dict[str, str]) -> None:
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    decision = guard.check(ToolCall("FrobnicateTool", {}, cwd=str(project)))
    assert decision.verdict is Verdict.ASK and not decision.immune
    assert "FrobnicateTool" in decision.reason and "bastion rules add 'FrobnicateTool'" in decision.reason
    assert run_hook("claude-code", project, "FrobnicateTool")["decision"] == "ask"


@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_an_unknown_tool_is_denied_headless_saying_how_to_allow_it(project: Path, bastion_env: dict[str, str],
                                                                   client: str) -> None:
    out = run_hook(client, project, "FrobnicateTool")
    assert out["decision"] == "deny"
    assert "FrobnicateTool" in out["reason"] and "bastion rules add 'FrobnicateTool'" in out["reason"]


def test_the_advice_works(project: Path, bastion_env: dict[str, str]) -> None:
    """``bastion rules add 'CronCreate'`` saves a rule, and the tool is allowed after it."""
    done = run_bastion("rules", "add", "CronCreate", cwd=project, env=bastion_env)
    assert done.returncode == 0, done.stderr
    assert run_hook("codex", project, "CronCreate")["decision"] == "allow"
    assert run_hook("codex", project, "CronDelete")["decision"] == "deny"


def test_a_rule_may_name_a_tool_bastion_does_not_know_but_not_a_typo() -> None:
    assert parse_rule("CronCreate", "allow", source="user").tool == "CronCreate"
    assert parse_rule("LSP", "deny", source="user").tool == "LSP"
    for typo, meant in (("Bahs", "Bash"), ("bash", "Bash"), ("WebSerch", "WebSearch"), ("TodoWrites", "TodoWrite")):
        with pytest.raises(ValueError, match=f"did you mean {meant}"):
            parse_rule(typo, "deny", source="user")
