"""Stage 2: code planted in a file that runs later is judged as if it ran now.

A shell startup file, a git hook, a crontab line or a service unit runs on its own
later, outside any check. So what a file tool writes there is read as the commands it
will become: ``Write ~/.bashrc`` holding ``curl … | sh`` is the download-and-run it
plants, a git hook holding a reverse shell is that reverse shell, and both are denied in
every mode, exactly like ``echo 'curl … | sh' >> ~/.bashrc`` (the shell analysis does
the same for echoed text). Writing a backdoor target (``authorized_keys``, sudoers,
``ld.so.preload``, passwd/shadow, PAM) is denied whatever the content, as in the shell;
any other file that runs later needs a person in every mode (an immune ask).

A shell command that writes literal text there (``echo … >> .gitlab-ci.yml``, ``cat >
.husky/pre-commit <<EOF``, ``tee``) is judged by that text the same way, and so is a
package.json script set from the shell (``npm pkg set scripts.postinstall='…'``, ``npm
set-script``): package.json is project code that runs when a command runs it, so a
harmless script keeps today's verdict (as a Write of package.json does) and only a
catastrophic one is denied, before it can be installed.

Which files run later, and how much (1: runs later, 2: a backdoor), is the path table
(``paths.table``, read through ``paths.match``); what a text becomes there is
``shell.meaning.planted``. This layer only reads them.
"""

from __future__ import annotations

from ..model import Finding, Kind, LayerResult, Tier, ToolCall, Verdict
from ..paths.match import persistence_level, planted_only

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..core.context import Context

_CONTENT_KEYS = ("content", "new_string", "new_source", "contents", "text")


def planted_text(call: ToolCall) -> str:
    """The text a file tool writes (Write's content, every Edit's new text)."""
    from .plants import MAX_CONTENT

    parts: list[str] = []
    for key in _CONTENT_KEYS:
        value = call.input.get(key)
        if isinstance(value, str):
            parts.append(value)
    edits = call.input.get("edits")
    if isinstance(edits, list):
        parts.extend(e["new_string"] for e in edits if isinstance(e, dict) and isinstance(e.get("new_string"), str))
    patch = call.patch
    if patch:  # Codex apply_patch: the lines it adds
        from .patch import patch_additions

        parts.extend(patch_additions(patch).values())
    return "\n".join(parts)[:MAX_CONTENT]


class RunsLater:
    """Stage 2/3: writes to files that run later, judged by what they plant."""

    name = "runs_later"
    stage = 2
    can_deny = True

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        kind = call.kind
        if kind not in (Kind.FILE_WRITE, Kind.FILE_EDIT, Kind.SHELL, Kind.MCP):
            return None
        home = ctx.home
        writes = [use.path for use in ctx.path_uses if use.op == "write"]
        targets = [(path, level) for path in writes if (level := persistence_level(path, home))]
        if (kind is Kind.SHELL or kind is Kind.MCP) and ctx.command:
            plain = [path for path in writes if planted_only(path, home)]
            found = _shell_plants()(ctx, [path for path, _ in targets] + plain)
            if found:
                return _deny(f"blocked: {found[0].message}", found)
        if not targets:
            if kind is Kind.FILE_WRITE or kind is Kind.FILE_EDIT:
                return _planted_only(call, ctx) or _named_setup(call, ctx)
            return None
        path, level = max(targets, key=lambda t: t[1])
        if kind is Kind.FILE_WRITE or kind is Kind.FILE_EDIT:
            from .plants import planted_hard_blocks

            text = planted_text(call)
            found = planted_hard_blocks(text, path, cwd=call.cwd, home=ctx.home, roots=ctx.workspace.roots) if text else []
            if found:
                return _deny(f"blocked: {found[0].message}", found)
            if level >= 2:
                from ..shell.catalog.intents import finding

                hit = finding("HB011", f"{call.canonical_tool} {path}")
                return _deny(f"blocked: {hit.message}", [hit])
        from .layers import ProtectedPaths

        protected = ProtectedPaths().check(call, ctx)
        if protected is not None and protected.immune:
            return None  # a protected file or folder: that layer asks, with its own reason
        return LayerResult(
            Verdict.ASK,
            f"writing {_shown(path, ctx.home)} needs approval in every mode: it runs later on its own "
            "(startup file, hook, scheduled job or service)",
            immune=True,
            risk=Tier.HIGH_RISK,
            no_grant=True,
        )


_SHELL_PLANTS: Callable[[Context, list[str]], list[Finding]] | None = None


def _shell_plants() -> Callable[[Context, list[str]], list[Finding]]:
    """``runs_later_shell.shell_plants``, imported on the first shell call (a file-only
    guard never needs it) and kept: an import statement on every call costs a lookup."""
    global _SHELL_PLANTS
    if _SHELL_PLANTS is None:
        from .runs_later_shell import shell_plants

        _SHELL_PLANTS = shell_plants
    return _SHELL_PLANTS


def _planted_only(call: ToolCall, ctx: Context) -> LayerResult | None:
    """A write to a file that runs later but is ordinary project code (a level-0 row):
    denied only when what it plants is catastrophic."""
    paths = [use.path for use in ctx.path_uses if use.op == "write" and planted_only(use.path, ctx.home)]
    text = planted_text(call) if paths else ""
    if not text:
        return None
    from .plants import planted_hard_blocks

    found = planted_hard_blocks(text, paths[0], cwd=call.cwd, home=ctx.home, roots=ctx.workspace.roots)
    return _deny(f"blocked: {found[0].message}", found) if found else None


def _named_setup(call: ToolCall, ctx: Context) -> LayerResult | None:
    """A script a jest/vitest config runs at every test run (``globalSetup`` …): a
    catastrophic plant there is denied; anything else is ordinary test code."""
    from .setup_files import naming_config

    for use in ctx.path_uses:
        if use.op != "write":
            continue
        config = naming_config(use.path, tuple(ctx.workspace.roots))
        if config is None:
            continue
        from ..shell.meaning.planted import run_line
        from .plants import command_hard_blocks

        text = planted_text(call)
        where = f"{use.path}, which {config.rpartition('/')[2]} runs at every test run"
        found = command_hard_blocks(run_line("node", text), where, cwd=call.cwd, home=ctx.home,
                                    roots=ctx.workspace.roots) if text.strip() else []
        if found:
            return _deny(f"blocked: {found[0].message}", found)
    return None


def _deny(reason: str, findings: list[Finding]) -> LayerResult:
    return LayerResult(Verdict.DENY, reason, immune=True, risk=Tier.DESTRUCTIVE, findings=findings, no_grant=True)


def _shown(path: str, home: str) -> str:
    return "~" + path[len(home):] if home and path.startswith(home.rstrip("/") + "/") else path
