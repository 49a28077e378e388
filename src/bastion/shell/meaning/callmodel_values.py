"""The values the call-table model folds (``callmodel``): the home directory marker,
file handles, fetched text, sockets, command objects and tokens, with the two decoding
helpers its tables share. A leaf module, so the lexers, word readers and tables can use
these without importing the walker."""

from __future__ import annotations

from dataclasses import dataclass

from ...precompiled import pattern as compiled_pattern
from ...std_lite import cache
from .program import MAX_DECODED

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

__all__ = ["HOME", "Value", "Handle", "Fetched", "Sock", "Cmd", "Tok", "cap", "cformat"]

#: Stands for the home directory once its spellings are folded (private-use character).
HOME = "\ue000"

if TYPE_CHECKING:
    Value = Any  # str | list | Handle | Fetched | Sock | Cmd | None (unknown)
else:
    Value = object  # a name for type checkers: any value at run time


@dataclass
class Handle:
    """A file opened by the program (``mode`` ``>``, ``>>``, ``<``) or a pipe into a
    command (``mode`` ``|``, ``path`` the command)."""

    path: str | None
    mode: str


@dataclass
class Fetched:
    """Text that came over the network from ``url``."""

    url: str | None


@dataclass
class Sock:
    """A network socket."""


@dataclass
class Cmd:
    """A command object (julia backticks): an argv, run only when passed to ``run``."""

    argv: list[Any]


class Tok:
    """One token: kind ``s`` string, ``x`` backtick command, ``n`` number, ``i`` name,
    ``v`` sigil variable, ``o`` operator, ``r`` regex, ``;`` end of statement."""

    __slots__ = ("kind", "text", "value")

    def __init__(self, kind: str, text: str, value: Any = None) -> None:
        self.kind, self.text, self.value = kind, text, value

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{self.kind}:{self.text!r}"

    def op(self, *texts: str) -> bool:
        return self.kind == "o" and self.text in texts


@cache
def _re(pattern: str) -> re.Pattern[str]:
    """A pattern of bastion's own text (never a command's): kept, built without re."""
    return compiled_pattern(pattern)


# ----------------------------------------------------------------------- decoding helpers


def _num(v: Any) -> int | None:
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        s = v.strip().replace("_", "")
        try:
            if s.lower().startswith("0o"):
                return int(s[2:], 8)
            return int(s, 0) if not _re(r"0\d+").fullmatch(s) else int(s, 8)
        except ValueError:
            return None
    return None


def cap(v: Any) -> Any:
    """``v`` unless it is a string longer than :data:`MAX_DECODED` (then unknown)."""
    return None if isinstance(v, str) and len(v) > MAX_DECODED else v


def cformat(fmt: Any, args: list[Any]) -> str | None:
    """C ``printf`` formatting (awk, perl, php, lua, tcl, elisp): None if unsure."""
    if not isinstance(fmt, str):
        return None
    out: list[str] = []
    pos, k = 0, 0
    for m in _re(r"%([-+ 0#]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])").finditer(fmt):
        out.append(fmt[pos : m.start()])
        pos = m.end()
        conv = m.group(4)
        if conv == "%":
            out.append("%")
            continue
        if k >= len(args) or args[k] is None:
            return None
        arg = args[k]
        k += 1
        if conv == "c":
            n = _num(arg)
            text = chr(n) if n is not None else (arg[:1] if isinstance(arg, str) else None)
        elif conv == "s":
            text = arg if isinstance(arg, str) else None
        elif conv in "diu":
            n = _num(arg)
            text = None if n is None else str(n)
        elif conv in "xXo":
            n = _num(arg)
            text = None if n is None else format(n, conv)
        else:
            return None
        if text is None:
            return None
        width = int(m.group(2) or 0)
        out.append(text.ljust(width) if "-" in m.group(1) else text.rjust(width))
    out.append(fmt[pos:])
    return "".join(out)
