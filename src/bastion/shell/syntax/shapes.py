"""What the text a command prints can look like, when its words alone say so.

``$(git merge-base HEAD main)`` is not known, but it is a commit name: no blank, no
leading ``-``, so as an argument it is one word and never an option. ``$(date +%s)``,
``$!`` and ``$((n+1))`` are numbers: they cannot carry code even into a ``sed`` script.
A value from a substitution is never trusted as a path or a program
(:mod:`bastion.shell.meaning.unknowns` judges where it lands); its shape only says
which argument positions it cannot subvert. A variable the line does not set
(``${PIPESTATUS[0]}``, ``$PATH``) has the shape :data:`VARIABLES` gives it.

Shapes, from the narrowest: ``number`` (digits), ``ref`` (one word without a blank or
a leading ``-``: a commit, a branch, a date stamp), ``path`` (an absolute path, which
may hold blanks), ``text`` (anything). Each record of :data:`PRODUCERS` and
:data:`FILTERS` is one fact about one program, with why and examples.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import NamedTuple
else:
    from ...named_tuple import NamedTuple

__all__ = ["NUMBER", "REF", "PATH", "TEXT", "VARIABLES", "output_shape", "literal_shape", "variable_shape", "widest",
           "no_option"]

NUMBER, REF, PATH, TEXT = "number", "ref", "path", "text"
_ORDER = (NUMBER, REF, PATH, TEXT)
#: A ``grep -n`` line, ``N:text``: only ``cut -d: -f1`` makes a number of it.
_NUMBERED = "numbered"


class Shape(NamedTuple):
    """One program's output shape: ``judge(args, shape_in)`` returns it or None."""

    names: tuple[str, ...]
    judge: Callable[[Sequence[str], str | None], str | None]
    why: str
    match: tuple[str, ...]
    not_match: tuple[str, ...]


def widest(shapes: Sequence[str]) -> str:
    """The shape that covers all of ``shapes`` (text when empty)."""
    return max(shapes, key=_ORDER.index) if shapes and all(s in _ORDER for s in shapes) else TEXT


def no_option(shape: str) -> bool:
    """Whether a value of ``shape`` can never start with ``-`` (be read as an option)."""
    return shape in (NUMBER, REF, PATH)


def literal_shape(words: Sequence[str]) -> str:
    """The shape covering literal words (a long ``for`` list)."""
    if all(w.isdigit() for w in words):
        return NUMBER
    if all(w and not w.startswith("-") and not any(c.isspace() for c in w) for w in words):
        return REF
    return TEXT


def _operands(args: Sequence[str]) -> list[str]:
    return [a for a in args if not a.startswith("-") or a == "-"]


def _pwd(args: Sequence[str], _in: str | None) -> str | None:
    return PATH if all(a in ("-L", "-P") for a in args) else None


def _mktemp(args: Sequence[str], _in: str | None) -> str | None:
    # without -t/-p a template is relative to the folder: only the default is absolute
    return PATH if all(a in ("-d", "-q", "-u") for a in args) else None


def _git(args: Sequence[str], _in: str | None) -> str | None:
    rest = list(args)
    while len(rest) >= 2 and rest[0] == "-C":
        rest = rest[2:]
    if not rest:
        return None
    sub, more = rest[0], rest[1:]
    if sub == "rev-parse":
        if more in (["--show-toplevel"], ["--absolute-git-dir"]):
            return PATH
        flags = [a for a in more if a.startswith("-")]
        if all(f in ("--short", "--verify", "-q", "--quiet", "--abbrev-ref") or f.startswith("--short=") for f in flags):
            return REF if _operands(more) else None
        return None
    if sub in ("merge-base", "describe") and all(not a.startswith("-") or a in ("--tags", "--always", "--abbrev=7")
                                                  for a in more):
        return REF
    if sub == "branch" and more == ["--show-current"]:
        return REF
    if sub == "rev-list" and all(not a.startswith("-") or a in ("--max-parents=0", "--reverse") or
                                 a.startswith(("--max-count=", "-n")) for a in more):
        return REF
    return None


