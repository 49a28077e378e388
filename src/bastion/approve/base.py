"""The approver interface: who settles an ``ask``.

``Guard.check`` is pure and may end in ``ask``; an approver turns that into a final
``allow`` or ``deny`` and says *how* in ``Decision.source`` (spec 002 §12.8):

==================  ===============================================================
``user_temporary``  a person allowed it once, or for this session
``user_permanent``  a person allowed it and saved a rule
``user_reject``     a person said no
``user_abort``      a person pressed Esc or Ctrl-C
``hook``            a PermissionRequest hook script decided
``classifier``      the automated reviewer decided
``builtin``         nobody could be asked (headless, CI, ``-p``): bastion denied
``mode``            ``dontAsk`` mode denied it
==================  ===============================================================

An approver is any callable ``(call, decision) -> Decision``. It must return a new
Decision (``settled``/``allowed``/``denied`` copy the input), so several approvers
racing on one ask never write to the same object, and it must never raise: an approver
that fails denies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

from ..model import Decision, Source, ToolCall, Verdict

#: ``approver(call, decision) -> final decision`` (the same shape ``session.decide`` takes).
Approver = Callable[[ToolCall, Decision], Decision]

#: An automated second opinion (stage 8's classifier): a Decision (or a Verdict, or a
#: ``(verdict, reason)`` pair) that allows or denies, or None when it cannot tell.
Classifier = Callable[[ToolCall, Decision], Any]

#: An optional, slower explanation (stage 8's LLM explainer), shown under the
#: deterministic one when it arrives: text, or an object with ``explanation`` /
#: ``reasoning`` / ``risk`` / ``level`` (``bastion.review``'s ``Explanation``), or None.
LLMExplainer = Callable[[ToolCall, Decision], object]


class Choice(str, Enum):
    """What a person can answer in the prompt."""

    ONCE = "once"
    SESSION = "session"
    DENY = "deny"
    ABORT = "abort"  # Esc / Ctrl-C


def settled(decision: Decision, verdict: Verdict, source: Source, reason: str, **changes: Any) -> Decision:
    """A copy of ``decision`` with its final verdict, source and reason."""
    return decision.revise(verdict=verdict, source=source, reason=reason, **changes)


def allowed(decision: Decision, source: Source, why: str) -> Decision:
    """The ask allowed by ``source``; the original reason stays visible after ``why``."""
    return settled(decision, Verdict.ALLOW, source, f"{why}: {decision.reason}")


def denied(decision: Decision, source: Source, why: str, *, interrupt: bool = False) -> Decision:
    """The ask denied by ``source``, with ``why`` in front of the original reason."""
    return settled(decision, Verdict.DENY, source, f"{why}: {decision.reason}", interrupt=decision.interrupt or interrupt)


def can_grant(decision: Decision) -> bool:
    """May a person be offered more than "allow once"? Never for destructive, protected
    (immune) or no-grant asks (spec 000 §06)."""
    from ..model import Tier

    return not (decision.no_grant or decision.immune or decision.risk is Tier.DESTRUCTIVE)


def automated_may_allow(decision: Decision) -> bool:
    """May a hook script or the classifier allow this ask? Not an immune one: those
    are the safety checks no mode or rule may skip, and only a person may wave them
    through. Automated approvers can always deny."""
    return not decision.immune


def from_classifier(call: ToolCall, decision: Decision, result: Any) -> Decision | None:
    """Normalise a classifier's answer to a final Decision, or None when it did not
    decide (or tried to allow what only a person may allow)."""
    verdict: Verdict | None = None
    reason = ""
    if isinstance(result, Decision):
        verdict, reason = result.verdict, result.reason
    elif isinstance(result, Verdict):
        verdict = result
    elif isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], Verdict):
        verdict, reason = result[0], str(result[1])
    if verdict is Verdict.ALLOW and automated_may_allow(decision):
        return allowed(decision, Source.CLASSIFIER, f"allowed by the classifier{': ' + reason if reason else ''}")
    if verdict is Verdict.DENY:
        return denied(decision, Source.CLASSIFIER, f"denied by the classifier{': ' + reason if reason else ''}")
    return None


def call_classifier(classifier: Classifier, call: ToolCall, decision: Decision) -> Decision | None:
    """Run a classifier; one that raises has no opinion (it never allows by failing)."""
    try:
        return from_classifier(call, decision, classifier(call, decision))
    except Exception:  # noqa: BLE001 - a failed opinion is no opinion
        return None


def env_or_default(env: Mapping[str, str] | None) -> Mapping[str, str]:
    import os

    return env if env is not None else os.environ
