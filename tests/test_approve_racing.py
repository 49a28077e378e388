"""Racing, coordinator and sub-agent approvers: the person, real hook processes and a
classifier; the prompt is a real one on a pseudo-terminal where a person takes part.

Who answers first is arranged with gates (a file a hook waits for, an event a classifier
waits on), never with delays, so the order holds on a busy machine."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
import threading
from pathlib import Path

import pexpect
import pytest

from bastion.approve.headless import HeadlessApprover
from bastion.approve.hooks import HookSpec, PermissionHooks
from bastion.approve.racing import (
    CoordinatorApprover,
    RacingApprover,
    ResolveOnce,
    SubAgentApprover,
    default_approver,
)
from bastion.engine import Guard
from bastion.model import Source, ToolCall, Verdict
from bastion.session import grant
from test_approve_prompt import LIVE, result, shown, spawn
from waiting import PATIENCE, gone, until, wait_for_file_sh

#: A hook's timeout when it should never run out (milliseconds).
LONG_MS = int(PATIENCE * 1000)


def prints(obj: object, *, delay: float = 0.0, gate: Path | None = None, pidfile: Path | None = None,
           marker: Path | None = None) -> str:
    """A hook command: it reads its input, writes its process id to ``pidfile``, sleeps
    ``delay`` or waits until ``gate`` exists, touches ``marker`` and prints ``obj``."""
    steps = ["cat > /dev/null"]
    if pidfile is not None:
        steps.append(f"echo $$ > {pidfile}")
    if delay:
        steps.append(f"sleep {delay}")
    if gate is not None:
        steps.append(wait_for_file_sh(gate))
    if marker is not None:
        steps.append(f"touch {marker}")
    steps.append(f"printf '%s\\n' {shlex.quote(json.dumps(obj))}")
    return "; ".join(steps)


class Held:
    """A classifier that answers only when the test lets it (``release``)."""

    def __init__(self, answer: object) -> None:
        self.answer = answer
        self.released = threading.Event()
        self.answered = threading.Event()

    def __call__(self, call, decision):
        self.released.wait(PATIENCE)
        self.answered.set()
        return self.answer


def ask(project: Path, env: dict[str, str], command: str = "frobnicate --all", session: str = "race"):
    guard = Guard.from_settings(str(project), isolated=True, env=env)
    call = ToolCall("Bash", {"command": command}, cwd=str(project), session_id=session)
    decision = guard.check(call)
    assert decision.verdict is Verdict.ASK
    return guard, call, decision


# --------------------------------------------------------------------------- resolve-once


def test_resolve_once_first_answer_wins():
    race = ResolveOnce()
    assert race.resolve("hook", by="hook", automated=True)
    assert not race.resolve("person", by="person", automated=False)
    assert race.value == "hook" and race.winner == "hook"


def test_automated_answers_lose_once_the_person_touched_the_prompt():
    race = ResolveOnce()
    race.touch()
    assert not race.resolve("classifier", by="classifier", automated=True)
    assert race.resolve("person", by="person", automated=False) and race.value == "person"


def test_only_one_of_many_concurrent_answers_counts():
    race = ResolveOnce()
    wins: list[int] = []
    barrier = threading.Barrier(16)

    def offer(i: int) -> None:
        barrier.wait()
        if race.resolve(i, by=str(i), automated=True):
            wins.append(i)

    threads = [threading.Thread(target=offer, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and race.value == wins[0]


# --------------------------------------------------------------------------- without a person


def test_racing_without_a_prompt_takes_the_first_automated_answer(project, bastion_env):
    _, call, decision = ask(project, bastion_env)
    hooks = PermissionHooks([HookSpec(prints({"behavior": "allow"}), timeout_ms=LONG_MS)], env=bastion_env)
    classifier = Held(Verdict.DENY)
    try:
        final = RacingApprover(hooks=hooks, classifier=classifier, classifier_timeout=2 * PATIENCE)(call, decision)
        assert final.verdict is Verdict.ALLOW and final.source is Source.HOOK
        assert not classifier.answered.is_set()  # the slower classifier is not waited for
    finally:
        classifier.released.set()


@pytest.mark.parametrize(
    "classifier, verdict, source",
    [
        (lambda c, d: Verdict.ALLOW, Verdict.ALLOW, Source.CLASSIFIER),
        (lambda c, d: (Verdict.DENY, "looks like exfiltration"), Verdict.DENY, Source.CLASSIFIER),
        (lambda c, d: None, Verdict.DENY, Source.BUILTIN),  # undecided: nobody can be asked
        (lambda c, d: 1 / 0, Verdict.DENY, Source.BUILTIN),  # a failing classifier never allows
        (lambda c, d: "allow", Verdict.DENY, Source.BUILTIN),  # not an answer
    ],
)
def test_racing_classifier_answers(project, bastion_env, classifier, verdict, source):
    _, call, decision = ask(project, bastion_env)
    final = RacingApprover(classifier=classifier)(call, decision)
    assert (final.verdict, final.source) == (verdict, source)


def test_racing_with_hooks_that_never_answer_falls_back_after_their_timeout(project, bastion_env, tmp_path):
    _, call, decision = ask(project, bastion_env)
    finished = tmp_path / "hook-finished"
    silent = HookSpec(f"cat >/dev/null; sleep {PATIENCE:.0f}; touch {finished}", timeout_ms=400)
    hooks = PermissionHooks([silent, HookSpec("cat >/dev/null; echo nonsense", timeout_ms=LONG_MS)], env=bastion_env)
    final = RacingApprover(hooks=hooks, classifier_timeout=0.5)(call, decision)
    assert final.verdict is Verdict.DENY and final.source is Source.BUILTIN
    assert not finished.exists()  # the silent hook was given up on, not waited for


def test_the_classifier_may_not_allow_an_immune_ask(project, bastion_env):
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    call = ToolCall("Edit", {"file_path": ".git/config", "old_string": "a", "new_string": "b"}, cwd=str(project))
    decision = guard.check(call)
    assert decision.immune
    final = RacingApprover(classifier=lambda c, d: Verdict.ALLOW)(call, decision)
    assert final.verdict is Verdict.DENY


# --------------------------------------------------------------------------- coordinator


def test_coordinator_runs_hooks_then_classifier_then_prompt_in_order(project, bastion_env, tmp_path):
    _, call, decision = ask(project, bastion_env)
    order: list[str] = []
    log = tmp_path / "hook-ran"

    def classifier(c, d):
        order.append(f"classifier (hook finished: {log.exists()})")
        return None

    def prompt(c, d):
        order.append("prompt")
        return HeadlessApprover()(c, d)

    hooks = PermissionHooks([HookSpec(prints({}, delay=0.3, marker=log), timeout_ms=LONG_MS)], env=bastion_env)
    final = CoordinatorApprover(hooks=hooks, classifier=classifier, prompt=prompt)(call, decision)
    assert order == ["classifier (hook finished: True)", "prompt"] and final.verdict is Verdict.DENY


def test_coordinator_stops_at_the_first_decision(project, bastion_env):
    _, call, decision = ask(project, bastion_env)
    called: list[str] = []
    hooks = PermissionHooks([HookSpec(prints({"behavior": "deny", "message": "no"}))], env=bastion_env)
    final = CoordinatorApprover(hooks=hooks, classifier=lambda c, d: called.append("classifier"))(call, decision)
    assert final.source is Source.HOOK and final.verdict is Verdict.DENY and called == []
    final = CoordinatorApprover(classifier=lambda c, d: Verdict.ALLOW, prompt=lambda c, d: called.append("p"))(call, decision)
    assert final.source is Source.CLASSIFIER and called == []


def test_coordinator_gives_up_on_a_slow_classifier(project, bastion_env):
    _, call, decision = ask(project, bastion_env)
    classifier = Held(Verdict.ALLOW)
    try:
        final = CoordinatorApprover(classifier=classifier, classifier_timeout=0.3)(call, decision)
        assert final.verdict is Verdict.DENY and final.source is Source.BUILTIN
        assert not classifier.answered.is_set()  # given up on, not waited for
    finally:
        classifier.released.set()


# --------------------------------------------------------------------------- sub-agents


def test_sub_agent_inherits_the_parents_session_grants_and_denies_the_rest(project, bastion_env):
    _, parent_call, parent_decision = ask(project, bastion_env, session="parent")
    grant(parent_call, parent_decision, "session", env=bastion_env)
    approver = SubAgentApprover("parent", env=bastion_env)

    _, call, decision = ask(project, bastion_env, session="child")
    final = approver(call, decision)
    assert final.verdict is Verdict.ALLOW and final.source is Source.USER_TEMPORARY
    assert final.reason.startswith("allowed for the parent session")

    _, other, other_decision = ask(project, bastion_env, command="frobnicate --other", session="child")
    denied = approver(other, other_decision)
    assert denied.verdict is Verdict.DENY and "a sub-agent cannot ask" in denied.reason
    assert SubAgentApprover("someone-else", env=bastion_env)(call, decision).verdict is Verdict.DENY


def test_sub_agent_never_inherits_a_grant_for_a_protected_call(project, bastion_env):
    from bastion.policy.grants import add_session_grant, grant_key

    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    call = ToolCall("Write", {"file_path": ".git/hooks/pre-commit", "content": "x"}, cwd=str(project), session_id="c")
    decision = guard.check(call)
    assert decision.immune
    add_session_grant("parent", grant_key(call), env=bastion_env)  # e.g. an earlier, ordinary Write
    assert SubAgentApprover("parent", env=bastion_env)(call, decision).verdict is Verdict.DENY


def test_default_approver_in_ci_never_prompts(project, bastion_env):
    guard = Guard.from_settings(str(project), isolated=True, env={**bastion_env, "CI": "true"})
    assert isinstance(default_approver(guard), CoordinatorApprover)


# --------------------------------------------------------------------------- with a person


def hook_settings(tmp_path: Path, *entries: dict) -> str:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": {"PermissionRequest": list(entries)}}))
    return str(path)


def prompt_check(project: Path, env: dict[str, str], settings: str, command: str = "frobnicate --all") -> pexpect.spawn:
    return spawn(["check", "--prompt", "--isolated", "--no-audit", "--session", "race", "--settings", settings, "--", command],
                 project, env)


def test_a_fast_hook_answers_before_the_person(project, bastion_env, tmp_path):
    gate = tmp_path / "go"
    settings = hook_settings(tmp_path, {"command": prints({"behavior": "allow", "message": "policy ok"}, gate=gate),
                                        "timeout": LONG_MS})
    child = prompt_check(project, bastion_env, settings)
    shown(child, live=False)  # the prompt appears, nobody presses a key
    gate.touch()  # now the hook answers
    decision, code, screen = result(child)
    assert code == 0 and decision["source"] == "hook" and decision["reason"].startswith("allowed by permission hook: policy ok")
    assert "bastion: allowed (hook): frobnicate --all" in screen


def test_a_hook_deny_closes_the_prompt(project, bastion_env, tmp_path):
    gate = tmp_path / "go"
    settings = hook_settings(tmp_path, {"command": prints({"behavior": "deny", "message": "not on Fridays"}, gate=gate),
                                        "timeout": LONG_MS})
    child = prompt_check(project, bastion_env, settings)
    shown(child, live=False)
    gate.touch()
    decision, code, _ = result(child)
    assert code == 4 and decision["source"] == "hook" and "not on Fridays" in decision["reason"]


def test_the_persons_keypress_beats_a_slower_hook_which_is_ended(project, bastion_env, tmp_path):
    gate, pidfile, marker = tmp_path / "go", tmp_path / "hook.pid", tmp_path / "hook-finished"
    settings = hook_settings(tmp_path, {"command": prints({"behavior": "allow"}, pidfile=pidfile, gate=gate, marker=marker),
                                        "timeout": LONG_MS})
    child = prompt_check(project, bastion_env, settings)
    shown(child)
    until(pidfile.exists, "the hook started")  # it is running, and waits for a gate that stays shut
    child.send("n")
    decision, code, _ = result(child)
    assert code == 4 and decision["source"] == "user_reject"
    gone(pidfile, "the losing hook was stopped")
    gate.touch()
    assert not marker.exists()


def test_once_the_person_touched_the_prompt_automated_answers_are_discarded(project, bastion_env, tmp_path):
    gate, pidfile, marker = tmp_path / "go", tmp_path / "hook.pid", tmp_path / "hook-answered"
    settings = hook_settings(tmp_path, {"command": prints({"behavior": "allow"}, pidfile=pidfile, gate=gate, marker=marker),
                                        "timeout": LONG_MS})
    child = prompt_check(project, bastion_env, settings)
    shown(child)
    child.send("\x1b[B")  # arrow down: the person is there
    child.expect(LIVE)  # the selection moved: the key was taken
    gate.touch()
    gone(pidfile, "the hook answered")  # its allow came and went
    assert marker.exists() and child.isalive()  # the prompt stays
    child.send("n")
    decision, _, _ = result(child)
    assert decision["source"] == "user_reject"


@pytest.mark.parametrize(
    "hook",
    [
        {"command": "sleep 600", "timeout": 500},  # never answers
        {"command": "cat >/dev/null; echo '{broken'"},  # malformed
        {"command": "cat >/dev/null; exit 7"},  # fails
    ],
)
def test_a_hook_that_never_answers_or_breaks_leaves_it_to_the_person(project, bastion_env, tmp_path, hook):
    pidfile = tmp_path / "hook.pid"
    hook = {**hook, "command": f"echo $$ > {pidfile}; {hook['command']}"}
    child = prompt_check(project, bastion_env, hook_settings(tmp_path, hook))
    shown(child)
    gone(pidfile, "the hook gave up or was ended")  # first the hook fails, then the person answers
    child.send("y")
    decision, code, _ = result(child)
    assert code == 0 and decision["source"] == "user_temporary"


_DRIVER = textwrap.dedent(
    """
    import json, os, sys, time
    from bastion.approve.racing import RacingApprover
    from bastion.approve.terminal import TerminalApprover
    from bastion.engine import Guard
    from bastion.model import ToolCall, Verdict

    mode, gate = sys.argv[1], sys.argv[2]
    guard = Guard.from_settings(".", isolated=True)
    call = ToolCall("Bash", {"command": "frobnicate --all"}, cwd=guard.policy.project_root or ".", session_id="drv")
    decision = guard.check(call)

    def wait_for_gate():
        for _ in range(1200):  # the test opens it once the prompt is on screen
            if os.path.exists(gate):
                return
            time.sleep(0.05)

    def classifier(call, decision):
        wait_for_gate()
        return Verdict.ALLOW

    def llm(call, decision):
        wait_for_gate()
        return "It frobnicates every widget in the project."

    if mode == "classifier":
        approver = RacingApprover(prompt=TerminalApprover(), classifier=classifier)
    else:
        approver = TerminalApprover(llm_explainer=llm)
    final = approver(call, decision)
    print("RESULT " + json.dumps({"source": final.source.value, "decision": final.verdict.value}))
    """
)


def _driver(project: Path, env: dict[str, str], mode: str, gate: Path) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-c", _DRIVER, mode, str(gate)], cwd=str(project), env=env, timeout=PATIENCE,
                         dimensions=(40, 120), encoding="utf-8")


def _driver_result(child: pexpect.spawn) -> dict:
    child.expect(r"RESULT (\{.*\})")
    return json.loads(child.match.group(1))


def test_the_classifier_races_the_person(project, bastion_env, tmp_path):
    gate = tmp_path / "go"
    child = _driver(project, bastion_env, "classifier", gate)
    shown(child, live=False)  # the prompt is up, nobody presses a key
    gate.touch()  # now the classifier answers, and wins
    assert _driver_result(child) == {"source": "classifier", "decision": "allow"}


def test_the_llm_explanation_arrives_later_without_blocking_the_prompt(project, bastion_env, tmp_path):
    gate = tmp_path / "go"
    child = _driver(project, bastion_env, "explainer", gate)
    first = shown(child)  # the prompt is up and live while the explainer is still busy
    assert "a longer explanation is on its way" in first and "frobnicates every widget" not in first
    gate.touch()
    child.expect("frobnicates every widget")  # the prompt redraws when it arrives
    child.send("n")
    assert _driver_result(child)["source"] == "user_reject"
