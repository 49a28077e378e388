"""The shell's layers: hard blocks (2), too complex to analyse and known attacks (3),
analysis findings (6).
They judge a shell tool's command and the one an MCP tool's arguments carry alike.

Hard blocks are looked for in everything the parser could extract, even from a script
it refuses to interpret, so ``for f in *; do rm -rf /; done`` is denied, not asked.
"""

from __future__ import annotations

from ..model import Kind, LayerResult, Severity, Tier, ToolCall, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..core.context import Context
    from .syntax.script import Script

_SEVERITY_ORDER = [Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW]
#: Calls that can carry a shell command: shell tools, and MCP tools whose arguments hold
#: one (``Context.command``) — judged like a ``Bash`` call.
_COMMAND_KINDS = frozenset({Kind.SHELL, Kind.MCP})


def _first_line(findings: list[Any]) -> str:
    return findings[0].message if findings else ""


class HardBlocks:
    """Layer 2: catastrophic or malicious commands. Denied in every mode."""

    name = "hard_blocks"
    stage = 2
    can_deny = True

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if call.kind not in _COMMAND_KINDS:
            return None
        analysis = ctx.analysis
        if analysis is None or not analysis.hard_blocks:
            return None
        return LayerResult(
            Verdict.DENY,
            f"blocked: {_first_line(analysis.hard_blocks)}",
            immune=True,
            risk=Tier.DESTRUCTIVE,
            findings=list(analysis.hard_blocks),
            no_grant=True,
        )


_SCRIPT: type[Script] | None = None


def _script_class() -> type[Script]:
    """``syntax.script.Script``, imported on the first shell call and kept: an import
    statement in the layer costs a module lookup on every call."""
    global _SCRIPT
    if _SCRIPT is None:
        from .syntax.script import Script

        _SCRIPT = Script
    return _SCRIPT


class TooComplex:
    """Layer 3: a command the parser will not interpret is never trusted."""

    name = "too_complex"
    stage = 3
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if call.kind not in _COMMAND_KINDS:
            return None
        parsed = ctx.parsed
        if parsed is None or isinstance(parsed, _script_class()):  # only a TooComplex is complex
            return None
        if TYPE_CHECKING:
            assert not isinstance(parsed, Script)
        if parsed.soft and ctx.analysis is not None and ctx.analysis.resolved:
            return None  # only unknown values, each landing where it cannot hurt (meaning.unknowns)
        return LayerResult(
            Verdict.ASK,
            f"too complex to analyse safely ({parsed.reason}); asking",
            immune=True,
            findings=list(parsed.findings),
        )


class KnownAttacks:
    """Layer 3: findings of a known attack that only a person may wave through (a code
    whose record is ``immune``: ``gopher://`` to a local Redis) ask in every mode."""

    name = "known_attacks"
    stage = 3
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if call.kind not in _COMMAND_KINDS:
            return None
        analysis = ctx.analysis
        if analysis is None or not analysis.findings:
            return None
        from .catalog.intents import CODES

        held = [f for f in analysis.findings if f.code in CODES and CODES[f.code].immune]
        if not held:
            return None
        return LayerResult(Verdict.ASK, _first_line(held), immune=True, risk=Tier.HIGH_RISK, findings=held, no_grant=True)


class ShellAnalysis:
    """Layer 6: findings of the analyser (dangerous variables, obfuscation, network,
    privilege, code execution, destructive forms) ask for approval."""

    name = "shell_analysis"
    stage = 6
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if call.kind not in _COMMAND_KINDS:
            return None
        analysis = ctx.analysis
        if analysis is None:
            return None
        parsed = [f for f in ctx.parsed.findings if f.code not in analysis.answered] if ctx.parsed is not None else []
        findings = parsed + [f for f in analysis.findings if f not in parsed]
        # Low-severity findings are notes, not reasons to interrupt: a quoted ';' in
        # `find -exec … ';'` is ordinary shell. Alone they decide nothing and this layer
        # says nothing (the decision does not show them; the analysis keeps them in
        # ``analysis.factors`` for explain and audit); beside a finding that asks, they
        # travel with it in the decision.
        reasons = [f for f in findings if f.severity is not Severity.LOW]
        if not reasons:
            return None
        reasons.sort(key=lambda f: _SEVERITY_ORDER.index(f.severity))
        return LayerResult(
            Verdict.ASK,
            _first_line(reasons),
            risk=analysis.tier,
            findings=findings,
            no_grant=analysis.destructive,
        )
