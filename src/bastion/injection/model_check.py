"""A second opinion on grey-zone tool results from the LLM reviewer (off by default).

With ``review.injectionCheck`` on and a reviewer configured, a result the scanner found
*almost* suspicious or suspicious — probability from the grey zone's lower bound
(``data/injection_grey_zone.json``) up to the injection bar, with at least one finding —
is shown to the model as an injection classifier (``review/injection_check.py``). Its
``true`` raises the level one step (none → suspicious, suspicious → injection); ``false``,
a timeout, an error or an answer that is not the expected JSON leave the scanner's level
as it is. Never lower: a text built to fool the scanner can fool a model too.

Bounded: at most :data:`MAX_PER_MINUTE` requests per session per minute (the session's
state file, so every hook process of a session shares the count), an excerpt of the
text, and a deadline of its own that is the shortest of ``review.injection_check.TIMEOUT``,
``review.timeout`` and half the hook's deadline (``hook.DEADLINE``). The caller records
the scanner's level before asking, so a model past any deadline loses nothing. Nothing
of the review package is imported unless a text is in the grey zone.
"""

from __future__ import annotations

import json
import os
import threading
import time

from ..std_lite import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["MAX_PER_MINUTE", "STATE_KEY", "grey_bounds", "in_grey_zone", "raised", "second_opinion"]

#: Requests per session in any 60 seconds: a grey result is rare, a flood of them is a
#: page built to be slow or costly to check; past this the scanner's level stands.
MAX_PER_MINUTE = 6
STATE_KEY = "injection_check"
_WINDOW = 60.0
_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "injection_grey_zone.json")
_STEP = {"none": "suspicious", "suspicious": "injection"}
_local: list[float] = []  # request times of calls without a session id, this process only
_lock = threading.Lock()


@lru_cache(maxsize=1)
def grey_bounds() -> dict[str, float]:
    """The grey zone's lower bound per origin group (``default``, ``strict``)."""
    with open(_PATH, encoding="utf-8") as handle:
        return {key: float(value) for key, value in json.load(handle)["grey_zone"].items()}


def in_grey_zone(result: Any) -> bool:
    """Whether a scan result may go to the model: level none or suspicious, a finding at
    least, and a probability from the lower bound of its origin up (an agent instruction
    file is judged by its hidden content alone, never here)."""
    level = getattr(result, "level", None)
    if level not in _STEP or not result or getattr(result, "origin", "") == "instructions":
        return False
    bound = grey_bounds()["strict" if result.origin == "strict" else "default"]
    return float(getattr(result, "probability", 0.0)) >= bound


def raised(result: Any) -> Any:
    """A copy of a scan result one level up (its findings and signals as they were)."""
    from .scanner import ScanResult

    return ScanResult(
        result,
        level=_STEP[result.level],
        probability=result.probability,
        signals=result.signals,
        origin=result.origin,
        features=result.features,
    )


def second_opinion(result: Any, text: str, cwd: str, session_id: str, env: Mapping[str, str]) -> Any:
    """``result``, or :func:`raised` of it when the model, asked about a grey-zone text,
    says it is an injection. Never raises; switched off, nothing is read or sent."""
    try:
        if not in_grey_zone(result) or _switched_off(env):
            return result
        from ..review.wiring import injection_check_from_settings

        check = injection_check_from_settings(env=env, cwd=cwd)
        if check is None or not _take_slot(session_id, env):
            return result
        spans = [(f.start, f.end) for f in sorted(result, key=lambda f: -f.weight)]
        from ..hook import deadline_seconds

        opinion = check(text, spans, result.origin, timeout=deadline_seconds(env) / 2)
        return raised(result) if opinion.injection is True else result
    except Exception:  # noqa: BLE001 - no second opinion: the scanner's level stands
        return result


def _switched_off(env: Mapping[str, str]) -> bool:
    """The environment says no before any settings file is read."""
    from ..early import TRUE

    for var in ("BASTION_REVIEW", "BASTION_REVIEW_INJECTION_CHECK"):
        value = (env.get(var) or "").strip().lower()
        if value and value not in TRUE:
            return True
    return False


def _recent(times: Any, now: float) -> list[float]:
    if not isinstance(times, list):
        return []
    return [t for t in times if isinstance(t, (int, float)) and now - _WINDOW < t <= now]


def _take_slot(session_id: str, env: Mapping[str, str]) -> bool:
    """Count one request against the session's minute; False when it is used up."""
    now = time.time()
    if not session_id:
        with _lock:
            _local[:] = _recent(_local, now)
            if len(_local) >= MAX_PER_MINUTE:
                return False
            _local.append(now)
            return True
    from .. import state

    taken: list[bool] = []

    def change(value: Any) -> Any:
        value = value if isinstance(value, dict) else {}
        record = value.get(STATE_KEY)
        times = _recent(record.get("sent") if isinstance(record, dict) else None, now)
        taken.append(len(times) < MAX_PER_MINUTE)
        value[STATE_KEY] = {"sent": times + [now] if taken[-1] else times}
        return value

    state.update_json(state.session_file(session_id, env), change, {})
    return bool(taken and taken[-1])
