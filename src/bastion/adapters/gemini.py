"""Gemini CLI's hook protocol (``bastion hook gemini``).

Observed with Gemini CLI 0.61: hooks live under ``hooks.BeforeTool`` / ``hooks.AfterTool``
of ``settings.json``; the payload has ``tool_name`` (``run_shell_command``…),
``tool_input``, ``cwd`` and ``session_id`` but no permission mode. ``{"decision":
"deny", "reason"}`` blocks the tool and the model reads "Tool execution blocked:
<reason>"; a hook that gives no decision — or ``"ask"``, which the tool path ignores —
lets the tool run. So bastion always answers explicitly: ``allow`` or ``deny``, with an
ask turned into a deny that says why. The reason reaches only the model; a deny also
carries it as ``systemMessage``, which Gemini shows the person ("Hook system message"). Gemini's own harmless tools (``enter_plan_mode``,
``ask_user`` …) are its rows of the tool catalog, each with why it is harmless
(``model.internal_tools("gemini")``).
"""

from __future__ import annotations

from ..approve.headless import CannotShow
from ..hook.protocol import Reply
from ..model import Decision, Finding, Verdict
from ..precompiled import regex
from . import claude_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PRE_EVENTS = ("BeforeTool",)
POST_EVENTS = ("AfterTool",)
#: A hook cannot make Gemini CLI ask: asks become denials.
can_ask = False
#: Why nobody can answer an ask here (``approve.headless.nobody_to_ask``).
HEADLESS = CannotShow("Gemini CLI cannot show bastion's questions")


_URL = regex(r"https?://[^\s<>\"')\]]+")


def to_call(payload: Mapping[str, Any]) -> Any:
    """Gemini's ``web_fetch`` names its URLs inside a ``prompt``. When they all point at
    one host, the first becomes the call's ``url``, so rules and checks see where it
    goes; URLs to several hosts are left as they are and the call is refused as
    malformed (one domain rule must not wave through a second host).

    An MCP tool arrives as ``mcp_<server>_<tool>`` (ambiguous when names hold ``_``) with
    ``mcp_context.server_name``/``tool_name``: it becomes ``mcp__server__tool``, so MCP
    rules apply and its arguments are checked like any MCP call's."""
    from urllib.parse import urlsplit

    call = claude_code.to_call(payload, agent="gemini")
    mcp = payload.get("mcp_context")
    if isinstance(mcp, dict):
        server, tool = mcp.get("server_name"), mcp.get("tool_name")
        if isinstance(server, str) and isinstance(tool, str) and server and tool and "__" not in server:
            call.tool = f"mcp__{server}__{tool}"
    if call.tool == "web_fetch" and not isinstance(call.input.get("url"), str):
        urls = _URL.findall(str(call.input.get("prompt", "")))
        if urls and len({urlsplit(u).hostname for u in urls}) == 1:
            call.input = {**call.input, "url": urls[0]}
    return call


def answer(event: str, decision: Decision, policy: Any = None, *, asked: bool = False) -> Reply:
    reason = f"bastion: {decision.reason}"
    out: dict[str, Any] = {"decision": "allow" if decision.verdict is Verdict.ALLOW else "deny", "reason": reason}
    if decision.verdict is not Verdict.ALLOW:
        out["systemMessage"] = reason  # the reason goes to the model; this line is what the person sees
    if decision.interrupt:
        out["continue"] = False
        out["stopReason"] = reason
    return Reply.json(out)


def answer_post(event: str, findings: list[Finding]) -> Reply:
    if not findings:
        return Reply()
    from .results import findings_message

    return Reply.json({"hookSpecificOutput": {"additionalContext": findings_message(findings)}})


def failure(event: str, payload: Mapping[str, Any] | None, message: str) -> Reply:
    """Fail closed: an explicit deny (Gemini runs the tool when a hook has no opinion)."""
    if event in POST_EVENTS:
        return Reply(stderr=message)
    reason = f"{message}; denying instead of allowing"
    reply = Reply.json({"decision": "deny", "reason": reason, "systemMessage": reason})
    reply.stderr = message
    return reply
