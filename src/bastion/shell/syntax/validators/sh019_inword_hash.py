"""SH019 — ``#`` inside an unquoted word.

In bash ``a#b`` is one word, but a ``#`` starts a comment in some other parsers (and is
a glob operator in zsh with EXTENDED_GLOB), so tools disagree about where the command
ends. Recorded (low): URLs with fragments are common.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

ID = "SH019"
WHAT = "# inside an unquoted word"
WHY = "other parsers may read the rest of the line as a comment"
EXAMPLE = "echo foo#bar"
BENIGN = "echo foo # a comment"


#: A quoted span (to its closing quote, or the end), or a ``#`` that neither starts the
#: word nor follows ``\\`` or ``$``: the first ``#`` met outside quotes is the answer.
_SCAN = regex(r"""'[^']*'?|"[^"]*"?|(?<=[^\\$])#""")


def _inner_hash(raw: str) -> bool:
    return any(match.group() == "#" for match in _SCAN.finditer(raw))


def check(source: str, view) -> list[Finding]:
    for word in view.words:
        if "#" in word.raw and _inner_hash(word.raw):
            return [Finding(ID, Severity.LOW, f"word {word.raw[:40]!r} contains an unquoted #")]
    return []
