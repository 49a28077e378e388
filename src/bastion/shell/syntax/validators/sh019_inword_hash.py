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


#: A quoted span (to its closing quote, or the end).
_QUOTED = regex(r"""'[^']*'?|"[^"]*"?""")
#: A ``#`` that neither starts the word nor follows ``\\`` or ``$``.
_HASH = regex(r"""(?<=[^\\$])#""")


def _inner_hash(raw: str) -> bool:
    """Whether a ``#`` outside quotes follows a character of the word other than ``\\``
    or ``$``. Each quoted span becomes one ``_``: like the closing quote it stands for,
    neither of those two, and the spans are found in one pass instead of one by one."""
    bare = _QUOTED.sub("_", raw) if "'" in raw or '"' in raw else raw
    return _HASH.search(bare) is not None


def check(source: str, view) -> list[Finding]:
    for word in view.words:
        if "#" in word.raw and _inner_hash(word.raw):
            return [Finding(ID, Severity.LOW, f"word {word.raw[:40]!r} contains an unquoted #")]
    return []
