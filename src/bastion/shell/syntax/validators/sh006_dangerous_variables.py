"""SH006 — assignments to variables that change which code runs (spec 002 §12.12).
make's command-line definitions (``make SHELL=/tmp/x``, ``make CC=/tmp/cc``) are such
assignments too: make hands them to the recipes it runs.

``LD_PRELOAD=/tmp/x.so ls`` is not ``ls``; ``PATH=/tmp/evil:$PATH git status`` runs
whatever ``/tmp/evil/git`` is. The variable list lives in :mod:`bastion.shell.syntax.env`; this
check reports every dangerous name assigned before a command, through ``env``/``sudo``,
or with ``export``.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ..env import is_dangerous_env
from ..make_args import MAKES, overrides

ID = "SH006"
WHAT = "dangerous environment variable set (PATH, LD_PRELOAD, NODE_OPTIONS, GIT_* …)"
WHY = "the variable can load other code into the command, so the command is not what it looks like"
EXAMPLE = "LD_PRELOAD=/tmp/x.so ls"
BENIGN = "NODE_ENV=test npm test"


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    seen: set[str] = set()
    for cmd in view.commands:
        pairs = cmd.assignments
        if len(cmd.argv) > 1 and cmd.name in MAKES:
            pairs = (*pairs, *overrides(cmd.argv[1:]))  # ``make CC=…`` is judged as ``CC=… make``
        for name, value in pairs:
            if name in seen or not is_dangerous_env(name, value):
                continue
            seen.add(name)
            target = f"`{cmd.name}`" if cmd.argv else "the commands after it"
            found.append(Finding(ID, Severity.HIGH, f"{name}={value[:40]} is set for {target}: it can change which code runs"))
    return found
