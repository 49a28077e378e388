"""The Guard: runs the layers in order and turns their opinions into one Decision.

Nothing tool-specific lives here. Each layer is a small object with a ``name``, the
DESIGN.md ``stage`` it belongs to (0–7) and ``check(call, ctx) -> LayerResult | None``.
The rules of composition:

* the first ``deny`` wins, at any stage;
* an immune ``ask`` is held while the remaining layers that *can deny* still run (a later
  deny rule or plugin may turn it into a deny); nothing may turn it into an allow;
* otherwise the first layer with an opinion decides;
* an exception or a timeout inside a layer is an immune ``ask`` naming the layer — the
  engine never turns a failure into ``allow``;
* ``review`` becomes ``ask`` unless a reviewer settles it; ``dontAsk`` turns ``ask`` into
  ``deny``.
"""

from __future__ import annotations

import os
import time

from .core.context import Context, Facts, Layer, PathUse, Reviewer
from .core.mode import parse_mode, resolve_mode
from .early import review_enabled  # not the review package: a guard without a reviewer never loads it
from .model import (
    Decision,
    Deferred,
    Finding,
    Kind,
    LayerResult,
    Mode,
    Source,
    Tier,
    ToolCall,
    TraceEntry,
    Verdict,
    trace_entry,
)
from .precompiled import dataclass, field  # dataclasses' own, with their code compiled once
from .std_lite import partial

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from .policy.settings import Policy

__all__ = ["Context", "Facts", "Guard", "Layer", "PathUse", "Reviewer"]


@dataclass
class _Outcome:
    """A layer's result and the layer's name."""

    result: LayerResult
    layer: str


class _Plan:
    """What the loop reads of each layer, read once per layer list rather than on every
    call: ``steps`` holds ``(layer, name, timeout, can_deny)``; ``names`` and
    ``abstained`` (a frozen trace entry per layer for an abstention under a microsecond,
    one serving every call) are what the trace is written from. ``before_grants``: the
    names of the layers before ``allow_rules``, whose asks no grant reaches (None
    without an ``allow_rules`` layer: then none is reached). A guard whose layer list or
    ``layer_timeout`` changed (``insert_layer``, an assignment) makes a new plan; a
    layer's attributes are read when it joins one."""

    def __init__(self, layers: tuple[Layer, ...], custom: set[int], layer_timeout: float) -> None:
        self.layers = layers
        self.layer_timeout = layer_timeout
        steps = []
        for layer in layers:
            name = layer.name
            timeout = getattr(layer, "timeout", None)
            if timeout is None and id(layer) in custom:
                timeout = layer_timeout
            steps.append((layer, name, timeout, getattr(layer, "can_deny", True)))
        self.steps = tuple(steps)
        self.names = tuple(step[1] for step in steps)
        self.abstained = tuple(trace_entry(name, "abstain", "", 0) for name in self.names)
        names = list(self.names)
        self.before_grants = frozenset(names[: names.index("allow_rules")]) if "allow_rules" in names else None


class _Trace:
    """One check's trace as the loop records it: a clock reading before the first layer
    and after each layer that ran, and an entry for each layer that did not abstain (by
    position). The entries of the abstaining layers are written out when the decision's
    trace is first read (:meth:`written`): a check that nobody explains makes none."""

    __slots__ = ("plan", "stamps", "said", "after")

    def __init__(self, plan: _Plan, start: int) -> None:
        self.plan = plan
        self.stamps = [start]
        self.said: dict[int, TraceEntry] = {}
        #: Entries after the layers (the reviewer's).
        self.after: list[TraceEntry] = []

    def written(self) -> list[TraceEntry]:
        stamps, said, names, abstained = self.stamps, self.said, self.plan.names, self.plan.abstained
        trace = []
        for position in range(len(stamps) - 1):
            entry = said.get(position)
            if entry is None:
                spent = (stamps[position + 1] - stamps[position]) // 1000
                entry = trace_entry(names[position], "abstain", "", spent) if spent else abstained[position]
            trace.append(entry)
        trace.extend(self.after)
        return trace


class LayerTimeout(Exception):
    pass


