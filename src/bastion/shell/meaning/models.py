"""Which code model reads which interpreter's programs.

Each model module has ``read(code: str, language: str) -> ProgramEffects | None`` and
is imported only when a program in its language is seen, so a shell command that runs
no inline code pays nothing for the parsers behind them.
"""

from __future__ import annotations

from ...std_lite import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .program import ProgramEffects

__all__ = ["MODELS", "read_program"]

#: Interpreter name (as the catalog spells it) → the module that models its language.
MODELS: dict[str, str] = {
    "python": "pymodel", "pypy": "pymodel", "jython": "pymodel",
    "node": "jsmodel", "nodejs": "jsmodel", "bun": "jsmodel", "deno": "jsmodel", "ts-node": "jsmodel",
    "tsx": "jsmodel",
    "perl": "callmodel", "ruby": "callmodel", "irb": "callmodel", "php": "callmodel", "lua": "callmodel", "luajit": "callmodel",
    "awk": "callmodel", "gawk": "callmodel", "mawk": "callmodel", "nawk": "callmodel", "busybox-awk": "callmodel", "goawk": "callmodel",
    "rscript": "callmodel", "r": "callmodel", "julia": "callmodel", "tclsh": "callmodel", "wish": "callmodel", "expect": "callmodel",
    "osascript": "callmodel", "emacs": "callmodel",
}

#: How deep a model may follow code that evaluates more code of its own language.
MAX_DEPTH = 4


def read_program(interpreter: str, code: str) -> ProgramEffects | None:
    """The effects of ``code`` run by ``interpreter``, or None when no model reads that
    language or the model cannot read this program (the caller then asks)."""
    module = MODELS.get(interpreter)
    if module is None:
        return None
    reader = import_module(f"{__package__}.{module}")
    effects: ProgramEffects | None = reader.read(code, interpreter)
    return effects
