"""SH018 — invisible characters, Unicode spaces and bidi controls in the command text.

A zero-width space inside ``rm`` makes a different word; a no-break space looks like a
space but does not split words; a right-to-left override reorders what is displayed.

Quoted data is data: an invisible character or a Unicode space inside a quoted string
that is not a command name, or inside a here-document body (``git commit -m "✅️ done"``,
whose emoji carries the invisible variation selector U+FE0F), changes no word the shell
splits or runs; where such text is run as code (``bash -c``, a here-document fed to a
shell) the parser checks it again as a script of its own. Bidirectional controls are
reported wherever they are: they reorder what the person approving reads.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ..words import char_class

ID = "SH018"
WHAT = "invisible character, Unicode space or bidirectional control in the command"
WHY = "the text displayed differs from the words the shell sees"
EXAMPLE = "rm -rf\u00a0/tmp/x"
BENIGN = "echo café"

_WHAT = {"invisible": "an invisible character", "bidi": "a bidirectional-text control", "space": "a Unicode space"}
#: Tree nodes whose text is data where they are not a command name.
_DATA_NODES = ("string", "raw_string", "heredoc_body")
#: Classes that quoted data may hold (bidi controls are reported everywhere).
_DATA_OK = frozenset({"invisible", "space"})


def _outside_data(source: str, view) -> str:
    """``source`` without its quoted data (strings that are not command names,
    here-document bodies); the whole source when there is no tree."""
    if view.root is None:
        return source
    data = source.encode("utf-8", "replace")
    spans = []
    for node in view.nodes(*_DATA_NODES):
        parent = node.parent
        while parent is not None and parent.type not in ("command_name", "command", "program"):
            parent = parent.parent
        if parent is None or parent.type != "command_name":
            spans.append((node.start_byte, node.end_byte))
    if not spans:
        return source
    kept, at = [], 0
    for start, end in sorted(spans):
        if start >= at:
            kept.append(data[at:start])
            at = end
    kept.append(data[at:])
    return b"".join(kept).decode("utf-8", "replace")


def check(source: str, view) -> list[Finding]:
    if source.isascii():
        return []
    found: list[Finding] = []
    code: dict[str, str] | None = None
    for cls, ch in char_class(source).items():
        if cls not in _WHAT:
            continue
        if cls in _DATA_OK:
            code = char_class(_outside_data(source, view)) if code is None else code
            if cls not in code:
                continue
            ch = code[cls]
        found.append(Finding(ID, Severity.HIGH, f"command contains {_WHAT[cls]} (U+{ord(ch):04X})"))
    return found
