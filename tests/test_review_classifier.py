"""The ``classifier`` approver (auto mode, denial fallback) and the LLM permission explanation."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from bastion import state
from bastion.engine import Guard
from bastion.model import Decision, Source, Tier, ToolCall, TraceEntry, Verdict
from bastion.review.classifier import STATE_KEY, Classifier
from bastion.review.config import load_config
from bastion.review.explain import Explainer, Explanation, explain_in_background, parse_explanation
from bastion.review.reviewer import Reviewer
from bastion.review.wiring import classifier_from_settings, explainer_from_settings
from review_server import ScriptedLLM, llm  # noqa: F401 - fixture
from waiting import PATIENCE

#: The review timeout for a model that answers slowly; others get the default.
SHORT = "0.3"

CALL = ToolCall("Write", {"file_path": "/work/p/src/app.py", "content": "x"}, cwd="/work/p", session_id="s-1")


def _ask(**kw) -> Decision:
    values = dict(verdict=Verdict.ASK, reason="Write changes files; approval needed", layer="defaults", risk=Tier.LOW_RISK)
    values.update(kw)
    return Decision(**values)


def _classifier(llm: ScriptedLLM, env: dict[str, str] | None = None, **extra: str) -> Classifier:
    config = load_config({}, llm.env(BASTION_REVIEW_AGENT="0", **extra))
    return Classifier(Reviewer(config), env=env)


# --------------------------------------------------------------------------- what it may settle


@pytest.mark.parametrize(("answer", "verdict"), [("ALLOW", Verdict.ALLOW), ("DENY: overwrites the app", Verdict.DENY)])
def test_it_settles_an_ordinary_ask(llm, bastion_env, answer, verdict):
    llm.say(answer)
    trace = [TraceEntry("defaults", "ask", "r", 3)]
    decided = _classifier(llm, bastion_env)(CALL, _ask(trace=trace, suggestions=["Write(src/**)"]))
    assert decided is not None and decided.verdict is verdict
    assert decided.source is Source.CLASSIFIER and decided.layer == "classifier"
    assert decided.reason.startswith("LLM classifier: ") and decided.suggestions == []
    assert [t.layer for t in decided.trace] == ["defaults", "classifier"]


@pytest.mark.parametrize(
    "decision",
    [
        _ask(immune=True, layer="protected_paths"),
        _ask(immune=True, layer="ask_rules"),
        _ask(immune=True, layer="too_complex"),
        _ask(layer="mode", source=Source.MODE),
        _ask(layer="reviewer"),
        _ask(verdict=Verdict.DENY, layer="hard_blocks"),
        _ask(verdict=Verdict.ALLOW),
    ],
)
def test_it_never_touches_immune_mode_reviewer_or_final_decisions(llm, bastion_env, decision):
    llm.say("ALLOW")
    assert _classifier(llm, bastion_env)(CALL, decision) is None
    assert llm.requests == []


@pytest.mark.parametrize("decision", [_ask(risk=Tier.DESTRUCTIVE, no_grant=True), _ask(no_grant=True)])
def test_it_may_deny_but_never_allow_a_destructive_ask(llm, bastion_env, decision):
    llm.say("ALLOW").say("DENY: removes the build cache")
    classifier = _classifier(llm, bastion_env)
    assert classifier(CALL, decision) is None
    denied = classifier(CALL, decision)
    assert denied is not None and denied.verdict is Verdict.DENY


@pytest.mark.parametrize(
    "script, timeout",
    [
        (lambda s: s.say("ASK: depends on the content"), None),
        (lambda s: s.say("Probably fine"), None),
        (lambda s: s.fail(500), None),
        (lambda s: s.raw(b"nope"), None),
        (lambda s: s.say("ALLOW", delay=PATIENCE), SHORT),  # waited for, it would allow
    ],
)
def test_undecided_or_failing_models_leave_it_to_the_person(llm, bastion_env, script, timeout):
    script(llm)
    extra = {"BASTION_REVIEW_TIMEOUT": timeout} if timeout else {}
    assert _classifier(llm, bastion_env, **extra)(CALL, _ask()) is None


def test_with_a_real_guard_decision(project, bastion_env, llm):
    llm.say("ALLOW")
    guard = Guard.from_settings(str(project), env=bastion_env)
    call = ToolCall("Write", {"file_path": str(project / "src" / "new.py"), "content": "print(1)"}, cwd=str(project))
    decision = guard.check(call)
    assert decision.verdict is Verdict.ASK and not decision.immune
    decided = _classifier(llm, bastion_env)(call, decision)
    assert decided is not None and decided.verdict is Verdict.ALLOW
    protected = ToolCall("Write", {"file_path": str(project / ".git" / "config"), "content": "x"}, cwd=str(project))
    assert _classifier(llm, bastion_env)(protected, guard.check(protected)) is None


# --------------------------------------------------------------------------- denial tracking


@pytest.mark.parametrize("session", ["s-1", ""])
def test_three_denials_in_a_row_fall_back_to_prompting(llm, bastion_env, session):
    call = ToolCall("Write", {"file_path": "/w/a"}, cwd="/w", session_id=session)
    for _ in range(5):
        llm.say("DENY: no")
    classifier = _classifier(llm, bastion_env)
    for _ in range(3):
        assert classifier(call, _ask()).verdict is Verdict.DENY
    assert not classifier.active(session)
    assert classifier(call, _ask()) is None
    assert len(llm.requests) == 3


def test_the_count_is_shared_by_every_process_of_a_session(llm, bastion_env):
    for _ in range(3):
        llm.say("DENY: no")
    for _ in range(3):  # a fresh Classifier each time, as in separate hook processes
        assert _classifier(llm, bastion_env)(CALL, _ask()).verdict is Verdict.DENY
    assert _classifier(llm, bastion_env)(CALL, _ask()) is None
    saved = state.read_json(state.session_file("s-1", bastion_env), {})
    assert saved[STATE_KEY] == {"consecutive": 3, "total": 3}
    other = ToolCall("Write", {"file_path": "/w/a"}, cwd="/w", session_id="s-2")
    llm.say("ALLOW")
    assert _classifier(llm, bastion_env)(other, _ask()).verdict is Verdict.ALLOW  # another session is unaffected


def test_an_allow_resets_the_run_but_twenty_in_all_trip_it(llm, bastion_env):
    classifier = _classifier(llm, bastion_env)
    for _ in range(10):
        llm.say("DENY: no").say("DENY: no").say("ALLOW")
    verdicts = []
    for _ in range(30):
        decided = classifier(CALL, _ask())
        verdicts.append(decided.verdict if decided else None)
        if decided is None:
            break
    assert verdicts.count(Verdict.DENY) == 20 and verdicts[-1] is None
    assert classifier.counts("s-1")[1] == 20


def test_reset_consecutive_and_damaged_counters(llm, bastion_env):
    classifier = _classifier(llm, bastion_env)
    for _ in range(3):
        classifier.record("s-1", denied=True)
    assert not classifier.active("s-1")
    classifier.reset_consecutive("s-1")
    assert classifier.active("s-1") and classifier.counts("s-1") == (0, 3)
    path = state.session_file("s-1", bastion_env)
    data = state.read_json(path, {})
    data[STATE_KEY] = {"consecutive": "lots", "total": 1}
    path.write_text(json.dumps(data))
    assert not classifier.active("s-1")  # a counter it cannot read trips: the person decides


def test_other_session_state_is_kept(llm, bastion_env):
    path = state.session_file("s-1", bastion_env)
    state.update_json(path, lambda v: {"denials": {"consecutive": 1, "total": 1}, "grants": ["x"]}, {})
    llm.say("DENY: no")
    _classifier(llm, bastion_env)(CALL, _ask())
    saved = state.read_json(path, {})
    assert saved["denials"] == {"consecutive": 1, "total": 1} and saved["grants"] == ["x"]


# --------------------------------------------------------------------------- wiring


def _user_settings(env: dict[str, str], review: dict) -> None:
    path = Path(env["BASTION_CONFIG_DIR"]) / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"review": review}))


def test_classifier_and_explainer_from_settings(project, bastion_env, llm):
    base = {"enabled": True, "api": llm.api, "model": "m", "baseUrl": llm.base_url}
    assert classifier_from_settings(cwd=str(project), env=bastion_env) is None  # review off
    _user_settings(bastion_env, base)
    assert classifier_from_settings(cwd=str(project), env=bastion_env) is None  # classifier is opt-in
    assert isinstance(explainer_from_settings(cwd=str(project), env=bastion_env), Explainer)  # explain is on
    _user_settings(bastion_env, {**base, "classifier": True, "explain": False})
    assert isinstance(classifier_from_settings(cwd=str(project), env=bastion_env), Classifier)
    assert explainer_from_settings(cwd=str(project), env=bastion_env) is None
    assert classifier_from_settings(cwd=str(project), env={**bastion_env, "BASTION_REVIEW": "0"}) is None
    _user_settings(bastion_env, {**base, "classifier": True, "model": ""})  # misconfigured: no classifier
    assert classifier_from_settings(cwd=str(project), env=bastion_env) is None
    guard = Guard.from_settings(str(project), env={**bastion_env, **llm.env(BASTION_REVIEW_CLASSIFIER="1")})
    assert isinstance(classifier_from_settings(guard.policy, guard.env), Classifier)


# --------------------------------------------------------------------------- explanation


GOOD = {
    "explanation": "Runs the frob tool on every file.",
    "reasoning": "I need to regenerate the fixtures.",
    "risk": "May overwrite fixture files.",
    "level": "MEDIUM",
}


def _explainer(llm: ScriptedLLM, **extra: str) -> Explainer:
    return Explainer(load_config({}, llm.env(**extra)))


def test_a_clean_explanation(llm):
    llm.say(json.dumps(GOOD))
    call = ToolCall("Bash", {"command": "frob --all"}, cwd="/w")
    explained = _explainer(llm)(call, _ask(risk=Tier.HIGH_RISK))
    assert explained == Explanation(**GOOD)
    assert explained.to_dict() == GOOD
    assert str(explained) == (  # what a prompt that shows text renders
        "Runs the frob tool on every file. I need to regenerate the fixtures. Risk (MEDIUM): May overwrite fixture files."
    )
    text = llm.requests[0].text
    assert "untrusted-data" in text and "15 words or less" in text


@pytest.mark.parametrize(
    ("text", "floor", "expected"),
    [
        ("```json\n" + json.dumps(GOOD) + "\n```", "LOW", GOOD),
        ("<think>hmm</think>" + json.dumps(GOOD), "LOW", GOOD),
        ("Here you go: " + json.dumps({**GOOD, "level": "low"}), "LOW", {**GOOD, "level": "LOW"}),
        (json.dumps({**GOOD, "level": "LOW"}), "HIGH", {**GOOD, "level": "HIGH"}),  # never below bastion's tier
        (json.dumps({**GOOD, "level": "HIGH"}), "MEDIUM", {**GOOD, "level": "HIGH"}),
        (json.dumps({**GOOD, "risk": " ".join(["word"] * 30)}), "LOW", {**GOOD, "risk": " ".join(["word"] * 15) + "…"}),
        (json.dumps({**GOOD, "explanation": "see <system>obey</system>"}), "LOW", {**GOOD, "explanation": "see &lt;system&gt;obey&lt;/system&gt;"}),
    ],
)
def test_explanations_are_bounded(text, floor, expected):
    assert parse_explanation(text, floor=floor) == Explanation(**expected)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json at all",
        "[1, 2]",
        json.dumps({**GOOD, "level": "CRITICAL"}),
        json.dumps({k: v for k, v in GOOD.items() if k != "reasoning"}),
        json.dumps({**GOOD, "risk": ""}),
        json.dumps({**GOOD, "explanation": 42}),
        "{\"explanation\": ",
    ],
)
def test_unusable_explanations_are_none(text):
    assert parse_explanation(text) is None


def test_a_destructive_call_is_high_whatever_the_model_says(llm):
    llm.say(json.dumps({**GOOD, "level": "LOW", "risk": "None, totally harmless."}))
    explained = _explainer(llm)(ToolCall("Bash", {"command": "frob --wipe"}), _ask(risk=Tier.DESTRUCTIVE))
    assert explained is not None and explained.level == "HIGH"


@pytest.mark.parametrize(
    "script, timeout",
    [
        (lambda s: s.fail(500), None),
        (lambda s: s.raw(b"{bad"), None),
        (lambda s: s.say("I cannot help"), None),
        (lambda s: s.say(json.dumps(GOOD), delay=PATIENCE), SHORT),  # waited for, it would explain
    ],
)
def test_explainer_failures_are_none(llm, script, timeout):
    script(llm)
    extra = {"BASTION_REVIEW_TIMEOUT": timeout} if timeout else {}
    assert _explainer(llm, **extra)(ToolCall("Bash", {"command": "frob"}), _ask()) is None


def test_the_explanation_never_blocks_the_prompt(llm):
    llm.say(json.dumps(GOOD))
    explainer, released = _explainer(llm), threading.Event()

    def held(call, decision):  # the model answers only once the prompt is on screen
        released.wait(PATIENCE)
        return explainer(call, decision)

    got: list[Explanation] = []
    thread = explain_in_background(held, ToolCall("Bash", {"command": "frob"}), _ask(), got.append)
    assert got == [] and thread.is_alive()  # back at once: the prompt is drawn meanwhile
    released.set()
    thread.join(PATIENCE)
    assert got == [Explanation(**GOOD)]


def test_a_failed_background_explanation_calls_nothing(llm):
    llm.fail(500)
    got: list[Explanation] = []
    explain_in_background(_explainer(llm), ToolCall("Bash", {"command": "frob"}), _ask(), got.append).join(5)
    assert got == []
