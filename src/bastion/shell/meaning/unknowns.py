"""Whether the unknown values of a command line all land where they cannot hurt.

The parser refuses ``$(…)``, loops, ``if`` and ``$!`` as too complex, but for those it
can follow it marks every command that depends on them (``TooComplex.soft``,
:class:`~bastion.shell.syntax.script.Unknown`). This module answers for the marks:

* a command inside ``$(…)``, a loop or an ``if`` (``inner``), a command after ``cd``
  to unknown text (``cwd``), and a command holding an unknown value must each be
  harmless on its own: known, read-only, without findings, writing nothing;
* an unknown value is never the program, never a path (except ``<(…)``, a file that
  is read), never a program text handed to a shell, interpreter or ``sed`` unless it
  is a number, never an option (only values whose shape cannot start with ``-``, see
  :mod:`bastion.shell.syntax.shapes`, stand where an option could), and free text
  only lands in what is printed or compared (``echo``, ``printf``'s arguments, ``[``);
* a later pipeline stage that reads what such a command printed must be harmless too
  (``echo "$(cat f)" | sh`` runs it);
* after ``cd`` to unknown text, a command names no file but the folder itself.

When they all hold, the commands are judged as written (what they read and where they
run counts as usual); otherwise the line stays too complex, an immune ask as before.
"""

from __future__ import annotations

from ...model import Tier
from ...precompiled import regex
from ..catalog import catalog as C
from ..syntax.script import SimpleCommand, Unknown
from ..syntax.shapes import NUMBER, PATH, TEXT, no_option
from .facts import Facts
from .models import MODELS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["resolved"]

#: Programs that run an argument as code: only a number may land there.
_CODE_TAKERS = frozenset(C.SHELLS) | frozenset(C.INTERPRETERS) | frozenset(MODELS) | {"sed", "gsed", "eval", "source", "."}
#: Programs whose arguments are only printed or compared: free text may land there
#: (``printf``'s first argument is its format, which ``-v`` would turn into an assignment).
_DATA_TAKERS = frozenset({"echo", "[", "test", ":", "true"})
_HARMLESS_TIERS = frozenset({Tier.READ_ONLY, Tier.LOW_RISK})
#: Builtins whose words are ``NAME=value`` assignments.
_DECLARATIONS = frozenset({"export", "declare", "local", "readonly", "typeset"})
_ASSIGNED = regex(r"[A-Za-z_][A-Za-z0-9_]*\+?=")


def resolved(commands: Sequence[SimpleCommand], facts: Sequence[Facts]) -> bool:
    """True when every mark on ``commands`` (the parser's, one fact each) is answered."""
    if len(commands) != len(facts):
        return False
    stages: dict[int, list[Facts]] = {}
    for f in facts:
        if f.cmd.pipeline >= 0:
            stages.setdefault(f.cmd.pipeline, []).append(f)
    for cmd, f in zip(commands, facts, strict=True):
        marks = cmd.unknowns
        if not marks:
            continue
        if not _harmless(f):
            return False
        words = [m for m in marks if m.kind == "word"]
        if any(m.kind == "cwd" for m in marks) and any(p.path not in (".", "./") for p in f.paths):
            return False
        if any(not _lands_well(cmd, f, m) for m in words):
            return False
        if words and cmd.pipeline >= 0:
            later = [g for g in stages.get(cmd.pipeline, ()) if g.cmd.pipe_index > cmd.pipe_index]
            if not all(_harmless(g) for g in later):
                return False
    return True


def _harmless(f: Facts) -> bool:
    """Known, read-only, no findings, and every file it names only read."""
    return (f.known and not f.hits and f.tier in _HARMLESS_TIERS and not f.runs and not f.nested
            and all(p.op == "read" for p in f.paths))


def _lands_well(cmd: SimpleCommand, f: Facts, mark: Unknown) -> bool:
    argv = cmd.argv
    raw = mark.raw
    if argv and raw in argv[0]:
        return False  # the program itself
    name = f.name
    for access in f.paths:
        if raw in access.path and not (mark.shape == "fd" and access.op == "read") and name not in ("cd", "pushd"):
            return False  # a path bastion cannot know
    shape = TEXT if mark.split and mark.shape not in (NUMBER, "ref") else mark.shape
    if shape == NUMBER:
        return True
    if name in _CODE_TAKERS or (not any(raw in word for word in argv) and f.cmd.redirects):
        return False  # code for a program, or text on its stdin (a here-document it may run)
    if shape == "fd":
        return True  # a file to read, named /dev/fd/N: never an option or code
    if no_option(shape) or shape == PATH:
        return True
    if name == "printf":
        return len(argv) > 1 and raw not in argv[1]
    if name in _DECLARATIONS:
        # ``export X=$(…)``: a value (the parser refuses it for names that steer code)
        return all(_ASSIGNED.match(word) and raw not in word.split("=", 1)[0] for word in argv[1:] if raw in word)
    return not argv or name in _DATA_TAKERS
