"""Reading what a text hides from people: invisible characters and base64.

Shared by the indicator scanner (``scanner.py``) and the hidden channels
(``channels.py``), which both decode and look again; it imports nothing of bastion's,
so neither imports the other for it.
"""

from __future__ import annotations

import binascii

__all__ = ["ZERO_WIDTH", "MARKS", "SOFT_HYPHEN", "strip_invisible", "is_tag", "decode_base64"]

ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e")
#: Invisible marks with ordinary uses (direction marks in bidi text, variation selectors
#: after emoji, the grapheme joiner in Hebrew, Khmer's inherent vowels): flagged only
#: where they split a Latin word, always removed to look again.
MARKS = frozenset(["\u200e", "\u200f", "\u061c", "\u034f", "\u17b4", "\u17b5", *map(chr, range(0xFE00, 0xFE10)),
                   *map(chr, range(0xE0100, 0xE01F0))])
SOFT_HYPHEN = "\u00ad"


def strip_invisible(text: str) -> str:
    """``text`` without zero-width characters, invisible marks, soft hyphens and tag
    characters: the words a person reads, as one string."""
    return "".join(ch for ch in text if ch not in ZERO_WIDTH and ch not in MARKS and ch != SOFT_HYPHEN
                   and not is_tag(ch))


def is_tag(char: str) -> bool:
    """A Unicode tag character (U+E0000…E007F): invisible, and each spells an ASCII one."""
    return 0xE0000 <= ord(char) <= 0xE007F


def decode_base64(blob: bytes) -> str | None:
    """The text a base64 (or base64url) blob encodes, or None if it is not readable text."""
    body = blob.rstrip(b"=")
    if len(body) % 4 == 1:
        return None
    url_safe = b"-" in body or b"_" in body
    if url_safe and (b"+" in body or b"/" in body):
        return None
    padded = body + b"=" * (-len(body) % 4)
    import base64  # here: it imports re, and most texts hold no blob to decode

    try:
        raw = base64.b64decode(padded, altchars=b"-_" if url_safe else None, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    printable = sum(1 for ch in decoded if ch.isprintable() or ch in "\n\t\r")
    if " " not in decoded or printable < 0.95 * len(decoded):
        return None
    return decoded
