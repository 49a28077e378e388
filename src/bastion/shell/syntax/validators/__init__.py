"""Syntax validators: small, independent checks over one parsed shell text.

Spec 002 §12.6.3 lists 23 static checks that each look for one way a command can hide
what it does; any one of them firing is enough to make the guard ask. bastion keeps
that design: one module per check, each with

- ``ID`` (``SH0NN``; numbers follow the spec's table, so ``SH006`` is its check 6),
- ``WHAT`` (one line), ``WHY`` (why it matters), ``EXAMPLE`` (a command it flags),
  ``BENIGN`` (a look-alike it must not flag),
- ``check(source: str, view: SyntaxView) -> list[Finding]``: the one signature every
  validator has. ``source`` is the text that was parsed (the command, or a string
  parsed again such as a ``bash -c`` argument); ``view`` gives the tree-sitter tree, the
  simple commands extracted from that text and every word as written and decoded.

When a check can fire is its row in :data:`VALIDATORS`, read before its module is
imported (a text imports only the validators that can fire on it): ``trigger``,
substrings at least one of which must occur in the source (``None``: always run), which
keeps a plain ``git status`` from paying for 23 scans; ``on_non_ascii`` also runs the
check whenever the source holds a non-ASCII character (look-alike letters, Unicode
blanks). A check whose trigger can occur in a plain command
(:mod:`bastion.shell.syntax.plain`: plain words and pipes, no syntax tree) must say
whether it can fire there: ``on_plain_text`` (a registry test requires it; the tests
compare both parse paths to hold it true).

Checks 2, 3 and 12 (``jq system()``, ``jq -f``, substitution inside ``git commit``)
are command semantics and live in the catalog. bastion adds SH024 (zsh expansions,
spec §12.6.5), SH025 (hidden or look-alike characters in decoded words) and SH026
(here-documents fed to an interpreter).

Severities: ``low`` is recorded only (a fact, e.g. "writes to out.txt"), ``medium``
and ``high`` ask; ``high`` marks anything that hides what runs.
"""

from __future__ import annotations

from ....model import Finding
from ....std_lite import import_module
from ..plain import PLAIN_CHARACTERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from types import ModuleType
    from typing import Any

    from ..script import SimpleCommand
    from ..words import Word

__all__ = ["SyntaxView", "Registered", "VALIDATORS", "MODULES", "validators", "run_validators", "run_units", "by_id",
           "can_meet_plain_text"]


class Registered:
    """One validator: its module, and when its check can fire — known before the module
    is imported, so a text imports only the validators that can fire on it (a plain
    class: cheaper to define at import than a named tuple)."""

    __slots__ = ("module", "trigger", "on_plain_text", "on_non_ascii")

    def __init__(self, module: str, trigger: tuple[str, ...] | None, *, on_plain_text: bool | None = None,
                 on_non_ascii: bool = False) -> None:
        self.module = module
        #: Substrings at least one of which must occur in the source for the check to be
        #: able to fire (``None``: always run).
        self.trigger = trigger
        #: Whether it can fire on a plain command; ``None`` where its trigger cannot occur in one.
        self.on_plain_text = on_plain_text
        #: It also runs whenever the source holds a non-ASCII character.
        self.on_non_ascii = on_non_ascii


