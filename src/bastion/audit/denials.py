"""Denial tracking (spec 002 §12.13): 3 denials in a row or 20 in a session trip it.

A tripped session means the agent keeps hitting the wall; the decision says so and
carries ``interrupt`` so adapters stop the turn and hand control back to the person.
An allow resets the consecutive count, never the total.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .. import state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

MAX_CONSECUTIVE = 3
MAX_TOTAL = 20


@dataclass(frozen=True)
class DenialState:
    """How many denials in a row, and in all, a session has had."""

    consecutive: int = 0
    total: int = 0

    @property
    def tripped(self) -> bool:
        return self.consecutive >= MAX_CONSECUTIVE or self.total >= MAX_TOTAL

    def describe(self) -> str:
        if self.consecutive >= MAX_CONSECUTIVE:
            return f"{self.consecutive} denials in a row in this session"
        return f"{self.total} denials in this session"


def record(session_id: str, denied: bool, *, env: Mapping[str, str] | None = None) -> DenialState:
    """Count one final decision for the session and return the new state."""
    if not session_id:
        return DenialState(1 if denied else 0, 1 if denied else 0)

    def change(data: Any) -> Any:
        data = data if isinstance(data, dict) else {}
        counts = data.get("denials") if isinstance(data.get("denials"), dict) else {}
        consecutive = int(counts.get("consecutive", 0))
        total = int(counts.get("total", 0))
        if denied:
            consecutive, total = consecutive + 1, total + 1
        else:
            consecutive = 0
        data["denials"] = {"consecutive": consecutive, "total": total}
        return data

    path = state.session_path(session_id, env)
    data = state.update_json(path, change, {})
    sessions = os.path.dirname(path)
    for folder in (sessions, os.path.dirname(sessions)):  # leftovers of writers killed mid-update
        state.sweep_stale_temps(folder)
    counts = data["denials"]
    return DenialState(counts["consecutive"], counts["total"])
