"""Shell facts for the Context: the command a call runs, its parse, its analysis, and
the path accesses of one sub-command.

The parse and the analysis are computed once per call (the Context memoises them) and
shared by every layer, the suggestions and the explainer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Kind

if TYPE_CHECKING:
    from ..core.context import Context
    from .meaning.analyse import Analysis
    from .meaning.paths import PathAccess
    from .syntax.script import Script, SimpleCommand, TooComplex


def command(ctx: Context) -> str | None:
    """A shell tool's command, or the one an MCP tool's arguments carry."""
    if ctx.call.kind is Kind.MCP:
        from ..mcp_args import shell_command

        return shell_command(ctx.call)
    return ctx.call.command


def parsed(ctx: Context) -> Script | TooComplex | None:
    text = ctx.command
    if text is None:
        return None
    from .syntax.parse import parse

    return parse(text)


def analysis(ctx: Context) -> Analysis | None:
    script = ctx.parsed
    if script is None:
        return None
    from .meaning.analyse import analyse

    return analyse(script, cwd=ctx.call.run_dir, home=ctx.home, workspace_roots=ctx.workspace.roots)


def accesses_of(ctx: Context, cmd: SimpleCommand) -> list[PathAccess]:
    """The files one sub-command names, lexically resolved against where it runs."""
    from .meaning.paths import extract_paths

    return extract_paths(cmd, cwd=ctx.call.run_dir, home=ctx.home)
