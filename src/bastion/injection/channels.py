"""Hidden channels: text a person does not see, decoded, then looked at again.

``regions`` yields ``(signal name, region text, byte span)``; ``evidence.find`` decides
which regions are instructions. Each channel yields regions — an HTML comment's body, an element styled out of sight,
an alt text or metadata field (also an SVG's ``<desc>`` and ``<metadata>``, never drawn), a base64/hex/ROT13/reversed run decoded, text written in
tag characters or split by zero-width ones. A region raises its ``hidden.*`` signal only
when its own signals make it an instruction (``evidence.instructive``): hidden text is
everywhere on the web (skip links, cookie banners, tracking comments), hidden *orders*
are not.

Decoding is bounded: at most :data:`_MAX_REGIONS` regions per channel, decoded once (a
decoded region is not decoded again; the scanner's base64 pass goes deeper).
"""

from __future__ import annotations

import codecs

from ..std_lite import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

__all__ = ["regions", "DECODED"]

#: Channels whose content cannot be read in the raw text: what they decode to counts as if
#: it were written openly (``evidence.find`` adds its signals at the region's place).
DECODED = frozenset({"hidden.encoded", "hidden.invisible"})

_MAX_REGIONS = 24

#: Styles that put an element out of sight: not shown, zero-sized, transparent, white,
#: moved far off-screen or clipped away.
_HIDDEN_STYLE = (
    r"(?i)display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|$)"
    r"|opacity\s*:\s*0(?:\.0+)?\s*(?:;|$)|color\s*:\s*(?:white|#fff(?:fff)?\b|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255)"
    r"|(?:height|width|max-height)\s*:\s*0(?:px)?\s*(?:;|$)|text-indent\s*:\s*-\d{3,}|(?:left|top|right)\s*:\s*-\d{3,}"
    r"|clip\s*:\s*rect\(\s*0"
)
#: Words that are frequent in English and, ROT13'd or reversed, spell nothing: their
#: encoded forms in a text show that it is encoded English.
_ROT13_WORDS = r"(?i)\b(?:gur|naq|lbhe?|gb|vf|bs|vtaber|fraq|hcybnq|nffvfgnag|ntrag|vafgehpgvbaf|eha|qb|abg)\b"
_REVERSED_WORDS = r"(?i)\b(?:eht|dna|ruoy|uoy|ot|si|fo|erongi|dnes|daolpu|tnatsissa|tnega|snoitcurtsni|nur|od|ton)\b"
_ENCODED_MIN_WORDS = 3


#: Channels a text may hold, told by one pass of an RE2 set (``_present``) before any of
#: their own regexes runs.
_PREFILTER = {
    "attribute": r"(?i)\b(?:alt|title|aria-label|content|summary|data-[\w-]+)\s*=\s*[\"']",
    "image_alt": r"!\[[^\]\n]{12,}\]\(",
    "unrendered": r"(?i)<(?:desc|metadata)\b",
    "metadata": r"(?im)^[ \t]*[\"']?(?:description|summary|ImageDescription|UserComment|comment|notes?|llm[\w.-]*|ai[._-][\w.-]*"
                r"|instructions?|bio|status_detail|message)[\"']?\s*[:=]",
    "base64": r"[A-Za-z0-9+/_-]{40,}",
    "hex": r"(?i)(?:[0-9a-f]{2}){20,}|(?:\\x[0-9a-f]{2}){12,}",
    "rot13": _ROT13_WORDS,
    "reversed": _REVERSED_WORDS,
}


@lru_cache(maxsize=1)
def _prefilter() -> tuple[Any, list[str]]:
    import re2

    options = re2.Options()
    options.max_mem = 16 << 20
    pattern_set = re2.Set.SearchSet(options)
    names = list(_PREFILTER)
    for name in names:
        pattern_set.Add(_PREFILTER[name])
    pattern_set.Compile()
    return pattern_set, names


def _present(data: bytes) -> set[str]:
    pattern_set, names = _prefilter()
    return {names[i] for i in (pattern_set.Match(data) or ())}


@lru_cache(maxsize=1)
def _regexes() -> dict[str, Any]:
    import re2

    return {
        "comment": re2.compile(r"(?s)<!--(.*?)-->"),
        "styled": re2.compile(r"(?is)<[a-z][a-z0-9]*\b[^>]*?\bstyle\s*=\s*[\"']([^\"']*)[\"'][^>]*>([^<]+)"),
        "hidden_style": re2.compile(_HIDDEN_STYLE),
        "attribute": re2.compile(r"(?is)\b(?:alt|title|aria-label|content|summary|data-[\w-]+)\s*=\s*(?:\"([^\"]{12,})\"|'([^']{12,})')"),
        "image_alt": re2.compile(r"!\[([^\]\n]{12,})\]\("),
        "unrendered": re2.compile(r"(?is)<(?:desc|metadata)\b[^>]*>([^<]{12,})<"),
        "metadata": re2.compile(
            r"(?im)^[ \t]*[\"']?(?:description|summary|ImageDescription|UserComment|comment|notes?|llm[\w.-]*|ai[._-][\w.-]*"
            r"|instructions?|bio|status_detail|message)[\"']?\s*[:=]\s*([^\n]{12,})"
        ),
        "base64": re2.compile(r"[A-Za-z0-9+/_-]{40,}={0,2}"),
        "hex": re2.compile(r"(?i)(?:[0-9a-f]{2}){20,}|(?:\\x[0-9a-f]{2}){12,}"),
        "rot13": re2.compile(_ROT13_WORDS),
        "reversed": re2.compile(_REVERSED_WORDS),
    }


