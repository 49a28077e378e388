"""``bastion mcp-proxy [--name NAME] -- COMMAND...``: an MCP server that guards another one.

The proxy starts the wrapped server as a child over stdio, serves MCP to the client on
its own stdin/stdout, and forwards everything about tools. Every ``tools/call`` is first
checked by bastion as the tool ``mcp__NAME__TOOL`` — so a rule such as
``mcp__github__delete_repo`` or ``mcp__github`` governs it — and a call that is denied,
or that would need approval (nobody can be asked over stdio), comes back as a tool
result with ``isError: true`` and bastion's reason, never reaching the wrapped server.
Results pass through ``results.scan_tool_result`` (stage 7's injection scan).

The tool list is screened too (:mod:`bastion.injection.tools`): a tool whose name,
description, schemas or annotations carry instructions to the model (tool poisoning) is
left out of the list the client sees, and calls to it are refused. So is a tool whose
description differs from the one pinned when it was first seen, in this or an earlier
session (:mod:`bastion.injection.pins`: a server that turns malicious once trusted),
until the person accepts it with ``bastion mcp trust NAME``, and a tool listed twice.
The server's ``notifications/tools/list_changed`` is passed on to the client, so it
lists again and the new list is screened. Only tools that passed screening can be called
(a call before any listing screens the whole list first). The server's own
``instructions`` are screened the same way and dropped when poisoned. Everything withheld
is reported once on stderr, which clients keep in their MCP server log.

Results taint the agent session (:mod:`bastion.injection.proxy_sessions`): the one named
by ``BASTION_SESSION_ID`` or ``CLAUDE_CODE_SESSION_ID`` in the proxy's environment, and
always the proxy's workspace record, which the hooks of every session in that folder read.

Uses the ``mcp`` SDK (extra ``bastion-guard[mcp]``), imported only when the proxy runs.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..model import ToolCall, Verdict
from ..precompiled import regex

#: What a server name may not hold (each run becomes one ``_``), and ``python3.N``.
_NOT_NAME = regex(r"[^A-Za-z0-9_-]+")
_VERSIONED_PYTHON = regex(r"python3\.\d+")


def server_name(command: Sequence[str], name: str | None = None) -> str:
    """The ``NAME`` in ``mcp__NAME__tool``: the flag, else the command's own name."""
    raw = name or _command_name(command)
    cleaned = _NOT_NAME.sub("_", raw).strip("_")
    if not cleaned or "__" in cleaned:
        raise ValueError(f"invalid MCP server name {raw!r}: use letters, digits, '-' and single '_'")
    return cleaned


#: Commands that run the real server named by their first argument.
_LAUNCHERS = frozenset({"python", "python3", "node", "npx", "uvx", "uv", "bunx", "bun", "deno", "pipx", "sh", "bash"})


def _command_name(command: Sequence[str]) -> str:
    name = os.path.basename(command[0])
    if name in _LAUNCHERS or _VERSIONED_PYTHON.fullmatch(name):
        rest = [word for word in command[1:] if not word.startswith("-") and word not in ("run", "exec")]
        if rest:
            name = os.path.basename(rest[0].rstrip("/"))
    return os.path.splitext(name)[0]


