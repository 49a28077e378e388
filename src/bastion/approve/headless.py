"""Nobody to ask: the one place that decides whether a person can answer an ask, and
the approver that turns an ask into a deny when nobody can.

A person can answer when the client can put a prompt in front of one and the permission
mode does not say "never ask me": ``bypassPermissions`` (Claude Code lets a hook's
``ask`` through unanswered) and ``dontAsk`` are unattended whatever the client, and so is
any client or run that cannot prompt (``codex exec``, ``gemini -p``, ``bastion run
--no-prompt``, CI, an Agent SDK program without an approve callback). Every adapter and
``bastion run`` asks :func:`nobody_to_ask`; the engine's own mode semantics stay as they
are (``bastion check --mode bypassPermissions`` still answers ``ask`` for an immune
ask, because its caller may be able to ask).

Source: ``mode`` when the call runs in ``dontAsk`` mode (the mode decided), otherwise
``builtin`` (bastion's built-in policy decided: no person, no approval). Neither is a
``user_*`` source, because no person was involved, and the audit log must not say one was.
"""

from __future__ import annotations

from ..model import Decision, Mode, Source, ToolCall, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

#: Environment variables that say "this is CI: never wait for a person".
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD")

#: Modes in which nobody answers an ask, whatever the client can show.
UNATTENDED_MODES = {Mode.BYPASS: "bypassPermissions mode", Mode.DONT_ASK: "dontAsk mode"}


def in_ci(env: Mapping[str, str]) -> bool:
    """True when a CI system is running us (``CI=true`` and friends)."""
    for name in CI_VARIABLES:
        value = env.get(name, "")
        if value and value.lower() not in ("0", "false", "no"):
            return True
    return False


def nobody_to_ask(mode: Mode | None, *, can_prompt: bool, headless: str = "a headless run") -> str | None:
    """Why nobody can answer an ask here, or None when a person can.

    ``mode`` is the call's effective permission mode; ``can_prompt`` says whether the
    client or run can show a prompt to a person at all; ``headless`` names that case.
    """
    if mode in UNATTENDED_MODES:
        return UNATTENDED_MODES[mode]
    if not can_prompt:
        return headless
    return None


class CannotShow(str):
    """A ``why`` saying the client cannot show bastion's question (Codex, Gemini CLI): a
    person may well be at the screen, so the deny must not say nobody can be asked, and
    it says how to let the call through."""


def _how_to_allow(decision: Decision) -> str:
    if decision.immune:
        return " (bastion asks a person for this in every mode: make this change yourself)"
    if decision.suggestions:
        import shlex  # only for this message

        return f" (to allow it without asking: bastion rules add {shlex.quote(decision.suggestions[0])})"
    return " (to allow it: run it yourself, or add an allow rule for it with bastion rules add)"


class HeadlessApprover:
    """The one approver for where nobody can be asked: deny every ask, saying so, why
    (``why`` as :func:`nobody_to_ask` said it, when known) and what would have been
    asked. A non-ask passes through unchanged."""

    def __init__(self, why: str | None = None) -> None:
        self.why = why
        self.cannot_show = isinstance(why, CannotShow)
        if self.cannot_show:
            self.lead = f"{why}, so this is denied; it would have asked"
        elif why is None:
            self.lead = "nobody can be asked"
        else:
            self.lead = f"nobody can be asked here ({why}), so this is denied; it would have asked"

    def __call__(self, call: ToolCall, decision: Decision) -> Decision:
        if decision.verdict is not Verdict.ASK:
            return decision
        from .base import settled  # only an ask nobody can answer: most calls are decided without it

        source = Source.MODE if call.mode is Mode.DONT_ASK else Source.BUILTIN
        hint = ""
        if self.cannot_show:
            hint = _how_to_allow(decision)
        elif decision.suggestions and not decision.immune:
            hint = f" (to allow it without asking, add the rule {decision.suggestions[0]})"
        return settled(decision, Verdict.DENY, source, f"{self.lead}: {decision.reason}{hint}")

