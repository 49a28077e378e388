"""The headless approver: nobody can be asked, so an ask is a deny with the reason.

Used for ``-p`` runs, CI, ``dontAsk`` and whenever no terminal is attached (spec 001's
AutoDenyHandler). The agent gets a reason it can act on: what would have needed
approval and, when bastion has one, the rule that would allow it next time.

Source: ``mode`` when the call runs in ``dontAsk`` mode (the mode decided), otherwise
``builtin`` (bastion's built-in policy decided: no person, no approval). Neither is a
``user_*`` source, because no person was involved, and the audit log must not say one was.
"""

from __future__ import annotations

from typing import Mapping

from ..model import Decision, Mode, Source, ToolCall, Verdict
from .base import settled

#: Environment variables that say "this is CI: never wait for a person".
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD")


def in_ci(env: Mapping[str, str]) -> bool:
    """True when a CI system is running us (``CI=true`` and friends)."""
    for name in CI_VARIABLES:
        value = env.get(name, "")
        if value and value.lower() not in ("0", "false", "no"):
            return True
    return False


class HeadlessApprover:
    """Deny every ask, saying that nobody can be asked and why it would have asked."""

    def __init__(self, why: str = "nobody can be asked") -> None:
        self.why = why

    def __call__(self, call: ToolCall, decision: Decision) -> Decision:
        if decision.verdict is not Verdict.ASK:
            return decision
        source = Source.MODE if call.mode is Mode.DONT_ASK else Source.BUILTIN
        hint = ""
        if decision.suggestions:
            hint = f" (to allow it without asking, add the rule {decision.suggestions[0]})"
        return settled(decision, Verdict.DENY, source, f"{self.why}: {decision.reason}{hint}")


def headless(call: ToolCall, decision: Decision) -> Decision:
    """``HeadlessApprover()`` as a plain function."""
    return HeadlessApprover()(call, decision)
