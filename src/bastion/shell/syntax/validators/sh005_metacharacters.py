"""SH005 — shell metacharacters inside quoted arguments.

``find . -name "x;rm -rf ~"`` passes a pattern holding ``;`` — harmless to ``find``, but
the same string handed on to a shell (``-exec sh -c``, ``xargs sh -c``, a remote
command) becomes two commands. In a find pattern it is a strong signal (medium);
elsewhere it is recorded (low), since commit messages contain semicolons.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH005"
WHAT = "quoted argument contains ; | & ` or $( (shell syntax hidden in data)"
WHY = "the string becomes a command the moment anything passes it to a shell"
EXAMPLE = 'find . -name "x;rm -rf ~"'
BENIGN = "find . -name '*.pyc' -exec rm {} \\;"

_META = (";", "|", "&", "`", "$(")
_PATTERN_FLAGS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename",
                            "-iwholename", "-lname", "-ilname"})


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    previous = ""
    for word in view.words:
        raw, value = word.raw, word.value
        if (word.position > 0 and raw != value and len(value) > 1 and any(m in value for m in _META)
                and value not in view.scripts):
            severity = Severity.MEDIUM if previous in _PATTERN_FLAGS else Severity.LOW
            found.append(Finding(ID, severity, f"quoted argument {value[:50]!r} contains shell syntax"))
        previous = value if word.position > 0 else ""
    return found
