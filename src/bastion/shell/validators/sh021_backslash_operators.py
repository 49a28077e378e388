r"""SH021 — escaped shell operators inside words.

``cat x\;rm -rf ~`` passes ``x;rm`` to ``cat`` in bash, but a checker that strips the
backslash first sees two commands (or the reverse). An escaped operator standing alone as
a word (``find … -exec cmd {} \;``, ``expr a \| b``) is a deliberate literal and is not
reported.
"""

from __future__ import annotations

from ...model import Finding, Severity

ID = "SH021"
WHAT = "backslash-escaped operator (\\; \\| \\& \\< \\>) inside a word"
WHY = "parsers disagree on whether the operator separates commands"
EXAMPLE = "cat notes\\;rm -rf ~"
BENIGN = "find . -name '*.pyc' -exec rm {} \\;"
TRIGGER = ("\\",)

_OPS = frozenset(";|&<>")


def _escaped_operator(raw: str) -> str | None:
    quote = ""
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                i += 1
        elif ch in "'\"":
            quote = ch
        elif ch == "\\" and i + 1 < n:
            if raw[i + 1] in _OPS:
                return raw[i : i + 2]
            i += 1
        i += 1
    return None


def check(source: str, view) -> list[Finding]:
    for word in view.words:
        raw = word.raw
        if "\\" not in raw or len(raw) <= 2:
            continue  # a lone \; \| \> is a literal operator on purpose (find -exec, expr, test)
        op = _escaped_operator(word.raw)
        if op:
            return [Finding(ID, Severity.MEDIUM, f"word {word.raw[:40]!r} contains an escaped operator {op}")]
    return []