#: One row per validator, in ID order.
VALIDATORS: tuple[Registered, ...] = (
    #: Cannot fire on a plain command: a plain command starts with a command name and has no empty stage.
    Registered("sh001_incomplete", ("\t", "-", "&", "|", ";", ")", "\\"), on_plain_text=False),
    Registered("sh004_obfuscated_flags", ("'", '"', "\\", "$")),
    Registered("sh005_metacharacters", ("'", '"', "\\")),
    #: Can fire on a plain command (``env PATH=/tmp/x ls`` is plain).
    Registered("sh006_dangerous_variables", ("=",), on_plain_text=True),
    Registered("sh007_newlines", ("\n",)),
    Registered("sh008_expansions", ("$(", "`", "<(", ">(", "$[")),
    Registered("sh009_input_redirection", ("<",)),
    Registered("sh010_output_redirection", (">",)),
    #: Can fire on a plain command (a plain word can name ``IFS``).
    Registered("sh011_ifs", ("IFS",), on_plain_text=True),
    #: Can fire on a plain command (``cat /proc/1/environ`` is plain).
    Registered("sh013_proc_environ", ("environ",), on_plain_text=True),
    #: Cannot fire on a plain command: a plain command has no syntax tree, so no syntax error.
    Registered("sh014_malformed", None, on_plain_text=False),
    Registered("sh015_backslash_whitespace", ("\\",)),
    Registered("sh016_brace_expansion", ("{",)),
    #: Every control character the check looks for (tabs and newlines excluded).
    Registered("sh017_control_characters", tuple(map(chr, [*range(0x01, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]))),
    #: Also runs whenever the text holds a non-ASCII character.
    Registered("sh018_unicode_whitespace", (), on_non_ascii=True),
    Registered("sh019_inword_hash", ("#",)),
    #: Can fire on a plain command (``zmodload zsh/net/tcp`` is plain).
    Registered("sh020_zsh_commands", None, on_plain_text=True),
    Registered("sh021_backslash_operators", ("\\",)),
    Registered("sh022_comment_quote_desync", ("#",)),
    Registered("sh023_newline_in_quotes", ("\n",)),
    #: Can fire on a plain command (``ls =python`` is plain).
    Registered("sh024_zsh_expansions", ("=", "~[", "("), on_plain_text=True),
    #: Also runs whenever the text holds a non-ASCII character.
    Registered("sh025_lookalike_words", ("$'",), on_non_ascii=True),
    #: Can fire on a plain command (``echo code | python`` is plain).
    Registered("sh026_heredoc_interpreter", ("<<", "|"), on_plain_text=True),
)
MODULES: tuple[str, ...] = tuple(entry.module for entry in VALIDATORS)

_LOADED: list[ModuleType | None] = [None] * len(MODULES)


def _validator(index: int) -> ModuleType:
    """The validator module at ``index`` of :data:`VALIDATORS` (imported on first use)."""
    module = _LOADED[index]
    if module is None:
        module = _LOADED[index] = import_module(f"{__name__}.{MODULES[index]}")
    return module


def validators() -> tuple[ModuleType, ...]:
    """Every validator module, in ID order."""
    return tuple(_validator(index) for index in range(len(MODULES)))


def by_id(code: str) -> ModuleType:
    """The validator module with ``ID == code``."""
    for module in validators():
        if module.ID == code:
            return module
    raise KeyError(code)


class SyntaxView:
    """What a validator may look at besides the source text."""

    __slots__ = ("root", "commands", "words", "has_error", "label", "scripts", "_index", "_text_of", "_slice",
                 "_names")

    def __init__(self, root: Any, commands: Iterable[SimpleCommand] = (), words: Iterable[Word] = (),
                 label: str = "", text_of: Callable[[Any], str] | None = None,
                 slice_: Callable[[int, int], str] | None = None, names: Iterable[str] | None = None,
                 scripts: Iterable[str] = ()) -> None:
        #: The tree-sitter root node (``None`` when no tree is available).
        self.root = root
        self._text_of = text_of
        self._slice = slice_
        #: Simple commands extracted from this text (wrappers peeled).
        self.commands: Sequence[SimpleCommand] = commands if isinstance(commands, (list, tuple)) else tuple(commands)
        #: Every word as written and decoded.
        self.words: Sequence[Word] = words if isinstance(words, (list, tuple)) else tuple(words)
        self.has_error = bool(root is not None and root.has_error)
        #: Where the text came from ("" for the command itself, "bash -c string" …).
        self.label = label
        #: Words that were parsed again as shell scripts (their own text is checked as such).
        self.scripts = frozenset(scripts)
        self._index: dict[str, list[Any]] | None = None
        self._names: frozenset[str] | None = None if names is None else frozenset(names)

    @property
    def names(self) -> frozenset[str]:
        """The (base) names of the commands, computed once."""
        if self._names is None:
            self._names = frozenset(cmd.name for cmd in self.commands)
        return self._names

    def text(self, node: Any) -> str:
        """The source text of a tree node."""
        return self._text_of(node) if self._text_of is not None else ""

    def text_after(self, node: Any) -> str:
        """The source text after a tree node, to the end."""
        if self._slice is None or self.root is None:
            return ""
        return self._slice(node.end_byte, self.root.end_byte)

    def comment_at(self, offset: int) -> Any:
        """The comment starting at byte ``offset``, else None (a comment is a leaf from a
        ``#`` to the end of its line, so the smallest named node there): finding the few
        a text can hold costs less than indexing its tree."""
        if self.root is None:
            return None
        node = self.root.named_descendant_for_byte_range(offset, offset + 1)
        return node if node is not None and node.type == "comment" and node.start_byte == offset else None

    def nodes(self, *types: str) -> list[Any]:
        """Named tree nodes of the given types, in source order (indexed on first use)."""
        if self.root is None:
            return []
        if self._index is None:
            index: dict[str, list[Any]] = {}
            stack = [self.root]
            while stack:
                node = stack.pop()
                index.setdefault(node.type, []).append(node)
                stack.extend(reversed(node.named_children))
            self._index = index
        if len(types) == 1:
            return list(self._index.get(types[0], ()))
        found = [n for t in types for n in self._index.get(t, ())]
        found.sort(key=lambda n: n.start_byte)
        return found


def can_meet_plain_text(entry: Registered) -> bool:
    """Whether a validator's trigger can occur in a plain command (or it has none)."""
    trigger = entry.trigger
    return trigger is None or any(PLAIN_CHARACTERS.issuperset(t) for t in trigger)


#: Per validator, in ID order: its printable triggers (``None``: always runs), its
#: triggers holding a character no printable text holds (control characters, tab,
#: newline), and whether a non-ASCII text runs it.
_Row = tuple[int, tuple[str, ...] | None, tuple[str, ...], bool]
_Dispatch = tuple[tuple[_Row, ...], tuple[_Row, ...]]
_DISPATCH: _Dispatch | None = None


def _dispatch() -> _Dispatch:
    """Each validator's triggers split by what a text must be to hold them, and the
    validators that can fire on a plain text: a printable text (most commands) is never
    searched for the dozens of control characters SH017 looks for, and no text pays
    for a set of its characters. The plain rows keep only the triggers a plain text can
    hold (it is printable ASCII)."""
    global _DISPATCH
    if _DISPATCH is None:
        rows: list[_Row] = []
        plain: list[_Row] = []
        for index, entry in enumerate(VALIDATORS):
            trigger = entry.trigger
            if can_meet_plain_text(entry) and entry.on_plain_text:
                plain.append((index, None if trigger is None
                              else tuple(t for t in trigger if PLAIN_CHARACTERS.issuperset(t)), (), False))
            # single characters first: found faster, and often enough to skip the longer ones
            shown = None if trigger is None else tuple(sorted((t for t in trigger if t.isprintable()), key=len))
            hidden = () if trigger is None else tuple(t for t in trigger if not t.isprintable())
            rows.append((index, shown, hidden, entry.on_non_ascii))
        _DISPATCH = (tuple(rows), tuple(plain))
    return _DISPATCH


def _chosen(source: str, rows: tuple[_Row, ...] | None = None) -> list[int]:
    """The validators (indexes) of ``rows`` (default: every validator's) whose trigger
    occurs in ``source``, in ID order."""
    if rows is None:
        rows = _dispatch()[0]
    printable = source.isprintable()
    non_ascii = not source.isascii()
    chosen: list[int] = []
    for index, shown, hidden, on_non_ascii in rows:
        if shown is None or (on_non_ascii and non_ascii):
            chosen.append(index)
            continue
        for trigger in shown:
            if trigger in source:
                chosen.append(index)
                break
        else:
            if hidden and not printable and any(trigger in source for trigger in hidden):
                chosen.append(index)
    return chosen


def run_validators(source: str, view: SyntaxView, plain: bool = False) -> list[Finding]:
    """Run every validator whose trigger occurs in ``source`` (see module docstring);
    for a ``plain`` text (:mod:`bastion.shell.syntax.plain`), only those that can fire on one.
    A validator that raises yields a finding (fail closed), never an exception."""
    chosen = _chosen(source, _dispatch()[1] if plain else None)
    found: list[Finding] = []
    for index in chosen:
        module = _validator(index)
        try:
            found.extend(module.check(source, view))
        except Exception as exc:  # a broken check must not turn into "no finding"
            from ....model import Severity

            found.append(Finding(module.ID, Severity.MEDIUM, f"validator {module.ID} failed ({type(exc).__name__})"))
    if view.label:
        found = [Finding(f.code, f.severity, f"in {view.label}: {f.message}") for f in found]
    return found


def run_units(units: Iterable[Any]) -> list[Finding]:
    """Run the validators over every text the parser walked (see ``parse._Unit``)."""
    found: list[Finding] = []
    for unit in units:
        view = SyntaxView(unit.root, unit.commands, unit.words, unit.label, unit.text_of, unit.slice, unit.names,
                          unit.scripts)
        found.extend(run_validators(unit.source, view, unit.plain))
    return found
