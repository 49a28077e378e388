"""Codex CLI's hook protocol (``bastion hook codex``).

Observed with Codex 0.169: hooks live in ``$CODEX_HOME/hooks.json`` in Claude Code's
shape; the payload names shell calls ``Bash`` with ``tool_input.command`` and carries
``permission_mode`` (always ``bypassPermissions`` under ``codex exec``, so bastion does
not use it). A ``permissionDecision`` of ``deny`` blocks the call and its reason
reaches the model ("Command blocked by PreToolUse hook: …"). ``allow`` and ``ask`` are
treated as a failed hook **and the command runs** — and so is ``"continue": false`` —
so bastion never sends them: an allow is silence (exit 0, no output) and an ask becomes a deny, or with
``integrations.codex.ask = "block"`` a blocking exit 2 with the reason on stderr.

A shell call's payload holds no ``workdir``: Codex sends the directory the command runs
in as the payload's ``cwd``. Codex's own harmless tools (``update_plan``,
``request_user_input`` …) are its rows of the tool catalog, each with why it is
harmless (``model.internal_tools("codex")``).
"""

from __future__ import annotations

from ..approve.headless import CannotShow
from ..hook.protocol import Reply
from ..model import Decision, Finding, Verdict
from . import claude_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PRE_EVENTS = ("PreToolUse",)
POST_EVENTS = ("PostToolUse",)
#: Codex cannot put a hook's "ask" in front of a person: asks become denials.
can_ask = False
#: Why nobody can answer an ask here (``approve.headless.nobody_to_ask``).
HEADLESS = CannotShow("Codex cannot show bastion's questions")
ASK_STYLES = ("deny", "block")


def to_call(payload: Mapping[str, Any]) -> Any:
    """The call, without Codex's ``permission_mode``: ``codex exec`` reports
    ``bypassPermissions`` whatever the user chose (it never asks), and taking that as
    bastion's bypass mode would wave through every call bastion would ask about.
    bastion's own ``defaultMode`` applies instead."""
    call = claude_code.to_call(payload, agent="codex")
    call.mode = None
    return call  # apply_patch: ToolCall.paths reads the files from the patch text


def ask_style(policy: Any) -> str:
    """``integrations.codex.ask`` from the settings: ``deny`` (default) or ``block``."""
    section = policy.section("integrations") if policy is not None and hasattr(policy, "section") else {}
    codex = section.get("codex") if isinstance(section, dict) else None
    style = codex.get("ask") if isinstance(codex, dict) else None
    return style if style in ASK_STYLES else "deny"


def answer(event: str, decision: Decision, policy: Any = None, *, asked: bool = False) -> Reply:
    """``asked`` says the decision was an ask that bastion turned into a deny."""
    if decision.verdict is Verdict.ALLOW:
        return Reply()
    reason = f"bastion: {decision.reason}"
    if asked and ask_style(policy) == "block":
        return Reply(stderr=reason, exit_code=2)
    # No "continue": false even when denial tracking trips (the reason says to stop):
    # Codex 0.169 takes that field in a PreToolUse answer as a failed hook and runs the call.
    return Reply.json({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    })


def answer_post(event: str, findings: list[Finding]) -> Reply:
    if not findings:
        return Reply()
    from .results import findings_message

    message = findings_message(findings)
    return Reply.json({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": message}})


def failure(event: str, payload: Mapping[str, Any] | None, message: str) -> Reply:
    """Fail closed the way Codex always honours: exit 2, the reason on stderr."""
    if event in POST_EVENTS:
        return Reply(stderr=message)
    return Reply(stderr=f"{message}; blocking instead of allowing", exit_code=2)
