"""The LLM reviewer and guard agent, for the calls bastion's rules cannot settle.

    from bastion.review import Reviewer, GuardAgent, load_config, classifier_from_settings

* ``Reviewer`` (single turn, spec 001's prompt) and ``GuardAgent`` (multi turn, with the
  ``Skill`` tool): ``reviewer(call, ctx, pending) -> LayerResult`` for ``Guard``, and
  ``evaluate(call) -> Assessment``;
* ``load_config(section, env) -> ReviewConfig`` (settings ``review`` + ``BASTION_REVIEW_*``);
* ``classifier_from_settings`` → ``(call, decision) -> Decision | None`` for the racing
  and coordinator approvers; ``explainer_from_settings`` → ``(call, decision) ->
  Explanation | None`` for the prompt;
* ``OpenAIBackend`` and ``AnthropicBackend``: the two HTTP APIs.

Names load on first use; ``Guard`` imports this package only when the reviewer is on.
"""

__all__ = [
    "AnthropicBackend",
    "Assessment",
    "Classifier",
    "ConfigError",
    "Explainer",
    "Explanation",
    "GuardAgent",
    "OpenAIBackend",
    "ReviewConfig",
    "ReviewError",
    "ReviewTimeout",
    "Reviewer",
    "Secret",
    "Skill",
    "SkillSet",
    "build_reviewer",
    "classifier_from_settings",
    "detect_languages",
    "explain_in_background",
    "explainer_from_settings",
    "load_config",
    "load_skills",
    "parse_verdict",
    "review_enabled",
]

_HOME = {
    "AnthropicBackend": "backends",
    "OpenAIBackend": "backends",
    "ReviewError": "backends",
    "ReviewTimeout": "backends",
    "Assessment": "reviewer",
    "Reviewer": "reviewer",
    "parse_verdict": "reviewer",
    "Classifier": "classifier",
    "ConfigError": "config",
    "ReviewConfig": "config",
    "Secret": "config",
    "load_config": "config",
    "review_enabled": "config",
    "Explainer": "explain",
    "Explanation": "explain",
    "explain_in_background": "explain",
    "GuardAgent": "agent",
    "Skill": "skillset",
    "SkillSet": "skillset",
    "load_skills": "skillset",
    "detect_languages": "language",
    "build_reviewer": "wiring",
    "classifier_from_settings": "wiring",
    "explainer_from_settings": "wiring",
}


def __getattr__(name):  # type: ignore[no-untyped-def]
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'bastion.review' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
