"""The facts the engine composes: each from the provider of its kind.

``ToolFacts`` implements ``core.context.Facts`` by handing each fact to the module that
knows it — shell facts to ``shell.provider``, file facts to ``files.provider`` (which
asks ``mcp_args`` for an MCP call's paths), the session's grants to ``policy.grants``.
The two providers import little themselves (the parser and the analyser load when a call
first needs them), so they are imported here once, not on every question.
"""

from __future__ import annotations

from .files import provider as files
from .shell import provider as shell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .core.context import Context, PathUse
    from .files.workspace import Workspace
    from .shell.meaning.analyse import Analysis
    from .shell.syntax.script import Script, SimpleCommand, TooComplex


class ToolFacts:
    """The default ``Facts``: every provider bastion has."""

    def workspace(self, ctx: Context) -> Workspace:
        return files.workspace(ctx)

    def command(self, ctx: Context) -> str | None:
        return shell.command(ctx)

    def parsed(self, ctx: Context) -> Script | TooComplex | None:
        return shell.parsed(ctx)

    def analysis(self, ctx: Context) -> Analysis | None:
        return shell.analysis(ctx)

    def path_uses(self, ctx: Context) -> list[PathUse]:
        return files.path_uses(ctx)

    def paths_of(self, ctx: Context, cmd: SimpleCommand) -> list[PathUse]:
        return [use for access in shell.accesses_of(ctx, cmd) for use in files.uses_of(ctx, access)]

    def resolve(self, ctx: Context, raw: str, cwd: str) -> str:
        return files.resolve(ctx, raw, cwd)

    def session_grants(self, ctx: Context) -> frozenset[str]:
        if not ctx.call.session_id:
            return frozenset()
        from .policy.grants import session_grants

        return session_grants(ctx.call.session_id, env=ctx.env)
