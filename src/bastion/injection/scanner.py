"""Scan untrusted text (tool output, files, web pages) for prompt-injection indicators.

``scan(text)`` returns typed findings with character spans; ``is_injection(findings)``
says whether they add up to an injection. The patterns are data (``indicators.py``,
``phrases.py``); this module compiles them once, lazily, into RE2 sets — a linear pass
per set tells which patterns occur, and only those are run again for their spans — and
adds the checks a regex cannot make alone: decoding base64 and Unicode tag characters
and scanning what they hide, instructions inside HTML comments or invisibly styled
elements, zero-width and bidi characters, and runs of one repeated token.

Why a threshold: real files are full of single weak signals (``rm -rf`` in a README,
"System:" in tool output, a CSS ``display:none``). A finding's severity gives it a
weight — medium 2, high 4 — and a text is an injection when the heaviest finding of
each *kind*, summed over kinds, reaches :data:`THRESHOLD` (4): one high finding, or
medium findings of two different kinds. Low findings add one point in all, however
many there are, so a medium and a low still stay below. Repeating one kind never adds
up, so a document that merely *discusses* "system prompts" ten times stays below it;
medium findings of one kind from three different indicators (:data:`PERSISTENT`)
count as one high.

Everything runs on the UTF-8 bytes of the text (RE2's native form, encoded once);
byte spans become character offsets only for the findings reported.

**The verdict comes from a model (stable API).** ``scan`` returns a :class:`ScanResult`:
a list of findings (the indicator tables' and the fired *signals* of ``signals.py``, the
latter with ``finding.signal`` set) that also carries

* ``level`` — ``"none"``, ``"suspicious"`` or ``"injection"``: the linear model of
  ``weigh.py`` over the signals and the tables' findings, with thresholds set by where
  the text came from. ``"suspicious"`` is below the injection bar: reason enough to taint
  a session quietly, not to warn the model;
* by rule, whatever the weights: a hidden region (comment, off-screen text, alt text,
  metadata, an encoding, invisible characters) that speaks to the AI — addresses it,
  breaks out of its context or asks to be kept from the user — makes the text an
  injection (``features["rule:hidden_instructions"]``), in every origin;
* ``probability`` (0…1), ``signals`` (names of the signals that fired, sorted),
  ``origin`` (``"instructions"``, ``"strict"`` or ``"default"``) and ``features`` (what
  the model weighed); ``to_dict()`` has them all.

``is_injection(result)`` is ``result.level == "injection"``; ``level_of(findings)`` gives
the level of any findings list. For a plain list of findings (built by hand, or from a
decoded part) both fall back to the severity rule above. ``scan(text, source, origin=…)``:
``origin`` overrides what ``source`` implies (``weigh.ORIGINS``: ``"instructions"``,
``"workspace"``, ``"network"``, ``"issue"``, ``"mcp"``, ``"outside"``, ``"default"``). By
default a URL, ``WebFetch``, an MCP tool (``mcp__…``) or a backquoted ``gh issue``/``gh pr``/
``curl`` command is strict, and ``AGENTS.md``, ``CLAUDE.md``, ``.cursorrules``,
``GEMINI.md`` and ``.github/copilot-instructions.md`` are instruction files, where only
hidden channels count.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from ..model import Severity
from ..precompiled import pattern as precompiled_pattern, regex
from ..re_escape import escape
from ..std_lite import lru_cache
from .decoding import (
    MARKS as _MARKS,
    SOFT_HYPHEN as _SOFT_HYPHEN,
    ZERO_WIDTH as _ZERO_WIDTH,
    decode_base64 as _decode_base64,
    is_tag as _is_tag,
    strip_invisible,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

__all__ = ["InjectionFinding", "ScanResult", "scan", "is_injection", "level_of", "score", "strip_invisible", "THRESHOLD",
           "PERSISTENT", "WEIGHTS"]

#: Weight of one finding by severity; a kind counts once, with its heaviest finding.
WEIGHTS: dict[Severity, int] = {Severity.LOW: 1, Severity.MEDIUM: 2, Severity.HIGH: 4, Severity.CRITICAL: 8}
#: A text whose score (see :func:`score`) reaches this is treated as an injection.
THRESHOLD = 4
#: Medium findings of one kind from this many different indicators weigh as much as a high one.
PERSISTENT = 3

_MAX_MATCHES_PER_PATTERN = 8
_MAX_DEPTH = 2  # decoded content is scanned again, at most this deep
_MAX_BLOBS = 16  # base64 candidates decoded per text
_FLOOD_RUN = 40  # a token repeated this many times in a row is flooding …
_FLOOD_RUN_HIGH = 100  # … and this many times, padding no person writes
_STYLESHEET_SUFFIXES = (".css", ".scss", ".sass", ".less", ".styl")


@dataclass(frozen=True)
class InjectionFinding:
    """One indicator in a text: ``text[start:end]`` is what matched."""

    kind: str
    severity: Severity
    start: int
    end: int
    message: str
    #: the ``signals.py`` signal this finding reports ("" for an indicator-table finding);
    #: signals are weighed by the model, not by severity, so :func:`score` skips them
    signal: str = ""

    @property
    def weight(self) -> int:
        return WEIGHTS[self.severity]

    def excerpt(self, text: str, width: int = 80) -> str:
        """The matched text on one line, cut to ``width`` characters."""
        snippet = " ".join(text[self.start : self.end].split())
        return snippet if len(snippet) <= width else snippet[: width - 1] + "…"

    def to_dict(self, text: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "severity": self.severity.value,
            "start": self.start,
            "end": self.end,
            "message": self.message,
        }
        if self.signal:
            data["signal"] = self.signal
        if text is not None:
            data["excerpt"] = self.excerpt(text)
        return data


class ScanResult(list):  # type: ignore[type-arg]
    """The findings of one scan (a list, sorted by position) and the model's verdict on them."""

    level: str = "none"
    probability: float = 0.0
    signals: tuple[str, ...] = ()
    origin: str = "default"
    features: dict[str, float]

    def __init__(self, findings: Iterable[InjectionFinding] = (), *, level: str = "none", probability: float = 0.0,
                 signals: tuple[str, ...] = (), origin: str = "default", features: dict[str, float] | None = None) -> None:
        super().__init__(findings)
        self.level, self.probability, self.signals, self.origin = level, probability, signals, origin
        self.features = dict(features or {})

    def to_dict(self, text: str | None = None) -> dict[str, Any]:
        return {"level": self.level, "probability": round(self.probability, 4), "origin": self.origin,
                "signals": list(self.signals), "findings": [f.to_dict(text) for f in self]}


