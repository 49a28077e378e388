"""Syntax validators: small, independent checks over one parsed shell text.

Spec 002 §12.6.3 lists 23 static checks that each look for one way a command can hide
what it does; any one of them firing is enough to make the guard ask. bastion keeps
that design: one module per check, each with

- ``ID`` (``SH0NN``; numbers follow the spec's table, so ``SH006`` is its check 6),
- ``WHAT`` (one line), ``WHY`` (why it matters), ``EXAMPLE`` (a command it flags),
  ``BENIGN`` (a look-alike it must not flag),
- ``TRIGGER``: substrings at least one of which must occur in the source for the check
  to be able to fire (``None``: always run). This keeps a plain ``git status`` from
  paying for 23 scans,
- ``check(source: str, view: SyntaxView) -> list[Finding]``: the one signature every
  validator has. ``source`` is the text that was parsed (the command, or a string
  parsed again such as a ``bash -c`` argument); ``view`` gives the tree-sitter tree, the
  simple commands extracted from that text and every word as written and decoded.

Checks 2, 3 and 12 (``jq system()``, ``jq -f``, substitution inside ``git commit``)
are command semantics and live in the catalog. bastion adds SH024 (zsh expansions,
spec §12.6.5), SH025 (hidden or look-alike characters in decoded words) and SH026
(here-documents fed to an interpreter).

Severities: ``low`` is recorded only (a fact, e.g. "writes to out.txt"), ``medium``
and ``high`` ask; ``high`` marks anything that hides what runs.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ...model import Finding

if TYPE_CHECKING:
    from ..script import SimpleCommand
    from ..words import Word

__all__ = ["SyntaxView", "MODULES", "validators", "run_validators", "run_units", "by_id"]

#: Validator modules in ID order.
MODULES: tuple[str, ...] = (
    "sh001_incomplete",
    "sh004_obfuscated_flags",
    "sh005_metacharacters",
    "sh006_dangerous_variables",
    "sh007_newlines",
    "sh008_expansions",
    "sh009_input_redirection",
    "sh010_output_redirection",
    "sh011_ifs",
    "sh013_proc_environ",
    "sh014_malformed",
    "sh015_backslash_whitespace",
    "sh016_brace_expansion",
    "sh017_control_characters",
    "sh018_unicode_whitespace",
    "sh019_inword_hash",
    "sh020_zsh_commands",
    "sh021_backslash_operators",
    "sh022_comment_quote_desync",
    "sh023_newline_in_quotes",
    "sh024_zsh_expansions",
    "sh025_lookalike_words",
    "sh026_heredoc_interpreter",
)

_LOADED: tuple[ModuleType, ...] | None = None


def validators() -> tuple[ModuleType, ...]:
    """The validator modules (imported on first use)."""
    global _LOADED
    if _LOADED is None:
        _LOADED = tuple(import_module(f"{__name__}.{name}") for name in MODULES)
    return _LOADED


def by_id(code: str) -> ModuleType:
    """The validator module with ``ID == code``."""
    for module in validators():
        if module.ID == code:
            return module
    raise KeyError(code)


class SyntaxView:
    """What a validator may look at besides the source text."""

    __slots__ = ("root", "commands", "words", "has_error", "label", "_index", "_text_of", "_slice")

    def __init__(self, root: Any, commands: Iterable["SimpleCommand"] = (), words: Iterable["Word"] = (),
                 label: str = "", text_of: Callable[[Any], str] | None = None,
                 slice_: Callable[[int, int], str] | None = None) -> None:
        #: The tree-sitter root node (``None`` when no tree is available).
        self.root = root
        self._text_of = text_of
        self._slice = slice_
        #: Simple commands extracted from this text (wrappers peeled).
        self.commands: tuple["SimpleCommand", ...] = tuple(commands)
        #: Every word as written and decoded.
        self.words: tuple["Word", ...] = tuple(words)
        self.has_error = bool(root is not None and root.has_error)
        #: Where the text came from ("" for the command itself, "bash -c string" …).
        self.label = label
        self._index: dict[str, list[Any]] | None = None

    def text(self, node: Any) -> str:
        """The source text of a tree node."""
        return self._text_of(node) if self._text_of is not None else ""

    def text_after(self, node: Any) -> str:
        """The source text after a tree node, to the end."""
        if self._slice is None or self.root is None:
            return ""
        return self._slice(node.end_byte, self.root.end_byte)

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


_TRIGGERS: list[tuple[ModuleType, frozenset[str] | None, tuple[str, ...]]] | None = None


def _triggers() -> list[tuple[ModuleType, frozenset[str] | None, tuple[str, ...]]]:
    """Each validator with the first characters of its triggers (a set test rules most
    validators out before any substring search)."""
    global _TRIGGERS
    if _TRIGGERS is None:
        _TRIGGERS = [
            (m, None if m.TRIGGER is None else frozenset(t[0] for t in m.TRIGGER), tuple(m.TRIGGER or ()))
            for m in validators()
        ]
    return _TRIGGERS


def run_validators(source: str, view: SyntaxView) -> list[Finding]:
    """Run every validator on one text. A validator that raises yields a finding
    (fail closed), never an exception."""
    found: list[Finding] = []
    present = set(source)
    for module, first, trigger in _triggers():
        if first is not None and (present.isdisjoint(first) or not any(t in source for t in trigger)):
            continue
        try:
            found.extend(module.check(source, view))
        except Exception as exc:  # a broken check must not turn into "no finding"
            from ...model import Severity

            found.append(Finding(module.ID, Severity.MEDIUM, f"validator {module.ID} failed ({type(exc).__name__})"))
    if view.label:
        found = [Finding(f.code, f.severity, f"in {view.label}: {f.message}") for f in found]
    return found


def run_units(units: Iterable[Any]) -> list[Finding]:
    """Run the validators over every text the parser walked (see ``parse._Unit``)."""
    found: list[Finding] = []
    for unit in units:
        view = SyntaxView(unit.root, unit.commands, unit.words, unit.label, unit.text_of, unit.slice)
        found.extend(run_validators(unit.source, view))
    return found
