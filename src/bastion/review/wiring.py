"""Build the reviewer, the classifier and the explainer from settings and environment.

``Guard.from_settings`` calls :func:`build_reviewer` only when the reviewer is on, so a
guard without one never imports this package. Bad settings never crash the guard: the
reviewer becomes :class:`~bastion.review.reviewer.Misconfigured`, which asks and names
the problem; the classifier and the explainer are simply absent (``None``).
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from .agent import GuardAgent
from .classifier import Classifier
from .config import ConfigError, ReviewConfig, load_config, review_enabled
from .explain import Explainer
from .reviewer import Misconfigured, Reviewer
from .skillset import load_skills


def evaluator_for(config: ReviewConfig, policy: Any = None, env: Mapping[str, str] | None = None) -> Reviewer | GuardAgent:
    """The guard agent (skills from ``policy``'s scopes) or, with ``agent: false``, the
    single-turn reviewer."""
    if config.agent:
        return GuardAgent(config, skills=lambda: load_skills(policy, env))
    return Reviewer(config)


def build_reviewer(policy: Any, env: Mapping[str, str] | None = None) -> Reviewer | GuardAgent | Misconfigured:
    """The reviewer ``Guard`` uses for layer 7's ``review`` verdicts."""
    env = env if env is not None else os.environ
    try:
        config = load_config(policy.section("review"), env)
    except ConfigError as exc:
        return Misconfigured(str(exc))
    return evaluator_for(config, policy, env)


def _config(policy: Any, env: Mapping[str, str]) -> ReviewConfig | None:
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
    return Explainer(config)