def _run_with_timeout(layer: Layer, call: ToolCall, ctx: Context, timeout: float) -> LayerResult | None:
    """Run a (custom) layer in a daemon thread; past ``timeout`` seconds it is abandoned."""
    import threading  # only custom layers run in a thread

    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = layer.check(call, ctx)
        except BaseException as exc:  # noqa: BLE001 - reported as a failed layer
            box["error"] = exc

    worker = threading.Thread(target=target, name=f"bastion-layer-{layer.name}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise LayerTimeout(f"no answer within {timeout:g} s")
    if "error" in box:
        raise box["error"]
    return box.get("result")


_AUTO_ALLOW: Any = None


def _sandbox_post_step() -> Any:
    """``sandbox.policy.auto_allow``, imported on the first shell call and kept: an import
    statement in ``_finish`` would cost a module lookup on every call."""
    global _AUTO_ALLOW
    if _AUTO_ALLOW is None:
        from .sandbox.policy import auto_allow

        _AUTO_ALLOW = auto_allow
    return _AUTO_ALLOW


def _suggest(call: ToolCall, ctx: Context) -> list[str]:
    """The allow rules an ask offers (``policy.suggest``), imported when first read."""
    from .policy.suggest import suggest

    return suggest(call, ctx)


def _deny_catastrophe(decision: Decision, ctx: Context) -> Decision:
    """The safety net: a finding that establishes a catastrophic effect (the table in
    ``bastion.catastrophic``) makes the decision an immune deny naming the effect,
    whichever layer reported it and whatever it answered — a custom layer that allowed
    early, a reviewer, the sandbox post-step. An allowed call that skipped the shell
    analysis gets it here; the table is imported only when there is a finding to look up."""
    found = list(decision.findings)
    try:
        analysis = ctx.analysis if decision.verdict is Verdict.ALLOW else ctx.known("analysis")
    except Exception:  # noqa: BLE001 - the layer that needed it already failed closed
        analysis = None
    if analysis is not None:
        found.extend(analysis.hard_blocks)
    if not found:
        return decision
    from .catastrophic import catastrophic_codes, effect_of

    codes = catastrophic_codes()
    hit = next((f for f in found if f.code in codes), None)
    effect = effect_of(hit.code) if hit is not None else None
    if hit is None or effect is None:
        return decision
    reason = f"blocked: {effect.title} ({hit.message})"
    return decision.revise(
        verdict=Verdict.DENY,
        reason=reason,
        layer="catastrophic",
        risk=Tier.DESTRUCTIVE,
        immune=True,
        no_grant=True,
        suggestions=[],
        source=Source.BUILTIN,
        finding=hit,
        note=TraceEntry("catastrophic", "deny", reason, 0),
    )


@dataclass
class Guard:
    """Decides allow / ask / deny for tool calls. ``check`` is pure: no prompts, no
    writes; it reads settings, the session's grants and the file system.

    >>> guard = Guard.from_settings(cwd="/work/project")
    >>> guard.check(ToolCall("Bash", {"command": "git status"}, cwd="/work/project")).verdict
    """

    policy: Policy
    layers: list[Layer] = field(default_factory=list)
    mode: Mode | None = None
    reviewer: Reviewer | None = None
    env: Mapping[str, str] = field(default_factory=lambda: os.environ, repr=False)  # holds keys: never printed
    #: Seconds a custom layer may take before it counts as failed (fail closed).
    layer_timeout: float = 2.0
    #: The caller will run approved shell commands inside bastion's sandbox (``bastion
    #: run``, or a hook that rewrites the call into it). Only then may
    #: ``autoAllowBashIfSandboxed`` turn an ask into an allow.
    runs_sandboxed: bool = False
    #: Extra workspace directories for this guard (``--add-dir``), besides the settings'
    #: ``additionalDirectories``.
    add_dirs: tuple[str, ...] = ()
    #: Where the Context's facts come from (default: every provider bastion has).
    facts: Facts | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        #: Layers added with ``insert_layer``: they run under the watchdog.
        self._custom_layers: set[int] = set()
        if not self.layers:
            from .layers import default_layers

            self.layers = default_layers()
        if self.facts is None:
            from .providers import ToolFacts

            self.facts = ToolFacts()
        self._plan: _Plan | None = None

    @classmethod
    def from_settings(
        cls,
        cwd: str = ".",
        *,
        isolated: bool = False,
        settings_files: Sequence[str] = (),
        mode: Mode | str | None = None,
        env: Mapping[str, str] | None = None,
        reviewer: Reviewer | None = None,
        add_dirs: Sequence[str] = (),
    ) -> Guard:
        """A guard with the settings that apply in ``cwd`` (managed, user, project …)."""
        from .policy.settings import load_policy

        env = env if env is not None else os.environ
        policy = load_policy(os.path.abspath(cwd), isolated=isolated, extra_files=settings_files, env=env)
        if isinstance(mode, str):
            mode = parse_mode(mode)
        if reviewer is None and review_enabled(policy.section("review"), env):
            from .review.wiring import build_reviewer  # imported only when the reviewer is on

            reviewer = build_reviewer(policy, env)
        return cls(policy=policy, mode=mode, env=env, reviewer=reviewer, add_dirs=tuple(add_dirs))

    # -- customising --------------------------------------------------------------

    def insert_layer(self, layer: Layer, *, before: str | None = None, after: str | None = None) -> None:
        """Add a library user's own layer next to a named built-in one (default: just
        before the defaults). A custom layer runs with a watchdog (``layer_timeout``)."""
        names = [existing.name for existing in self.layers]
        if before is not None:
            index = names.index(before)
        elif after is not None:
            index = names.index(after) + 1
        else:
            index = names.index("defaults")
        self._custom_layers.add(id(layer))
        self.layers.insert(index, layer)

    # -- deciding -----------------------------------------------------------------

    def effective_mode(self, call: ToolCall) -> Mode:
        """An explicit mode (flag or library argument) beats the client's, which beats
        the settings' ``defaultMode``."""
        return resolve_mode(self.mode, call.mode, self.policy.default_mode)

    def context(self, call: ToolCall) -> Context:
        assert self.facts is not None  # set in __post_init__
        return Context(
            call,
            self.policy,
            mode=resolve_mode(self.mode, call.mode, self.policy.default_mode),  # effective_mode, without the hop
            home=self.env.get("HOME") or os.path.expanduser("~"),
            env=self.env,
            facts=self.facts,
            runs_sandboxed=self.runs_sandboxed,
            add_dirs=tuple(os.path.abspath(os.path.expanduser(d)) for d in self.add_dirs) if self.add_dirs else (),
        )

    def _steps(self) -> _Plan:
        """The layers as the loop runs them, read once per layer list (see :class:`_Plan`)."""
        plan = self._plan
        if plan is None or plan.layers != tuple(self.layers) or plan.layer_timeout != self.layer_timeout:
            plan = self._plan = _Plan(tuple(self.layers), self._custom_layers, self.layer_timeout)
        return plan

    def check(self, call: ToolCall) -> Decision:
        ctx = self.context(call)
        plan = self._steps()
        clock = time.perf_counter_ns
        trace = _Trace(plan, clock())
        stamps = trace.stamps
        mark = stamps.append
        findings: list[Finding] = []
        held: _Outcome | None = None
        decided: _Outcome | None = None

        for layer, name, timeout, can_deny in plan.steps:
            if held is not None and not can_deny:
                trace.said[len(stamps) - 1] = trace_entry(name, "skipped", "an immune ask is held", 0)
                mark(stamps[-1])
                continue
            label: str
            try:
                result = _run_with_timeout(layer, call, ctx, timeout) if timeout else layer.check(call, ctx)
                if result is None:  # most layers abstain: the shortest way round the loop
                    mark(clock())
                    continue
                if isinstance(result, Verdict):  # a custom layer may answer with a bare verdict
                    result = LayerResult(result, f"{name} says {result.value}")
                label = result.verdict.value
            except Exception as exc:  # noqa: BLE001 - fail closed, with the reason
                detail = str(exc).splitlines()[0] if str(exc) else ""
                what = "timed out" if isinstance(exc, LayerTimeout) else f"failed ({type(exc).__name__})"
                result = LayerResult(
                    Verdict.ASK,
                    f"the {name} check {what}{': ' + detail if detail else ''}; asking instead of allowing",
                    immune=True,
                )
                label = "error"
            mark(clock())
            trace.said[len(stamps) - 2] = trace_entry(name, label, result.reason, (stamps[-1] - stamps[-2]) // 1000)
            if result.findings:
                findings.extend(f for f in result.findings if f not in findings)
            if held is not None:
                if result.verdict is Verdict.DENY:
                    decided = _Outcome(result, name)
                    break
                continue
            if result.verdict is Verdict.DENY:
                decided = _Outcome(result, name)
                break
            if result.verdict is Verdict.ASK and result.immune:
                held = _Outcome(result, name)
                continue
            decided = _Outcome(result, name)
            break

        outcome = decided or held
        if outcome is None:
            outcome = _Outcome(
                LayerResult(Verdict.ASK, "no layer reached a decision; asking", immune=False),
                "engine",
            )
        if outcome.result.verdict is Verdict.REVIEW:
            outcome = self._review(call, ctx, outcome, trace.after)
        return self._finish(call, ctx, outcome, findings, Deferred(trace.written))

    def _review(self, call: ToolCall, ctx: Context, outcome: _Outcome, trace: list[TraceEntry]) -> _Outcome:
        """Layer 7's ``review`` goes to the reviewer when there is one, else it asks."""
        if self.reviewer is None:
            result = outcome.result
            return _Outcome(
                LayerResult(
                    Verdict.ASK,
                    result.reason,
                    risk=result.risk,
                    findings=result.findings,
                    suggestions=result.suggestions,
                    source=result.source,
                ),
                outcome.layer,
            )
        started = time.perf_counter_ns()
        try:
            reviewed = self.reviewer(call, ctx, outcome.result)
            if reviewed.verdict is Verdict.REVIEW:
                raise ValueError("the reviewer returned no verdict")
        except Exception as exc:  # noqa: BLE001 - fail closed
            reviewed = LayerResult(Verdict.ASK, f"the reviewer failed ({type(exc).__name__}); asking")
        trace.append(
            TraceEntry("reviewer", reviewed.verdict.value, reviewed.reason, (time.perf_counter_ns() - started) // 1000)
        )
        return _Outcome(reviewed, "reviewer")

    def _grants_reach(self, layer: str) -> bool:
        """Could a grant or an allow rule stop ``layer`` asking? Both are read by the
        ``allow_rules`` layer; an ask from a layer before it (a plugin guard's ask, plan
        mode's, a custom layer inserted earlier) comes again whatever is granted, so
        offering a grant there would only be a broken promise. Asks from later layers,
        the reviewer and the engine itself are reached."""
        before = self._steps().before_grants
        return before is not None and layer not in before

    def _finish(
        self,
        call: ToolCall,
        ctx: Context,
        outcome: _Outcome,
        findings: list[Finding],
        trace: Deferred,
    ) -> Decision:
        result = outcome.result
        risk = call.tier
        analysis = ctx.known("analysis")
        if analysis is not None:
            risk = analysis.tier
        if result.risk is not None:
            risk = risk.max(result.risk)
        no_grant = result.no_grant or risk is Tier.DESTRUCTIVE
        if analysis is not None and getattr(analysis, "destructive", False):
            no_grant = True
        if any(use.op == "delete" for use in ctx.known("path_uses") or ()):
            no_grant = True  # an ask about a removal never offers a session or "always" grant
        # An ask from before the grants (or an immune one) offers none: granted, it would
        # ask again. A layer's own suggestions are deliberate and its own to keep (a
        # skill-scoped Edit rule the protected-paths layer itself honours); generated ones
        # are offered only where a saved rule is read before the asking layer.
        held = result.immune or (result.verdict is Verdict.ASK and not self._grants_reach(outcome.layer))
        suggestions: Any = list(result.suggestions)
        if result.verdict is Verdict.ASK and not (no_grant or held) and not suggestions:
            suggestions = Deferred(partial(_suggest, call, ctx))  # worked out when read
        decision = Decision.made(
            verdict=result.verdict,
            reason=result.reason,
            layer=outcome.layer,
            risk=risk,
            findings=findings,
            suggestions=[] if no_grant else suggestions,
            immune=result.immune,
            source=result.source,
            trace=trace,
            no_grant=no_grant or held,
            facts=ctx,
        )
        if call.kind is Kind.SHELL:  # sandbox post-step: autoAllowBashIfSandboxed, dangerouslyDisableSandbox
            decision = _sandbox_post_step()(decision, call, ctx) or decision
        if decision.verdict is not Verdict.DENY:
            decision = _deny_catastrophe(decision, ctx)
        if decision.verdict is Verdict.ASK and ctx.mode is Mode.DONT_ASK:
            decision = decision.revise(
                verdict=Verdict.DENY,
                reason=f"{decision.reason} (dontAsk mode denies what would ask)",
                source=Source.MODE,
            )
        return decision
