"""The deterministic explainer, edit diffs, the headless approver and the approver helpers."""

from __future__ import annotations

import pytest

from bastion.approve.base import allowed, can_grant, denied, from_classifier
from bastion.approve.explainer import KIND_RISKS, MAX_RISK_WORDS, RISKS, clip_words, edit_diff, explain
from bastion.approve.headless import HeadlessApprover, in_ci
from bastion.engine import Guard
from bastion.model import Mode, Source, ToolCall, Verdict


@pytest.fixture
def guard(project, bastion_env):
    return Guard.from_settings(str(project), isolated=True, env=bastion_env)


def explained(guard, project, tool="Bash", **tool_input):
    call = ToolCall(tool, tool_input, cwd=str(project))
    return explain(call, guard.check(call), home=guard.env["HOME"])


@pytest.mark.parametrize(
    "command, what, level, paths, hosts",
    [
        ("git push origin main", "Runs git push; it talks to the network.", "MEDIUM", [], []),
        ("frobnicate --all", "Runs frobnicate.", "MEDIUM", [], []),
        ("rm -rf build", "Runs rm; it deletes files.", "HIGH", ["delete build"], []),
        ("curl -o page.html https://example.com/a && rm page.old", "Runs 2 commands: curl, rm;", "HIGH",
         ["write page.html", "delete page.old"], ["example.com"]),
        ("sudo apt install jq", "Runs sudo apt install; it runs with elevated privileges", "HIGH", [], []),
        ("git push --force origin main", "Runs git push; it can discard work or data", "HIGH", [], []),
        ("npm publish", "Runs npm publish; it publishes a package or release", "HIGH", ["exec ./"], []),  # its lifecycle scripts run
    ],
)
def test_shell_explanations(guard, project, command, what, level, paths, hosts):
    exp = explained(guard, project, command=command)
    assert exp.what.startswith(what), exp.what
    assert exp.level == level
    assert exp.paths == paths and exp.hosts == hosts
    assert 0 < len(exp.risk.split()) <= MAX_RISK_WORDS


@pytest.mark.parametrize(
    "tool, tool_input, what, level",
    [
        ("Write", {"file_path": "src/app.py", "content": "x"}, "Overwrites src/app.py.", "MEDIUM"),
        ("Write", {"file_path": "src/new.py", "content": "x"}, "Creates src/new.py.", "MEDIUM"),
        ("Edit", {"file_path": ".git/config", "old_string": "a", "new_string": "b"}, "Edits .git/config.", "HIGH"),
        ("WebFetch", {"url": "https://docs.example.com/x", "prompt": "read"}, "Fetches https://docs.example.com/x.", "MEDIUM"),
        ("mcp__github__create_issue", {"title": "t"}, "Calls tool create_issue of MCP server github.", "MEDIUM"),
    ],
)
def test_other_explanations(guard, project, tool, tool_input, what, level):
    exp = explained(guard, project, tool, **tool_input)
    assert exp.what == what and exp.level == level
    if tool == "WebFetch":
        assert exp.hosts == ["docs.example.com"]


def test_every_risk_line_fits_in_15_words():
    for line in [*RISKS.values(), *KIND_RISKS.values()]:
        assert len(line.split()) <= MAX_RISK_WORDS, line
    assert len(clip_words(" ".join(["word"] * 40)).split()) == MAX_RISK_WORDS + 1  # 15 words and the ellipsis


def test_explain_never_raises():
    call = ToolCall("Bash", {"command": "ls"}, cwd="/nonexistent/dir")
    exp = explain(call, None)  # type: ignore[arg-type]  # even a broken decision gets an explanation
    assert exp.level == "HIGH" and "could not analyse" in exp.risk


# --------------------------------------------------------------------------- diffs


def test_edit_diff(project):
    call = ToolCall("Edit", {"file_path": "src/app.py", "old_string": "print('hello')", "new_string": "print('bye')"},
                    cwd=str(project))
    assert edit_diff(call) == ["@@ -1 +1 @@", "-print('hello')", "+print('bye')"]


