"""A decision rendered for a person: what was asked, the verdict, why, and the path
through the layers."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_COLORS = {"allow": "\033[32m", "ask": "\033[33m", "deny": "\033[31m"}
_RESET = "\033[0m"


def describe_call(call: Any) -> str:
    """One line saying what the call would do, as the agent asked for it."""
    if call.command is not None:
        return f"{call.tool}: {call.command}"
    if call.paths:
        return f"{call.tool}: {', '.join(call.paths)}"
    url = call.input.get("url") if hasattr(call.input, "get") else None
    if url:
        return f"{call.tool}: {url}"
    return call.tool


def verdict_label(verdict: str, *, color: bool) -> str:
    label = verdict.upper()
    return f"{_COLORS[verdict]}{label}{_RESET}" if color and verdict in _COLORS else label


def render(call: Any, decision: Any, *, color: bool = False, trace: bool = True) -> str:
    lines = [
        describe_call(call),
        f"  decision: {verdict_label(decision.verdict.value, color=color)}"
        f"  (layer {decision.layer}, risk {decision.risk.value}, source {decision.source.value}"
        f"{', immune' if decision.immune else ''})",
        f"  reason:   {decision.reason}",
    ]
    for finding in decision.findings:
        lines.append(f"  finding:  {finding.code} [{finding.severity.value}] {finding.message}")
    if decision.suggestions:
        lines.append(f"  to allow it next time: {', '.join(decision.suggestions)}")
    if trace:
        path = " → ".join(
            f"{t.layer}:{t.verdict}" for t in decision.trace if t.verdict not in ("abstain", "skipped")
        )
        total = sum(t.duration_us for t in decision.trace)
        lines.append(f"  trace:    {path or 'no layer had an opinion'}  ({total} µs)")
    return "\n".join(lines)
