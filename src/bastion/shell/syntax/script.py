"""What the shell parser hands to the rest of bastion.

A command string becomes either a :class:`Script` (every simple command understood,
with decoded words) or :class:`TooComplex` (something the parser refuses to interpret;
``partial`` still carries every simple command it could extract, so hard blocks can be
found even inside loops and substitutions).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from ...named_tuple import NamedTuple


class Unknown(NamedTuple):
    """Why a command depends on something bastion does not know, for the analysis to
    judge (:mod:`bastion.shell.meaning.unknowns`). ``kind``: ``word`` (an argument holds
    text a substitution, a loop or ``$!`` gives: ``raw`` as written, ``shape`` what that
    text can look like, ``split`` when unquoted, so it may become several words),
    ``inner`` (the command runs inside ``$(…)``, a loop or an ``if``: it must itself be
    harmless), ``cwd`` (it runs in a folder a ``cd`` to such text reached)."""

    kind: str
    raw: str = ""
    shape: str = ""
    split: bool = False


@dataclass(frozen=True)
class Redirect:
    """One redirection: ``op`` as written (``>``, ``>>``, ``<``, ``&>``, ``>|``, ``<<``,
    ``<<<``, ``>&`` …), the file descriptor if one was given, and the decoded target
    (the text itself for a here-string, which ``ruby <<< 'code'`` runs; empty for a
    here-document, whose body is not a path)."""

    op: str
    target: str
    fd: int | None = None

    @property
    def writes(self) -> bool:
        return ">" in self.op and not self.op.startswith("<")

    @property
    def reads(self) -> bool:
        return self.op in ("<", "<>")


@dataclass(frozen=True)
class SimpleCommand:
    """One command that would run, after wrappers were peeled off.

    ``argv`` is the effective command (``sudo -u x timeout 5 rm -rf d`` has
    ``argv == ("rm", "-rf", "d")`` and ``wrappers == ("sudo", "timeout")``).
    ``cwd`` is the directory it runs in when an earlier ``cd`` changed it (relative to
    the call's working directory, or absolute), ``None`` when unchanged.
    ``origin`` says where it came from: ``top``, ``bash -c``, ``eval``, ``source``,
    ``xargs``, ``find -exec``, ``substitution``, ``process-substitution`` …
    """

    argv: tuple[str, ...]
    assignments: tuple[tuple[str, str], ...] = ()
    redirects: tuple[Redirect, ...] = ()
    wrappers: tuple[str, ...] = ()
    cwd: str | None = None
    origin: str = "top"
    text: str = ""
    depth: int = 0
    #: Pipelines: commands joined by ``|`` share a ``pipeline`` number (unique within the
    #: script; -1 when the command is not part of a pipeline) and have ``pipe_index``
    #: 0, 1, 2 … from left to right, so ``curl x | sh`` can be recognised.
    pipeline: int = -1
    pipe_index: int = 0
    #: True when the command runs in the background (``cmd &``).
    background: bool = False
    #: What it depends on that is not known (only in a :class:`TooComplex` that is ``soft``).
    unknowns: tuple[Unknown, ...] = ()

    @property
    def name(self) -> str:
        """The command's base name (``/bin/rm`` → ``rm``); empty for a bare assignment."""
        if not self.argv:
            return ""
        return self.argv[0].rsplit("/", 1)[-1]

    @property
    def args(self) -> tuple[str, ...]:
        return self.argv[1:]


@dataclass(frozen=True)
class Script:
    """A command string the parser fully understood."""

    commands: tuple[SimpleCommand, ...]
    findings: tuple[Finding, ...] = ()
    source: str = ""
    #: Texts parsed again as code, as :attr:`TooComplex.code`.
    code: tuple[tuple[str, tuple[SimpleCommand, ...]], ...] = ()

    complex: bool = field(default=False, init=False)


@dataclass(frozen=True)
class TooComplex:
    """A command string with constructs bastion will not interpret; the caller asks."""

    reason: str
    partial: tuple[SimpleCommand, ...] = ()
    findings: tuple[Finding, ...] = ()
    source: str = ""
    #: Texts parsed again as code (``bash -c`` strings, here-documents and literals fed
    #: to a shell, scripts written then run), each with the commands extracted from it:
    #: what only the raw text shows (a fork bomb's function) is looked for in them too.
    code: tuple[tuple[str, tuple[SimpleCommand, ...]], ...] = ()
    #: Every reason is an unknown value (``$(…)``, a loop, ``$!``) whose uses the commands'
    #: ``unknowns`` list: the analysis may find them all harmless and judge the commands.
    soft: bool = False

    complex: bool = field(default=True, init=False)

    @property
    def commands(self) -> tuple[SimpleCommand, ...]:
        return self.partial


ParseResult = Script | TooComplex
