"""What happens around ``Guard.check`` for one call of one agent session.

``Guard.check`` is pure; here the decision meets the world: an approver may settle an
ask, denial tracking counts, grants are stored, and the audit log gets its line.
"""

from __future__ import annotations

import os
from _collections_abc import Callable  # collections.abc's classes, loaded with os

from . import state
from .model import Decision, Source, Tier, ToolCall, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

Approver = Callable[[ToolCall, Decision], Decision]


def decide(
    guard: Any,
    call: ToolCall,
    *,
    approver: Approver | None = None,
    audit: bool = True,
) -> Decision:
    """Check the call, let the approver settle an ask, count denials, log the result."""
    decision = guard.check(call)
    if decision.verdict is Verdict.ASK and approver is not None:
        decision = approver(call, decision)
    return record(guard, call, decision, audit=audit)


def record(guard: Any, call: ToolCall, decision: Decision, *, audit: bool = True) -> Decision:
    """Denial tracking and the audit line (and OpenTelemetry record) for a final decision."""
    from .audit import denials, log

    env = guard.env
    tracked = denials.record(call.session_id, decision.verdict is Verdict.DENY, env=env)
    if decision.verdict is Verdict.DENY and call.session_id and tracked.tripped:
        decision = decision.revise(
            interrupt=True,
            reason=f"{decision.reason} — {tracked.describe()}: stop and ask the user how to proceed",
        )
    if decision.verdict is Verdict.DENY:
        _notify_denied(guard, call, decision)
    if audit:
        log.record_decision(call, decision, policy=guard.policy, env=env)  # the log line and its OTel record
    return decision


def _notify_denied(guard: Any, call: ToolCall, decision: Decision) -> None:
    """Start the PermissionDenied hook scripts, if the settings have any (fire and forget)."""
    policy = guard.policy
    section = policy.section("hooks") if hasattr(policy, "section") else {}
    if not section.get("PermissionDenied"):
        return
    from .approve.hooks import notify_denied

    try:
        mode = guard.effective_mode(call).value if hasattr(guard, "effective_mode") else "default"
        notify_denied(policy, call, decision, mode=mode, env=guard.env)
    except Exception as exc:  # noqa: BLE001 - auditing must never change or break a decision
        import sys

        print(f"bastion: warning: PermissionDenied hooks failed: {type(exc).__name__}", file=sys.stderr)


class GrantRefused(ValueError):
    """A grant that must not be given (destructive or immune calls)."""


def grant(call: ToolCall, decision: Decision, scope: str, *, env: Mapping[str, str] | None = None,
          settings_file: Path | None = None) -> str:
    """Remember an approval: ``session`` for this session, ``always`` as an allow rule.

    Destructive calls and immune asks never get a session or always grant (spec 000).
    Returns a description of what was stored.
    """
    from .policy.grants import add_session_grant, grant_key, save_always_rule

    if decision.no_grant or decision.immune or decision.risk is Tier.DESTRUCTIVE:
        raise GrantRefused("this call can only be allowed once: it is destructive or protected")
    env = env if env is not None else os.environ
    normalized = " ".join(call.command.split()) if call.command is not None else None
    if scope == "session":
        if not call.session_id:
            raise GrantRefused("a session grant needs a session id")
        key = grant_key(call, normalized)
        add_session_grant(call.session_id, key, env=env)
        return f"allowed for this session: {key}"
    if scope == "always":
        if not decision.suggestions:
            raise GrantRefused("no narrow rule can describe this call; allow it once instead")
        target = settings_file or state.config_dir(env) / "settings.json"
        facts = decision.facts_about(call)  # the check's parse, not a second one
        parsed = getattr(facts, "parsed", None) if facts is not None else None
        for rule in decision.suggestions:
            match, avoid = _examples_for(rule, call, parsed)
            save_always_rule(target, rule, examples=match, not_examples=avoid, env=env)
        return f"saved {', '.join(decision.suggestions)} to {target}"
    raise ValueError(f"unknown grant scope {scope!r}")


def _examples_for(rule_text: str, call: ToolCall, parsed: Any = None) -> tuple[list[str], list[str]]:
    """What a saved rule must keep matching (the approved call's parts) and must never
    match (destructive variants of it): its self-test on every load."""
    from .policy.suggest import examples_for

    return examples_for(rule_text, call, parsed)


def approved(decision: Decision, source: Source, reason: str) -> Decision:
    """A copy of an ask turned into allow by an approver."""
    return decision.revise(verdict=Verdict.ALLOW, source=source, reason=reason)
