"""Which code model reads which interpreter's programs.

Each model module has ``read(code: str, language: str) -> ProgramEffects | None`` and
is imported only when a program in its language is seen, so a shell command that runs
no inline code pays nothing for the parsers behind them.
"""

from __future__ import annotations

from _thread import allocate_lock  # threading's lock, without importing threading

from ...std_lite import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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


#: Programs read lately, by (interpreter, text): one decision often reads the same text
#: more than once (a script written by a here-document and then run, a line analysed
#: again by a later layer). A model's result depends on nothing but its input (no file
#: is read), so a text read again is the same result.
_RECENT: dict[tuple[str, str], ProgramEffects | None] = {}
#: How many programs are kept (the last ones read).
RECENT_PROGRAMS = 32
_UNREAD: Any = object()
_KEEPING = allocate_lock()


def read_program(interpreter: str, code: str) -> ProgramEffects | None:
    """The effects of ``code`` run by ``interpreter``, or None when no model reads that
    language or the model cannot read this program (the caller then asks). Each caller
    gets its own copy (see :func:`_copy`)."""
    module = MODELS.get(interpreter)
    if module is None:
        return None
    key = (interpreter, code)
    with _KEEPING:  # the warm server decides in threads: the memo changes under its lock
        effects = _RECENT.pop(key, _UNREAD)
    if effects is _UNREAD:
        reader = import_module(f"{__package__}.{module}")
        effects = reader.read(code, interpreter)
    with _KEEPING:
        if _RECENT and key not in _RECENT and len(_RECENT) >= RECENT_PROGRAMS:  # the oldest goes
            del _RECENT[next(iter(_RECENT))]
        _RECENT[key] = effects  # the most recent last
    return None if effects is None else _copy(effects)


def _copy(effects: ProgramEffects) -> ProgramEffects:
    """``effects`` with lists of its own, so a caller that extends one leaves the kept
    result as the model gave it."""
    fields: dict[str, Any] = {k: list(v) if isinstance(v, list) else v for k, v in vars(effects).items()}
    return type(effects)(**fields)
