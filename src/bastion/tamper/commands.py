"""Reading command lines: names without path or version, and how bastion is invoked
(``bastion``, ``/any/path/bastion``, ``python -m bastion``, ``uvx``/``uv run``/``uv tool
run``/``pipx run bastion``)."""

from __future__ import annotations

from ..shell.syntax.lazyre import LazyPattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def base_name(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def command_name(word: str) -> str:
    """A command name without path and version (``/usr/bin/python3.11`` → ``python``)."""
    base = base_name(word).lower()
    return base.rstrip("0123456789.") or base


def is_abbreviation(arg: str, option: str, shortest: int) -> bool:
    """``arg`` is ``option`` or an argparse abbreviation of it (``--no-ch``), at least
    ``shortest`` characters long so that it is unambiguous among its verb's options."""
    name = arg.split("=", 1)[0]
    return len(name) >= shortest and option.startswith(name)


def option_value(args: Sequence[str], option: str, shortest: int) -> str | None:
    for i, arg in enumerate(args):
        if arg == "--":
            return None
        if arg.startswith("--") and is_abbreviation(arg, option, shortest):
            if "=" in arg:
                return arg.split("=", 1)[1]
            return args[i + 1] if i + 1 < len(args) else ""
    return None

PYTHON = LazyPattern(r"^(?:python|pypy)[\d.]*$")

#: Names that may launch bastion besides a Python interpreter.
LAUNCHERS = frozenset({"bastion", "uvx", "uv", "pipx"})

_BASTION_MODULES = frozenset({"bastion", "bastion.cli", "bastion.__main__"})

#: Options of uvx / uv run / uv tool run / pipx run that take a value (so the value is
#: not the command they run).
_RUNNER_VALUE_OPTS = frozenset(
    "--from --spec --with --with-editable --with-requirements --python -p --index-url -i --extra-index-url "
    "--index --default-index --directory --project --env-file --pip-args --package --group --extra "
    "--constraints -c --overrides --build-constraints -w --find-links -f --cache-dir --config-file".split()
)


def python_module(args: Sequence[str]) -> tuple[str, tuple[str, ...]] | None:
    """``(module, rest)`` for ``python [options] -m MODULE rest…``; a script path counts
    as its base name (``python ~/.local/bin/bastion trust`` → ``("bastion", …)``)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg.startswith("--"):
            i += 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            for j, ch in enumerate(arg[1:], start=1):
                if ch == "c":
                    return None  # inline code: read by the interpreter-code rule
                if ch in "mXW":
                    value = arg[j + 1 :] or (args[i + 1] if i + 1 < len(args) else "")
                    skip = 1 if arg[j + 1 :] else 2
                    if ch == "m":
                        return value, tuple(args[i + skip :])
                    i += skip - 1
                    break
            i += 1
            continue
        break
    if i < len(args) and args[i] not in ("-",):
        return base_name(args[i]), tuple(args[i + 1 :])
    return None


def _runner_command(args: Sequence[str]) -> tuple[str, ...]:
    """The command a package runner runs: its first operand that is not an option's value."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return tuple(args[i + 1 :])
        if arg.startswith("-"):
            i += 2 if arg in _RUNNER_VALUE_OPTS else 1
            continue
        return tuple(args[i:])
    return ()


def first_operand(args: Sequence[str]) -> int:
    for i, arg in enumerate(args):
        if not arg.startswith("-"):
            return i
    return len(args)


def bastion_args(argv: Sequence[str], depth: int = 0) -> tuple[str, ...] | None:
    """The arguments bastion's CLI gets when ``argv`` runs it, or None when it does not."""
    if not argv or depth > 3:
        return None
    name = command_name(argv[0])
    args = tuple(argv[1:])
    if name == "bastion":
        return args
    if PYTHON.match(name):
        found = python_module(args)
        if found is not None and found[0] in _BASTION_MODULES:
            return found[1]
        return None
    if name == "uvx":
        return bastion_args(_runner_command(args), depth + 1)
    if name in ("uv", "pipx"):
        i = first_operand(args)
        sub = args[i : i + 2]
        if name == "uv" and sub[:2] == ("tool", "run"):
            return bastion_args(_runner_command(args[i + 2 :]), depth + 1)
        if sub[:1] == ("run",):
            return bastion_args(_runner_command(args[i + 1 :]), depth + 1)
    return None


def _is_help(arg: str) -> bool:
    return arg == "-h" or (arg.startswith("--") and is_abbreviation(arg, "--help", 3))


def verb_of(args: Sequence[str]) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """``(verb, options-part, after --)`` of a bastion invocation, or None when it only
    prints help (``bastion uninstall --help`` removes nothing)."""
    cut = args.index("--") if "--" in args else len(args)
    head, tail = tuple(args[:cut]), tuple(args[cut + 1 :])
    if not head or any(_is_help(a) for a in head):
        return None
    return head[0], head[1:], tail
