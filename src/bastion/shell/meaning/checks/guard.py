"""Switching the guard off (HB016), judged on every simple command the analysis reads.

The knowledge is the ``per_command`` records of ``bastion.tamper`` (``bastion
uninstall``, ``pip uninstall bastion-guard``, ``pkill -f bastion``, ``bastion run
--no-check``); this check only applies them. Because it runs inside ``classify``, every
path that analyses code finds HB016 the same way: a command typed directly, a shell
string inside interpreter code (``perl -e 'exec(q{pkill -f bastion})'``), text planted
in a file that runs later (``files/runs_later.py``), a script written and run.

Cost: ``classify`` calls it only for :data:`GUARD_NAMES` (and names starting with
``python``/``pypy``/``pip``); of those, only a killer or a command line that names
bastion (or ``--all`` for the uninstallers that have it) imports the table.
"""

from __future__ import annotations

from ..facts import Ctx, Facts

#: Canonical command names a guard-off record can fire on (besides Python and pip
#: versions): bastion's launchers, package uninstallers and process killers.
GUARD_NAMES = frozenset({"bastion", "pip", "pip3", "python", "pypy", "uv", "uvx", "pipx", "pkill", "killall", "kill"})
GUARD_PREFIXES = ("python", "pypy", "pip")

#: Names whose records can fire without the command line naming bastion: a pkill
#: pattern (``[b]astion``), a kill fed by pgrep, ``pipx uninstall-all``.
_UNNAMED = frozenset({"pkill", "killall", "kill"})


def check_guard_off(f: Facts, ctx: Ctx) -> None:
    """Hit HB016 for each guard-off record the command (with what it starts) fires."""
    argv = f.cmd.argv
    if f.name not in _UNNAMED:
        low = " ".join(argv).lower()
        if "bastion" not in low and not (f.name in ("pipx", "uv") and "all" in low):
            return
    from ....tamper import guard_off

    for record, detail in guard_off(f.cmd, ctx.source):
        f.hit("HB016", f"{record.what}: {detail}")
