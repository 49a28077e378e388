"""Claude Code's hook protocol (``bastion hook claude-code``).

Observed with Claude Code 2.1: the payload carries ``hook_event_name``, ``tool_name``,
``tool_input``, ``cwd``, ``session_id`` and ``permission_mode``; a ``PreToolUse`` answer
is ``hookSpecificOutput.permissionDecision`` (allow / ask / deny) with
``permissionDecisionReason``, and the reason of a deny is what the model reads as the
tool result. An ``allow`` from a hook **skips Claude Code's own permission checks**, so
bastion answers ``allow`` only when its own decision is allow, and ``ask`` or ``deny``
otherwise. ``PermissionRequest`` (the dialog is about to show) gets allow or deny when
bastion is sure and no opinion when it would ask. Claude Code's own harmless tools
(``TodoWrite``, ``WaitForMcpServers`` …) are its rows of the tool catalog, each with why
it is harmless (``model.internal_tools("claude-code")``).
"""

from __future__ import annotations

from ..hook.protocol import PayloadError, Reply, payload_cwd
from ..model import Decision, Finding, Mode, ToolCall, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PRE_EVENTS = ("PreToolUse", "PermissionRequest")
POST_EVENTS = ("PostToolUse",)
#: Claude Code shows an ``ask`` to the user itself.
can_ask = True
#: Claude Code runs a PreToolUse hook's ``updatedInput``: a shell call can be rewritten
#: to run inside ``bastion run`` when the sandbox is enabled.
can_rewrite = True


def parse_mode(value: Any) -> Mode | None:
    """The client's permission mode; one bastion does not know counts as no mode."""
    from ..core.mode import parse_mode as read_mode

    return read_mode(value, strict=False)


def to_call(payload: Mapping[str, Any], *, agent: str = "claude-code") -> ToolCall:
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool:
        raise PayloadError("hook payload has no tool_name")
    tool_input = payload.get("tool_input")
    if tool_input is None:
        tool_input = {}
    if not isinstance(tool_input, dict):
        raise PayloadError("hook payload's tool_input is not an object")
    return ToolCall(
        tool=tool,
        input=tool_input,
        cwd=payload_cwd(payload),
        session_id=str(payload.get("session_id") or ""),
        mode=parse_mode(payload.get("permission_mode")),
        agent=agent,
    )


def reason_text(decision: Decision) -> str:
    return f"bastion: {decision.reason}"


def answer(
    event: str, decision: Decision, policy: Any = None, *, asked: bool = False,
    updated_input: dict[str, Any] | None = None,
) -> Reply:
    """``updated_input`` (the call rewritten to run inside ``bastion run``) goes with an
    allow, or with an ask so the person approves the sandboxed form."""
    if event == "PermissionRequest":
        return _permission_request(decision, updated_input)
    out: dict[str, Any] = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision.verdict.value if decision.verdict is not Verdict.REVIEW else "ask",
            "permissionDecisionReason": reason_text(decision),
        }
    }
    if updated_input is not None and event == "PreToolUse":
        out["hookSpecificOutput"]["updatedInput"] = updated_input
    if out["hookSpecificOutput"]["permissionDecision"] == "ask":
        # Claude Code's prompt may show its own text instead (a sensitive file) or none
        # (Read): systemMessage puts bastion's reason in front of the person too.
        out["systemMessage"] = reason_text(decision)
    if decision.interrupt:
        out["continue"] = False
        out["stopReason"] = reason_text(decision)
    return Reply.json(out)


def _permission_request(decision: Decision, updated_input: dict[str, Any] | None = None) -> Reply:
    if decision.verdict is Verdict.ALLOW:
        verdict: dict[str, Any] = {"behavior": "allow"}
        if updated_input is not None:
            verdict["updatedInput"] = updated_input
    elif decision.verdict is Verdict.DENY:
        verdict = {"behavior": "deny", "message": reason_text(decision), "interrupt": decision.interrupt}
    else:
        return Reply()  # let Claude Code show its dialog: the person decides
    return Reply.json({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": verdict}})


def answer_post(event: str, findings: list[Finding]) -> Reply:
    if not findings:
        return Reply()
    from .results import findings_message

    message = findings_message(findings)
    # additionalContext reaches the model next to the tool result; a "block" would
    # repeat the same text as hook feedback.
    return Reply.json({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": message}})


def failure(event: str, payload: Mapping[str, Any] | None, message: str) -> Reply:
    """Fail closed: ``ask`` when a person is there to answer, ``deny`` when nobody is."""
    if event in POST_EVENTS:
        return Reply(stderr=message)
    if event == "PermissionRequest":
        return Reply(stderr=message)  # no opinion: the dialog shows
    from ..approve.headless import nobody_to_ask

    mode = parse_mode((payload or {}).get("permission_mode"))
    verdict = "deny" if nobody_to_ask(mode, can_prompt=True) else "ask"
    return Reply(
        stdout=_json({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": verdict,
                "permissionDecisionReason": f"{message}; {'denying' if verdict == 'deny' else 'asking'} instead of allowing",
            }
        }),
        stderr=message,
    )


def _json(data: Any) -> str:
    from .. import fastjson

    return fastjson.dumps(data, ensure_ascii=False)
