"""How strongly a scanned text taints a session: the one place taint reads the
scanner's verdict.

``injection`` — the scanner's findings reach its threshold: the model is warned and the
session tainted. ``suspicious`` — some signs, below the threshold: the session is
tainted without a warning (it may be nothing; a wrong warning would teach the model
to ignore them, but what the agent does next still needs a person). A scan result that
carries the scanner's own ``level`` is taken as it is; a plain list of findings is read
from its score here.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


__all__ = ["INJECTION", "SUSPICIOUS", "SUSPICIOUS_SCORE", "level_of"]

INJECTION = "injection"
SUSPICIOUS = "suspicious"
#: Score (``scanner.score``) from which a text below the injection threshold is
#: suspicious: one medium sign, or a low one with another (on the public corpus, 2.6%
#: of the injections the threshold misses and 1.8% of the benign texts).
SUSPICIOUS_SCORE = 2


def level_of(findings: Iterable[Any]) -> str | None:
    """``"injection"``, ``"suspicious"`` or None for a text's scanner findings."""
    level = getattr(findings, "level", None)  # the scanner's own verdict, when its result carries one
    if isinstance(level, str):
        if not findings:
            return None  # taint needs something in the text: where it came from alone is ``untrusted``
        return level if level in (INJECTION, SUSPICIOUS) else None
    from .scanner import THRESHOLD, score

    value = score(findings)
    if value >= THRESHOLD:
        return INJECTION
    return SUSPICIOUS if value >= SUSPICIOUS_SCORE else None
