"""One hook call decided: JSON bytes in, the client's :class:`~.protocol.Reply` out.

The flow is the same for every client; what differs (field names, what "ask" means, how
to fail closed) lives in the client's adapter, a :class:`~.protocol.ClientAdapter`
(``adapters.claude_code``, ``codex``, ``gemini``).

``bastion hook`` first goes through ``hook.client`` (a thin client for the warm decision
server ``hook.server``); this module is what decides, in the server or, when the server
cannot answer, in the hook process itself. It imports only the standard library at the
top; the engine comes in once the payload is read.
"""

from __future__ import annotations

import os
import sys

from ..std_lite import import_module
from . import CLIENTS
from .protocol import PayloadError, Reply, payload_cwd

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .protocol import ClientAdapter, RewritingClient


def client_module(name: str) -> ClientAdapter:
    """The adapter module for a client name as users type it (``claude-code``…)."""
    try:
        module: Any = import_module(f"..adapters.{CLIENTS[name]}", __package__)  # a ClientAdapter
    except KeyError:
        raise PayloadError(f"unknown client {name!r} (expected one of: {', '.join(CLIENTS)})") from None
    return module


def run(client: ClientAdapter, raw: bytes | str | None, env: Mapping[str, str] | None = None, cwd: str | None = None) -> Reply:
    """Answer one hook call; any failure becomes the client's fail-closed answer.

    ``raw`` is stdin's bytes exactly as read (None: stdin was closed); ``env`` and ``cwd``
    are the hook process's (the decision server passes its caller's). The bytes go
    through ``validate.parse_input`` here, in whichever process decides, so the server
    and the hook itself answer the same bytes the same way; the payload's own ``cwd``
    wins over ``cwd``."""
    from ..validate import InputError, parse_input

    env = env if env is not None else os.environ
    payload: dict[str, Any] | None = None
    event = ""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    try:
        try:
            payload = parse_input(raw, cwd=cwd or _getcwd())
        except InputError as exc:
            name = (exc.data or {}).get("hook_event_name")
            event = name if isinstance(name, str) else ""
            return fail_closed(client, event, exc.data, f"bastion could not check this call ({exc})", env, raw=raw)
        event = payload.get("hook_event_name") or client.PRE_EVENTS[0]
        from ..provenance import client_name, trusted_env  # before any settings are read

        env, notes = trusted_env(env, payload_cwd(payload), client_name(client))
        if event in client.POST_EVENTS:
            return _after_tool(client, event, payload, env)
        if event in client.PRE_EVENTS:
            reply = _before_tool(client, event, payload, env)
            if notes:
                reply.stderr = "\n".join(filter(None, [*notes, reply.stderr]))
            return reply
        if "tool_name" in payload or "tool_input" in payload:
            raise PayloadError(f"unknown hook event {event!r} for a tool call")
        return Reply()  # an event bastion has no opinion on (SessionStart…)
    except Exception as exc:  # noqa: BLE001 - never a traceback, never an allow
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if not isinstance(exc, PayloadError):
            detail = f"{type(exc).__name__}: {detail}"
        return fail_closed(client, event, payload, f"bastion could not check this call ({detail})", env)


def fail_closed(client: ClientAdapter, event: str, payload: Mapping[str, Any] | None, message: str,
                env: Mapping[str, str], *, raw: bytes | None = None) -> Reply:
    """The one place a hook call bastion could not check (unreadable input, a failure
    while deciding) gets its answer: the client's own fail-closed reply (ask, or deny /
    block when nobody can be asked), with ``message`` as its one stderr line. ``payload``
    is the call's JSON object when it could be read, else None; ``env`` the caller's;
    ``raw`` the unreadable bytes (the audit line keeps a short redacted prefix)."""
    from ..audit.log import record_fail_closed, reply_verdict
    from ..provenance import client_name

    reply = client.failure(event, payload, message)
    record_fail_closed(message, verdict=reply_verdict(reply.stdout, reply.exit_code), agent=client_name(client) or "",
                       raw=raw, payload=payload, event=event, env=env)
    return reply


