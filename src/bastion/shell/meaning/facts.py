"""The record the shell analyser keeps per simple command, and helpers the checks share.

``Facts`` collects a command's tier, findings (``Hit``: a code from ``intents.CODES``
and a detail), the files it touches, the hosts it talks to and its *roles* in a
pipeline (``fetch``: prints remote content; ``send``: can carry data out;
``exec_stdin``: runs what it reads; ``decode``; ``env_dump``; ``raw_socket``).
``Facts.hit`` raises the tier with the finding: an ask makes a command at least
high-risk, a destructive finding or a hard block makes it destructive.
"""

from __future__ import annotations

from _collections_abc import Callable  # collections.abc's classes, loaded with os
from dataclasses import dataclass, field

from ...model import Severity, Tier
from ..catalog import catalog as C
from ..catalog.intents import CODES
from ..syntax.lazyre import LazyPattern
from ..syntax.script import Script, SimpleCommand, TooComplex
from .paths import PathAccess, resolve
from .targets import within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol
else:
    Protocol = object  # a protocol is for type checkers: at runtime its class is a plain one

R, L, H = Tier.READ_ONLY, Tier.LOW_RISK, Tier.HIGH_RISK


class Analyser(Protocol):
    """What the checks may ask of the analyser that calls them (``semantics`` provides
    it): classify a simple command, and whether a command name has a checker."""

    def classify(self, cmd: SimpleCommand, ctx: Ctx) -> Facts: ...

    def knows(self, name: str) -> bool: ...


@dataclass(frozen=True)
class Ctx:
    """Where the script runs: the call's cwd, the agent's home, the workspace roots."""

    cwd: str
    home: str
    roots: tuple[str, ...]
    #: The analyser's entry point (``semantics.ANALYSER``): a check that runs another
    #: command (``xargs``, ``busybox``, ``python -m pip``, ``npx``) judges it through this.
    analyser: Analyser
    #: The raw command string (here-document bodies fed to interpreters are read from it).
    source: str = ""
    #: The parser's result for ``source``, when the analysis has it: a check that needs
    #: the whole line's commands reads them here (:func:`line_parsed`) instead of parsing
    #: the line again.
    parsed: Script | TooComplex | None = field(default=None, compare=False, repr=False)

    def inside(self, path: str) -> bool:
        for root in self.roots:  # a loop, not ``any`` over a generator: asked for most paths
            if within(path, root):
                return True
        return False


def line_parsed(ctx: Ctx) -> Script | TooComplex:
    """``parse(ctx.source)``: the analysis's own parse of it when it has one (the parser
    is a function of the text alone, so a second parse gives the same)."""
    if ctx.parsed is not None:
        return ctx.parsed
    from ..syntax.parse import parse

    return parse(ctx.source)


class Hit:
    """A finding's code and detail (a plain class: cheaper to define at import than a
    dataclass)."""

    __slots__ = ("code", "detail")

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail

    def __repr__(self) -> str:
        return f"Hit({self.code!r}, {self.detail!r})"


class Facts:
    """Everything the analyser learnt about one simple command.

    A plain class with slots: one is built for every simple command on every call, and
    most commands never need their ``label`` (it is made on first use)."""

    __slots__ = ("cmd", "name", "_label", "tier", "known", "hits", "paths", "hosts", "roles", "downloads",
                 "secrets", "nested", "spawns_shell", "base", "prints", "runs")

    def __init__(self, cmd: SimpleCommand, name: str, label: str | None = None) -> None:
        self.cmd = cmd
        self.name = name
        self._label = label
        self.tier: Tier = R
        self.known = True
        self.hits: list[Hit] = []
        self.paths: list[PathAccess] = []
        self.hosts: list[str] = []
        self.roles: set[str] = set()
        #: Resolved files this command downloads into (for download-then-execute).
        self.downloads: list[str] = []
        #: Secret files it reads: (resolved path, level).
        self.secrets: list[tuple[str, int]] = []
        #: Shell command strings found in interpreter code, analysed again by analyse.py.
        self.nested: list[str] = []
        #: The command starts a shell itself (``find -exec /bin/sh``, ``awk 'BEGIN{system("sh")}'``).
        self.spawns_shell = False
        self.base = "/"
        #: The constant text an interpreter program prints (``program.ProgramEffects``):
        #: piped into a shell, that text is the command that runs.
        self.prints: str | None = None
        #: Project files this command runs, read from disk: ``(language, text, file)``
        #: (a script, a Makefile recipe, a package.json script). Judged by their effects
        #: (:func:`analyse._file_programs`): catastrophic ones deny, the files they touch
        #: reach the file layers; running project code is not a question by itself.
        self.runs: list[tuple[str, str, str]] = []

    @property
    def label(self) -> str:
        """The command as shown in findings (its words, shortened)."""
        if self._label is None:
            label = short(self.cmd)
            self._label = label if self.cmd.argv else (label or "redirection")  # a bare ``> file``
        return self._label

    @label.setter
    def label(self, value: str) -> None:
        self._label = value

    def __repr__(self) -> str:
        return f"Facts({self.name!r}, tier={self.tier.value}, hits={self.hits!r})"

    def hit(self, code: str, detail: str = "") -> None:
        """Record a finding; the command's tier rises with it (an ask is at least
        high-risk, a destructive finding or a hard block makes it destructive)."""
        self.hits.append(Hit(code, detail or self.label))
        info = CODES[code]
        if info.destructive:
            self.tier = Tier.DESTRUCTIVE
        elif info.severity is not Severity.LOW:
            self.tier = self.tier.max(H)

    def at_least(self, tier: Tier) -> None:
        if tier is not self.tier:
            self.tier = self.tier.max(tier)