def test_multiedit_diff_shows_every_edit(project):
    call = ToolCall("MultiEdit", {"file_path": "src/app.py", "edits": [
        {"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]}, cwd=str(project))
    assert [line for line in edit_diff(call) if line[0] in "+-"] == ["-a", "+b", "-c", "+d"]


def test_write_diff_against_the_existing_file(project):
    call = ToolCall("Write", {"file_path": "src/app.py", "content": "print('hello')\nprint('more')\n"}, cwd=str(project))
    assert "+print('more')" in edit_diff(call) and "-print('hello')" not in edit_diff(call)
    new = ToolCall("Write", {"file_path": "src/new.py", "content": "a\nb\n"}, cwd=str(project))
    assert [line for line in edit_diff(new) if line[0] == "+"] == ["+a", "+b"]


def test_long_diffs_are_cut(project):
    call = ToolCall("Write", {"file_path": "src/big.py", "content": "\n".join(map(str, range(100)))}, cwd=str(project))
    lines = edit_diff(call, limit=10)
    assert len(lines) == 11 and lines[-1].startswith("… ") and lines[-1].endswith("more lines")


def test_no_diff_for_other_tools(project):
    assert edit_diff(ToolCall("Bash", {"command": "ls"}, cwd=str(project))) == []


# --------------------------------------------------------------------------- headless and helpers


def test_headless_denies_with_the_reason_and_a_rule_hint(guard, project):
    call = ToolCall("Bash", {"command": "frobnicate --all"}, cwd=str(project))
    decision = guard.check(call)
    final = HeadlessApprover()(call, decision)
    assert final.verdict is Verdict.DENY and final.source is Source.BUILTIN
    assert final.reason == f"nobody can be asked: {decision.reason} (to allow it without asking, add the rule Bash(frobnicate:*))"
    assert decision.verdict is Verdict.ASK  # a copy, never the input


def test_headless_in_dont_ask_mode_is_the_modes_decision(guard, project):
    call = ToolCall("Bash", {"command": "frobnicate"}, cwd=str(project), mode=Mode.DONT_ASK)
    decision = guard.check(call)  # the engine already denies in dontAsk mode
    assert decision.verdict is Verdict.DENY and decision.source is Source.MODE
    asked = ToolCall("Bash", {"command": "frobnicate"}, cwd=str(project), mode=Mode.DONT_ASK)
    ask = Guard.from_settings(str(project), isolated=True, env=guard.env, mode=Mode.DEFAULT).check(asked)
    assert HeadlessApprover()(asked, ask).source is Source.MODE


def test_headless_leaves_final_decisions_alone(guard, project):
    call = ToolCall("Bash", {"command": "ls"}, cwd=str(project))
    decision = guard.check(call)
    assert HeadlessApprover()(call, decision) is decision


@pytest.mark.parametrize("env, ci", [({}, False), ({"CI": "true"}, True), ({"CI": "0"}, False),
                                     ({"GITHUB_ACTIONS": "true"}, True), ({"CI": "false"}, False)])
def test_in_ci(env, ci):
    assert in_ci(env) is ci


def test_grants_are_offered_only_for_ordinary_asks(guard, project):
    ordinary = guard.check(ToolCall("Bash", {"command": "frobnicate"}, cwd=str(project)))
    destructive = guard.check(ToolCall("Bash", {"command": "git reset --hard"}, cwd=str(project)))
    protected = guard.check(ToolCall("Write", {"file_path": ".git/config", "content": ""}, cwd=str(project)))
    assert [can_grant(d) for d in (ordinary, destructive, protected)] == [True, False, False]


def test_helpers_copy_and_explain(guard, project):
    call = ToolCall("Bash", {"command": "frobnicate"}, cwd=str(project))
    decision = guard.check(call)
    yes = allowed(decision, Source.USER_TEMPORARY, "allowed once")
    no = denied(decision, Source.USER_REJECT, "denied", interrupt=True)
    assert yes.reason == f"allowed once: {decision.reason}" and yes.trace is not decision.trace
    assert no.verdict is Verdict.DENY and no.interrupt and decision.verdict is Verdict.ASK
    assert from_classifier(call, decision, object()) is None


def test_llm_explanations_render_as_one_line():
    from bastion.approve.terminal import _detail_text
    from bastion.review.explain import Explanation as ModelExplanation

    model = ModelExplanation("It lists the files.", "I need to see the layout.", "Nothing changes.", "LOW")
    assert _detail_text(model) == "It lists the files. I need to see the layout. Risk (LOW): Nothing changes."
    assert _detail_text("  plain\ntext ") == "plain text"
    assert _detail_text(None) == "(no explanation available)"


def test_default_approver_takes_classifier_and_explainer_from_review_settings(project, bastion_env, tmp_path):
    import json

    from bastion.approve.racing import CoordinatorApprover, default_approver

    settings = tmp_path / "review.json"
    settings.write_text(json.dumps({"review": {"enabled": True, "model": "local", "classifier": True,
                                               "baseUrl": "http://127.0.0.1:9/v1"}}))
    env = {**bastion_env, "CI": "true"}
    guard = Guard.from_settings(str(project), isolated=True, settings_files=[str(settings)], env=env)
    approver = default_approver(guard)
    assert isinstance(approver, CoordinatorApprover) and approver.classifier is not None
    assert default_approver(guard, from_settings=False).classifier is None
    plain = Guard.from_settings(str(project), isolated=True, env=env)
    assert default_approver(plain).classifier is None
