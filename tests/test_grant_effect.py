"""An offered grant takes effect: a decision never offers a session grant, an "always"
rule or a suggested rule that, once recorded, would leave the same call asking.

Each ask below comes from a different layer. What it offers is read the way a person
meets it (``approve.base.can_grant``: the prompt's "allow for this session", the
"always" grant; a shown suggestion: ``bastion rules add``); each offer is then recorded
through the real code (``session.grant``, the ``bastion rules add`` command) and the
same call is checked again by a newly loaded guard: it must now be allowed. Asks that
offer nothing say why; where the reason is "asks again", a session grant stored
directly must indeed leave the call asking (the reason is real, not a shortcut).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bastion import session
from bastion.approve.base import can_grant
from bastion.engine import Guard
from bastion.model import Decision, LayerResult, ToolCall, Verdict
from bastion.policy.grants import add_session_grant, grant_key, save_always_rule
from bastion.policy.settings import trust
from conftest import run_bastion

ASKS_AGAIN = "asks again"  # the asking layer runs before grants and allow rules are read
DESTRUCTIVE = "destructive"  # a grant would work, and is refused on purpose
GRANTS = "grants"  # session grant and "always" rule offered, both take effect
RULE = "rule"  # only a rule to add is shown (an immune ask the layer itself lifts for it)


@dataclass(frozen=True)
class Case:
    name: str
    tool: str
    input: Callable[[Path, Path], dict[str, object]]  # (project, home) -> tool input
    offers: str
    layer: str
    mode: str | None = None
    setup: Callable[[Path, Path], None] = lambda project, user: None  # (project, user config dir)


def _plugin(project: Path, _user: Path) -> None:
    guards = project / ".bastion" / "guards"
    guards.mkdir(parents=True, exist_ok=True)
    (guards / "mk.yaml").write_text(
        'id: mk\ntool: Bash\npatterns:\n  - match: "^make\\\\b"\n    verdict: ask\n    reason: make needs a person\n'
    )


def _ask_rule(_project: Path, user: Path) -> None:
    save_always_rule(user / "settings.json", "Bash(git push:*)", behavior="ask")


def _skill(project: Path, _user: Path) -> None:
    (project / ".claude" / "skills" / "deploy").mkdir(parents=True)
    (project / ".claude" / "skills" / "deploy" / "SKILL.md").write_text("# deploy\n")


def _bash(command: str) -> Callable[[Path, Path], dict[str, object]]:
    return lambda project, home: {"command": command}


def _file(where: Callable[[Path, Path], Path]) -> Callable[[Path, Path], dict[str, object]]:
    return lambda project, home: {"file_path": str(where(project, home)), "content": "x = 1\n"}


CASES = [
    # layers after the grants: what they offer works
    Case("shell analysis: network", "Bash", _bash("curl https://example.com"), GRANTS, "shell_analysis"),
    Case("defaults: unknown command", "Bash", _bash("frob --all"), GRANTS, "defaults"),
    Case("defaults: a file edit", "Write", _file(lambda p, h: p / "src" / "new.py"), GRANTS, "defaults"),
    Case("path boundary: outside the workspace", "Write", _file(lambda p, h: h / "elsewhere" / "notes.txt"),
         GRANTS, "path_boundary", mode="acceptEdits"),
    Case("defaults: a fetch", "WebFetch", lambda p, h: {"url": "https://example.com/docs", "prompt": "read"}, GRANTS,
         "defaults"),
    Case("defaults: an MCP tool", "mcp__tracker__create_issue", lambda p, h: {"title": "x"}, GRANTS, "defaults"),
    # layers before the grants: nothing is offered, because a grant would not be read
    Case("plugin guard ask", "Bash", _bash("make build"), "none:" + ASKS_AGAIN, "plugins_restrict", setup=_plugin),
    Case("plugin guard ask inside a list", "Bash", _bash("cd src && make build"), "none:" + ASKS_AGAIN,
         "plugins_restrict", setup=_plugin),
    Case("plan mode: a file edit", "Write", _file(lambda p, h: p / "src" / "new.py"), "none:" + ASKS_AGAIN, "mode",
         mode="plan"),
    Case("plan mode: a command that changes things", "Bash", _bash("npm install lodash"), "none:" + ASKS_AGAIN,
         "mode", mode="plan"),
    Case("ask rule", "Bash", _bash("git push origin main"), "none:" + ASKS_AGAIN, "ask_rules", setup=_ask_rule),
    Case("protected path", "Write", _file(lambda p, h: p / ".git" / "config"), "none:" + ASKS_AGAIN,
         "protected_paths"),
    Case("runs later", "Write", _file(lambda p, h: h / ".config" / "autostart" / "x.desktop"), "none:" + ASKS_AGAIN, "runs_later"),
    # grants that would work and are refused on purpose
    Case("removal", "Bash", _bash("rm -rf build"), "none:" + DESTRUCTIVE, "shell_analysis"),
    # an immune ask whose layer honours one narrow rule: that rule is shown, and works
    Case("protected skill file", "Edit", lambda p, h: {"file_path": str(p / ".claude/skills/deploy/SKILL.md"),
                                                       "old_string": "# deploy", "new_string": "# deploy v2"},
         RULE, "protected_paths", setup=_skill),
]


def _guard(project: Path, env: dict[str, str], mode: str | None) -> Guard:
    """A guard as a new hook process loads it: settings, plugins and grants read afresh."""
    return Guard.from_settings(str(project), env=env, mode=mode)


def _call(case: Case, project: Path, env: dict[str, str], session_id: str) -> ToolCall:
    return ToolCall(case.tool, case.input(project, Path(env["HOME"])), cwd=str(project), session_id=session_id)


def _check(case: Case, project: Path, env: dict[str, str], session_id: str) -> tuple[ToolCall, Decision]:
    call = _call(case, project, env, session_id)
    return call, _guard(project, env, case.mode).check(call)


@pytest.fixture
def world(project: Path, bastion_env: dict[str, str]) -> tuple[Path, dict[str, str]]:
    (project / "build").mkdir()
    trust(str(project), bastion_env)  # the project's own allow rules and plugins count
    return project, bastion_env


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_what_is_offered_takes_effect(world: tuple[Path, dict[str, str]], case: Case) -> None:
    project, env = world
    user = Path(env["BASTION_CONFIG_DIR"])
    case.setup(project, user)
    call, decision = _check(case, project, env, "s-session")
    assert decision.verdict is Verdict.ASK, decision.reason
    assert decision.layer == case.layer, decision.trace

    grantable = can_grant(decision)
    if case.offers == GRANTS:
        assert grantable, decision
        # "allow for this session", through the prompt's own code path
        session.grant(call, decision, "session", env=env)
        again = _guard(project, env, case.mode).check(call)
        assert again.verdict is Verdict.ALLOW, f"the session grant did not take effect: {again.reason}"
        if not decision.suggestions:
            return  # no narrow rule describes it: "always" is not offered
        # "always": another session, so only the saved rule can allow it
        call, decision = _check(case, project, env, "s-always")
        assert decision.verdict is Verdict.ASK and can_grant(decision)
        session.grant(call, decision, "always", env=env)
        _, again = _check(case, project, env, "s-fresh")
        assert again.verdict is Verdict.ALLOW, f"{decision.suggestions} did not take effect: {again.reason}"
    elif case.offers == RULE:
        assert not grantable and decision.suggestions
        for rule in decision.suggestions:  # what the prompt shows: bastion rules add RULE [--scope local]
            scope = ["--scope", "local"] if "(/" in rule and "(//" not in rule else []
            done = run_bastion("rules", "add", rule, *scope, cwd=project, env=env)
            assert done.returncode == 0, done.stderr
        _, again = _check(case, project, env, "s-fresh")
        assert again.verdict is Verdict.ALLOW, f"{decision.suggestions} did not take effect: {again.reason}"
    else:
        why = case.offers.split(":", 1)[1]
        assert not grantable and not decision.suggestions, decision
        with pytest.raises(session.GrantRefused):
            session.grant(call, decision, "session", env=env)
        if why == ASKS_AGAIN:  # the reason is real: stored anyway, the grant changes nothing
            add_session_grant(call.session_id, grant_key(call, " ".join((call.command or "").split()) or None), env)
            again = _guard(project, env, case.mode).check(call)
            assert again.verdict is decision.verdict and again.layer == decision.layer


class _Asks:
    """A library user's own layer that asks about every Bash call."""

    name = "team_policy"
    stage = 3
    can_deny = False

    def check(self, call: ToolCall, ctx: object) -> LayerResult | None:
        return LayerResult(Verdict.ASK, "the team wants to see every command") if call.tool == "Bash" else None


