"""SH017 — control characters in the command text.

An escape sequence (``\\x1b[2K``), a carriage return or a backspace can redraw the
terminal so the command shown is not the command run. Tabs and newlines are not
control characters here; NUL is reported by the parser itself.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

ID = "SH017"
WHAT = "control character (escape, carriage return, backspace, DEL …) in the command"
WHY = "control characters can rewrite what a terminal or prompt displays"
EXAMPLE = "echo safe\x1b[2K; rm -rf ~"
BENIGN = "printf '\\033[1mbold\\033[0m\\n'"

_CONTROL = regex("[\x01-\x08\x0b-\x1f\x7f-\x9f]")


def check(source: str, view) -> list[Finding]:
    if source.isprintable():
        return []
    match = _CONTROL.search(source)
    if match is None:
        return []
    return [Finding(ID, Severity.HIGH, f"control character U+{ord(match.group()):04X} at offset {match.start()}")]