def score(findings: Iterable[InjectionFinding]) -> int:
    """Sum over kinds of the heaviest medium-or-high finding of each kind, plus one if
    there is any low finding at all.

    A kind with findings from :data:`PERSISTENT` or more different indicators counts
    as high: one order about the reader's reply is ordinary, a text that gives it in
    several forms is not. The same indicator matching again (a source file that calls
    ``gethostname()`` twice, a page that quotes one phrase three times) adds nothing.
    """
    best: dict[str, int] = {}
    indicators: dict[str, set[str]] = {}
    low = 0
    for finding in findings:
        if finding.signal:
            continue
        if finding.weight < WEIGHTS[Severity.MEDIUM]:
            low = 1
            continue
        best[finding.kind] = max(best.get(finding.kind, 0), finding.weight)
        indicators.setdefault(finding.kind, set()).add(finding.message)
    for kind, messages in indicators.items():
        if len(messages) >= PERSISTENT:
            best[kind] = max(best[kind], WEIGHTS[Severity.HIGH])
    return sum(best.values()) + low


def is_injection(findings: Iterable[InjectionFinding]) -> bool:
    """True when a scan's model says injection; for a plain list, when the findings reach
    :data:`THRESHOLD` (see the module docstring)."""
    return level_of(findings) == "injection"


