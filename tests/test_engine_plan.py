"""The engine reads its layers once per layer list: a list changed after a check (an
assignment, an item replaced, ``insert_layer``) or a changed ``layer_timeout`` is
honoured on the next check, and shared trace entries never leak between decisions."""

from __future__ import annotations

from pathlib import Path

from bastion.engine import Guard
from bastion.model import LayerResult, ToolCall, Verdict


class Answer:
    """A custom layer with a fixed answer."""

    def __init__(self, name: str, verdict: Verdict | None) -> None:
        self.name = name
        self.verdict = verdict

    def check(self, call, ctx):
        return LayerResult(self.verdict, f"{self.name} answers") if self.verdict is not None else None


def _guard(project: Path, env: dict[str, str]) -> Guard:
    return Guard.from_settings(str(project), isolated=True, env=env)


def _bash(project: Path, command: str) -> ToolCall:
    return ToolCall("Bash", {"command": command}, cwd=str(project))


def test_a_layer_list_changed_after_a_check_is_the_one_that_runs(project, bastion_env):
    guard = _guard(project, bastion_env)
    call = _bash(project, "git status")
    assert guard.check(call).verdict is Verdict.ALLOW
    guard.insert_layer(Answer("first_deny", Verdict.DENY), after="validate")
    assert guard.check(call).layer == "first_deny"
    guard.layers[1] = Answer("replaced", Verdict.ASK)  # replaced in place: same list, same length
    decision = guard.check(call)
    assert decision.layer == "replaced" and [t.layer for t in decision.trace][:2] == ["validate", "replaced"]
    guard.layers = [Answer("only", None)]
    decision = guard.check(call)
    assert decision.layer == "engine" and [t.layer for t in decision.trace] == ["only"]


def test_a_custom_layer_takes_the_timeout_in_force_at_the_check(project, bastion_env):
    guard = _guard(project, bastion_env)
    layer = Answer("custom", Verdict.ALLOW)
    guard.insert_layer(layer, after="validate")
    seen: list[float] = []
    import bastion.engine as engine

    real = engine._run_with_timeout

    def watching(layer, call, ctx, timeout):
        seen.append(timeout)
        return real(layer, call, ctx, timeout)

    engine._run_with_timeout = watching
    try:
        guard.check(_bash(project, "git status"))
        guard.layer_timeout = 5.0
        guard.check(_bash(project, "git status"))
    finally:
        engine._run_with_timeout = real
    assert seen == [2.0, 5.0]


def test_an_ask_before_the_grants_offers_none_and_without_allow_rules_none_is_reached(project, bastion_env):
    guard = _guard(project, bastion_env)
    assert guard._grants_reach("defaults") and not guard._grants_reach("deny_rules")
    guard.layers = [layer for layer in guard.layers if layer.name != "allow_rules"]
    assert not guard._grants_reach("defaults") and not guard._grants_reach("engine")


def test_decisions_share_no_mutable_trace(project, bastion_env):
    guard = _guard(project, bastion_env)
    first = guard.check(_bash(project, "git status"))
    second = guard.check(_bash(project, "git status"))
    assert first.trace is not second.trace
    first.trace.clear()
    assert [t.layer for t in second.trace][0] == "validate"
