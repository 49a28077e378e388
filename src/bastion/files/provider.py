"""File facts for the Context: the workspace, the files a call touches, and paths
resolved as the call means them.

For a shell call the files come from the shell analysis (``shell.provider``, through the
Context); for an MCP call from its arguments (``mcp_args``) and then from the command
they carry; for a patch from the patch's changes; for file and search tools from the
call's paths.
"""

from __future__ import annotations

from ..core.context import PathUse
from ..model import Kind
from .workspace import Workspace, resolve_folder, resolve_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..core.context import Context
    from ..shell.meaning.paths import PathAccess

#: A glob matching more files than this is judged on the first ones (and asks anyway
#: for writes outside the workspace or to protected files among them).
MAX_GLOB_MATCHES = 64

#: What each file tool does to the paths it names.
_OPS = {Kind.FILE_READ: "read", Kind.SEARCH: "read", Kind.FILE_WRITE: "write", Kind.FILE_EDIT: "write"}


def workspace(ctx: Context) -> Workspace:
    extra = tuple(ctx.policy.additional_directories) + tuple(ctx.add_dirs)
    base, known = resolve_folder(ctx.call.cwd, home=ctx.home)
    # the call's folder, resolved now: paths inside it start from there
    ctx.once("known_folder", lambda: known)
    return Workspace.around(base, extra, home=ctx.home)


def resolve(ctx: Context, raw: str, cwd: str) -> str:
    """A path as the call means it: absolute, ``~`` expanded, symlinks resolved — once
    per call for each path and folder (the file system does not change while a call is
    judged; several layers ask for the same paths)."""
    resolved: dict[tuple[str, str], str] = ctx.once("resolved_paths", dict)
    path = resolved.get((raw, cwd))
    if path is None:
        # The workspace first: the file checks need it for any path anyway, and resolving
        # the call's folder leaves the known folder that paths inside it start from.
        ctx.workspace  # noqa: B018 - computed for its memo
        path = resolved[raw, cwd] = resolve_path(raw, cwd=cwd, home=ctx.home, known=ctx.known("known_folder"))
    return path


def path_uses(ctx: Context) -> list[PathUse]:
    """Files the call reads or writes, resolved through symlinks."""
    call = ctx.call
    uses: list[PathUse] = []
    kind = call.kind
    if kind is Kind.SHELL or kind is Kind.MCP:
        if kind is Kind.MCP:  # the files its arguments name, then its command's
            from ..mcp_args import path_arguments

            for what, raw in path_arguments(call):
                uses.append(PathUse(what, resolve(ctx, raw, call.cwd), raw))
        analysis = ctx.analysis
        if analysis is not None:
            for access in analysis.paths:
                uses.extend(uses_of(ctx, access))
        return uses
    patch = call.patch
    if patch is not None:  # Codex apply_patch: each file with what the patch does to it
        from .patch import patch_changes

        for what, raw in patch_changes(patch):
            uses.append(PathUse(what, resolve(ctx, raw, call.cwd), raw))
        return uses
    op: str | None = _OPS.get(kind, "read" if call.spec.uri_keys else None)  # an MCP resource read
    if op is None:
        return uses
    raw_paths = call.paths or ([call.cwd] if kind is Kind.SEARCH else [])
    for raw in raw_paths:
        uses.append(PathUse(op, resolve(ctx, raw, call.cwd), raw))
    return uses


def uses_of(ctx: Context, access: PathAccess) -> list[PathUse]:
    """A shell path access resolved; a glob (``.gi*/config``) also stands for every
    file it matches here, as the shell would expand it."""
    run_dir = ctx.call.run_dir
    written = access.resolved
    uses = [PathUse(access.op, resolve(ctx, written, run_dir), access.path, access.command)]
    if "*" in written or "?" in written or "[" in written:
        for match in _glob_matches(written):
            uses.append(PathUse(access.op, resolve(ctx, match, run_dir), access.path, access.command))
    return uses


def _glob_matches(pattern: str) -> list[str]:
    """What a shell glob would expand to: the files it matches, plus — when only the
    folder part is a glob (``.g?t/hooks/new``) — the named file in each matching folder."""
    import glob
    import os.path

    matches = glob.glob(pattern)[:MAX_GLOB_MATCHES]
    folder, name = os.path.split(pattern)
    if name and not any(ch in name for ch in "*?["):
        matches += [os.path.join(d, name) for d in glob.glob(folder)[:MAX_GLOB_MATCHES]]
    return matches
