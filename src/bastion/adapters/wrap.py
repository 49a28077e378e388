"""Guard any Python function an agent calls as a tool: ``@guarded(...)``.

Agent frameworks (the OpenAI Agents SDK, LangGraph, your own loop) call plain Python
functions. ``guarded`` checks each call with bastion before the function runs: the
function's arguments become the tool input (``{"command": ...}`` for a shell tool,
``{"file_path": ...}`` for a file tool, anything for your own tools), a deny raises
``ToolDenied`` with the reason, and an ask goes to your ``approve`` callback — or, with
none, is denied (nobody is there to ask).

    from bastion.adapters.wrap import guarded, ToolDenied

    @guarded(tool_name="Bash")
    def run_shell(command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout

    run_shell("git status")      # runs
    run_shell("rm -rf ~")        # raises ToolDenied("... wipes the home directory ...")

``functools.wraps`` keeps the name, docstring and signature, so frameworks that build a
tool schema from the function (``function_tool``, ``@tool``) see the original.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..model import Decision, Source, ToolCall, Verdict

F = TypeVar("F", bound=Callable[..., Any])
#: ``approve(call, decision) -> bool``: say yes or no to a call bastion would ask about.
Approve = Callable[[ToolCall, Decision], bool]


class ToolDenied(PermissionError):
    """bastion denied a guarded call; ``reason`` says why, ``decision`` has the rest."""

    def __init__(self, decision: Decision, tool: str) -> None:
        self.decision = decision
        self.reason = decision.reason
        super().__init__(f"bastion denied {tool}: {decision.reason}")


def as_approver(approve: Approve | None) -> Callable[[ToolCall, Decision], Decision]:
    """A session approver from a yes/no callback; without one, asks become denials.

    A callback that raises counts as a no: failing to ask never allows.
    """
    from ..approve.base import settled
    from ..approve.headless import HeadlessApprover

    if approve is None:
        return HeadlessApprover("no approve callback")

    def approver(call: ToolCall, decision: Decision) -> Decision:
        reason = decision.reason
        try:
            yes = bool(approve(call, decision))
        except Exception as exc:  # noqa: BLE001 - fail closed
            yes = False
            reason = f"{reason} (the approver failed: {type(exc).__name__})"
        if yes:
            return settled(decision, Verdict.ALLOW, Source.USER_TEMPORARY, f"approved: {reason}")
        return settled(decision, Verdict.DENY, Source.USER_REJECT, f"{reason} (not approved)")

    return approver


class _Guards:
    """A Guard per working directory, built on first use (settings are read once)."""

    def __init__(self, guard: Any = None, env: Mapping[str, str] | None = None) -> None:
        self.fixed = guard
        self.env = env
        self.cache: dict[str, Any] = {}

    def for_cwd(self, cwd: str) -> Any:
        if self.fixed is not None:
            return self.fixed
        if cwd not in self.cache:
            from ..engine import Guard

            self.cache[cwd] = Guard.from_settings(cwd, env=self.env)
        return self.cache[cwd]


def check_call(call: ToolCall, guards: _Guards, approve: Approve | None) -> Decision:
    """Decide one call: check, let the approver settle an ask, record (audit, denials).
    Without an approve callback, or in a mode where nobody answers (bypassPermissions,
    dontAsk), an ask is a deny."""
    from ..approve.headless import HeadlessApprover, nobody_to_ask
    from ..session import decide

    guard = guards.for_cwd(call.cwd)
    why = nobody_to_ask(guard.effective_mode(call), can_prompt=approve is not None, headless="no approve callback")
    return decide(guard, call, approver=HeadlessApprover(why) if why else as_approver(approve))


def guarded(
    tool_name: str | None = None,
    *,
    guard: Any = None,
    cwd: str | None = None,
    approve: Approve | None = None,
    session_id: str = "",
    to_input: Callable[[dict[str, Any]], Mapping[str, Any]] | None = None,
) -> Callable[[F], F]:
    """Guard a function used as an agent tool.

    ``tool_name`` is the name rules see (default: the function's name; ``"Bash"`` makes
    bastion analyse the ``command`` argument as shell). ``to_input`` maps the bound
    arguments to the tool input when the parameter names differ from the tool's.
    Works on plain and ``async`` functions.
    """
    guards = _Guards(guard)

    def decorate(func: F) -> F:
        name = tool_name or func.__name__
        signature = inspect.signature(func)

        def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            tool_input = dict(to_input(arguments)) if to_input else arguments
            call = ToolCall(name, tool_input, cwd=os.path.abspath(cwd or os.getcwd()),
                            session_id=session_id, agent="python")
            decision = check_call(call, guards, approve)
            if decision.verdict is not Verdict.ALLOW:
                raise ToolDenied(decision, name)

        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                check(args, kwargs)
                return await func(*args, **kwargs)

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            check(args, kwargs)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
