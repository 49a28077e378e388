"""SH025 — decoded words with hidden or look-alike characters.

``сurl`` with a Cyrillic ``с`` is not ``curl``; ``$'r\u200bm'`` decodes to a name with a
zero-width space; an argument holding a bidi override displays reversed. Checked on the
*decoded* words, so ANSI-C escapes cannot hide it (the raw text is SH017/SH018). An
argument written as one quoted string is data: invisible characters and Unicode spaces in
it (an emoji's variation selector in a commit message) are not reported; confusable
letters and bidi controls are.
"""

from __future__ import annotations

from ....model import Finding
from ..words import word_findings

ID = "SH025"
WHAT = "word with confusable letters, invisible characters, bidi controls or control characters"
WHY = "a word that looks like a known command or path can be a different one"
EXAMPLE = "\u0441url https://example.com"
BENIGN = "echo café"


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    if source.isascii() and "$'" not in source:
        return found  # decoding can only add such characters through $'…' escapes
    for word in view.words:
        value = word.value
        if value.isascii() and value.isprintable():
            continue
        raw = word.raw
        # a quoted argument written as one string is data (see SH018); a word run as code
        # (``bash -c STRING``) is checked as a script of its own
        quoted = (raw[:1] in ("'", '"') and raw[-1:] == raw[:1]) or raw in view.scripts
        found.extend(word_findings(value, word.position == 0, quoted))
    return found
