"""SH011 — IFS used to split words.

``cat${IFS}/etc/passwd`` has no visible space, so a pattern looking for ``cat /etc/passwd``
does not match, yet bash splits it there. Setting ``IFS=`` changes how every later
expansion splits. Nobody writing an ordinary command needs either.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

ID = "SH011"
WHAT = "IFS expanded or assigned"
WHY = "IFS tricks replace visible spaces, so text checks see one word where bash sees several"
EXAMPLE = "cat${IFS}/etc/passwd"
BENIGN = "grep -n IFS notes.txt"

_IFS = regex(r"\$\{?!?#?IFS\b|(?:^|[\s;&|(`])IFS\+?=")


def check(source: str, view) -> list[Finding]:
    match = _IFS.search(source)
    if not match:
        return []
    return [Finding(ID, Severity.HIGH, f"IFS manipulation {match.group().strip()!r} hides how words are split")]