Checker = Callable[[Facts, tuple[str, ...], Ctx], None]

# =========================================================================== helpers


def short(cmd: SimpleCommand, limit: int = 80) -> str:
    text = " ".join(cmd.argv) if cmd.argv else (cmd.text or "")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def risky_options(args: tuple[str, ...], risky: Mapping[str, str]) -> list[tuple[str, str]]:
    """Risky options present in ``args``: exact, ``--x=value``, or a short letter in a cluster."""
    if not risky:
        return []
    found: list[tuple[str, str]] = []
    for arg in args:
        if arg == "--":
            break
        if not arg.startswith("-"):
            continue
        code = risky.get(arg)
        if code is None and arg.startswith("--"):
            code = risky.get(arg.split("=", 1)[0])
        if code is not None:
            found.append((arg, code))
            continue
        if not arg.startswith("--") and len(arg) > 2:
            for letter in arg[1:]:
                code = risky.get("-" + letter)
                if code is not None:
                    found.append((arg, code))
                    break
    return found


def host_of(word: str) -> str | None:
    """The host in a URL, ``user@host:path``, or ``user@host``."""
    if "://" in word:
        rest = word.split("://", 1)[1]
        host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        host = host.rsplit("@", 1)[-1]
        if host.startswith("["):
            return host[1:].split("]", 1)[0] or None
        return host.split(":", 1)[0] or None
    if "@" in word and not word.startswith("-") and "/" not in word.split("@", 1)[0]:
        host = word.split("@", 1)[1].split(":", 1)[0].split("/", 1)[0]
        return host or None
    head, sep, _ = word.partition(":")
    if sep and head and "/" not in head and ("." in head or head == "localhost") and not head.startswith("-") and "=" not in head:
        return head
    return None


def urls(words: list[str] | tuple[str, ...]) -> list[str]:
    return [w for w in words if "://" in w and not w.startswith("-")]


def is_path_word(word: str) -> bool:
    return word.startswith(("/", "~", "./", "../", "$HOME")) or ("/" in word and not word.startswith("-") and "://" not in word)


def dynamic(word: str) -> bool:
    return "$" in word or "`" in word


def destructive_verb(word: str) -> bool:
    low = word.lower()
    return low in C.DESTRUCTIVE_VERBS or low.startswith(C.DESTRUCTIVE_VERB_PREFIXES)


def apply_value(f: Facts, value: str, detail: str) -> None:
    if value == "r":
        return
    if value == "l":
        f.at_least(L)
        return
    if value == "?":
        f.known = False
        f.at_least(H)
        return
    f.hit(value, detail)


def exec_file(f: Facts, path: str, ctx: Ctx, top: str | None = None) -> None:
    """A script or binary from a file runs: routine inside the workspace, and its text
    is read (``scripts.script_of``) so it is judged by what it does (``Facts.runs``).
    A file inside the workspace that cannot be read asks; a missing one only when an
    earlier command of this line may make it unseen (:func:`_not_made_yet`). A shell
    given a bare name the folder lacks runs the one on PATH (:func:`_script_on_path`),
    which is read instead. The
    project modules a Python or JavaScript program imports are read too; ``top`` is
    where its absolute imports are found (the script's folder by default; the working
    directory for ``python -m``)."""
    from .scripts import Unreadable, imported_files, runner_of, script_of, syntax_only

    if f.name in PATH_SCRIPT_SHELLS and not syntax_only("sh", f.cmd.argv[1:]):
        path = _script_on_path(f, path) or path
    inside = ctx.inside(path)
    if inside:
        f.at_least(L)
        f.hit("CAT032", f.label)
    else:
        f.hit("CAT006", f"{f.label} (runs {path}, outside the workspace)")
    head = f.cmd.argv[0] if f.cmd.argv else ""
    runner = runner_of(f.name, path, resolve(head, f.base, ctx.home) if "/" in head else head)
    if runner and syntax_only(runner, f.cmd.argv[1:]):
        return  # ``bash -n x.sh``, ``node --check x.js``: nothing in the file runs
    read = script_of(path, ctx, runner)
    if isinstance(read, tuple):
        f.runs.append((read[0], read[1], path))
        f.runs.extend(imported_files(read[0], read[1], path, top or path.rsplit("/", 1)[0] or "/", ctx))
    elif isinstance(read, Unreadable) and inside and not (read.missing and _not_made_yet(f, path, ctx)):
        f.hit("CAT006", f"{f.label} ({path}: {read.reason})")


