"""SH022 — a quote inside a comment, with more commands after it.

``ls # it's fine`` followed by a newline and ``rm -rf ~``: bash ends the comment at the
newline, but a checker that pairs quotes first sees ``'s fine\nrm -rf ~…`` as one
quoted string and never looks at the second command. bastion's parser ends the
comment where bash does (a ``#`` a line continuation glues to a word is refused as too
complex) and judges every command after it, so the finding is a note (low).
"""

from __future__ import annotations

from ....model import Finding, Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

ID = "SH022"
WHAT = "quote character inside a comment followed by more commands"
WHY = "quote pairing across a comment makes checkers skip the commands after it"
EXAMPLE = "ls # it's fine\nrm -rf ~"
BENIGN = "ls  # it's the last line"


def check(source: str, view) -> list[Finding]:
    if not _quote_before_more(source):
        return []  # no comment can hold a quote with commands after it (the tree is not indexed)
    for node in _comments(source, view):
        comment = view.text(node)
        if not any(q in comment for q in "'\"`"):
            continue
        if view.text_after(node).strip():
            return [Finding(ID, Severity.LOW, f"comment {comment[:40]!r} holds a quote and commands follow it")]
    return []


def _quote_before_more(source: str) -> bool:
    """Whether a ``#`` has a quote after it on its line and text after that quote: a
    comment runs from a ``#`` to the end of its line, so one holding a quote with
    commands after it needs both."""
    last = len(source.rstrip())  # text after an offset below this is not all blank
    at = source.find("#")
    while 0 <= at < last:
        end = source.find("\n", at)
        line = source[at:end] if end >= 0 else source[at:]
        quotes = [found for found in map(line.find, "'\"`") if found >= 0]
        if quotes and at + min(quotes) + 1 < last:
            return True
        if end < 0:
            return False
        at = source.find("#", end)
    return False


def _comments(source: str, view) -> Iterator[Any]:
    """The comments of the text in source order: each starts at a ``#``, looked up there
    when offsets are bytes (an ASCII text), else taken from the indexed tree."""
    if not source.isascii():
        yield from view.nodes("comment")
        return
    at = source.find("#")
    while at >= 0:
        node = view.comment_at(at)
        if node is not None:
            yield node
        at = source.find("#", at + 1)
