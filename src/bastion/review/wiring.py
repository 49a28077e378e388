"""Build the reviewer, the classifier and the explainer from settings and environment.

``Guard.from_settings`` calls :func:`build_reviewer` only when the reviewer is on, so a
guard without one never imports this package; and what it gets is a
:class:`DeferredReviewer`, which imports and configures the real one on the first call
that reaches layer 7's ``review`` — a hook call for ``git status`` pays nothing for it.

Bad settings never crash the guard: the reviewer becomes
:class:`~bastion.review.reviewer.Misconfigured`, which asks and names the problem; the
classifier and the explainer are simply absent (``None``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.context import Context
    from ..model import LayerResult, ToolCall
    from .agent import GuardAgent
    from .classifier import Classifier
    from .config import ReviewConfig
    from .explain import Explainer
    from .injection_check import InjectionCheck
    from .reviewer import Misconfigured, Reviewer


def evaluator_for(config: ReviewConfig, policy: Any = None, env: Mapping[str, str] | None = None) -> Reviewer | GuardAgent:
    """The guard agent (skills from ``policy``'s scopes) or, with ``agent: false``, the
    single-turn reviewer."""
    if config.agent:
        from .agent import GuardAgent
        from .skillset import load_skills

        return GuardAgent(config, skills=lambda: load_skills(policy, env))
    from .reviewer import Reviewer

    return Reviewer(config)


def make_reviewer(policy: Any, env: Mapping[str, str] | None = None) -> Reviewer | GuardAgent | Misconfigured:
    """The configured reviewer, built now (see :class:`DeferredReviewer` for the lazy one)."""
    from .config import ConfigError, load_config

    env = env if env is not None else os.environ
    try:
        config = load_config(policy.section("review"), env)
    except ConfigError as exc:
        from .reviewer import Misconfigured

        return Misconfigured(str(exc))
    return evaluator_for(config, policy, env)


class DeferredReviewer:
    """A reviewer for ``Guard`` that is built on its first use (then kept)."""

    def __init__(self, policy: Any, env: Mapping[str, str] | None = None) -> None:
        self._policy = policy
        self._env = env
        self._lock = threading.Lock()
        self._reviewer: Any = None

    def __repr__(self) -> str:
        return f"DeferredReviewer({self._reviewer!r})" if self._reviewer is not None else "DeferredReviewer(not built yet)"

    def resolve(self) -> Reviewer | GuardAgent | Misconfigured:
        with self._lock:
            if self._reviewer is None:
                self._reviewer = make_reviewer(self._policy, self._env)
            return self._reviewer

    def __call__(self, call: ToolCall, ctx: Context, pending: LayerResult) -> LayerResult:
        return self.resolve()(call, ctx, pending)


def build_reviewer(policy: Any, env: Mapping[str, str] | None = None) -> DeferredReviewer:
    """The reviewer ``Guard`` uses for layer 7's ``review`` verdicts."""
    return DeferredReviewer(policy, env if env is not None else os.environ)


def _config(policy: Any, env: Mapping[str, str]) -> ReviewConfig | None:
    from .config import ConfigError, load_config, review_enabled

    section = policy.section("review")
    if not review_enabled(section, env):
        return None
    try:
        return load_config(section, env)
    except ConfigError:
        return None


def _policy(policy: Any, cwd: str, env: Mapping[str, str]) -> Any:
    if policy is not None:
        return policy
    from ..policy.settings import load_policy

    return load_policy(os.path.abspath(cwd), env=env)


def classifier_from_settings(
    policy: Any = None, env: Mapping[str, str] | None = None, *, cwd: str = "."
) -> Classifier | None:
    """The ``classifier`` for the racing and coordinator approvers, or ``None`` when the
    reviewer is off, misconfigured, or ``review.classifier`` is not true."""
    env = env if env is not None else os.environ
    policy = _policy(policy, cwd, env)
    config = _config(policy, env)
    if config is None or not config.classifier:
        return None
    from .classifier import Classifier

    return Classifier(evaluator_for(config, policy, env), env=env)


def explainer_from_settings(
    policy: Any = None, env: Mapping[str, str] | None = None, *, cwd: str = "."
) -> Explainer | None:
    """The LLM explanation callable for the prompt, or ``None`` when the reviewer is off,
    misconfigured, or ``review.explain`` is false."""
    env = env if env is not None else os.environ
    policy = _policy(policy, cwd, env)
    config = _config(policy, env)
    if config is None or not config.explain:
        return None
    from .explain import Explainer

    return Explainer(config)


def injection_check_from_settings(
    policy: Any = None, env: Mapping[str, str] | None = None, *, cwd: str = "."
) -> InjectionCheck | None:
    """The LLM injection classifier for grey-zone tool results, or ``None`` when the
    reviewer is off, misconfigured, or ``review.injectionCheck`` is not true."""
    env = env if env is not None else os.environ
    policy = _policy(policy, cwd, env)
    config = _config(policy, env)
    if config is None or not config.injection_check:
        return None
    from .injection_check import InjectionCheck

    return InjectionCheck(config)
