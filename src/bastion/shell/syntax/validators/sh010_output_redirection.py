"""SH010 — output redirected into a file.

``> ~/.bashrc`` overwrites a shell start-up file; ``>> .git/hooks/pre-commit`` plants a
hook. This check only records *that* a command writes a file and which one (low); the
path checks decide whether the target is protected or outside the workspace.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH010"
WHAT = "output redirected into a file"
WHY = "a redirection writes a file the command's own arguments never mention"
EXAMPLE = "echo 'alias ls=rm' >> ~/.bashrc"
BENIGN = "make 2>/dev/null >&2"

_HARMLESS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"})


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for cmd in view.commands:
        for redirect in cmd.redirects:
            if not redirect.writes or redirect.op.startswith("<"):
                continue
            target = redirect.target
            if target in _HARMLESS or (redirect.op in (">&", "<&", ">&-") and (target.isdigit() or not target)):
                continue
            verb = "appends to" if ">>" in redirect.op else "writes"
            found.append(Finding(ID, Severity.LOW, f"{cmd.name or 'redirection'} {verb} {target!r}"))
    return found
