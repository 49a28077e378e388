"""Split a command's arguments into options and operands, getopt-style.

``rm -rf x``, ``rm -r -f x`` and ``rm --recursive --force x`` must look the same to the
catalog, so options are normalised: short clusters are split (``-rf`` → ``-r``, ``-f``),
``--name=value`` is split, and per-command aliases map long spellings to one name.
Which options take a value is per-command data (``value_opts``); without it ``-o out``
would make ``out`` look like an operand.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["Args", "parse_args"]


class Args:
    """Normalised options (in order, with values) and operands of one command."""

    __slots__ = ("options", "operands", "after_dashdash")

    def __init__(self, options: list[tuple[str, str | None]] | None = None, operands: list[str] | None = None,
                 after_dashdash: bool = False) -> None:
        self.options: list[tuple[str, str | None]] = options if options is not None else []
        self.operands: list[str] = operands if operands is not None else []
        #: Operands that came after ``--`` (never options, even when they start with ``-``).
        self.after_dashdash = after_dashdash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Args) and (self.options, self.operands, self.after_dashdash) == (
            other.options, other.operands, other.after_dashdash)

    def __repr__(self) -> str:
        return f"Args(options={self.options!r}, operands={self.operands!r}, after_dashdash={self.after_dashdash!r})"

    def has(self, *names: str) -> bool:
        return any(opt in names for opt, _ in self.options)

    def value(self, *names: str) -> str | None:
        """The last value given for any of ``names``."""
        found = None
        for opt, val in self.options:
            if opt in names and val is not None:
                found = val
        return found

    def values(self, *names: str) -> list[str]:
        return [val for opt, val in self.options if opt in names and val is not None]

    @property
    def names(self) -> set[str]:
        return {opt for opt, _ in self.options}


def parse_args(
    args: Sequence[str],
    value_opts: frozenset[str] = frozenset(),
    aliases: Mapping[str, str] | None = None,
    *,
    optional_value_opts: frozenset[str] = frozenset(),
    stop_at_operand: bool = False,
    long_single_dash: bool = False,
) -> Args:
    """Parse ``args`` (without the command name).

    ``value_opts`` lists options that take a value, in any spelling (``-o``,
    ``--output``); ``aliases`` maps spellings to a canonical name (``--recursive`` →
    ``-r``). ``optional_value_opts`` take a value only when attached (``--color=x``).
    ``stop_at_operand`` ends option parsing at the first operand (POSIX mode, used for
    commands that take a sub-command). ``long_single_dash`` treats ``-name`` as one
    option (``find``, ``java``) instead of a cluster.
    """
    out = Args()
    n = len(args)
    if not n:
        return out
    aliases = aliases or _NO_ALIASES
    options = out.options
    operands = out.operands
    i = 0
    while i < n:
        arg = args[i]
        i += 1
        if arg[:1] != "-" or arg == "-":  # an operand (the usual case first)
            operands.append(arg)
            if stop_at_operand:
                operands.extend(args[i:])
                break
            continue
        if arg == "--":
            operands.extend(args[i:])
            out.after_dashdash = True
            break
        if arg[1] == "-":  # --name, --name=value
            name, eq, val = arg.partition("=")
            canon = aliases.get(name, name)
            if eq:
                options.append((canon, val))
            elif (name in value_opts or canon in value_opts) and name not in optional_value_opts and i < n:
                options.append((canon, args[i]))
                i += 1
            else:
                options.append((canon, None))
            continue
        if long_single_dash or (len(arg) > 2 and (arg in value_opts or arg in aliases)):
            canon = aliases.get(arg, arg)
            if (arg in value_opts or canon in value_opts) and i < n:
                options.append((canon, args[i]))
                i += 1
            else:
                options.append((canon, None))
            continue
        body = arg[1:]
        j = 0
        while j < len(body):
            short = "-" + body[j]
            canon = aliases.get(short, short)
            j += 1
            if short in value_opts or canon in value_opts:
                if j < len(body):
                    options.append((canon, body[j:]))
                elif i < n:
                    options.append((canon, args[i]))
                    i += 1
                else:
                    options.append((canon, None))
                break
            options.append((canon, None))
    return out


_NO_ALIASES: Mapping[str, str] = {}
