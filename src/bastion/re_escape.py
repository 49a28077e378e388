"""``re.escape`` without importing ``re``.

Regular-expression text built from bastion's own tables (the path table's globs, the
file checks' hints) escapes its literal parts; the patterns themselves come from the
precompiled cache without ``re`` (:mod:`bastion.precompiled`), so escaping should not
load ``re`` either (with ``enum``, ``functools``, ``collections``: some milliseconds in a
fresh process). Python 3.11's ``re.escape`` of a ``str`` is this one translation.
"""

from __future__ import annotations

__all__ = ["escape"]

#: ``re._special_chars_map``: each character ``re.escape`` puts a backslash before.
_SPECIAL = {i: "\\" + chr(i) for i in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}


def escape(text: str) -> str:
    """``re.escape(text)`` for a ``str``: ``text`` as a pattern that matches it literally."""
    return text.translate(_SPECIAL)