def level_of(findings: Iterable[InjectionFinding]) -> str:
    """``"none"``, ``"suspicious"`` or ``"injection"``: a :class:`ScanResult`'s level; for a
    plain list, injection at :data:`THRESHOLD`, suspicious from one medium finding up."""
    level = getattr(findings, "level", None)
    if level is not None:
        return str(level)
    total = score(findings)
    return "injection" if total >= THRESHOLD else "suspicious" if total >= WEIGHTS[Severity.MEDIUM] else "none"


# --------------------------------------------------------------------------- compiling


class _Compiled:
    """Everything compiled from the tables, built once per process on first use: the
    indicators as one RE2 set per kind, non-Latin phrases in their own
    (:class:`~.pattern_sets.PatternSets` says why), and the hidden-content patterns."""

    def __init__(self) -> None:
        from .indicators import ENGLISH, HIDDEN_STYLES, NON_LATIN_LANGUAGES, PHRASES
        from .pattern_sets import PatternSets

        indicators: list[Any] = []
        groups: dict[tuple[str, bool], list[int]] = {}
        tables = [("en", ENGLISH)] + list(PHRASES.items())
        for language, table in tables:
            non_latin = language in NON_LATIN_LANGUAGES
            for indicator in table:
                key = ("*", True) if non_latin else (indicator.kind, False)
                groups.setdefault(key, []).append(len(indicators))
                indicators.append(indicator)
        self.indicators = tuple(indicators)
        self._sets = sets = PatternSets([indicator.pattern for indicator in indicators], groups)
        style = "|".join(HIDDEN_STYLES)
        self.hidden_element = sets.compile(
            r"(?is)<[a-z][a-z0-9]*\b[^>]*?\bstyle\s*=\s*[\"'][^\"'>]*?(?:" + style + r")[^>]*>([^<]+)"
        )
        self.hidden_attribute = sets.compile(
            r"(?is)<[a-z][a-z0-9]*\b[^>]*?\s(?:hidden|aria-hidden\s*=\s*[\"']true[\"'])[\s/>][^>]*?>?([^<]+)"
        )
        self.comment = sets.compile(r"(?s)<!--(.*?)-->")
        self.base64 = sets.compile(r"[A-Za-z0-9+/_-]{40,}={0,2}")
        self.invisible = sets.compile(
            "[\u200b\u200c\u200d\u2060-\u2064\ufeff\u180e\u00ad\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f"
            "\u034f\u17b4\u17b5\u200e\u200f\u061c\ufe00-\ufe0f\U000e0100-\U000e01ef]"
        )

    def hits(self, buffer: _Text) -> list[int]:
        """Indices of the indicators that occur in the text (one pass per set)."""
        return sorted(self._sets.hits(buffer.data, buffer.ascii))

    def regex(self, index: int) -> Any:
        return self._sets.regex(index)


@lru_cache(maxsize=1)
def _compiled() -> _Compiled:
    return _Compiled()


class _Text:
    """A text with its UTF-8 bytes, and byte → character offset conversion.

    Conversions remember their results, so each one decodes only the bytes after the
    nearest offset already converted: linear overall, however many findings there are.
    """

    __slots__ = ("text", "data", "ascii", "_bytes", "_chars")

    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.ascii = len(self.data) == len(text)
        self._bytes = [0]
        self._chars = [0]

    def char(self, offset: int) -> int:
        if self.ascii:
            return offset
        import bisect

        i = bisect.bisect_right(self._bytes, offset) - 1
        if self._bytes[i] == offset:
            return self._chars[i]
        result = self._chars[i] + len(self.data[self._bytes[i] : offset].decode("utf-8", "ignore"))
        self._bytes.insert(i + 1, offset)
        self._chars.insert(i + 1, result)
        return result

    def finding(self, kind: str, severity: Severity, span: tuple[int, int], message: str) -> InjectionFinding:
        """A finding from a byte span (a match's ``span()``)."""
        start, end = span
        return InjectionFinding(kind, severity, self.char(start), self.char(end), message)


# --------------------------------------------------------------------------- scanning