class ToolGate:
    """Decides ``tools/call`` requests for one wrapped server (no SDK types inside)."""

    def __init__(self, server: str, cwd: str, guard: Any = None, env: Mapping[str, str] | None = None) -> None:
        from ..injection.proxy_sessions import session_id_from
        from .wrap import _Guards

        self.server = server
        self.cwd = os.path.abspath(cwd)
        self.guards = _Guards(guard)
        self.env = env if env is not None else os.environ
        #: The agent session this proxy's calls and results belong to ("" when unknown).
        self.session = session_id_from(self.env)
        #: Tools left out of the list, with the reason (refused if called anyway).
        self.withheld: dict[str, str] = {}
        #: Fingerprint of each tool's metadata when it was first listed.
        self.listed: dict[str, str] = {}
        #: Tools that passed screening: the only ones a call may name.
        self.screened: set[str] = set()

    def screen(self, tools: list[Any]) -> list[Any]:
        """The tools the client may see: poisoned ones, and ones whose description
        changed since they were first listed, are withheld (and reported on stderr)."""
        from ..injection.pins import PinBook, Unreadable
        from ..injection.tools import is_poisoned, judge_tool, metadata_digest, summary

        kept = []
        names = [str(getattr(tool, "name", "")) for tool in tools]
        try:
            book: PinBook | None = PinBook(self.server, self.env)
        except Unreadable as exc:
            book = None
            unpinned = f"bastion cannot read its pinned tool descriptions ({exc}); see bastion mcp pins"
        for name, tool in zip(names, tools, strict=True):
            # everything a client may put in front of the model: titles, description, schemas,
            # annotations (a readOnlyHint that flips is a change too) and metadata
            description = "\n".join(filter(None, (getattr(tool, "title", None), getattr(tool, "description", None))))
            schema = [_plain(getattr(tool, key, None)) for key in ("input_schema", "output_schema", "annotations", "meta")]
            digest = metadata_digest(description, schema)
            pinned = book.pinned(name) if book is not None else None
            first = self.listed.setdefault(name, digest)
            reason = None
            if names.count(name) > 1:
                reason = "the server lists more than one tool by that name"
            elif book is None:
                reason = unpinned
            elif (pinned is not None and pinned != digest) or (first != digest and pinned != digest):
                reason = (f"its description changed after it was first listed (to accept the new one: "
                          f"bastion mcp trust {self.server} {name})")
                book.changed(name, digest, description)
            else:
                try:
                    findings = judge_tool(name, description, schema)
                except Exception as exc:  # noqa: BLE001 - a tool that cannot be judged is withheld
                    reason = f"its description could not be checked ({type(exc).__name__})"
                else:
                    if is_poisoned(findings):
                        reason = f"its description carries instructions for the model ({summary(findings)})"
            if reason is None:
                kept.append(tool)
                self.screened.add(name)
                self.withheld.pop(name, None)
                self.listed[name] = digest
                if pinned is None and book is not None:
                    book.pin(name, digest)  # trust on first use
                continue
            self.screened.discard(name)
            if name not in self.withheld:
                print(f"bastion: withheld MCP tool mcp__{self.server}__{name}: {reason}", file=sys.stderr, flush=True)
            self.withheld[name] = reason
        if book is not None:
            try:
                book.save()
            except OSError as exc:  # pins unsaved: this session still compares with its first listing
                print(f"bastion: cannot save MCP tool pins: {exc.strerror or exc}", file=sys.stderr, flush=True)
        return kept

    def check(self, tool: str, arguments: dict[str, Any] | None) -> str | None:
        """``None`` when the call may go on, else the message to return as an error."""
        from .wrap import check_call

        if tool in self.withheld:
            return f"bastion denied mcp__{self.server}__{tool}: the tool is withheld because {self.withheld[tool]}"
        if tool not in self.screened:
            return f"bastion denied mcp__{self.server}__{tool}: the server's tool list has no tool by that name"
        call = ToolCall(f"mcp__{self.server}__{tool}", dict(arguments or {}), cwd=self.cwd, session_id=self.session,
                        agent="mcp-proxy")
        try:
            decision = check_call(call, self.guards, None)  # asks become denials: nobody to ask
        except Exception as exc:  # noqa: BLE001 - fail closed
            return f"bastion could not check {call.tool} ({type(exc).__name__}: {exc}); denied"
        if decision.verdict is Verdict.ALLOW:
            return None
        return f"bastion denied {call.tool}: {decision.reason}"

    def screen_instructions(self, instructions: str | None) -> str | None:
        """The server's instructions, which clients put in the model's context: dropped
        (and reported) when they carry instructions of the poisoning kind."""
        if not instructions:
            return instructions
        from ..injection.tools import is_poisoned, judge_tool, summary

        try:
            findings = judge_tool("instructions", instructions)
        except Exception as exc:  # noqa: BLE001 - fail closed
            print(f"bastion: dropped the instructions of MCP server {self.server}: could not be checked "
                  f"({type(exc).__name__})", file=sys.stderr, flush=True)
            return None
        if is_poisoned(findings):
            print(f"bastion: dropped the instructions of MCP server {self.server}: they carry instructions for the "
                  f"model ({summary(findings)})", file=sys.stderr, flush=True)
            return None
        return instructions

    def scan(self, tool: str, arguments: dict[str, Any] | None, result: Any) -> list[Any]:
        """Findings to show the model about a result; the result taints the session (when
        known) and, always, this proxy's workspace record — as an injection, as
        suspicious, or as content from the network."""
        from ..injection.levels import level_of
        from ..injection.observe import model_findings, observe_tool_result, result_text
        from ..injection.proxy_sessions import record
        from ..injection.scanner import is_injection
        from ..injection.taint import UNRECORDED, TaintEvent, injection_event
        from ..model import Finding, Severity

        call = ToolCall(f"mcp__{self.server}__{tool}", dict(arguments or {}), cwd=self.cwd, session_id=self.session)
        text = result_text(_plain(result))
        try:
            found = observe_tool_result(call, text, self.env)
            level = level_of(found)
            event = (injection_event(call.tool, found, level) if level is not None
                     else TaintEvent("untrusted", call.tool, "content from the network", time.time()))
            record(event, self.env, workspace=self.cwd)
        except OSError as exc:
            return [Finding(UNRECORDED[0], Severity.HIGH, f"bastion could not record this session's state: {exc.strerror}")]
        return model_findings(found, text) if is_injection(found) else []

    def start(self) -> None:
        """Enter this proxy in the workspace record (its results taint the folder's sessions)."""
        from ..injection.proxy_sessions import register

        try:
            register(self.cwd, self.env, session=self.session)
        except OSError as exc:
            print(f"bastion: cannot record the MCP proxy's session: {exc.strerror or exc}", file=sys.stderr, flush=True)

    def stop(self) -> None:
        from ..injection.proxy_sessions import unregister

        try:
            unregister(self.env)
        except OSError:
            pass  # a dead proxy's entry is ignored and pruned by the next one


