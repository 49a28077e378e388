"""``shlex.quote`` and ``shlex.join``, byte for byte, without importing ``shlex``.

``shlex`` imports ``re`` (with ``enum``, ``functools``, ``collections``: some milliseconds
in a fresh process) for the one pattern ``quote`` needs; a decision quotes a word for its
messages and rewrites on every call. Here the pattern is a kept one
(:func:`bastion.precompiled.regex`), built without ``re``. ``shlex.split`` stays in
``shlex``: only rare paths split a line, and they import it there.
"""

from __future__ import annotations

from ...precompiled import ASCII, regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["join", "quote"]

#: ``shlex._find_unsafe``: a character that is not safe unquoted in a POSIX shell.
_UNSAFE = regex(r"[^\w@%+=:,./-]", ASCII)


def quote(s: str) -> str:
    """``shlex.quote(s)``: ``s`` as one shell word (``''`` for the empty string)."""
    if not s:
        return "''"
    if _UNSAFE.search(s) is None:
        return s
    # single quotes end, a double-quoted single quote, single quotes again
    return "'" + s.replace("'", "'\"'\"'") + "'"


def join(split_command: Iterable[str]) -> str:
    """``shlex.join(split_command)``: the words quoted and joined by spaces."""
    return " ".join(quote(arg) for arg in split_command)
