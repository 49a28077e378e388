"""SH013 — reading a process environment from /proc.

``/proc/self/environ`` (or any ``/proc/PID/environ``) holds every environment variable
of the process — API keys and tokens included. Nothing in normal development reads it.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

ID = "SH013"
WHAT = "/proc/*/environ accessed"
WHY = "a process environment holds API keys and tokens"
EXAMPLE = "cat /proc/self/environ"
BENIGN = "cat /proc/self/status"

_ENVIRON = regex(r"/proc/+[^/\s'\"]*/+environ")


def check(source: str, view) -> list[Finding]:
    match = _ENVIRON.search(source)
    if match is None:
        for word in view.words:
            if word.raw != word.value:
                match = _ENVIRON.search(word.value)
                if match:
                    break
    if match is None:
        return []
    return [Finding(ID, Severity.HIGH, f"reads a process environment ({match.group()})")]
