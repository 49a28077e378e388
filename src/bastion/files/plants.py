"""The hard blocks of text planted in a file that runs later: the commands it becomes
(``shell.meaning.planted.as_commands``) analysed as shell. Shared by the file layer
(``files.runs_later``) and its shell side (``files.runs_later_shell``)."""

from __future__ import annotations

from ..model import Finding
from ..shell.meaning.planted import as_commands

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["MAX_CONTENT", "command_hard_blocks", "planted_hard_blocks"]

#: How much planted text is analysed; the rest of a huge file is not read as code.
MAX_CONTENT = 64 * 1024


def planted_hard_blocks(text: str, path: str, *, cwd: str, home: str, roots: Iterable[str]) -> list[Finding]:
    """The hard blocks (download-and-run, reverse shell, wipe …) of ``text`` written to
    ``path``, each saying where it was planted."""
    return command_hard_blocks(as_commands(text, path), path, cwd=cwd, home=home, roots=roots)


def command_hard_blocks(commands: str, where: str, *, cwd: str, home: str, roots: Iterable[str]) -> list[Finding]:
    """The hard blocks of shell ``commands`` that will run later from ``where``."""
    from ..shell.catalog.intents import finding
    from ..shell.meaning.analyse import analyse
    from ..shell.syntax.parse import parse

    if not commands.strip():
        return []
    analysis = analyse(parse(commands), cwd=cwd, home=home, workspace_roots=tuple(roots))
    out = [Finding(f.code, f.severity, f"{_short(f.message)} [planted in {where}]") for f in analysis.hard_blocks]
    from ..shell.syntax.env import CODE_LOADING_ENV

    preloads = [f for f in analysis.findings if f.code == "CAT021" and any(v in f.message for v in CODE_LOADING_ENV)]
    if not out and preloads:  # LD_PRELOAD=… in a startup file loads that library into every program
        out.append(finding("HB011", f"a library preload planted in {where}"))
    return out


def _short(message: str, limit: int = 300) -> str:
    """A finding's message with a planted program's text cut (``python3 -c '<the whole
    setup.py>'`` would otherwise be the reason)."""
    return message if len(message) <= limit else message[:limit] + "…"