def _plain(value: Any) -> Any:
    """An SDK model as plain data (dicts, lists, strings) for judging and fingerprints."""
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", exclude_none=True) if callable(dump) else value


async def serve(command: Sequence[str], gate: ToolGate, process: Any = None) -> None:
    """Run the proxy until the client closes stdin (``process``: the wrapped server,
    already started by :func:`main`)."""
    import mcp_types as types
    from mcp import ClientSession
    from mcp.server.lowlevel import Server
    from mcp.server.lowlevel.server import NotificationOptions
    from mcp.server.stdio import stdio_server

    from .mcp_upstream import connect, start

    process = process if process is not None else start(command)
    #: The client's side of the proxy, learnt from its first request: where the wrapped
    #: server's change notifications are passed on to.
    client: dict[str, Any] = {}

    async def from_upstream(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification) and client.get("session") is not None:
            try:
                await client["session"].send_tool_list_changed()  # the client lists again: screened again
            except Exception as exc:  # noqa: BLE001 - a lost notice only delays the new list
                print(f"bastion: could not pass on tools/list_changed ({type(exc).__name__})", file=sys.stderr, flush=True)

    def remember(ctx: Any) -> None:
        session = getattr(ctx, "session", None)
        if session is not None and hasattr(session, "send_tool_list_changed"):
            client.setdefault("session", session)

    async with connect(process) as (up_read, up_write), ClientSession(up_read, up_write,
                                                                          message_handler=from_upstream) as upstream:
        info = await upstream.initialize()

        async def list_tools(ctx: Any, params: Any) -> Any:
            remember(ctx)
            listed = await upstream.list_tools(params=params)
            listed.tools = gate.screen(list(listed.tools))
            return listed

        async def screen_everything() -> None:
            """Screen the whole tool list (every page): a call may come before any listing."""
            cursor = None
            for _page in range(100):
                page = await upstream.list_tools(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
                gate.screen(list(page.tools))
                cursor = page.next_cursor
                if not cursor:
                    break

        async def call_tool(ctx: Any, params: Any) -> Any:
            remember(ctx)
            if params.name not in gate.screened and params.name not in gate.withheld:
                await screen_everything()
            refusal = gate.check(params.name, params.arguments)
            if refusal is not None:
                return types.CallToolResult(content=[types.TextContent(type="text", text=refusal)], is_error=True)
            result = await upstream.call_tool(params.name, params.arguments)
            findings = gate.scan(params.name, params.arguments, result)
            if findings:
                from .results import findings_message

                result.content.append(types.TextContent(type="text", text=findings_message(findings)))
            return result

        proxy = Server(
            f"bastion:{gate.server}",
            version=getattr(info.server_info, "version", "") or "",
            instructions=gate.screen_instructions(getattr(info, "instructions", None)),
            on_list_tools=list_tools,
            on_call_tool=call_tool,
        )
        changes = bool(getattr(getattr(getattr(info, "capabilities", None), "tools", None), "list_changed", False))
        gate.start()
        try:
            async with stdio_server() as (read, write):
                await proxy.run(read, write, proxy.create_initialization_options(NotificationOptions(tools_changed=changes)))
        finally:
            gate.stop()


def main(command: Sequence[str], *, name: str | None = None, cwd: str | None = None) -> int:
    """Entry point of ``bastion mcp-proxy``."""
    if not command:
        print("bastion: mcp-proxy needs the server command after --, e.g. "
              "bastion mcp-proxy --name files -- npx @modelcontextprotocol/server-filesystem .", file=sys.stderr)
        return 2
    try:
        server_name(command, name)
    except ValueError as exc:
        print(f"bastion: {exc}", file=sys.stderr)
        return 2
    from .mcp_upstream import start, stop

    try:
        process = start(command)  # the wrapped server starts while the SDK loads
    except OSError as exc:
        print(f"bastion: cannot start MCP server {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        stop(process)
        from .install import install_hint

        print(f"bastion: mcp-proxy needs the MCP SDK: {install_hint('mcp')}", file=sys.stderr)
        return 2
    try:
        gate = ToolGate(server_name(command, name), cwd or os.getcwd())
    except ValueError as exc:
        stop(process)
        print(f"bastion: {exc}", file=sys.stderr)
        return 2
    try:
        anyio.run(serve, list(command), gate, process)
    except OSError as exc:
        print(f"bastion: cannot start MCP server {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
