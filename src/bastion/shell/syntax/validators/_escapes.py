"""Shared by the backslash validators: where a word, as written, escapes a character
outside single quotes (inside double quotes a backslash only escapes the next one)."""

from __future__ import annotations


def unquoted_escape(raw: str, chars: str | frozenset[str]) -> str | None:
    """The first ``\\X`` outside quotes with ``X`` in ``chars``, or None."""
    quote = ""
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                i += 1
        elif ch in "'\"":
            quote = ch
        elif ch == "\\" and i + 1 < n:
            if raw[i + 1] in chars:
                return raw[i : i + 2]
            i += 1
        i += 1
    return None
