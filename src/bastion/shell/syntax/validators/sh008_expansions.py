"""SH008 — command substitution, process substitution and arithmetic expansion.

``echo $(rm -rf ~)``, ``diff <(curl …) x`` and backticks run commands the argv does not
show; ``$(( a[$(cmd)] ))`` runs one inside arithmetic. The parser already refuses to
interpret these (too complex); this check names them. The one exception is
``$(cat <<'EOF' … EOF)``, which is read as the literal text it produces.
"""

from __future__ import annotations

from ....model import Finding, Severity
from ..words import cat_heredoc_literal

ID = "SH008"
WHAT = "command substitution $( ) or ` `, process substitution <( ) >( ), arithmetic $(( ))"
WHY = "the substituted command runs before the visible one and its text is not an argument"
EXAMPLE = "echo $(rm -rf ~)"
BENIGN = "echo '$(rm -rf ~)'"

_WHAT = {
    "command_substitution": ("command substitution", Severity.HIGH),
    "process_substitution": ("process substitution", Severity.HIGH),
    "arithmetic_expansion": ("arithmetic expansion", Severity.MEDIUM),
}


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    seen: set[str] = set()
    for node in view.nodes(*_WHAT):
        if node.type == "command_substitution" and cat_heredoc_literal(node, view.text) is not None:
            continue
        what, severity = _WHAT[node.type]
        if what in seen:
            continue
        seen.add(what)
        found.append(Finding(ID, severity, f"{what} {view.text(node)[:50]!r} runs a hidden command"))
    return found