def scan(text: str, source: str = "", *, origin: str | None = None) -> ScanResult:
    """Every indicator and signal in ``text``, sorted by position, with the model's level.

    ``source`` says where the text came from (a path, URL, tool name or backquoted
    command); it sets the origin (see the module docstring) unless ``origin`` is given,
    and a stylesheet's ``display:none`` is not hidden text.
    """
    if not isinstance(text, str):
        raise TypeError(f"scan() needs a str, got {type(text).__name__}")
    from .weigh import resolve_origin

    resolved = resolve_origin(source, origin)
    findings = _scan(text, source, depth=0)
    if not text:
        return ScanResult(findings, origin=resolved)
    return _assess(text, findings, resolved)


#: Kinds whose table findings still count in an agent instruction file: what hides.
_INSTRUCTION_FILE_KINDS = frozenset({"hidden_content"})


def _assess(text: str, findings: list[InjectionFinding], origin: str) -> ScanResult:
    """Add the fired signals to the findings and weigh everything (``weigh.py``)."""
    from .evidence import find
    from .signals import BY_NAME
    from .weigh import features, level, probability

    evidence = find(_Text(text))
    for name, spans in evidence.spans.items():  # one finding per signal, at its first place
        signal = BY_NAME[name]
        if signal.kind and spans:
            start, end = min(spans)
            findings.append(InjectionFinding(signal.kind, Severity.LOW, start, end, signal.why, name))
    findings.sort(key=lambda f: (f.start, f.end))
    names = sorted(evidence.spans)
    values = features(text, names, evidence.near, findings, score, THRESHOLD)
    if evidence.hidden_speaks:  # by rule: text hidden from people that speaks to the AI
        values["rule:hidden_instructions"] = 1.0
        return ScanResult(findings, level="injection", probability=max(probability(values), 0.99), signals=tuple(names),
                          origin=origin, features=values)
    if origin == "instructions":
        values = {k: v for k, v in values.items()
                  if k.startswith(("grp:hidden", "sig:hidden.")) or (k.startswith("old:") and k[4:] in _INSTRUCTION_FILE_KINDS
                                                                     and v >= 1)}
        hidden = bool(values)
        return ScanResult(findings, level="injection" if hidden else "none", probability=1.0 if hidden else 0.0,
                          signals=tuple(names), origin=origin, features=values)
    p = probability(values)
    return ScanResult(findings, level=level(p, origin), probability=p, signals=tuple(names), origin=origin,
                      features=values)


#: Letters that look Latin but are not (Cyrillic, Greek), mapped to what they imitate.
_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁһԛԝАВЕКМНОРСТХІЈЅ" "αεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧ" "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ" "ɑɡıȷ",
    "aeopcyxijsdhqwABEKMHOPCTXIJS" "aeiknoptuxABEHIKMNOPTYX" "abcdefghijklmnopqrstuvwyz" "agij",
)


#: Full-width ASCII (U+FF01–U+FF5E) and the ideographic space, to plain ASCII.
_FULL_WIDTH = {0x3000: " ", **{code: chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}}
#: Spaces other than the ASCII one (no-break, en/em, thin, narrow no-break …): a pattern
#: that expects ``\s`` between words must still match "ignore<NBSP>previous<NBSP>instructions".
_UNICODE_SPACES = {code: " " for code in (0x000B, 0x0085, 0x00A0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
                                          0x202F, 0x205F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0)}
_FULL_WIDTH.update(_UNICODE_SPACES)
#: Mathematical letters and digits (bold, italic, sans-serif … U+1D400–U+1D7FF) fold as
#: NFKC folds them, to the one ASCII character they are drawn from.
_MATH_START, _MATH_END = 0x1D400, 0x1D7FF


_MATH: dict[int, str] | None = None


def _math_table() -> dict[int, str]:
    global _MATH
    if _MATH is None:
        import unicodedata

        _MATH = {}
        for code in range(_MATH_START, _MATH_END + 1):
            plain = unicodedata.normalize("NFKC", chr(code))
            if len(plain) == 1 and plain.isascii():
                _MATH[code] = plain
    return _MATH