def _guard(call: Any, env: Mapping[str, str]) -> tuple[Any, list[str]]:
    from ..engine import Guard

    guard = Guard.from_settings(call.cwd, env=env)
    return guard, [f"bastion: {line}" for line in guard.policy.errors]


def _before_tool(client: ClientAdapter, event: str, payload: dict[str, Any], env: Mapping[str, str]) -> Reply:
    from ..model import Verdict
    from ..session import decide

    call = client.to_call(payload)
    guard, warnings = _guard(call, env)
    rewrite = _sandbox_rewrite(client, call, guard.policy)
    guard.runs_sandboxed = rewrite is not None
    asked: list[bool] = []
    why = unattended_reason(client, guard, call)

    def approver(call: Any, decision: Any) -> Any:
        from ..approve.headless import HeadlessApprover

        asked.append(decision.verdict is Verdict.ASK)
        return HeadlessApprover(why)(call, decision)

    decision = decide(guard, call, approver=approver if why else None)
    from .facts import remember

    remember(call, decision, _home(env))  # for this call's PostToolUse: no second analysis
    if rewrite is not None and decision.verdict is not Verdict.DENY:
        rewriting: RewritingClient = client  # type: ignore[assignment]  # a rewrite is planned only for one
        reply = rewriting.answer(event, decision, guard.policy, asked=bool(asked), updated_input=rewrite)
    else:
        reply = client.answer(event, decision, guard.policy, asked=bool(asked))
    if warnings:
        reply.stderr = "\n".join(filter(None, [*warnings, reply.stderr]))
    return reply


def _sandbox_rewrite(client: ClientAdapter, call: Any, policy: Any) -> dict[str, Any] | None:
    """The tool input that runs the agent's shell command inside ``bastion run``, for a
    client that can rewrite a call (Claude Code's ``updatedInput``) when the sandbox is
    enabled; None otherwise. Clients that cannot rewrite never get sandbox auto-allows."""
    if not getattr(client, "can_rewrite", False):
        return None
    from ..sandbox.rewrite import sandboxed_command, should_rewrite

    if not should_rewrite(call, policy) or call.command is None:
        return None
    timeout = call.input.get("timeout")
    seconds = float(timeout) / 1000 if isinstance(timeout, (int, float)) and timeout > 0 else None
    return {**call.input, "command": sandboxed_command(call.command, call.cwd, policy, timeout=seconds)}


def _after_tool(client: ClientAdapter, event: str, payload: dict[str, Any], env: Mapping[str, str]) -> Reply:
    from ..adapters.results import scan_tool_result
    from .facts import recall

    call = client.to_call(payload)
    findings = scan_tool_result(call, payload.get("tool_response"), env, facts=recall(call, _home(env)))
    return client.answer_post(event, findings)


def _home(env: Mapping[str, str]) -> str:
    """The home a decision is made for (``Guard.context``'s)."""
    return env.get("HOME") or os.path.expanduser("~")


def unattended_reason(client: ClientAdapter, guard: Any, call: Any) -> str | None:
    """Why nobody can answer an ask for this client and call, or None when a person can
    (Claude Code shows its prompt unless the mode is ``bypassPermissions``/``dontAsk``;
    Codex and Gemini cannot put a hook's question to anyone)."""
    from ..approve.headless import nobody_to_ask

    return nobody_to_ask(guard.effective_mode(call), can_prompt=client.can_ask,
                         headless=getattr(client, "HEADLESS", "this client cannot show a prompt"))


def _getcwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us
        return None


def read_stdin(limit: int = -1) -> bytes | None:
    """stdin's bytes (at most ``limit``), or None when there is no stdin to read (its
    descriptor closed, ``0<&-``)."""
    stream = sys.stdin
    if stream is None:
        return None
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            return buffer.read(limit)
        return stream.read(limit).encode("utf-8", "surrogatepass")  # a text stream put in its place
    except (OSError, ValueError):
        return None
