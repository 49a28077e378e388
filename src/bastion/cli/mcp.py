"""``bastion mcp trust|pins|forget``: the person's side of pinned MCP tool descriptions.

``bastion mcp-proxy`` pins each tool's description the first time it lets the tool
through and withholds a tool whose description later differs (``injection.pins``).
Accepting the new description is a person's decision, made here, never by the agent's
own tool calls (the state folder is bastion's, which the guard protects).
"""

from __future__ import annotations

import sys
from typing import Any


def add_parsers(sub: Any) -> None:
    mcp = sub.add_parser("mcp", help="pinned MCP tool descriptions: trust, pins, forget")
    verbs = mcp.add_subparsers(dest="mcp_command", metavar="COMMAND")
    trust = verbs.add_parser("trust", help="accept the changed tool descriptions a server now shows")
    trust.add_argument("server", help="the server name (mcp__NAME__tool)")
    trust.add_argument("tools", nargs="*", help="only these tools (default: every changed one)")
    pins = verbs.add_parser("pins", help="show pinned tools and changes waiting for acceptance")
    pins.add_argument("server", nargs="?", help="only this server")
    forget = verbs.add_parser("forget", help="drop a server's pins (its next listing is trusted on first use)")
    forget.add_argument("server")


def dispatch(args: Any) -> int:
    from ..injection import pins

    command = getattr(args, "mcp_command", None)
    try:
        if command == "trust":
            accepted = pins.trust(args.server, list(args.tools) or None)
            if not accepted:
                print(f"bastion: no changed tool description of {args.server} is waiting"
                      f"{' for ' + ', '.join(args.tools) if args.tools else ''}", file=sys.stderr)
                return 1
            for tool, text in accepted:
                shown = " ".join(text.split())
                print(f"trusted mcp__{args.server}__{tool}: {shown[:200]}{'…' if len(shown) > 200 else ''}")
            print("the client sees the tools at its next listing (reconnect the server or start a new session)")
            return 0
        if command == "pins":
            return _show(pins.servers(), args.server)
        if command == "forget":
            if pins.forget(args.server):
                print(f"forgot the pinned tools of {args.server}")
                return 0
            print(f"bastion: no pinned tools for {args.server}", file=sys.stderr)
            return 1
    except pins.Unreadable as exc:
        print(f"bastion: cannot read the pinned tool descriptions: {exc}", file=sys.stderr)
        return 1
    print("usage: bastion mcp {trust,pins,forget} ...", file=sys.stderr)
    return 2


def _show(servers: dict[str, dict[str, Any]], only: str | None) -> int:
    shown = {name: entry for name, entry in servers.items() if only is None or name == only}
    if not shown:
        print("no pinned MCP tools" + (f" for {only}" if only else ""))
        return 0
    for name, entry in sorted(shown.items()):
        tools = entry.get("tools")
        pending = entry.get("pending")
        tools = tools if isinstance(tools, dict) else {}
        pending = pending if isinstance(pending, dict) else {}
        print(f"{name}: {len(tools)} pinned" + (f", {len(pending)} changed (bastion mcp trust {name})" if pending else ""))
        for tool in sorted(pending):
            item = pending[tool] if isinstance(pending[tool], dict) else {}
            text = " ".join(str(item.get("text") or "").split())
            print(f"  changed {tool}: {text[:200]}")
    return 0