def _fold(text: str) -> str:
    """``text`` with full-width forms and look-alike letters written as the plain Latin
    letters they imitate, and Unicode spaces as the ASCII space, one character for one
    character, so spans still point into the original (``Ｉｇｎｏｒｅ`` and ``Ignоre`` with
    a Cyrillic о read as ``Ignore``).
    Only these two tables: other non-ASCII text (``µ``, ``→``) folds to itself, so it
    costs no second scan."""
    folded = text.translate(_LOOKALIKES).translate(_FULL_WIDTH)
    if _MATH_LETTER.search(folded) is not None:
        folded = folded.translate(_math_table())
    return folded


_MATH_LETTER = regex("[\U0001d400-\U0001d7ff]")


_FOLDABLE: Any = None


def _has_foldable(text: str) -> bool:
    """One C-speed search for any character ``_fold`` would change."""
    global _FOLDABLE
    if _FOLDABLE is None:
        chars = "".join(chr(c) for c in _LOOKALIKES) + "".join(chr(c) for c in _FULL_WIDTH if c < 0xFF01)
        # the tables' own characters: kept, built without re
        _FOLDABLE = precompiled_pattern("[" + escape(chars) + "\uff01-\uff5e\U0001d400-\U0001d7ff]")
    return _FOLDABLE.search(text) is not None


def _folded_findings(compiled: _Compiled, text: str, found: list[InjectionFinding]) -> list[InjectionFinding]:
    """Indicators that only appear once look-alike or full-width letters are folded."""
    if (text.isascii() and "\v" not in text) or not _has_foldable(text):
        return []
    folded = _fold(text)
    if folded == text:
        return []
    seen = {(f.kind, f.start, f.end) for f in found}
    return [
        InjectionFinding(f.kind, f.severity, f.start, f.end, f"{f.message} (written with look-alike letters)")
        for f in _pattern_findings(compiled, _Text(folded))
        if (f.kind, f.start, f.end) not in seen and text[f.start:f.end] != folded[f.start:f.end]
    ]


def _scan(text: str, source: str, depth: int) -> list[InjectionFinding]:
    if not text:
        return []
    compiled = _compiled()
    buffer = _Text(text)
    findings = _pattern_findings(compiled, buffer)
    findings.extend(_folded_findings(compiled, text, findings))
    findings.extend(_hidden_findings(compiled, buffer, findings, source, depth))
    flood = _flooding(text)
    if flood is not None:
        findings.append(flood)
    return _dedupe(findings)


def _pattern_findings(compiled: _Compiled, buffer: _Text) -> list[InjectionFinding]:
    found: list[InjectionFinding] = []
    for index in compiled.hits(buffer):
        indicator = compiled.indicators[index]
        refine = _REFINEMENTS[indicator.refine] if indicator.refine else None
        count = 0
        for match in compiled.regex(index).finditer(buffer.data):
            if refine is not None and not refine(match):
                continue
            found.append(buffer.finding(indicator.kind, indicator.severity, match.span(), indicator.message))
            count += 1
            if count >= _MAX_MATCHES_PER_PATTERN:
                break
    return found


def _imperative(match: Any) -> bool:
    """The match's first group is a word that can start an order (see NOT_IMPERATIVE)."""
    from .indicators import NOT_IMPERATIVE

    word = (match.group(1) or b"").decode("ascii", "ignore").lower()
    if not word or word in NOT_IMPERATIVE:
        return False
    # an order starts with a verb's base form: not "coming", "added", "returns"
    return not (word.endswith(("ing", "ed")) or (word.endswith("s") and not word.endswith(("ss", "us"))))


_REFINEMENTS: dict[str, Callable[[Any], bool]] = {"imperative": _imperative}


def _weighty(findings: Sequence[InjectionFinding], start: int, end: int) -> list[InjectionFinding]:
    """Findings of at least medium weight inside ``[start, end)`` (character offsets)."""
    return [
        f for f in findings if f.start >= start and f.end <= end and f.weight >= 2 and f.kind != "hidden_content"
    ]