#: Shells that look a script name written without a folder up on PATH when the folder
#: has no such file (``bash x.sh``; POSIX allows it of ``sh``, which is bash on macOS).
#: zsh does so only with PATH_SCRIPT set, dash and fish not at all.
PATH_SCRIPT_SHELLS = frozenset({"sh", "bash", "rbash", "ksh", "mksh", "pdksh", "yash"})


def _script_on_path(f: Facts, path: str) -> str | None:
    """The file a PATH-searching shell runs instead of the missing ``path``: the first
    text file of that name on PATH. None when the word was written with a folder
    (``./x.sh``), the file is in the folder, or PATH has none (bash refuses a binary):
    then the command only fails, as any missing script does."""
    import os

    name = path.rsplit("/", 1)[-1]
    if os.path.lexists(path) or name not in f.cmd.argv[1:]:
        return None
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, name)
        if folder and os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as handle:
                    return None if b"\0" in handle.read(80) else candidate
            except OSError:
                return candidate  # cannot be read: judged as unreadable
    return None


def _not_made_yet(f: Facts, path: str, ctx: Ctx) -> bool:
    """A missing file nothing before it in this command line can have made unseen:
    only read-only commands run before it (``python3 script.py`` alone, ``sleep 5 &&
    ./x.sh``, ``find . | xargs ./x.sh``: it fails, running nothing), or an earlier
    command names it (``gcc -o x x.c && ./x``: built from the project's sources, judged
    as today). Otherwise it asks (``git pull && ./deploy.sh``: it may arrive unread)."""
    from .scripts import earlier_commands

    text = f.cmd.text
    at = ctx.source.find(text) if text else -1
    if at == 0 or not ctx.source:  # first on its line, or judged alone (no line around it)
        return True
    if at < 0:
        return False
    before = ctx.source[:at]
    if f.cmd.origin != "top" and _SHELL_OPENING.fullmatch(before):
        return True  # ``zsh -lc './x -V'``: only the shell that runs it comes before it
    name = path.rsplit("/", 1)[-1]
    import re

    if name and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", before):
        return True
    for cmd in earlier_commands(before):
        g = ctx.analyser.classify(cmd, ctx)
        if g.tier is not R or not g.known or any(a.op != "read" for a in g.paths):
            return False
        if g.name in C.PAGERS or g.name in C.INTERACTIVE:  # a pager or editor writes what its user types
            return False
    return True


#: A line that so far only opens a shell's command string (``/bin/zsh -lc '``).
_SHELL_OPENING = LazyPattern(r"\s*(?:[\w./-]*/)?(?:ba|z|da|k)?sh(?:\s+-[a-zA-Z]+)*?\s+-[a-zA-Z]*c[a-zA-Z]*\s+['\"]\s*")


SHELL_WORD = LazyPattern(r"(?:^|[\s\"'(/!])(?:ba|z|da|k)?sh\b(?!\.)")


#: File names that are the program's own stdin (``python3 -``, ``awk -f /dev/stdin``,
#: ``make -f -``).
STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


SHELL_PATHS = frozenset({"/bin/sh", "/bin/bash", "/bin/dash", "/bin/zsh", "/bin/ksh", "/usr/bin/sh", "/usr/bin/bash", "/usr/bin/zsh", "/bin/csh", "/bin/tcsh", "/bin/ash", "/bin/busybox"})


def secret_var(name: str) -> bool:
    upper = name.upper().lstrip("${").rstrip("}")
    return any(hint in upper for hint in C.SECRET_VAR_HINTS)


def judge_as(f: Facts, argv: tuple[str, ...], ctx: Ctx) -> None:
    """``f`` runs ``argv`` (``uv run pytest``, ``npx vitest``, ``python -m django test``):
    what that command does is what ``f`` does."""
    cmd = f.cmd
    sub = ctx.analyser.classify(SimpleCommand(argv, cmd.assignments, cmd.redirects, cmd.wrappers + (f.name,), cmd.cwd, cmd.origin, cmd.text, cmd.depth, cmd.pipeline, cmd.pipe_index, cmd.background), ctx)
    f.tier = f.tier.max(sub.tier)
    f.known = sub.known
    f.hits.extend(sub.hits)
    f.roles |= sub.roles
    f.hosts.extend(sub.hosts)
    f.paths.extend(sub.paths)
    f.downloads.extend(sub.downloads)
    f.secrets.extend(sub.secrets)
    f.nested.extend(sub.nested)
    f.spawns_shell = f.spawns_shell or sub.spawns_shell
    f.runs.extend(sub.runs)  # ``uv run pytest``: the conftest.py files pytest imports
    if not sub.known:
        f.label = sub.label
