"""``fnmatch.fnmatchcase`` without ``fnmatch`` for the wildcards met every day.

``fnmatch`` turns each pattern into a regular expression, so it imports ``re`` (with
``enum``, ``functools``, ``collections``: some milliseconds in a fresh process). A pattern
without ``*``, ``?`` or ``[`` matches only itself, and one whose only wildcard is ``*``
(``test_*.py``, ``*_test.py``, ``/tmp/*``) matches when its literal pieces occur in order,
the first at the start and the last at the end: the same answer, by string tests. Any
other pattern goes to ``fnmatch``.
"""

from __future__ import annotations

__all__ = ["fnmatchcase"]


def fnmatchcase(name: str, pattern: str) -> bool:
    """``fnmatch.fnmatchcase(name, pattern)``: whether ``name`` matches the shell
    wildcard ``pattern`` (case-sensitive; ``*`` and ``?`` match ``/`` too)."""
    if type(name) is not str or type(pattern) is not str or "?" in pattern or "[" in pattern:
        from fnmatch import fnmatchcase as standard  # a class or a single-character wildcard

        return standard(name, pattern)
    if "*" not in pattern:
        return name == pattern
    first, *middle, last = pattern.split("*")
    if len(name) < len(first) + len(last) or not name.startswith(first) or not name.endswith(last):
        return False
    at, end = len(first), len(name) - len(last)
    for piece in middle:  # each as early as it occurs leaves the most room for the rest
        found = name.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True