def _hidden_findings(
    compiled: _Compiled, buffer: _Text, found: list[InjectionFinding], source: str, depth: int
) -> list[InjectionFinding]:
    extra: list[InjectionFinding] = []
    data = buffer.data
    if b"<!--" in data:
        for match in compiled.comment.finditer(data):
            inner = _weighty(found, buffer.char(match.start(1)), buffer.char(match.end(1)))
            if inner:
                message = f"instructions hidden in an HTML comment ({inner[0].message})"
                extra.append(buffer.finding("hidden_content", Severity.HIGH, match.span(), message))
    if b"<" in data and not source.lower().endswith(_STYLESHEET_SUFFIXES):
        lowered = data.lower()
        for regex, what, needle in (
            (compiled.hidden_element, "invisibly styled", b"style"),
            (compiled.hidden_attribute, "hidden", b"hidden"),
        ):
            if needle not in lowered:
                continue
            for match in regex.finditer(data):
                if not match.group(1).strip():
                    continue
                inner = _weighty(found, buffer.char(match.start(1)), buffer.char(match.end(1)))
                if inner:
                    message = f"instructions in {what} text ({inner[0].message})"
                    extra.append(buffer.finding("hidden_content", Severity.HIGH, match.span(), message))
                else:
                    message = f"{what} text a person would not see"
                    extra.append(buffer.finding("hidden_content", Severity.LOW, match.span(), message))
    if not buffer.ascii and compiled.invisible.search(data):
        extra.extend(_invisible_characters(buffer.text, found, source, depth))
    if depth < _MAX_DEPTH:
        extra.extend(_base64_findings(compiled, buffer, source, depth))
    return extra


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_TAG_FLAG_BASE = "\U0001f3f4"  # 🏴 + tag characters spells a regional flag (legitimate)


def _invisible_characters(
    text: str, found: list[InjectionFinding], source: str, depth: int
) -> list[InjectionFinding]:
    """Zero-width, bidi and Unicode tag characters: what they are, and what they hide."""
    extra: list[InjectionFinding] = []
    zero_width: list[int] = []
    bidi: list[int] = []
    tags: list[int] = []
    for index, char in enumerate(text):
        if char in _ZERO_WIDTH:
            if char == "\ufeff" and index == 0:
                continue  # a byte-order mark
            if char in "\u200c\u200d" and not _between_ascii_letters(text, index):
                continue  # joiners inside emoji and non-Latin scripts
            zero_width.append(index)
        elif char in _MARKS:
            if _between_ascii_letters(text, index):
                zero_width.append(index)
        elif char in _BIDI:
            bidi.append(index)
        elif _is_tag(char):
            tags.append(index)
    if tags:
        hidden = "".join(chr(ord(text[i]) - 0xE0000) for i in tags if 0x20 <= ord(text[i]) - 0xE0000 < 0x7F)
        flag = tags[0] >= len(_TAG_FLAG_BASE) and text[tags[0] - len(_TAG_FLAG_BASE) : tags[0]] == _TAG_FLAG_BASE
        if not (flag and len(hidden) <= 6):
            message = "Unicode tag characters carry invisible text"
            if hidden.strip():
                message += f": {_quote(hidden)}"
            extra.append(InjectionFinding("hidden_content", Severity.HIGH, tags[0], tags[-1] + 1, message))
    if bidi:
        message = f"{len(bidi)} bidirectional control character(s) can reorder what a person sees"
        extra.append(InjectionFinding("hidden_content", Severity.MEDIUM, bidi[0], bidi[-1] + 1, message))
    if zero_width or _SOFT_HYPHEN in text:
        revealed: list[InjectionFinding] = []
        if depth < _MAX_DEPTH:
            stripped = strip_invisible(text)
            before = {f.kind for f in found if f.weight >= 2}
            revealed = [f for f in _scan(stripped, source, depth + 1) if f.weight >= 2 and f.kind not in before]
        positions = zero_width or [text.index(_SOFT_HYPHEN)]
        if revealed:
            message = f"invisible characters split up an instruction ({revealed[0].message})"
            extra.append(InjectionFinding("hidden_content", Severity.HIGH, positions[0], positions[-1] + 1, message))
        elif zero_width:
            severity = Severity.MEDIUM if len(zero_width) >= 3 else Severity.LOW
            message = f"{len(zero_width)} zero-width character(s)"
            extra.append(InjectionFinding("hidden_content", severity, zero_width[0], zero_width[-1] + 1, message))
    return extra


