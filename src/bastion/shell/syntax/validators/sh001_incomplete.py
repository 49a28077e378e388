"""SH001 — a command that starts (or ends) where no command can.

A command beginning with a tab, a flag or an operator looks like the continuation of
something else: an agent pasting the tail of a longer line, or text crafted to be glued
onto a previous command. One that ends in an operator waits for more input.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH001"
WHAT = "command starts with a tab, a flag or an operator, or ends with an operator"
WHY = "it is a fragment of a longer command, so what actually runs is not what is shown"
EXAMPLE = "-rf /tmp/build"
BENIGN = "rm -rf /tmp/build"

_STARTS = ("&&", "||", "|", ";", "&", ")")
_ENDS = ("&&", "||", "|")


def check(source: str, view: object) -> list[Finding]:
    if not source:
        return []
    stripped = source.strip()
    if source[0] == "\t":
        what = "starts with a tab"
    elif stripped.startswith("-"):
        what = f"starts with a flag ({stripped.split(None, 1)[0][:20]})"
    elif stripped.startswith(_STARTS):
        what = "starts with an operator"
    elif stripped.endswith(_ENDS) or (stripped.endswith("\\") and not stripped.endswith("\\\\")):
        what = "ends with an operator"
    else:
        return []
    return [Finding(ID, Severity.MEDIUM, f"incomplete command: it {what}")]
