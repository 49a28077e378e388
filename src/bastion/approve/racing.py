"""Approvers that combine a person, permission hooks and a classifier (spec 002 §12.5).

* ``RacingApprover`` (interactive use): the prompt, the PermissionRequest hook scripts
  and the classifier start together; the first answer wins and later ones are dropped
  (``ResolveOnce``). As soon as the person presses a key in the prompt (after its 200 ms
  grace period), automated answers are discarded: human intent always takes priority.
  When an automated answer wins, the prompt closes and says who decided.
* ``CoordinatorApprover`` (one of several workers): hooks, then the classifier, then
  the prompt, one after the other — several workers never pop up prompts at once for
  something a script could have settled.
* ``SubAgentApprover``: a sub-agent inherits the session grants of its parent session,
  never prompts, and denies the rest.

``default_approver(guard)`` picks the right one for a library user: racing when a
terminal is attached, otherwise hooks and classifier with a headless fallback.

Automated answers can deny anything but may not allow an immune ask (a protected path,
an ask rule, a check that failed): only a person may (``base.automated_may_allow``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..model import Decision, Source, ToolCall, Verdict
from .base import Approver, Choice, Classifier, LLMExplainer, allowed, call_classifier, can_grant, denied
from .headless import HeadlessApprover, in_ci
from .hooks import HookRun, PermissionHooks
from .terminal import TerminalApprover, report

#: Seconds to wait for the classifier when no person can answer instead.
CLASSIFIER_TIMEOUT = 30.0


class ResolveOnce:
    """The first answer wins (``createResolveOnce``); automated answers lose once the
    person has touched the prompt (``userInteracted``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.value: Any = None
        self.winner = ""
        self.user_interacted = False

    def touch(self) -> None:
        with self._lock:
            self.user_interacted = True

    def resolve(self, value: Any, *, by: str, automated: bool) -> bool:
        """Offer an answer; True when it is the one that counts."""
        with self._lock:
            if self._done.is_set() or (automated and self.user_interacted):
                return False
            self.value, self.winner = value, by
            self._done.set()
            return True

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)


def _run_classifier(classifier: Classifier, call: ToolCall, decision: Decision, timeout: float) -> Decision | None:
    """The classifier's answer within ``timeout`` seconds, else None (it never blocks forever)."""
    box: list[Decision | None] = [None]

    def work() -> None:
        box[0] = call_classifier(classifier, call, decision)

    worker = threading.Thread(target=work, daemon=True, name="bastion-classifier")
    worker.start()
    worker.join(timeout)
    return box[0]


class RacingApprover:
    """Prompt, hooks and classifier at once; the first answer wins."""

    def __init__(
        self,
        *,
        prompt: TerminalApprover | None = None,
        hooks: PermissionHooks | None = None,
        classifier: Classifier | None = None,
        fallback: Approver | None = None,
        classifier_timeout: float = CLASSIFIER_TIMEOUT,
    ) -> None:
        self.prompt = prompt
        self.hooks = hooks if hooks else None
        self.classifier = classifier
        self.fallback = fallback or HeadlessApprover()
        self.classifier_timeout = classifier_timeout

    def __call__(self, call: ToolCall, decision: Decision) -> Decision:
        race = ResolveOnce()
        person: list[Choice] = []

        def claim(choice: Choice) -> bool:
            if race.resolve(None, by="person", automated=False):
                person.append(choice)
                return True
            return False

        prompt = self.prompt.open(call, decision, on_touch=race.touch, claim=claim) if self.prompt else None
        sources: list[tuple[str, Callable[[], Decision | None]]] = []
        run = HookRun()
        if self.hooks is not None:
            hooks = self.hooks
            sources.append(("permission hook", lambda: hooks.answer(call, decision, run=run)))
        if self.classifier is not None:
            classifier = self.classifier
            sources.append(("classifier", lambda: call_classifier(classifier, call, decision)))

        def compete(name: str, answer: Callable[[], Decision | None]) -> None:
            try:
                result = answer()
            except Exception:  # noqa: BLE001 - a failed source has no opinion
                result = None
            if result is None or result.verdict not in (Verdict.ALLOW, Verdict.DENY):
                return
            if race.resolve(result, by=name, automated=True) and prompt is not None:
                prompt.cancel(f"{'allowed' if result.allowed else 'denied'} by the {name}")

        workers = [threading.Thread(target=compete, args=source, daemon=True, name="bastion-race") for source in sources]
        for worker in workers:
            worker.start()

        if prompt is None:  # nobody to ask: the first automated answer, else the fallback
            longest = max([self.classifier_timeout] + [s.timeout_ms / 1000 for s in (self.hooks.specs if self.hooks else [])])
            deadline = time.monotonic() + longest + 1.0
            while not race.done and any(w.is_alive() for w in workers) and time.monotonic() < deadline:
                race.wait(0.02)
            run.stop()
            if race.resolve(None, by="nobody", automated=True):  # closes the race: late answers are dropped
                return self.fallback(call, decision)
            return race.value

        try:
            prompt.run()
        except Exception as exc:  # noqa: BLE001 - a broken terminal never allows
            race.resolve(denied(decision, Source.USER_ABORT, f"the prompt failed ({type(exc).__name__})"),
                         by="prompt", automated=False)
        if race.resolve(None, by="person", automated=False):  # closed without an answer: an abort
            person.append(Choice.ABORT)
        run.stop()  # a hook still running has lost: end it now
        if race.winner == "person":
            final = self.prompt.finish(call, decision, person[0] if person else Choice.ABORT)  # type: ignore[union-attr]
            reset = getattr(self.classifier, "reset_consecutive", None)
            if final.allowed and callable(reset):  # a person approved: the classifier's run of denials ends
                try:
                    reset(call.session_id)
                except Exception:  # noqa: BLE001
                    pass
        else:
            final = race.value
        report(prompt.terminal, call, final)
        prompt.terminal.close()
        return final


