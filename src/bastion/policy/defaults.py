"""Layer 7: what happens when no rule, mode or finding decided.

Read-only calls and known-safe commands are allowed; a shell command bastion does not
know goes to ``review`` (the LLM reviewer if one is configured, else ask); everything
else that changes something asks.
"""

from __future__ import annotations

from typing import Any

from ..model import Kind, LayerResult, Source, Tier, ToolCall, Verdict


class Defaults:
    name = "defaults"
    stage = 7
    can_deny = False

    def check(self, call: ToolCall, ctx: Any) -> LayerResult | None:
        if call.kind is Kind.SHELL:
            return self._shell(call, ctx)
        if call.tier is Tier.READ_ONLY:
            return LayerResult(Verdict.ALLOW, f"{call.tool} is read-only", risk=Tier.READ_ONLY)
        if call.kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
            return LayerResult(Verdict.ASK, f"{call.tool} changes files; approval needed in {ctx.mode.value} mode")
        if call.kind is Kind.WEB_FETCH:
            return LayerResult(Verdict.ASK, f"{call.tool} fetches from the network; approval needed")
        if call.kind is Kind.MCP:
            return LayerResult(Verdict.ASK, f"MCP tool {call.tool} is not allowed by any rule")
        known = call.tool in _known_tools()
        what = "is not a tool bastion knows" if not known else f"is {call.tier.value.replace('_', '-')}"
        return LayerResult(Verdict.ASK, f"{call.tool} {what}; approval needed")

    def _shell(self, call: ToolCall, ctx: Any) -> LayerResult:
        analysis = ctx.analysis
        if analysis.known_safe and analysis.tier is not Tier.READ_ONLY:
            outside = _runs_outside(ctx)
            if outside:
                return LayerResult(
                    Verdict.ASK,
                    f"{outside} would run outside the workspace; approval needed",
                    risk=Tier.HIGH_RISK,
                )
        if analysis.known_safe:
            what = "read-only" if analysis.tier is Tier.READ_ONLY else "a known-safe development command"
            return LayerResult(Verdict.ALLOW, f"{what}", risk=analysis.tier, source=Source.BUILTIN)
        if analysis.unknown:
            names = ", ".join(dict.fromkeys(analysis.unknown))
            return LayerResult(
                Verdict.REVIEW,
                f"unknown command ({names}); approval needed",
                risk=analysis.tier,
            )
        return LayerResult(Verdict.ASK, "this command changes state; approval needed", risk=analysis.tier)


def _runs_outside(ctx: Any) -> str | None:
    """The first command that changes a directory outside the workspace (a test runner
    or build in ``/etc`` runs whatever code lives there), or None."""
    import os

    for cmd in ctx.parsed.commands:
        if cmd.cwd is None or cmd.name in ("cd", "pushd"):
            continue
        where = ctx.resolve(os.path.join(ctx.call.cwd, cmd.cwd))
        if not ctx.workspace.contains(where):
            return " ".join(cmd.argv[:2])
    return None


def _known_tools() -> frozenset[str]:
    from ..model import TOOL_CATALOG

    return frozenset(TOOL_CATALOG)
