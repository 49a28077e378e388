"""SH016 — brace expansion turns one word into several.

``cp file{,.bak}`` is two arguments; ``rm -rf {/,tmp}`` would be ``rm -rf / tmp``. bastion
expands braces exactly as bash does before any check, so this is recorded (low) for
arguments; in a command name it is high, because the name itself is being assembled.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH016"
WHAT = "brace expansion {a,b} / {1..3} makes several words from one"
WHY = "text checks see one word where bash passes several arguments"
EXAMPLE = "mkdir -p src/{api,web}"
BENIGN = "find . -name '*.pyc' -exec rm {} +"


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for word in view.words:
        if word.expands_to > 1:
            severity = Severity.HIGH if word.position == 0 else Severity.LOW
            found.append(Finding(ID, severity, f"{word.raw[:40]!r} expands to {word.expands_to} words"))
    return found