class CoordinatorApprover:
    """Hooks, then the classifier, then the prompt — each only when the one before did
    not decide."""

    def __init__(
        self,
        *,
        hooks: PermissionHooks | None = None,
        classifier: Classifier | None = None,
        prompt: Approver | None = None,
        classifier_timeout: float = CLASSIFIER_TIMEOUT,
    ) -> None:
        self.hooks = hooks if hooks else None
        self.classifier = classifier
        self.prompt = prompt or HeadlessApprover()
        self.classifier_timeout = classifier_timeout

    def __call__(self, call: ToolCall, decision: Decision) -> Decision:
        if self.hooks is not None:
            try:
                answer = self.hooks.answer(call, decision)
            except Exception:  # noqa: BLE001
                answer = None
            if answer is not None:
                return answer
        if self.classifier is not None:
            answer = _run_classifier(self.classifier, call, decision, self.classifier_timeout)
            if answer is not None:
                return answer
        return self.prompt(call, decision)


class SubAgentApprover:
    """A sub-agent's approver: what the parent session was granted is granted; the rest
    is denied (a sub-agent never prompts)."""

    def __init__(self, parent_session_id: str, *, env: Mapping[str, str] | None = None) -> None:
        self.parent = parent_session_id
        self.env = env if env is not None else os.environ

    def __call__(self, call: ToolCall, decision: Decision) -> Decision:
        from ..policy.grants import grant_key, session_grants

        if decision.verdict is not Verdict.ASK:
            return decision
        if self.parent and can_grant(decision):
            normalized = " ".join(call.command.split()) if call.command is not None else None
            if grant_key(call, normalized) in session_grants(self.parent, self.env):
                return allowed(decision, Source.USER_TEMPORARY, "allowed for the parent session")
        return denied(decision, Source.BUILTIN, "a sub-agent cannot ask, and the parent session has not allowed this")


def _from_review_settings(guard: Any, env: Mapping[str, str]) -> tuple[Classifier | None, LLMExplainer | None]:
    """The LLM classifier and explainer the ``review`` settings switch on (stage 8), or
    None for each; a reviewer that cannot be set up is simply not there."""
    if guard is None:
        return None, None
    try:
        from ..review.wiring import classifier_from_settings, explainer_from_settings

        return classifier_from_settings(guard.policy, env), explainer_from_settings(guard.policy, env)
    except Exception:  # noqa: BLE001 - approvals work without a model
        return None, None


def default_approver(
    guard: Any = None,
    *,
    classifier: Classifier | None = None,
    llm_explainer: LLMExplainer | None = None,
    env: Mapping[str, str] | None = None,
    from_settings: bool = True,
) -> Approver:
    """The approver a library user gets: on a terminal, the racing prompt (with the
    policy's PermissionRequest hooks and ``classifier``); in CI or without a terminal,
    hooks and classifier in sequence, and a deny when neither decides. With
    ``from_settings``, a classifier or LLM explainer not given is taken from the
    guard's ``review`` settings (``review.classifier``, ``review.explain``).

    >>> decide(guard, call, approver=default_approver(guard))
    """
    from .terminal import terminal_available

    env = env if env is not None else (getattr(guard, "env", None) or os.environ)
    if from_settings and (classifier is None or llm_explainer is None):
        found_classifier, found_explainer = _from_review_settings(guard, env)
        classifier = classifier or found_classifier
        llm_explainer = llm_explainer or found_explainer
    hooks = PermissionHooks.from_guard(guard) if guard is not None else None
    if in_ci(env) or not terminal_available():
        return CoordinatorApprover(hooks=hooks, classifier=classifier)
    return RacingApprover(prompt=TerminalApprover(env=env, llm_explainer=llm_explainer), hooks=hooks, classifier=classifier)
