"""The commands a text becomes once written to a file that runs later.

A systemd unit runs its ``Exec*=`` lines, a crontab line runs what follows its schedule
(and, in ``/etc/crontab`` and ``/etc/cron.d``, its user field), any other startup file
runs as shell. The shell analysis (text echoed into such a file), the patch check and
the file layer (``files.runs_later``) all read planted text through this one module.
"""

from __future__ import annotations

import re

from ..syntax.lazyre import LazyPattern

#: ``ExecStart=…`` and friends in a systemd unit: the command each one runs.
UNIT_EXEC = LazyPattern(r"^\s*Exec[A-Za-z]*\s*=\s*[-@:+!]*(.*)$", re.M)
#: A crontab line's schedule (five fields, or ``@reboot`` and friends).
CRON_FIELDS = LazyPattern(r"^\s*(?:@\w+|(?:[\d*/,\-]+\s+){5})\s*")


def as_commands(text: str, path: str) -> str:
    """The commands ``text`` becomes once written to ``path``: a unit's ``Exec*=`` lines,
    a crontab's lines without their schedule (and user) fields, anything else as shell."""
    if path.endswith((".service", ".timer", ".socket", ".path")) or "/systemd/" in path:
        return "\n".join(m.group(1) for m in UNIT_EXEC.finditer(text))
    if "cron" in path:
        system = path.startswith(("/etc/crontab", "/etc/cron.d/"))
        lines = []
        for line in text.splitlines():
            stripped = CRON_FIELDS.sub("", line, count=1)
            if stripped != line and system:
                stripped = stripped.split(None, 1)[1] if len(stripped.split(None, 1)) > 1 else ""
            lines.append(stripped)
        return "\n".join(lines)
    return text
