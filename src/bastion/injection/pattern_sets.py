"""Many patterns searched in one pass: RE2 sets, one per group, built once.

The scanner's indicator tables and the signal records both need the same thing: which of
hundreds of patterns occur in a text, then the spans of the few that do. A set per group
(one per indicator kind, one for non-Latin phrases) builds far fewer automaton states on a
fresh text than one set of everything; a group of non-Latin patterns is skipped for pure
ASCII text. Single regexes are compiled only for the patterns that matched.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


__all__ = ["PatternSets"]

#: Memory RE2 may use for one set's automaton.
_MAX_MEM = 32 << 20


class PatternSets:
    """``patterns`` by index, searched together in the sets ``groups`` names:
    ``(group key, needs non-ASCII text) → indices``."""

    def __init__(self, patterns: Sequence[str], groups: Mapping[tuple[str, bool], list[int]]) -> None:
        import re2

        self._re2 = re2
        self.patterns = patterns
        #: ``(set, index of each of its patterns, needs non-ASCII text)``
        self.sets: list[tuple[Any, list[int], bool]] = []
        for (_, non_latin), members in groups.items():
            options = re2.Options()
            options.max_mem = _MAX_MEM
            pattern_set = re2.Set.SearchSet(options)
            for index in members:
                pattern_set.Add(patterns[index])
            pattern_set.Compile()
            self.sets.append((pattern_set, members, non_latin))
        self._regexes: dict[int, Any] = {}

    def hits(self, data: bytes, ascii_only: bool) -> list[int]:
        """Indices of the patterns that occur in ``data`` (one pass per set)."""
        found: list[int] = []
        for pattern_set, members, non_latin in self.sets:
            if non_latin and ascii_only:
                continue
            matched = pattern_set.Match(data)
            if matched:
                found.extend(members[i] for i in matched)
        return found

    def regex(self, index: int) -> Any:
        """Pattern ``index`` compiled alone, for its spans."""
        compiled = self._regexes.get(index)
        if compiled is None:
            compiled = self._regexes[index] = self._re2.compile(self.patterns[index])
        return compiled

    def compile(self, pattern: str) -> Any:
        """Another pattern, with the same engine."""
        return self._re2.compile(pattern)
