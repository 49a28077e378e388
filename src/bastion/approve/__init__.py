"""Approvals: who settles an ``ask``, and what they see.

    from bastion.approve import default_approver
    decision = decide(guard, call, approver=default_approver(guard))

* ``Approver`` — ``(call, decision) -> final Decision`` with its source (base.py);
* ``TerminalApprover`` — the prompt: allow once (Enter), for this session, deny (terminal.py);
* ``HeadlessApprover`` — nobody can be asked: deny with the reason (headless.py);
* ``RacingApprover``, ``CoordinatorApprover``, ``SubAgentApprover``, ``default_approver``
  (racing.py);
* ``PermissionHooks``, ``notify_denied`` — PermissionRequest / PermissionDenied scripts (hooks.py);
* ``explain``, ``edit_diff`` — the deterministic explanation shown in the prompt (explainer.py).

Names load on first use: importing the package costs nothing, and prompt_toolkit is
imported only when a prompt is drawn.
"""

__all__ = [
    "Approver",
    "Choice",
    "allowed",
    "denied",
    "TerminalApprover",
    "HeadlessApprover",
    "RacingApprover",
    "CoordinatorApprover",
    "SubAgentApprover",
    "default_approver",
    "PermissionHooks",
    "notify_denied",
    "explain",
    "edit_diff",
    "Explanation",
]

_HOME = {
    "Approver": "base",
    "Choice": "base",
    "allowed": "base",
    "denied": "base",
    "TerminalApprover": "terminal",
    "HeadlessApprover": "headless",
    "RacingApprover": "racing",
    "CoordinatorApprover": "racing",
    "SubAgentApprover": "racing",
    "default_approver": "racing",
    "PermissionHooks": "hooks",
    "notify_denied": "hooks",
    "explain": "explainer",
    "edit_diff": "explainer",
    "Explanation": "explainer",
}


def __getattr__(name):  # type: ignore[no-untyped-def]
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.approve' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
