"""The engine's post-step for the sandbox (spec 002 §12.9).

* ``autoAllowBashIfSandboxed``: with ``sandbox.enabled``, a shell call that would only
  *ask* for a layer 6–7 reason (analysis findings, path boundary, the defaults for
  unknown commands) is allowed, with a reason saying it runs in bastion's sandbox.
  Deny rules, hard blocks, immune asks (protected paths, ask rules, commands too
  complex to analyse), mode asks and a reviewer's ask are left alone — and nothing is
  auto-allowed on a machine where no backend could confine the command.
* ``dangerouslyDisableSandbox: true`` in the call's input: the command would run
  outside the sandbox, so it needs explicit approval — an immune ask, whatever a mode
  or an allow rule said (a deny stays a deny).

The relaxation applies only when the caller declared that it runs the command in the
sandbox (``Guard.runs_sandboxed``: ``bastion run``, and the Claude Code hook, which
rewrites the call into ``bastion run`` through ``updatedInput``).
"""

from __future__ import annotations

import time

from ..model import Decision, Kind, Source, ToolCall, TraceEntry, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..core.context import Context

#: Layers of stages 6–7 whose asks the sandbox may turn into allows.
SANDBOXABLE_LAYERS = frozenset({"shell_analysis", "path_boundary", "defaults"})
LAYER = "sandbox"


def wants_unsandboxed(call: ToolCall) -> bool:
    return call.input.get("dangerouslyDisableSandbox") is True


def _settings(ctx: Context) -> Any:
    from .config import SandboxSettings

    return SandboxSettings.from_policy(ctx.policy, home=ctx.home)


def auto_allow(decision: Decision, call: ToolCall, ctx: Context) -> Decision | None:
    """The changed decision, or None to keep ``decision`` as it is. Never raises: a
    failure relaxes nothing (and still asks for ``dangerouslyDisableSandbox``)."""
    if call.kind is not Kind.SHELL:
        return None
    try:
        return _auto_allow(decision, call, ctx)
    except Exception:  # noqa: BLE001 - fail closed
        return _needs_approval(decision, time.perf_counter_ns()) if wants_unsandboxed(call) else None


def _auto_allow(decision: Decision, call: ToolCall, ctx: Context) -> Decision | None:
    sections = getattr(ctx.policy, "sections", None) or {}
    if not sections.get("sandbox"):
        return None
    started = time.perf_counter_ns()
    try:
        settings = _settings(ctx)
    except ValueError:
        settings = None  # a broken section enables nothing
    if settings is None or not settings.enabled:
        return None
    if wants_unsandboxed(call):
        return _needs_approval(decision, started)
    if not settings.auto_allow or not getattr(ctx, "runs_sandboxed", False):
        return None  # the command would run outside the sandbox: nothing to relax
    if decision.verdict is not Verdict.ASK or decision.immune or decision.layer not in SANDBOXABLE_LAYERS:
        return None
    from .doctor import available

    if not available():
        return None
    reason = f"{decision.reason} — allowed because it runs in bastion's sandbox (sandbox.autoAllowBashIfSandboxed)"
    return decision.revise(
        verdict=Verdict.ALLOW,
        reason=reason,
        layer=LAYER,
        source=Source.CONFIG,
        suggestions=[],
        note=TraceEntry(LAYER, "allow", reason, (time.perf_counter_ns() - started) // 1000),
    )


def _needs_approval(decision: Decision, started: int) -> Decision | None:
    if decision.verdict is Verdict.DENY or (decision.verdict is Verdict.ASK and decision.immune):
        return None
    why = "it asks to run outside bastion's sandbox (dangerouslyDisableSandbox); that needs explicit approval"
    reason = why if decision.verdict is Verdict.ALLOW else f"{decision.reason}; {why}"
    return decision.revise(
        verdict=Verdict.ASK,
        reason=reason,
        layer=LAYER,
        immune=True,
        no_grant=True,
        suggestions=[],
        source=Source.BUILTIN,
        note=TraceEntry(LAYER, "ask", why, (time.perf_counter_ns() - started) // 1000),
    )
