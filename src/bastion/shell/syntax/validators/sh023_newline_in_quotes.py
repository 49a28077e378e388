"""SH023 — a newline inside a quoted word.

A multi-line string shows as one line in many prompts and logs, so whatever follows
the newline is easy to miss. Common and harmless in commit messages, so recorded (low)
for arguments; in a command name it is high.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH023"
WHAT = "newline inside a quoted word"
WHY = "text after the newline is hidden from anyone reading the first line"
EXAMPLE = "echo 'ok\nrm -rf ~'"
BENIGN = "echo 'ok\\nrm -rf ~'"


def check(source: str, view) -> list[Finding]:
    for word in view.words:
        if "\n" in word.raw and "\n" in word.value and word.value not in view.scripts:
            severity = Severity.HIGH if word.position == 0 else Severity.LOW
            lines = word.value.count("\n") + 1
            return [Finding(ID, severity, f"quoted word {word.raw[:30]!r}… spans {lines} lines")]
    return []
