"""SH006 — assignments to variables that change which code runs (spec 002 §12.12).

``LD_PRELOAD=/tmp/x.so ls`` is not ``ls``; ``PATH=/tmp/evil:$PATH git status`` runs
whatever ``/tmp/evil/git`` is. The variable list lives in :mod:`bastion.shell.syntax.env`; this
check reports every dangerous name assigned before a command, through ``env``/``sudo``,
or with ``export``.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ..env import is_dangerous_env

ID = "SH006"
WHAT = "dangerous environment variable set (PATH, LD_PRELOAD, NODE_OPTIONS, GIT_* …)"
WHY = "the variable can load other code into the command, so the command is not what it looks like"
EXAMPLE = "LD_PRELOAD=/tmp/x.so ls"
BENIGN = "NODE_ENV=test npm test"


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    seen: set[str] = set()
    for cmd in view.commands:
        for name, value in cmd.assignments:
            if name in seen or not is_dangerous_env(name, value):
                continue
            seen.add(name)
            target = f"`{cmd.name}`" if cmd.argv else "the commands after it"
            found.append(Finding(ID, Severity.HIGH, f"{name}={value[:40]} is set for {target}: it can change which code runs"))
    return found
