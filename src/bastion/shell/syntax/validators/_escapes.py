"""Shared by the backslash validators: where a word, as written, escapes a character
outside single quotes (inside double quotes a backslash only escapes the next one)."""

from __future__ import annotations

from ....precompiled import regex

#: A single-quoted span, a double-quoted one (where a backslash escapes the next
#: character), each to its closing quote or the end, or an escaped character outside.
_SCAN = regex(r"""(?s)'[^']*'?|"(?:[^"\\]+|\\.?)*"?|\\(.)""")


def unquoted_escape(raw: str, chars: str | frozenset[str]) -> str | None:
    """The first ``\\X`` outside quotes with ``X`` in ``chars``, or None."""
    if "\\" not in raw:
        return None
    for match in _SCAN.finditer(raw):
        escaped = match.group(1)
        if escaped is not None and escaped in chars:
            return match.group()
    return None
