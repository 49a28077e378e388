r"""SH015 — a backslash-escaped blank inside a command name or a flag.

``rm\ -rf`` is one word (a command named ``rm -rf``), ``-\ r`` one odd flag; parsers
that treat ``\ `` differently disagree about the words. Escaped spaces in ordinary
arguments (``My\ Documents``) are normal and not reported.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ._escapes import unquoted_escape

ID = "SH015"
WHAT = "backslash before a space or tab in a command name or at the start of a flag"
WHY = "escaped blanks make word boundaries differ between parsers"
EXAMPLE = "rm\\ -rf /"
BENIGN = "ls My\\ Documents"


def _escaped_blank(raw: str) -> bool:
    return unquoted_escape(raw, " \t") is not None


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for word in view.words:
        raw = word.raw
        if "\\" not in raw:
            continue
        # in a flag only right after the dashes (-\ rf); cut -d\  (a blank value) is fine
        is_flag = word.position > 0 and raw.lstrip("-")[:2] in ("\\ ", "\\\t") and raw.startswith("-")
        if (word.position == 0 or is_flag) and _escaped_blank(raw):
            role = "command name" if word.position == 0 else "flag"
            found.append(Finding(ID, Severity.HIGH, f"{role} {word.raw[:40]!r} contains an escaped blank"))
    return found