def regions(buffer: Any) -> Iterator[tuple[str, str, tuple[int, int]]]:
    data: bytes = buffer.data
    regex = _regexes()
    if b"<!--" in data:
        for count, match in enumerate(regex["comment"].finditer(data)):
            if count >= _MAX_REGIONS:
                break
            yield "hidden.comment", _text(match.group(1)), match.span()
    if b"<" in data and b"style" in data.lower():
        for count, match in enumerate(regex["styled"].finditer(data)):
            if count >= _MAX_REGIONS:
                break
            if regex["hidden_style"].search(match.group(1)):
                yield "hidden.styled", _text(match.group(2)), match.span()
    present = _present(data)
    for key, group in (("attribute", None), ("image_alt", 1), ("metadata", 1), ("unrendered", 1)):
        if key not in present:
            continue
        for match in _limit(regex[key].finditer(data)):
            value = match.group(1) if group else (match.group(1) or match.group(2))
            yield "hidden.attribute", _text(value), match.span()
    yield from _encoded(buffer, regex, present)
    if not buffer.ascii:
        yield from _invisible(buffer)


def _limit(matches: Iterator[Any]) -> Iterator[Any]:
    for count, match in enumerate(matches):
        if count >= _MAX_REGIONS:
            return
        yield match


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def _encoded(buffer: Any, regex: dict[str, Any], present: set[str]) -> Iterator[tuple[str, str, tuple[int, int]]]:
    data: bytes = buffer.data
    from .decoding import decode_base64 as _decode_base64

    for match in _limit(regex["base64"].finditer(data) if "base64" in present else iter(())):
        decoded = _decode_base64(match.group(0))
        if decoded is not None:
            yield "hidden.encoded", decoded, match.span()
    for match in _limit(regex["hex"].finditer(data) if "hex" in present else iter(())):
        decoded = _decode_hex(match.group(0))
        if decoded is not None:
            yield "hidden.encoded", decoded, match.span()
    for key, decode in (("rot13", lambda s: codecs.decode(s, "rot13")), ("reversed", lambda s: s[::-1])):
        if key not in present:
            continue
        per_line: dict[int, int] = {}
        for count, match in enumerate(regex[key].finditer(data)):
            if count >= 8 * _MAX_REGIONS:
                break
            start = data.rfind(b"\n", 0, match.start()) + 1
            per_line[start] = per_line.get(start, 0) + 1
        for start, words in list(per_line.items())[:_MAX_REGIONS]:
            if words >= _ENCODED_MIN_WORDS:
                end = data.find(b"\n", start)
                end = len(data) if end < 0 else end
                yield "hidden.encoded", decode(_text(data[start:end])), (start, end)


def _decode_hex(blob: bytes) -> str | None:
    digits = blob.replace(b"\\x", b"").replace(b"\\X", b"")
    try:
        decoded = bytes.fromhex(digits.decode("ascii")).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    printable = sum(1 for ch in decoded if ch.isprintable() or ch in "\n\t")
    if " " not in decoded or printable < 0.95 * len(decoded):
        return None
    return decoded


#: UTF-8 of what hides text: the first bytes of the tag characters (U+E0000…E007F), and the
#: zero-width space, joiners, word joiner and soft hyphen. A bytes search is far cheaper
#: than a character class over the decoded string.
_TAG_LEAD = b"\xf3\xa0\x80"
_TAG_LEAD_HIGH = b"\xf3\xa0\x81"
_SPLITTERS = (b"\xe2\x80\x8b", b"\xe2\x80\x8c", b"\xe2\x80\x8d", b"\xe2\x81\xa0", b"\xc2\xad")


@lru_cache(maxsize=1)
def _hiding_bytes() -> Any:
    import re2

    return re2.compile("[\u200b\u200c\u200d\u2060\u00ad\U000e0000-\U000e007f]")


def _invisible(buffer: Any) -> Iterator[tuple[str, str, tuple[int, int]]]:
    from .decoding import is_tag as _is_tag, strip_invisible

    data: bytes = buffer.data
    text: str = buffer.text
    if _hiding_bytes().search(data) is None:
        return
    if _TAG_LEAD in data or _TAG_LEAD_HIGH in data:
        tags = [i for i, ch in enumerate(text) if _is_tag(ch)]  # rare: only text that has them
        if tags:
            hidden = "".join(chr(ord(text[i]) - 0xE0000) for i in tags if 0x20 <= ord(text[i]) - 0xE0000 < 0x7F)
            yield "hidden.invisible", hidden, _bytes_span(text, tags[0], tags[-1] + 1)
    if any(mark in data for mark in _SPLITTERS):  # both only after the one search above
        stripped = strip_invisible(text)
        if stripped != text:
            yield "hidden.invisible", stripped, (0, len(data))


def _bytes_span(text: str, start: int, end: int) -> tuple[int, int]:
    head = len(text[:start].encode("utf-8", "surrogatepass"))
    return head, head + len(text[start:end].encode("utf-8", "surrogatepass"))
