"""The file layers: dangerous removals (2), protected paths (3), the workspace
boundary and sensitive targets (6). They see every path a call touches — a file tool's
path or the files a shell command reads, writes and deletes."""

from __future__ import annotations

from typing import Any

from ..model import LayerResult, Tier, ToolCall, Verdict


def _verdicts(ctx: Any) -> list[Any]:
    def build() -> list[Any]:
        from .check import check_access

        from .protected import ProtectionConfig

        config = ProtectionConfig.from_settings(ctx.policy.section("files") or {}, env=ctx.env)
        found = []
        for use in ctx.path_uses:
            found.extend(check_access(use.op, use.path, workspace=ctx.workspace, home=ctx.home, config=config))
        return found

    return ctx._once("path_verdicts", build)


def _result(verdicts: list[Any], verdict: Verdict, *, immune: bool, risk: Tier | None = None) -> LayerResult:
    first = verdicts[0]
    extra = f" (and {len(verdicts) - 1} more)" if len(verdicts) > 1 else ""
    from ..model import Finding, Severity

    findings = [Finding(v.code, Severity.HIGH if v.immune else Severity.MEDIUM, v.reason) for v in verdicts]
    return LayerResult(
        verdict,
        first.reason + extra,
        immune=immune,
        risk=risk,
        findings=findings,
        no_grant=any(v.no_grant for v in verdicts),
    )


class RemovalTargets:
    """Layer 2: deleting ``/``, ``~``, system folders or the workspace root is blocked."""

    name = "removal_targets"
    stage = 2
    can_deny = True

    def check(self, call: ToolCall, ctx: Any) -> LayerResult | None:
        denies = [v for v in _verdicts(ctx) if v.verdict == "deny"]
        return _result(denies, Verdict.DENY, immune=True, risk=Tier.DESTRUCTIVE) if denies else None


class ProtectedPaths:
    """Layer 3: protected files and folders (``.git``, shell startup files, bastion's own
    settings) and credential stores ask in every mode."""

    name = "protected_paths"
    stage = 3
    can_deny = False

    def check(self, call: ToolCall, ctx: Any) -> LayerResult | None:
        asks = [v for v in _verdicts(ctx) if v.verdict == "ask" and v.immune]
        return _result(asks, Verdict.ASK, immune=True) if asks else None


class PathBoundary:
    """Layer 6: writes outside the workspace and sensitive targets ask."""

    name = "path_boundary"
    stage = 6
    can_deny = False

    def check(self, call: ToolCall, ctx: Any) -> LayerResult | None:
        asks = [v for v in _verdicts(ctx) if v.verdict == "ask" and not v.immune]
        return _result(asks, Verdict.ASK, immune=False) if asks else None
