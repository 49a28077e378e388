"""Find the signals of ``signals.py`` in a text: which fired, where, and which met.

Compiled once per process, on first use: one RE2 set for the English patterns and the
Latin-script lexicon words, and one for the Russian, Chinese, Japanese and Korean words
(skipped for pure-ASCII text). A set tells in one linear pass
which signals occur; only those run again, for their spans.

Why *meeting*: a 10 KB README may well say "run `make`" in one section and "API key" in
another; an injection puts the addressee, the action and the pressure in one passage.
Two signals of different groups *meet* when they are in the same paragraph and within
:data:`NEAR` characters of each other; the model weighs such pairs (``near:action+pressure``)
far above either signal alone. Two different actions other than running a command meet
too (``near:action+action``: "upload" next to "~/.aws/credentials").

Hidden channels (``channels.py``) report regions of text a person does not see; a region
whose own signals look like instructions (see :func:`instructive`) raises the hidden signal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..std_lite import lru_cache
from .signals import ACTIVE_GROUPS, BY_NAME, SIGNALS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Evidence", "find", "fired_names", "instructive", "NEAR"]

#: Two signals meet when they are this close (characters) in one paragraph.
NEAR = 500
_MAX_SPANS = 6
#: A hidden region shorter than this (stripped) says too little to be an instruction.
_MIN_REGION = 12

#: Actions that are instructions on their own inside a hidden region (running a project
#: command is not: "<!-- run `make test` before submitting -->" is a PR template).
_STRONG_ACTIONS = frozenset({"action.send", "action.send_shell", "action.fetch_exec", "action.settings", "action.memory",
                             "action.third_party", "action.reveal"})
_INSTRUCTIVE_GROUPS = frozenset({"addressee", "context_break", "concealment", "exfiltration"})
_SPEAKING_GROUPS = frozenset({"addressee", "context_break", "concealment"})
#: Signals that say *how* something is said, not what: they do not make meetings (an
#: imperative next to a command is every README's install section).
_NOT_MEETING = frozenset({"addressee.imperative"})


@dataclass
class Evidence:
    """What fired in one text: signal name → character spans, and the group pairs that met."""

    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    near: set[str] = field(default_factory=set)
    #: a hidden region speaks to the AI (see ``channels.hidden_regions``)
    hidden_speaks: bool = False

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.spans)


class _Compiled:
    """The signals' patterns (``signals.SIGNALS``, their lexicon concepts spelt for Latin
    and for other scripts) as one :class:`~.pattern_sets.PatternSets`."""

    def __init__(self) -> None:
        from .lexicon import alternation
        from .pattern_sets import PatternSets

        #: flat entries: (signal name, pattern)
        self.entries: list[tuple[str, str]] = []
        groups: dict[tuple[str, bool], list[int]] = {}
        for signal in SIGNALS:
            if not signal.pattern:
                continue
            pattern = f"(?:{signal.pattern})"
            if signal.concept:
                pattern += r"|(?i:\b" + alternation(signal.concept, non_latin=False) + ")"
            groups.setdefault(("*", False), []).append(len(self.entries))
            self.entries.append((signal.name, pattern))
            if signal.concept:
                groups.setdefault(("*", True), []).append(len(self.entries))
                self.entries.append((signal.name, "(?i:" + alternation(signal.concept, non_latin=True) + ")"))
        self._sets = PatternSets([pattern for _, pattern in self.entries], groups)

    def hits(self, data: bytes, ascii_only: bool) -> list[int]:
        return self._sets.hits(data, ascii_only)

    def regex(self, index: int) -> Any:
        return self._sets.regex(index)


@lru_cache(maxsize=1)
def _blank_line() -> Any:
    from ..precompiled import pattern  # this module's own text: kept, built without re

    return pattern(r"\n[ \t]*\n")


@lru_cache(maxsize=1)
def compiled() -> _Compiled:
    return _Compiled()


def fired_names(text: str) -> set[str]:
    """The regex signals that occur anywhere in ``text`` (no spans): for hidden regions."""
    table = compiled()
    data = text.encode("utf-8", "surrogatepass")
    return {table.entries[i][0] for i in table.hits(data, len(data) == len(text))}


def speaks(names: set[str] | frozenset[str]) -> bool:
    """Whether signals address the AI, break out of the data, or ask for concealment."""
    return bool({BY_NAME[n].group for n in names - _NOT_MEETING} & _SPEAKING_GROUPS)


def instructive(names: set[str] | frozenset[str]) -> bool:
    """Whether signals found inside a hidden region make it an instruction, not decoration."""
    names = names - _NOT_MEETING
    if {BY_NAME[n].group for n in names} & _INSTRUCTIVE_GROUPS or names & _STRONG_ACTIONS:
        return True
    return "action.run" in names and any(n.startswith("pressure.") for n in names)


def hidden_regions(buffer: Any) -> list[tuple[str, int, int, bool]]:
    """``(signal name, start, end, speaks)`` for every hidden region (``channels.regions``)
    that carries instructions, followed, for decoded regions, by the signals of what they
    decode to. ``speaks``: the region addresses the AI, breaks out of its context or asks to
    be kept from the user — not merely mentions an action."""
    from .channels import DECODED, regions

    out: list[tuple[str, int, int, bool]] = []
    for name, region, span in regions(buffer):
        if len(region.strip()) < _MIN_REGION:
            continue
        names = fired_names(region)
        if name == "hidden.invisible" and span == (0, len(buffer.data)):
            names -= fired_names(buffer.text)  # only what the zero-width characters kept apart
        if instructive(names):
            start, end = buffer.char(span[0]), buffer.char(span[1])
            out.append((name, start, end, speaks(names)))
            if name in DECODED:
                out.extend((inner, start, end, False) for inner in sorted(names))
    return out


def find(buffer: Any) -> Evidence:
    """Signals in ``buffer`` (a ``scanner._Text``), with character spans and meetings.

    Every fired signal gets its first span (a search stops there); all spans (up to
    :data:`_MAX_SPANS`) are looked for only when meetings are possible — two active groups,
    or two actions other than running a command — since only meetings need them.
    """
    table = compiled()
    evidence = Evidence()
    hits = table.hits(buffer.data, buffer.ascii)
    hidden = hidden_regions(buffer)
    names = {table.entries[i][0] for i in hits} | {name for name, _, _, _ in hidden}
    active = {BY_NAME[n].group for n in names if BY_NAME[n].group in ACTIVE_GROUPS and n not in _NOT_MEETING}
    actions = {n for n in names if BY_NAME[n].group == "action" and n != "action.run"}
    every = len(active) >= 2 or len(actions) >= 2
    for index in hits:
        name = table.entries[index][0]
        spans = evidence.spans.setdefault(name, [])
        if not every or BY_NAME[name].group == "mention":
            match = table.regex(index).search(buffer.data)
            if match is not None:
                spans.append((buffer.char(match.start()), buffer.char(match.end())))
            continue
        for count, match in enumerate(table.regex(index).finditer(buffer.data)):
            if count >= _MAX_SPANS:
                break
            start, end = match.span()
            spans.append((buffer.char(start), buffer.char(end)))
    for name, start, end, speaking in hidden:
        evidence.spans.setdefault(name, []).append((start, end))
        evidence.hidden_speaks = evidence.hidden_speaks or speaking
    if every:
        evidence.near = _meetings(buffer, evidence)
    return evidence


def _meetings(buffer: Any, evidence: Evidence) -> set[str]:
    """Group pairs (and ``3``: three groups) that occur close together in one paragraph."""
    points: list[tuple[int, str, str]] = []
    for name, spans in evidence.spans.items():
        group = BY_NAME[name].group
        if group in ACTIVE_GROUPS and name not in _NOT_MEETING:
            points.extend((start, group, name) for start, _ in spans)
    actions = {name for _, group, name in points if group == "action" and name != "action.run"}
    if len({group for _, group, _ in points}) < 2 and len(actions) < 2:
        return set()
    text: str = buffer.text
    blank = _blank_line()
    points.sort()
    order = {group: i for i, group in enumerate(ACTIVE_GROUPS)}
    met: set[str] = set()
    for i, (start, group, name) in enumerate(points):
        window = {group}
        for other_start, other, other_name in points[i + 1:]:
            if other_start - start > NEAR or blank.search(text, start, other_start) is not None:
                break
            window.add(other)
            if other != group:
                first, second = sorted((group, other), key=order.__getitem__)
                met.add(f"{first}+{second}")
            elif group == "action" and name != other_name and {name, other_name} <= actions:
                met.add("action+action")
        if len(window) >= 3:
            met.add("3")
    return met
