"""SH014 — text the shell grammar cannot parse.

An unterminated quote, a stray ``)`` or ``fi`` means tools disagree about where words
and commands end; whatever bastion extracted is a guess. The parser treats it as too
complex; this check says what is malformed.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH014"
WHAT = "malformed shell text (unbalanced quote, stray operator, missing token)"
WHY = "where tools disagree on the structure, an attacker chooses which reading runs"
EXAMPLE = 'echo "unterminated'
BENIGN = 'echo "terminated"'


def check(source: str, view) -> list[Finding]:
    if not view.has_error:
        return []
    stack = [view.root]
    steps = 0
    while stack and steps < 10_000:
        steps += 1
        node = stack.pop()
        if node.is_missing:
            return [Finding(ID, Severity.MEDIUM, f"malformed command: missing {node.type!r}")]
        if node.type == "ERROR":
            snippet = view.text(node).strip()[:30]
            return [Finding(ID, Severity.MEDIUM, f"malformed command near {snippet!r}")]
        if node.has_error:
            stack.extend(reversed(node.children))
    return [Finding(ID, Severity.MEDIUM, "malformed command")]
