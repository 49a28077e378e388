"""The ``classifier`` approver: the LLM settles ordinary asks in auto mode (spec 002 §12.2, §12.5).

The racing and coordinator approvers call ``classifier(call, decision)`` for a decision
that ended in ask. It answers a final Decision (source ``classifier``) or ``None`` —
"I cannot decide, let the person (or the next approver) do it". Its authority is
bounded by rules, not by the model:

* it never touches an immune ask (protected paths, ask rules, shell too complex to
  analyse, taint), a plan-mode ask, or an ask the reviewer already gave;
* it may deny any other ask, but it never allows a destructive one or one that may
  not be granted (``no_grant``);
* a model that says ASK, answers badly, errs or times out gives ``None``.

Denial tracking (spec 002 §12.13): after 3 classifier denials in a row, or 20 in a
session, the classifier stops deciding for that session and the person is asked again.
An allow resets the run of denials, not the total. Counts live in the session's state
file under their own key (``review_classifier``), so every hook process of a session
sees them; calls without a session id are counted in this process only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any, Protocol

from ..audit.denials import MAX_CONSECUTIVE, MAX_TOTAL
from ..model import Decision, Source, Tier, ToolCall, TraceEntry, Verdict
from .reviewer import Assessment

STATE_KEY = "review_classifier"
#: Layers whose asks are not the classifier's to settle, whatever ``immune`` says.
RESERVED_LAYERS = frozenset({"mode", "reviewer"})


class Evaluator(Protocol):
    def evaluate(self, call: ToolCall, *, note: str = "") -> Assessment: ...


def _counts(value: Any) -> tuple[int, int]:
    data = value.get(STATE_KEY) if isinstance(value, dict) else None
    if not isinstance(data, dict):
        return 0, 0
    try:
        return max(0, int(data.get("consecutive", 0))), max(0, int(data.get("total", 0)))
    except (TypeError, ValueError):
        return MAX_CONSECUTIVE, MAX_TOTAL  # a damaged counter trips: fail towards the person


def tripped(consecutive: int, total: int) -> bool:
    return consecutive >= MAX_CONSECUTIVE or total >= MAX_TOTAL


class Classifier:
    """``Classifier(evaluator)(call, decision) -> Decision | None`` for stage 5's approvers.

    ``evaluator`` is a :class:`~bastion.review.reviewer.Reviewer` or
    :class:`~bastion.review.agent.GuardAgent` (anything with ``evaluate``).
    """

    who = "LLM classifier"

    def __init__(self, evaluator: Evaluator, *, env: Mapping[str, str] | None = None) -> None:
        self.evaluator = evaluator
        self.env = env
        self._lock = threading.Lock()
        self._local = (0, 0)

    def __repr__(self) -> str:
        return f"Classifier({self.evaluator!r})"

    # -- denial tracking ----------------------------------------------------------

    def counts(self, session_id: str) -> tuple[int, int]:
        """``(consecutive, total)`` classifier denials in the session."""
        if not session_id:
            with self._lock:
                return self._local
        from .. import state

        return _counts(state.read_json(state.session_file(session_id, self.env), {}))

    def record(self, session_id: str, *, denied: bool) -> tuple[int, int]:
        def bump(consecutive: int, total: int) -> tuple[int, int]:
            return (consecutive + 1, total + 1) if denied else (0, total)

        if not session_id:
            with self._lock:
                self._local = bump(*self._local)
                return self._local
        from .. import state

        def change(value: Any) -> Any:
            value = value if isinstance(value, dict) else {}
            consecutive, total = bump(*_counts(value))
            value[STATE_KEY] = {"consecutive": consecutive, "total": total}
            return value

        return _counts(state.update_json(state.session_file(session_id, self.env), change, {}))

    def reset_consecutive(self, session_id: str) -> None:
        """Forget the run of denials (an approver may call this when a person approves)."""
        if not session_id:
            with self._lock:
                self._local = (0, self._local[1])
            return
        from .. import state

        def change(value: Any) -> Any:
            value = value if isinstance(value, dict) else {}
            _, total = _counts(value)
            value[STATE_KEY] = {"consecutive": 0, "total": total}
            return value

        state.update_json(state.session_file(session_id, self.env), change, {})

    def active(self, session_id: str) -> bool:
        """Does the classifier still decide in this session?"""
        return not tripped(*self.counts(session_id))

    # -- deciding -----------------------------------------------------------------

    def _may_settle(self, decision: Decision) -> bool:
        return (
            decision.verdict is Verdict.ASK
            and not decision.immune
            and decision.layer not in RESERVED_LAYERS
            and decision.source is not Source.MODE
        )

    def __call__(self, call: ToolCall, decision: Decision) -> Decision | None:
        try:
            if not self._may_settle(decision) or not self.active(call.session_id):
                return None
            started = time.perf_counter_ns()
            assessment = self.evaluator.evaluate(call, note=decision.reason)
            elapsed = (time.perf_counter_ns() - started) // 1000
            if assessment.error or assessment.verdict is Verdict.ASK:
                return None
            if assessment.verdict is Verdict.ALLOW and (decision.no_grant or decision.risk is Tier.DESTRUCTIVE):
                return None
            denied = assessment.verdict is Verdict.DENY
            self.record(call.session_id, denied=denied)
            reason = f"{self.who}: {assessment.reason}"
            return decision.revise(
                verdict=assessment.verdict,
                reason=reason,
                layer="classifier",
                source=Source.CLASSIFIER,
                suggestions=[],
                note=TraceEntry("classifier", assessment.verdict.value, reason, int(elapsed)),
            )
        except Exception:  # noqa: BLE001 - a failing classifier leaves the decision to the person
            return None