def _between_ascii_letters(text: str, index: int) -> bool:
    if not 0 < index < len(text) - 1:
        return False
    before, after = text[index - 1], text[index + 1]
    return before.isascii() and before.isalpha() and after.isascii() and after.isalpha()


def _base64_findings(compiled: _Compiled, buffer: _Text, source: str, depth: int) -> list[InjectionFinding]:
    """Base64 blobs that decode to readable text are scanned again."""
    extra: list[InjectionFinding] = []
    for count, match in enumerate(compiled.base64.finditer(buffer.data)):
        if count >= _MAX_BLOBS:
            break
        decoded = _decode_base64(match.group(0))
        if decoded is None:
            continue
        inner = _scan(decoded, source, depth + 1)
        if is_injection(inner) or any(f.weight >= 2 for f in inner):
            message = f"base64 that decodes to instructions: {_quote(decoded)}"
            extra.append(buffer.finding("hidden_content", Severity.HIGH, match.span(), message))
    return extra


@lru_cache(maxsize=1)
def _flood_regexes() -> tuple[Any, Any]:
    import re2

    run = re2.compile(b"\x01{%d,}" % _FLOOD_RUN)
    numeric = re2.compile(r"[-+]?[\d.,:eE]+[\]\[,;]?")
    return run, numeric


def _flooding(text: str) -> InjectionFinding | None:
    """A run of one short token (or a 2–3 token cycle) repeated many times in a row."""
    tokens = text.split()
    if len(tokens) <= _FLOOD_RUN:
        return None
    run, numeric = _flood_regexes()
    for period in (1, 2, 3):
        same = bytes(map(operator.eq, tokens, tokens[period:]))
        if b"\x01" * _FLOOD_RUN not in same:
            continue
        match = run.search(same)
        assert match is not None
        first = match.start()
        unit = tokens[first : first + period]
        if max(len(t) for t in unit) > 12 or all(numeric.fullmatch(t) for t in unit):
            continue  # long words are prose; numbers are data (an array of zeros)
        start = _token_offset(text, tokens, first)
        end = _token_offset(text, tokens, match.end() + period - 1, end=True)
        repeats = (match.end() - match.start()) // period + 1
        return InjectionFinding(
            "token_flooding",
            Severity.HIGH if repeats >= _FLOOD_RUN_HIGH else Severity.MEDIUM,
            start,
            end,
            f"the token sequence {_quote(' '.join(unit))} is repeated {repeats} times in a row",
        )
    return None


def _token_offset(text: str, tokens: list[str], token_index: int, *, end: bool = False) -> int:
    """Character offset of the start (or end) of ``tokens[token_index]`` in ``text``."""
    position = 0
    for token in tokens[:token_index]:
        position = text.find(token, position) + len(token)
    position = text.find(tokens[token_index], position)
    return position + len(tokens[token_index]) if end else position


def _quote(value: str, width: int = 60) -> str:
    flat = " ".join(value.split())
    return '"' + (flat if len(flat) <= width else flat[: width - 1] + "…") + '"'


def _dedupe(findings: list[InjectionFinding]) -> list[InjectionFinding]:
    """Sort by position; of overlapping findings of one kind keep the heaviest."""
    findings.sort(key=lambda f: (f.start, -f.weight, f.end))
    kept: list[InjectionFinding] = []
    last_by_kind: dict[str, int] = {}
    for finding in findings:
        index = last_by_kind.get(finding.kind)
        if index is not None and finding.start < kept[index].end:
            if finding.weight > kept[index].weight:
                kept[index] = finding
            continue
        last_by_kind[finding.kind] = len(kept)
        kept.append(finding)
    kept.sort(key=lambda f: (f.start, f.end))
    return kept
