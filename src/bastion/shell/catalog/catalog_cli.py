"""The long tail of the command catalog: command-line tools beyond the core tables of
``catalog.py``, one compact spec string per tool, read from each tool's documented
behaviour (man page, ``--help``, the tldr page's descriptions).

The specs live in ``catalog_cli_data`` (loaded the first time a command the core
catalog does not know is classified) and a spec is parsed only when its tool is looked
up (:func:`cli_spec`), so ``git status`` never pays for the long tail and an unknown
command pays for one dict literal and one small parse.

Spec grammar (segments separated by ``;``)::

    sub,sub word,sub word word:VALUE
                                sub-commands (the first one to three operands; the
                                longest listed match wins) → VALUE
    sub$:VALUE                  only when nothing follows (``nmcli device$`` shows,
                                ``nmcli device set …`` does not match it)
    -l:VALUE                    a leading option that acts as the sub-command
    sub --opt:VALUE             the sub-command with this option given anywhere
                                after it (``pyenv install --list`` only lists):
                                it wins over ``sub`` alone (see ``option_keys``)
    .:VALUE                     the tool run with no arguments at all
    *:VALUE                     any sub-command not listed (default ``?``: unknown)
    !-o,--output:CODE           risky options: escalate whatever the sub-command is
    @other                      (the whole spec) the same as another tool's
    ~ephemeral:,msl::CODE       risky operand prefixes (ImageMagick coders …)
    %ladspa=,lv2=:CODE          risky text anywhere in an argument (ffmpeg filters that
                                load libraries …)
    =-f,--file                  global options that take a value (skipped when
                                looking for the sub-command)
    >last  >all  >-o,--output   files the tool writes: its last operand (when there
                                are two or more), every operand after the
                                sub-command, or the values of these options
    >final                      the final argument is written (``ffmpeg … out.mp4``)

VALUE is ``r`` (read-only), ``l`` (routine: builds, tests, formatters, local project
changes), ``?`` (unknown: review) or a finding code from ``intents.CODES``
(``CAT001`` network, ``CAT006`` runs code, ``CAT009`` changes the system,
``CAT010`` deletes, ``CAT016`` destroys resources, ``CAT026`` installs …).
A sub-command that talks to the network is ``CAT001`` even when it only reads:
bastion never lets a command reach the network without asking.

Rules the checker applies to every entry (``checks.tools.check_cli``): a lone
``--help``/``--version`` and ``help`` sub-commands only print; a URL operand is
network access.
"""

from __future__ import annotations

from types import MappingProxyType

from ...std_lite import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import NamedTuple
else:
    from ...named_tuple import NamedTuple

__all__ = ["CliTool", "OptionKey", "cli_spec", "known", "match_option_key", "option_keys", "table"]

_EMPTY: Mapping[str, str] = MappingProxyType({})


class OptionKey(NamedTuple):
    """A sub-command key that holds option words: ``install --list`` is the operands
    ``("install",)`` with the option ``--list`` given."""

    operands: tuple[str, ...]
    options: frozenset[str]
    key: str
    value: str


def option_keys(subs: Mapping[str, str]) -> tuple[OptionKey, ...]:
    """The keys of ``subs`` that name options after a sub-command, most specific first.

    An option can change what a sub-command does (``pyenv install --list`` lists and
    installs nothing; ``hg config --edit`` opens an editor), so such a key is matched on
    the command's operands *and* its options, not on its operands alone."""
    out = []
    for key in [k for k in subs if " -" in k]:  # a substring test: cheap for the thousands that have none
        words, value = key.split(), subs[key]
        out.append(OptionKey(tuple(w for w in words if not w.startswith("-")),
                             frozenset(w for w in words if w.startswith("-")), key, value))
    return tuple(sorted(out, key=lambda k: -(len(k.operands) + len(k.options))))


def match_option_key(keys: tuple[OptionKey, ...], operands: list[str], options: set[str]) -> OptionKey | None:
    """The first key whose operand words start ``operands`` and whose options were all
    given; a key without operand words (``just --fmt --check``) needs no operands."""
    for k in keys:
        n = len(k.operands)
        if (tuple(operands[:n]) == k.operands if n else not operands) and k.options <= options:
            return k
    return None


class CliTool(NamedTuple):
    """One parsed spec (a named tuple: cheaper to define at import than a dataclass)."""

    subs: Mapping[str, str]
    default: str = "?"
    bare: str | None = None
    risky: Mapping[str, str] = _EMPTY
    value_opts: frozenset[str] = frozenset()
    writes_last: bool = False
    write_opts: frozenset[str] = frozenset()
    writes_all: bool = False
    risky_prefixes: tuple[tuple[str, str], ...] = ()
    risky_text: tuple[tuple[str, str], ...] = ()
    writes_final: bool = False
    #: The keys of ``subs`` with option words (``install --list``), matched on both.
    option_keys: tuple[OptionKey, ...] = ()


@lru_cache(maxsize=1)
def table() -> Mapping[str, str]:
    """Tool name (lower case, as ``catalog.canonical_name`` returns it) → spec string.
    Loaded on first use (``catalog_cli_data``)."""
    from .catalog_cli_data import CLI

    return CLI


def known(name: str) -> bool:
    """Whether the long-tail catalog has an entry for ``name``."""
    return name in table()


@lru_cache(maxsize=256)
def cli_spec(name: str) -> CliTool | None:
    """The parsed spec of ``name`` (a canonical command name), or None."""
    cli = table()
    text = cli.get(name)
    if text is None:
        return None
    if text.startswith("@"):  # ``"@other"``: the same spec as another tool
        other = text[1:]
        if other in cli and not cli[other].startswith("@"):
            return cli_spec(other)
        raise ValueError(f"catalog_cli: {name} refers to {other!r}, which has no spec of its own")
    return parse_spec(text)


def parse_spec(text: str) -> CliTool:
    """Parse one spec string (see the module docstring)."""
    subs: dict[str, str] = {}
    risky: dict[str, str] = {}
    value_opts: set[str] = set()
    write_opts: set[str] = set()
    prefixes: list[tuple[str, str]] = []
    texts: list[tuple[str, str]] = []
    default, bare, writes_last, writes_all, writes_final = "?", None, False, False, False
    for segment in text.split(";"):
        segment = segment.strip()
        if not segment:
            continue
        if segment.startswith("="):
            value_opts.update(o.strip() for o in segment[1:].split(","))
            continue
        if segment.startswith(">"):
            for target in segment[1:].split(","):
                target = target.strip()
                if target == "last":
                    writes_last = True
                elif target == "all":
                    writes_all = True
                elif target == "final":
                    writes_final = True
                else:
                    write_opts.add(target)
            continue
        keys, sep, value = segment.rpartition(":")
        if not sep or not keys:
            raise ValueError(f"catalog_cli: segment {segment!r} has no 'keys:value'")
        value = value.strip()
        if keys.startswith("~"):
            prefixes.extend((k.strip(), value) for k in keys[1:].split(",") if k.strip())
            continue
        if keys.startswith("%"):
            texts.extend((k.strip(), value) for k in keys[1:].split(",") if k.strip())
            continue
        risky_segment = keys.startswith("!")
        for key in keys.split(","):
            key = key.strip()
            if risky_segment or key.startswith("!"):
                risky[key.lstrip("!")] = value
            elif key == "*":
                default = value
            elif key == ".":
                bare = value
            else:
                subs[key] = value
    return CliTool(
        subs, default, bare, risky, frozenset(value_opts), writes_last, frozenset(write_opts), writes_all,
        tuple(prefixes), tuple(texts), writes_final, option_keys(subs),
    )
