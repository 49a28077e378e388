"""SH004 — flags and command names spelled with quotes or escapes.

``rm -"r"f``, ``rm $'-rf'``, ``'r'm`` and ``$'\\x72\\x6d'`` run exactly what their plain
spelling runs, but a check that reads the text sees something else. Nobody needs quotes
inside a flag or around a plain command name, so the spelling itself is the signal.
bastion decodes the words either way; this check reports the attempt.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

ID = "SH004"
WHAT = "flag or command name written with quotes, escapes or ANSI-C escapes"
WHY = "quoting inside a flag or a name only serves to hide which flag or command runs"
EXAMPLE = 'rm -"r"f /tmp/x'
BENIGN = 'grep -r "-- done --" notes.txt'

_FLAG = regex(r"--?[A-Za-z0-9][\w-]*(=\S*)?")
_HOME_QUOTED = regex(r'^"\$(?:HOME|\{HOME\})[^"\'\\$`]*"[^"\'\\$`]*$|^\$(?:HOME|\{HOME\})[^"\'\\$`]*$')
#: A whole name in plain quotes: odd, but it hides nothing ("git" status).
_WHOLLY_QUOTED = regex(r"""^(?:'[^']*'|"[^"\\$`]*")$""")
#: Quoting where a short-option cluster continues with one or two more letters: -r"f", -'rf'.
_QUOTED_LETTERS = regex(r"""^-[A-Za-z]*(?:"[A-Za-z]{1,2}"|'[A-Za-z]{1,2}')""")
_QUOTING = ("'", '"', "\\")


def _hidden_flag(raw: str) -> bool:
    """Quotes or escapes inside the *name* of a flag (not in its value): ``-"r"f``,
    ``--for'ce'``, ``-r"f"``; but not ``--message="fix it"`` or ``-m"msg"``."""
    if raw.startswith("--"):
        name = raw.split("=", 1)[0]
        return any(q in name for q in _QUOTING)
    if len(raw) > 1 and raw[1] in "'\"\\$":
        return True
    return bool(_QUOTED_LETTERS.match(raw))


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for word in view.words:
        raw, value, position = word.raw, word.value, word.position
        if raw == value or not value:
            continue
        if position == 0:
            if " " in value or _HOME_QUOTED.match(raw):
                continue
            if (raw.startswith("\\") and raw[1:] == value and "\\" not in value) or _WHOLLY_QUOTED.match(raw):
                found.append(Finding(ID, Severity.MEDIUM, f"command name written as {raw[:40]!r} (runs {value!r})"))
            elif any(q in raw for q in _QUOTING) or raw.startswith("$"):
                found.append(Finding(ID, Severity.HIGH, f"command name written as {raw[:40]!r} (runs {value!r})"))
        elif position > 0 and value.startswith("-") and len(value) > 1:
            if raw.startswith("-") and _hidden_flag(raw):
                found.append(Finding(ID, Severity.HIGH, f"flag written as {raw[:40]!r} (is {value[:40]!r})"))
            elif raw[0] in "'\"$\\" and _FLAG.fullmatch(value):
                found.append(Finding(ID, Severity.HIGH, f"flag written as {raw[:40]!r} (is {value[:40]!r})"))
    return found
