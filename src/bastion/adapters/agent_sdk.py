"""bastion for the Claude Agent SDK (Python ``claude-agent-sdk``, extra ``bastion-guard[agent-sdk]``).

Two ways in, and why you want the hook:

* ``can_use_tool`` — the SDK calls it only when Claude Code would otherwise ask a person.
  It is **skipped under ``bypassPermissions``** and **for tools allowed as a whole**
  (``allowed_tools=["Bash"]``, an ``allow`` rule in the settings), so on its own it
  does not see every call.
* a ``PreToolUse`` hook (``HookMatcher``) — runs before **every** tool call, in every
  mode. This is the path that guards everything; use it, and add ``can_use_tool`` if you
  also want bastion to answer the remaining permission prompts.

    from claude_agent_sdk import ClaudeAgentOptions, query
    from bastion.adapters.agent_sdk import BastionPermissions

    guard = BastionPermissions(cwd="/path/to/project")
    options = ClaudeAgentOptions(
        cwd="/path/to/project",
        hooks={"PreToolUse": [guard.hook_matcher()]},
        can_use_tool=guard.can_use_tool,
    )

Or, for the current directory's settings, the ready-made ``agent_sdk.can_use_tool`` and
``agent_sdk.hook_matcher()``.

An ``ask`` goes to ``approve(call, decision) -> bool`` when you pass one; without it the
call is denied, because an SDK program usually has nobody to ask. With both ways wired,
one call is decided (and ``approve`` asked) once: the hook keeps its decision for the
call's ``tool_use_id``, and ``can_use_tool``, which Claude Code may still consult after
the hook allowed, answers from it. The SDK is imported only when a matcher or a
permission result is built.

Claude Code shows a hook's deny to the model as "PreToolUse:Bash hook error: <reason>",
so the reason says it is bastion's decision, not a failure (:func:`denial`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from ..model import Decision, ToolCall, Verdict
from .claude_code import parse_mode
from .wrap import Approve, _Guards, check_call

if TYPE_CHECKING:  # the SDK is an optional extra, imported only when a callback runs
    from claude_agent_sdk.types import SyncHookJSONOutput


class BastionPermissions:
    """bastion's decisions for one Agent SDK session (or several: calls carry their ids)."""

    def __init__(
        self,
        cwd: str | None = None,
        *,
        guard: Any = None,
        approve: Approve | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.cwd = os.path.abspath(cwd or os.getcwd())
        self.approve = approve
        self.guards = _Guards(guard, env)
        #: The hook's decisions by ``tool_use_id``, for ``can_use_tool`` on the same call.
        self.settled: dict[str, Decision] = {}

    def decide(self, tool: str, tool_input: Mapping[str, Any], *, cwd: str | None = None,
               session_id: str = "", mode: Any = None) -> Decision:
        call = ToolCall(tool, dict(tool_input), cwd=os.path.abspath(cwd or self.cwd), session_id=session_id,
                        mode=parse_mode(mode), agent="agent-sdk")
        return check_call(call, self.guards, self.approve)

    # -- can_use_tool -------------------------------------------------------------

    async def can_use_tool(self, tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        """The SDK's ``can_use_tool`` callback (only sees calls Claude Code would ask about)."""
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

        tool_use_id = getattr(context, "tool_use_id", None)
        decision = self.settled.pop(tool_use_id, None) if tool_use_id else None
        try:
            decision = decision or self.decide(tool_name, tool_input)
        except Exception as exc:  # noqa: BLE001 - fail closed
            return PermissionResultDeny(message=f"bastion could not check this call ({type(exc).__name__}: {exc})")
        if decision.verdict is Verdict.ALLOW:
            return PermissionResultAllow()
        return PermissionResultDeny(message=denial(decision), interrupt=decision.interrupt)

    # -- PreToolUse hook ----------------------------------------------------------

    async def pre_tool_use(self, hook_input: Mapping[str, Any], tool_use_id: str | None, context: Any) -> SyncHookJSONOutput:
        """A ``PreToolUse`` hook callback: allow, or deny with the reason, for every call."""
        try:
            tool_input = hook_input.get("tool_input") or {}
            if not isinstance(tool_input, dict):
                raise ValueError("tool_input is not an object")
            decision = self.decide(
                str(hook_input["tool_name"]),
                tool_input,
                cwd=hook_input.get("cwd") or None,
                session_id=str(hook_input.get("session_id") or ""),
                mode=hook_input.get("permission_mode"),
            )
        except Exception as exc:  # noqa: BLE001 - fail closed
            return _pre_tool_output("deny", f"bastion could not check this call ({type(exc).__name__}: {exc})")
        if tool_use_id:
            if len(self.settled) >= MAX_SETTLED:  # calls can_use_tool never saw
                self.settled.pop(next(iter(self.settled)))
            self.settled[tool_use_id] = decision
        verdict: Literal["allow", "deny"] = "allow" if decision.verdict is Verdict.ALLOW else "deny"
        out = _pre_tool_output(verdict, denial(decision) if verdict == "deny" else f"bastion: {decision.reason}")
        if decision.interrupt:
            out["continue_"] = False
            out["stopReason"] = denial(decision)
        return out

    def hook_matcher(self, matcher: str | None = None, timeout: float | None = None) -> Any:
        """A ``HookMatcher`` for ``ClaudeAgentOptions(hooks={"PreToolUse": [...]})``."""
        from claude_agent_sdk import HookMatcher

        return HookMatcher(matcher=matcher, hooks=[self.pre_tool_use], timeout=timeout)


#: Hook decisions kept for ``can_use_tool`` at most (oldest dropped first).
MAX_SETTLED = 256


def denial(decision: Decision) -> str:
    """A deny's text for the model: bastion's policy decision, not a crashed hook."""
    return f"bastion denied this call (a policy decision, not an error): {decision.reason}"


def _pre_tool_output(verdict: Literal["allow", "deny"], reason: str) -> SyncHookJSONOutput:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": verdict,
            "permissionDecisionReason": reason,
        }
    }


_default: BastionPermissions | None = None


def _permissions() -> BastionPermissions:
    global _default
    if _default is None:
        _default = BastionPermissions()
    return _default


async def can_use_tool(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
    """Ready-made ``can_use_tool`` for the current directory's settings (asks are denied)."""
    return await _permissions().can_use_tool(tool_name, tool_input, context)


def hook_matcher(matcher: str | None = None) -> Any:
    """Ready-made ``PreToolUse`` ``HookMatcher`` for the current directory's settings."""
    return _permissions().hook_matcher(matcher)