@pytest.mark.parametrize("where, offered", [({"before": "mode"}, False), ({}, True)])
def test_a_custom_layer_offers_grants_only_after_the_grants(world, where, offered) -> None:
    """The rule follows from the order: an inserted layer that asks before the grants
    are read offers none; one that asks after them (the default place) offers them,
    and they work."""
    project, env = world
    call = ToolCall("Bash", {"command": "git status"}, cwd=str(project), session_id="s")
    decision = _with_layer(project, env, where).check(call)
    assert decision.verdict is Verdict.ASK and decision.layer == "team_policy"
    assert can_grant(decision) is offered
    add_session_grant("s", grant_key(call, "git status"), env)
    again = _with_layer(project, env, where).check(call)
    assert (again.verdict is Verdict.ALLOW) is offered


def _with_layer(project: Path, env: dict[str, str], where: dict[str, str]) -> Guard:
    guard = _guard(project, env, None)
    guard.insert_layer(_Asks(), **where)
    return guard


@pytest.mark.parametrize("layer, source, says", [
    ("mode", "mode", "plan mode asks before every change."),
    ("plugins_restrict", "config", "its guard plugin asks for it every time."),
])
def test_the_prompt_says_why_only_once(layer: str, source: str, says: str) -> None:
    from bastion.approve.terminal import _why_once
    from bastion.model import Source, Tier

    decision = Decision(Verdict.ASK, "asks", layer, Tier.LOW_RISK, source=Source(source), no_grant=True)
    assert _why_once(ToolCall("Bash", {"command": "make"}, session_id="s"), decision) == says
