"""What the hook flow (``hook.run``) needs from each client's adapter, and what it
hands back.

A client adapter is a module (``adapters.claude_code``, ``adapters.codex``,
``adapters.gemini``) that satisfies :class:`ClientAdapter`: the flow is the same for
every client, and what differs — field names, what "ask" means, how to fail closed —
lives in the adapter. Two members are optional and read with a default:

* ``HEADLESS`` — why nobody can answer an ask there (``approve.headless.nobody_to_ask``);
* ``can_rewrite`` — the client runs a rewritten tool input (Claude Code's
  ``updatedInput``); such an adapter is a :class:`RewritingClient`.
"""

from __future__ import annotations

import os

from .. import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol

    from ..model import Decision, Finding, ToolCall
else:
    Protocol = object  # a protocol is for type checkers: at runtime its class is a plain one


class Reply:
    """What the hook process prints and how it exits (a plain class: cheaper to define at
    import than a dataclass, and every hook call loads this module)."""

    __slots__ = ("stdout", "stderr", "exit_code")

    def __init__(self, stdout: str = "", stderr: str = "", exit_code: int = 0) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reply) and (self.stdout, self.stderr, self.exit_code) == (
            other.stdout, other.stderr, other.exit_code)

    def __repr__(self) -> str:
        return f"Reply(stdout={self.stdout!r}, stderr={self.stderr!r}, exit_code={self.exit_code!r})"

    @classmethod
    def json(cls, data: Mapping[str, Any]) -> Reply:
        return cls(stdout=fastjson.dumps(data, ensure_ascii=False))


class PayloadError(ValueError):
    """The client sent something that is not a hook call bastion can read."""


def payload_cwd(payload: Mapping[str, Any]) -> str:
    """The call's working directory: the payload's ``cwd``, else this process's."""
    cwd = payload.get("cwd")
    return os.path.abspath(cwd) if isinstance(cwd, str) and cwd else os.getcwd()


class ClientAdapter(Protocol):
    """One client's hook protocol."""

    @property
    def PRE_EVENTS(self) -> tuple[str, ...]:
        """Hook event names before a tool runs (the first is the default event)."""

    @property
    def POST_EVENTS(self) -> tuple[str, ...]:
        """Hook event names after a tool ran."""

    @property
    def can_ask(self) -> bool:
        """Whether the client can put an ``ask`` in front of a person."""

    def to_call(self, payload: Mapping[str, Any]) -> ToolCall:
        """The call a hook payload describes; :class:`PayloadError` when it has none."""

    def answer(self, event: str, decision: Decision, policy: Any = None, *, asked: bool = False) -> Reply:
        """The client's answer to a decision (``asked``: an ask that became a deny)."""

    def answer_post(self, event: str, findings: list[Finding]) -> Reply:
        """The client's answer after a tool ran, reporting the result's findings."""

    def failure(self, event: str, payload: Mapping[str, Any] | None, message: str) -> Reply:
        """The client's fail-closed answer to a call bastion could not check."""


class RewritingClient(ClientAdapter, Protocol):
    """A client that runs a rewritten tool input (the call inside ``bastion run``)."""

    def answer(self, event: str, decision: Decision, policy: Any = None, *, asked: bool = False,
               updated_input: dict[str, Any] | None = None) -> Reply:
        """As :meth:`ClientAdapter.answer`, with the input the client should run instead."""
