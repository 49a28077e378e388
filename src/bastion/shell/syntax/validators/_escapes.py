"""Shared by the backslash validators: where a word, as written, escapes a character
outside single quotes (inside double quotes a backslash only escapes the next one)."""

from __future__ import annotations

from ....precompiled import regex

#: From where the last escape ended to the next escaped character outside quotes: the
#: single-quoted spans, double-quoted ones (where a backslash escapes the next
#: character), each to its closing quote or the end, and other text before it, taken
#: whole (possessive: a quote is never read as text to find a later backslash).
_NEXT_ESCAPE = regex(r"""(?s)(?:'[^']*'?|"(?:[^"\\]+|\\.?)*"?|[^'"\\]+)*+\\(.)""")


def unquoted_escape(raw: str, chars: str | frozenset[str]) -> str | None:
    """The first ``\\X`` outside quotes with ``X`` in ``chars``, or None (one match per
    escape outside quotes, none per quoted span)."""
    if "\\" not in raw:
        return None
    at = 0
    while (match := _NEXT_ESCAPE.match(raw, at)) is not None:
        if match.group(1) in chars:
            return "\\" + match.group(1)
        at = match.end()
    return None
