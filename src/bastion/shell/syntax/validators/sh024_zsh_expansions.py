"""SH024 — zsh-only expansions (spec 002 §12.6.5).

In zsh ``=ls`` becomes ``/bin/ls`` (any path lookup), ``~[name]`` calls a function,
and glob qualifiers run code while matching files: ``*(e:'rm -rf ~':)`` or
``*(+func)``. bash treats these as plain text, so a bash-based check misses them.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ....precompiled import regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ID = "SH024"
WHAT = "zsh expansion: =cmd, ~[…], glob qualifiers (e:…:) (+…)"
WHY = "under zsh these run code or look up paths that a bash reading does not see"
EXAMPLE = "ls *(e:'rm -rf ~':)"
BENIGN = "[ a = b ] && echo a=b"

#: What zsh leaves unexpanded: an escaped character, or a quoted span to its closing
#: quote (or the end); inside double quotes a backslash escapes the next character.
_QUOTED = regex(r"""(?s)\\.?|'[^']*'?|"(?:[^"\\]+|\\.?)*"?""")
#: A glob qualifier: ``(`` after a word character, ``*``, ``?``, ``]``, ``/`` or ``.``, then
#: code to run. The pattern starts at the ``(`` (the character before is looked behind),
#: so a text is searched for that character rather than tried at every position.
_QUALIFIER = regex(r"""\((?<=[\w*?\]/.]\()(?:[^()\s]*[^()\w\s])?(?:e[:'"{\[<|]|\+[A-Za-z_]|\#q)""")


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for word in view.words:
        raw = word.raw
        if len(raw) > 1 and raw[0] == "=" and (raw[1].isalpha() or raw[1] == "_"):
            found.append(Finding(ID, Severity.HIGH, f"zsh expands {raw[:30]!r} to a command path"))
            break
    # blanking quotes only removes matches: text without one as written needs no blanking
    # (no part of either pattern matches a blank, so a match in the blanked text is
    # the same text, unblanked, in the source)
    function_call = "~[" in source
    qualifier = "(" in source and _QUALIFIER.search(source) is not None
    bare = _unquoted(source) if (function_call or qualifier) else ""
    if "~[" in bare:
        found.append(Finding(ID, Severity.HIGH, "zsh ~[…] expansion calls a function"))
    match = _QUALIFIER.search(bare) if qualifier else None
    if match:
        found.append(Finding(ID, Severity.HIGH, f"zsh glob qualifier {match.group()!r} runs code while matching"))
    return found


def _unquoted(source: str) -> str:
    """``source`` with quoted and escaped characters blanked (zsh does not expand them)."""
    if "\\" not in source and "'" not in source and '"' not in source:
        return source
    return _QUOTED.sub(_blank, source)


def _blank(match: Any) -> str:
    return " " * (match.end() - match.start())