def _date(args: Sequence[str], _in: str | None) -> str | None:
    formats = [a for a in args if a.startswith("+")]
    if len(formats) != 1:
        return None
    fmt = formats[0][1:]
    if fmt == "%s":
        return NUMBER
    if fmt and not fmt.startswith("-") and all(c.isalnum() or c in "%-_:.T" for c in fmt):
        return REF
    return None


def _count(args: Sequence[str], _in: str | None) -> str | None:
    # with file operands wc prints "N file"; on stdin only the number
    return NUMBER if not _operands(args) and all(a in ("-l", "-c", "-w", "-m") for a in args) else None


def _grep(args: Sequence[str], shape_in: str | None) -> str | None:
    flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    files = _operands(args)[1:]
    if "r" in flags or "R" in flags or "H" in flags or len(files) > 1 or any(a.startswith("--") for a in args):
        return None  # file names lead each line
    if "c" in flags:
        return NUMBER
    return _NUMBERED if "n" in flags else (shape_in if shape_in in (NUMBER, REF) else None)


def _numbers(_args: Sequence[str], _in: str | None) -> str | None:
    return NUMBER


def _keep(args: Sequence[str], shape_in: str | None) -> str | None:
    # head/tail/sort/uniq pass lines through (options that add text are not here)
    if _operands(args) or any(a in ("-c", "--count", "-o") or a.startswith("--output") for a in args):
        return None
    return shape_in


def _cut(args: Sequence[str], shape_in: str | None) -> str | None:
    if _operands(args):
        return None
    if shape_in == _NUMBERED and ("-d:" in args or "-d" in args and ":" in args) and ("-f1" in args or "1" in args):
        return NUMBER
    return shape_in if shape_in in (NUMBER, REF) else None


def _query_path(args: Sequence[str], _in: str | None) -> str | None:
    return PATH if not _operands(args) or args[:1] in (["-v"], ["--show-sdk-path"]) else None


#: Programs whose output shape follows from their words.
PRODUCERS: tuple[Shape, ...] = (
    Shape(("pwd",), _pwd, "prints the folder, an absolute path", ("$(pwd)",), ("$(pwd -x)",)),
    Shape(("mktemp",), _mktemp, "prints the absolute path of the file it made in the temp folder",
          ("$(mktemp)", "$(mktemp -d)"), ("$(mktemp x.XXX)",)),
    Shape(("java_home", "xcode-select", "xcrun"), _query_path,
          "print where a toolchain lives (java_home -v 17, xcrun --show-sdk-path, xcode-select -p)",
          ("$(/usr/libexec/java_home -v 17)", "$(xcrun --show-sdk-path)"), ("$(xcrun swiftc x.swift)",)),
    Shape(("git",), _git,
          "rev-parse, merge-base, describe, rev-list and branch --show-current print commit and branch names "
          "(no blank, never a leading -); rev-parse --show-toplevel prints an absolute path",
          ("$(git merge-base HEAD main)", "$(git rev-parse --short HEAD)", "$(git branch --show-current)"),
          ("$(git log -1)", "$(git diff)")),
    Shape(("date",), _date, "+%s prints seconds; a format of letters and %-codes prints one word",
          ("$(date +%s)", "$(date +%Y-%m-%d)"), ("$(date)", "$(date '+%H %M')")),
    Shape(("wc",), _count, "counts what it reads on stdin: a number", ("$(wc -l < f)", "$(ls | wc -l)"),
          ("$(wc -l f)",)),
    Shape(("grep", "rg"), _grep, "-c counts matches in one input; -n leads each line with its number",
          ("$(grep -c TODO a.py)",), ("$(grep -rc TODO .)", "$(grep TODO a.py)")),
    Shape(("nproc", "seq"), _numbers, "print numbers", ("$(nproc)", "$(seq 1 5)"), ()),
)

