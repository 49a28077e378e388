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
description changes after it was first listed in this session (a server that turns
malicious once trusted), and a tool listed twice. Only tools that passed screening can
be called (a call before any listing screens the whole list first). The server's own
``instructions`` are screened the same way and dropped when poisoned. Everything withheld
is reported once on stderr, which clients keep in their MCP server log.

Uses the ``mcp`` SDK (extra ``bastion-guard[mcp]``), imported only when the proxy runs.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from ..model import ToolCall, Verdict


def server_name(command: Sequence[str], name: str | None = None) -> str:
    """The ``NAME`` in ``mcp__NAME__tool``: the flag, else the command's own name."""
    raw = name or _command_name(command)
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "_", raw).strip("_")
    if not cleaned or "__" in cleaned:
        raise ValueError(f"invalid MCP server name {raw!r}: use letters, digits, '-' and single '_'")
    return cleaned


#: Commands that run the real server named by their first argument.
_LAUNCHERS = frozenset({"python", "python3", "node", "npx", "uvx", "uv", "bunx", "bun", "deno", "pipx", "sh", "bash"})


def _command_name(command: Sequence[str]) -> str:
    name = os.path.basename(command[0])
    if name in _LAUNCHERS or re.fullmatch(r"python3\.\d+", name):
        rest = [word for word in command[1:] if not word.startswith("-") and word not in ("run", "exec")]
        if rest:
            name = os.path.basename(rest[0].rstrip("/"))
    return os.path.splitext(name)[0]


class ToolGate:
    """Decides ``tools/call`` requests for one wrapped server (no SDK types inside)."""

    def __init__(self, server: str, cwd: str, guard: Any = None) -> None:
        from .wrap import _Guards

        self.server = server
        self.cwd = os.path.abspath(cwd)
        self.guards = _Guards(guard)
        #: Tools left out of the list, with the reason (refused if called anyway).
        self.withheld: dict[str, str] = {}
        #: Fingerprint of each tool's metadata when it was first listed.
        self.listed: dict[str, str] = {}
        #: Tools that passed screening: the only ones a call may name.
        self.screened: set[str] = set()

    def screen(self, tools: list[Any]) -> list[Any]:
        """The tools the client may see: poisoned ones, and ones whose description
        changed since they were first listed, are withheld (and reported on stderr)."""
        from ..injection.tools import is_poisoned, judge_tool, metadata_digest, summary

        kept = []
        names = [str(getattr(tool, "name", "")) for tool in tools]
        for name, tool in zip(names, tools, strict=True):
            # everything a client may put in front of the model: titles, description, schemas,
            # annotations (a readOnlyHint that flips is a change too) and metadata
            description = "\n".join(filter(None, (getattr(tool, "title", None), getattr(tool, "description", None))))
            schema = [_plain(getattr(tool, key, None)) for key in ("input_schema", "output_schema", "annotations", "meta")]
            digest = metadata_digest(description, schema)
            reason = None
            if names.count(name) > 1:
                reason = "the server lists more than one tool by that name"
            elif self.listed.setdefault(name, digest) != digest:
                reason = "its description changed after it was first listed"
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
                continue
            self.screened.discard(name)
            if name not in self.withheld:
                print(f"bastion: withheld MCP tool mcp__{self.server}__{name}: {reason}", file=sys.stderr, flush=True)
            self.withheld[name] = reason
        return kept

    def check(self, tool: str, arguments: dict[str, Any] | None) -> str | None:
        """``None`` when the call may go on, else the message to return as an error."""
        from .wrap import check_call

        if tool in self.withheld:
            return f"bastion denied mcp__{self.server}__{tool}: the tool is withheld because {self.withheld[tool]}"
        if tool not in self.screened:
            return f"bastion denied mcp__{self.server}__{tool}: the server's tool list has no tool by that name"
        call = ToolCall(f"mcp__{self.server}__{tool}", dict(arguments or {}), cwd=self.cwd, agent="mcp-proxy")
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
        from .results import scan_tool_result

        return scan_tool_result(ToolCall(f"mcp__{self.server}__{tool}", dict(arguments or {}), cwd=self.cwd), result)


def _plain(value: Any) -> Any:
    """An SDK model as plain data (dicts, lists, strings) for judging and fingerprints."""
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", exclude_none=True) if callable(dump) else value


async def serve(command: Sequence[str], gate: ToolGate) -> None:
    """Run the proxy until the client closes stdin."""
    import mcp_types as types
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    params = StdioServerParameters(command=command[0], args=list(command[1:]), env=dict(os.environ))
    async with stdio_client(params) as (up_read, up_write), ClientSession(up_read, up_write) as upstream:
        info = await upstream.initialize()

        async def list_tools(ctx: Any, params: Any) -> Any:
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
        async with stdio_server() as (read, write):
            await proxy.run(read, write, proxy.create_initialization_options())


def main(command: Sequence[str], *, name: str | None = None, cwd: str | None = None) -> int:
    """Entry point of ``bastion mcp-proxy``."""
    if not command:
        print("bastion: mcp-proxy needs the server command after --, e.g. "
              "bastion mcp-proxy --name files -- npx @modelcontextprotocol/server-filesystem .", file=sys.stderr)
        return 2
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        print("bastion: mcp-proxy needs the MCP SDK: pip install 'bastion-guard[mcp]'", file=sys.stderr)
        return 2
    try:
        gate = ToolGate(server_name(command, name), cwd or os.getcwd())
    except ValueError as exc:
        print(f"bastion: {exc}", file=sys.stderr)
        return 2
    try:
        anyio.run(serve, list(command), gate)
    except OSError as exc:
        print(f"bastion: cannot start MCP server {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
