"""The facts the engine composes: each from the provider of its kind.

``ToolFacts`` implements ``core.context.Facts`` by handing each fact to the module that
knows it — shell facts to ``shell.provider``, file facts to ``files.provider`` (which
asks ``mcp_args`` for an MCP call's paths), the session's grants to ``policy.grants`` —
importing each only when a call first needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core.context import Context, PathUse
    from .files.workspace import Workspace
    from .shell.meaning.analyse import Analysis
    from .shell.syntax.script import Script, SimpleCommand, TooComplex


class ToolFacts:
    """The default ``Facts``: every provider bastion has."""

    def workspace(self, ctx: Context) -> Workspace:
        from .files.provider import workspace

        return workspace(ctx)

    def command(self, ctx: Context) -> str | None:
        from .shell.provider import command

        return command(ctx)

    def parsed(self, ctx: Context) -> Script | TooComplex | None:
        from .shell.provider import parsed

        return parsed(ctx)

    def analysis(self, ctx: Context) -> Analysis | None:
        from .shell.provider import analysis

        return analysis(ctx)

    def path_uses(self, ctx: Context) -> list[PathUse]:
        from .files.provider import path_uses

        return path_uses(ctx)

    def paths_of(self, ctx: Context, cmd: SimpleCommand) -> list[PathUse]:
        from .files.provider import uses_of
        from .shell.provider import accesses_of

        return [use for access in accesses_of(ctx, cmd) for use in uses_of(ctx, access)]

    def resolve(self, ctx: Context, raw: str, cwd: str) -> str:
        from .files.provider import resolve

        return resolve(ctx, raw, cwd)

    def session_grants(self, ctx: Context) -> frozenset[str]:
        if not ctx.call.session_id:
            return frozenset()
        from .policy.grants import session_grants

        return session_grants(ctx.call.session_id, env=ctx.env)
