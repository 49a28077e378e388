"""SH018 — invisible characters, Unicode spaces and bidi controls in the command text.

A zero-width space inside ``rm`` makes a different word; a no-break space looks like a
space but does not split words; a right-to-left override reorders what is displayed.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ..words import char_class

ID = "SH018"
WHAT = "invisible character, Unicode space or bidirectional control in the command"
WHY = "the text displayed differs from the words the shell sees"
EXAMPLE = "rm -rf\u00a0/tmp/x"
BENIGN = "echo café"
TRIGGER = ()
#: Also run whenever the text holds a non-ASCII character.
ON_NON_ASCII = True

_WHAT = {"invisible": "an invisible character", "bidi": "a bidirectional-text control", "space": "a Unicode space"}


def check(source: str, view) -> list[Finding]:
    if source.isascii():
        return []
    found: list[Finding] = []
    for cls, ch in char_class(source).items():
        if cls in _WHAT:
            found.append(Finding(ID, Severity.HIGH, f"command contains {_WHAT[cls]} (U+{ord(ch):04X})"))
    return found
