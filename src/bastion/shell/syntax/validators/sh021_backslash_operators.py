r"""SH021 — escaped shell operators inside words.

``cat x\;rm -rf ~`` passes ``x;rm`` to ``cat`` in bash, but a checker that strips the
backslash first sees two commands (or the reverse). An escaped operator standing alone as
a word (``find … -exec cmd {} \;``, ``expr a \| b``) is a deliberate literal and is not
reported.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ._escapes import unquoted_escape

ID = "SH021"
WHAT = "backslash-escaped operator (\\; \\| \\& \\< \\>) inside a word"
WHY = "parsers disagree on whether the operator separates commands"
EXAMPLE = "cat notes\\;rm -rf ~"
BENIGN = "find . -name '*.pyc' -exec rm {} \\;"

_OPS = frozenset(";|&<>")


def _escaped_operator(raw: str) -> str | None:
    return unquoted_escape(raw, _OPS)


def check(source: str, view) -> list[Finding]:
    for word in view.words:
        raw = word.raw
        if "\\" not in raw or len(raw) <= 2:
            continue  # a lone \; \| \> is a literal operator on purpose (find -exec, expr, test)
        op = _escaped_operator(word.raw)
        if op:
            return [Finding(ID, Severity.MEDIUM, f"word {word.raw[:40]!r} contains an escaped operator {op}")]
    return []