#: Programs that pass lines through (later pipeline stages): the shape they keep or make.
FILTERS: tuple[Shape, ...] = (
    Shape(("head", "tail", "sort", "uniq"), _keep, "pass some of the lines they read through unchanged",
          ("$(git rev-list HEAD | head -1)",), ("$(uniq -c)",)),
    Shape(("cut",), _cut, "the first :-field of a grep -n line is its number",
          ("$(grep -n 'def f' a.py | cut -d: -f1)",), ("$(grep -rn x . | cut -d: -f1)",)),
    Shape(("wc",), _count, "counts the lines it reads", ("$(ls | wc -l)",), ()),
    Shape(("grep",), _grep, "-c counts, a plain grep keeps what it reads", ("$(seq 10 | grep 1)",), ()),
)


class Variable(NamedTuple):
    """The shape of a variable the line does not set: bash sets it, or the environment."""

    names: tuple[str, ...]
    shape: str
    why: str
    match: tuple[str, ...]
    not_match: tuple[str, ...]


#: Variables the line itself does not assign (an assignment earlier on the line wins:
#: its value is followed instead). Their value is unknown, so like a substitution's it
#: is judged by where it lands (``meaning.unknowns``): a number may stand anywhere but a
#: program's name; text only where it is printed or compared. A secret-looking name is
#: asked for as before (``semantics``: reading a secret variable).
VARIABLES: tuple[Variable, ...] = (
    Variable(("PIPESTATUS",), NUMBER, "bash's exit statuses of the last pipeline's commands",
             ("pytest; echo ${PIPESTATUS[0]}", "ls | head -1; exit ${PIPESTATUS[0]}"), ("$PIPESTATUS -c x",)),
    Variable(("RANDOM", "SECONDS", "EPOCHSECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID", "SHLVL", "COLUMNS",
              "LINES", "OPTIND"), NUMBER, "bash sets them to numbers (a counter, a clock, a process or user id)",
             ("sleep $RANDOM", "echo took $SECONDS s"), ()),
    Variable(("PATH", "MANPATH", "INFOPATH", "PYTHONPATH", "NODE_PATH", "GOPATH", "CDPATH", "LD_LIBRARY_PATH",
              "HOME", "SHELL", "USER", "LOGNAME", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "TERM", "LANG", "LC_ALL",
              "TMPDIR", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "BASH_VERSION", "ZSH_VERSION", "EDITOR",
              "PWD", "OLDPWD", "GOROOT", "JAVA_HOME", "NVM_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"),
             TEXT, "set by the environment the agent runs in: printing or comparing them reads nothing else",
             ("echo $PATH | tr ':' '\\n'", 'echo "$VIRTUAL_ENV"', '[ -n "$CONDA_PREFIX" ]'),
             ("$EDITOR notes.md", "rm -rf $TMPDIR/x", "sh -c $PATH")),
)

_VARIABLE = {name: record.shape for record in VARIABLES for name in record.names}


def variable_shape(name: str) -> str | None:
    """The shape of ``name`` (``PIPESTATUS[1]`` is an element of ``PIPESTATUS``) when the
    line does not set it, from :data:`VARIABLES`; None for a variable not listed."""
    base, bracket, index = name.partition("[")
    if bracket and not (index.endswith("]") and index[:-1].isdigit()):
        return None
    return _VARIABLE.get(base)


_PRODUCE = {name: record.judge for record in PRODUCERS for name in record.names}
_FILTER = {name: record.judge for record in FILTERS for name in record.names}


def output_shape(stages: Sequence[Sequence[str]] | None) -> str:
    """The shape of what a pipeline of literal commands prints (``text`` when not known)."""
    if not stages:
        return TEXT
    shape: str | None = None
    for index, argv in enumerate(stages):
        if not argv:
            return TEXT
        name = argv[0].rsplit("/", 1)[-1]
        judge = (_PRODUCE if index == 0 else _FILTER).get(name)
        # a stage whose output is not known may still feed one that counts (``ls | wc -l``)
        shape = judge(argv[1:], shape) if judge is not None else None
    return shape if shape in _ORDER else TEXT
