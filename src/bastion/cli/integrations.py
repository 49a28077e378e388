"""``bastion hook``, ``install``, ``uninstall`` and ``mcp-proxy``: bastion inside the
agents people use.

``bastion hook`` never reaches argparse (``cli.main`` hands it to ``hook.client`` first,
for speed); it is registered here only so that ``bastion --help`` lists it.
"""

from __future__ import annotations

import sys
from typing import Any

from ..hook import CLIENTS

CLIENT_NAMES = tuple(CLIENTS)


def add_parsers(sub: Any) -> None:
    hook = sub.add_parser("hook", help="answer one client hook call (JSON on stdin, JSON on stdout)")
    hook.add_argument("client", choices=CLIENT_NAMES)
    for verb, text in (("install", "add bastion's hook to a client's settings"),
                       ("uninstall", "remove bastion's hook from a client's settings")):
        parser = sub.add_parser(verb, help=text)
        parser.add_argument("client", choices=CLIENT_NAMES)
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument("--user", dest="scope", action="store_const", const="user",
                           help="the user's settings (default)")
        scope.add_argument("--project", dest="scope", action="store_const", const="project",
                           help="this project's settings, safe to commit (runs the bastion command on PATH)")
        scope.add_argument("--local", dest="scope", action="store_const", const="local",
                           help="this project, for you only: Claude Code's .claude/settings.local.json")
        parser.set_defaults(scope="user")
        if verb == "install":
            parser.add_argument("--accept-edits", action="store_true",
                                help="Codex, Gemini CLI: let ordinary edits inside the project through "
                                     "(they cannot ask; bastion's defaultMode acceptEdits)")
            parser.add_argument("--trust", action="store_true",
                                help="Codex: trust the hook as /hooks in codex does (Codex skips untrusted hooks)")
    proxy = sub.add_parser("mcp-proxy", help="guard an MCP server: bastion mcp-proxy [--name NAME] -- COMMAND...")
    proxy.add_argument("--name", help="server name in rules (mcp__NAME__tool); default: the command's name")
    proxy.add_argument("--cwd", help="project directory whose settings apply (default: the current one)")
    proxy.add_argument("server", nargs="*", metavar="COMMAND", help="the MCP server command, after --")


def dispatch(args: Any) -> int:
    if args.verb in ("install", "uninstall"):
        from ..adapters.install import InstallError, install, uninstall

        try:
            if args.verb == "install":
                result = install(args.client, args.scope, accept_edits=args.accept_edits, trust=args.trust)
            else:
                result = uninstall(args.client, args.scope)
        except InstallError as exc:
            print(f"bastion: {exc}", file=sys.stderr)
            return 2
        print(result.message)
        return 0
    if args.verb == "mcp-proxy":
        from ..adapters.mcp_proxy import main as proxy_main

        return proxy_main(args.server, name=args.name, cwd=args.cwd)
    raise ValueError(f"unknown command {args.verb}")
