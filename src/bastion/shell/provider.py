"""Shell facts for the Context: the command a call runs, its parse, its analysis, and
the path accesses of one sub-command.

The parse and the analysis are computed once per call (the Context memoises them) and
shared by every layer, the suggestions and the explainer.
"""

from __future__ import annotations

import sys

from ..model import Kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from ..core.context import Context
    from .meaning.analyse import Analysis
    from .meaning.paths import PathAccess
    from .syntax.script import Script, SimpleCommand, TooComplex


def command(ctx: Context) -> str | None:
    """A shell tool's command, or the one an MCP tool's arguments carry."""
    call = ctx.call
    if call.kind is Kind.MCP:
        from ..mcp_args import shell_command

        return shell_command(call)
    return call.command


# The parser, the analyser and the path extractor load on the first call that needs
# them (a guard that only sees file tools never does) and their modules are kept here
# after: an import statement run on every call costs a module lookup each time. Each
# function is read from its module when called, as an import statement would.
_modules: dict[str, ModuleType] = {}


def _module(name: str) -> ModuleType:
    module = _modules.get(name)
    if module is None:
        full = f"{__package__}.{name}"
        __import__(full)
        module = _modules[name] = sys.modules[full]
    return module


def parsed(ctx: Context) -> Script | TooComplex | None:
    text = ctx.command
    if text is None:
        return None
    parse: Callable[[str], Script | TooComplex] = _module("syntax.parse").parse
    return parse(text)


def analysis(ctx: Context) -> Analysis | None:
    script = ctx.parsed
    if script is None:
        return None
    analyse: Callable[..., Analysis] = _module("meaning.analyse").analyse
    return analyse(script, cwd=ctx.call.run_dir, home=ctx.home, workspace_roots=ctx.workspace.roots)


def accesses_of(ctx: Context, cmd: SimpleCommand) -> list[PathAccess]:
    """The files one sub-command names, lexically resolved against where it runs."""
    extract_paths: Callable[..., list[PathAccess]] = _module("meaning.paths").extract_paths
    return extract_paths(cmd, cwd=ctx.call.run_dir, home=ctx.home)
