"""The file layers: dangerous removals (2), protected paths (3), the workspace
boundary and sensitive targets (6). They see every path a call touches — a file tool's
path or the files a shell command reads, writes and deletes — and, for shell commands,
what a copy or an extraction puts in place (``files.landing``): a protected name among
those is a protected-paths ask (FS007), a source that cannot be listed a boundary ask
(FS008)."""

from __future__ import annotations

from ..model import Kind, LayerResult, Tier, ToolCall, Verdict
from .check import check_access
from .env_templates import made_from_templates
from .protected import ProtectionConfig

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..core.context import Context


def _config(ctx: Context) -> ProtectionConfig:
    """The ``files`` settings, read once per call (the path and landing verdicts both need them)."""
    return ctx.once("protection_config", lambda: ProtectionConfig.cached(ctx.policy.section("files") or {}, env=ctx.env))


def _verdicts(ctx: Context) -> list[Any]:
    """Every path's verdicts, worked out by the first of the three layers that asks."""
    found: list[Any] | None = ctx.known("path_verdicts")
    if found is None:
        found = ctx.once("path_verdicts", lambda: _path_verdicts(ctx))
    return found


def _path_verdicts(ctx: Context) -> list[Any]:
    config = _config(ctx)
    found = []
    uses = ctx.path_uses
    kind = ctx.call.kind
    templated = made_from_templates(ctx) if uses and kind is Kind.SHELL else frozenset()
    if uses:
        workspace, home = ctx.workspace, ctx.home
        for use in uses:
            verdicts = check_access(use.op, use.path, workspace=workspace, home=home, config=config)
            if use.path in templated:  # ``cp .env.example .env.local``: placeholders, nothing replaced
                verdicts = [v for v in verdicts if v.code != "FS004"]
            found.extend(verdicts)
    if kind is Kind.SEARCH:  # Grep and Glob over a credential store are judged like Read
        from .search import search_verdicts

        roots = [use.path for use in ctx.path_uses]
        found.extend(search_verdicts(ctx.call, roots, workspace=ctx.workspace, home=ctx.home, config=config))
    return found


#: Protected paths named per landing before the judge stops looking (the first is the reason).
_LANDING_HITS = 3


def _landing_verdicts(ctx: Context) -> list[Any]:
    """What copies and extractions put in place (``files.landing``), judged like any
    write: a protected path or credential store (``check_access``'s immune verdicts) or
    a file that runs later (``shell.meaning.targets``) is an immune FS007 ask naming it; a
    source that cannot be listed is an ordinary FS008 ask."""
    known: list[Any] | None = ctx.known("landing_verdicts")  # the second of the two layers that ask
    if known is not None:
        return known

    def build() -> list[Any]:
        parsed = ctx.parsed
        if parsed is None or not parsed.commands:
            return []
        found = _landings()(parsed.commands, cwd=ctx.call.run_dir, home=ctx.home, source=ctx.command or "",
                         complex_=bool(parsed.complex))
        if not found:
            return []
        from ..shell.meaning.targets import persistence_level
        from .check import PathVerdict, _show
        from .landing import Unlistable

        config = _config(ctx)
        out: list[Any] = []
        for landing in found:
            hits = 0
            seen: set[str] = set()
            try:
                for path in landing.targets:
                    if path in seen:
                        continue
                    seen.add(path)
                    why = next((v.reason for v in check_access("write", path, workspace=ctx.workspace, home=ctx.home,
                                                               config=config) if v.immune), None)
                    if why is None and persistence_level(path, ctx.home):
                        why = (f"writing {_show(path, ctx.home)} needs approval in every mode: it runs later on its "
                               "own (startup file, hook, scheduled job or service)")
                    if why is not None:
                        out.append(PathVerdict("ask", True, "FS007", f"{why} — `{landing.label}` would put it there", path))
                        hits += 1
                        if hits >= _LANDING_HITS:
                            break
            except Exception as exc:  # noqa: BLE001 - a lister that fails has not listed: ask
                why = str(exc) if isinstance(exc, Unlistable) else f"listing it failed: {type(exc).__name__}"
                if not hits:
                    out.append(PathVerdict("ask", False, "FS008", f"`{landing.label}` needs approval: what it puts in "
                                           f"place cannot be listed ({why})", ctx.call.run_dir))
        return out

    return ctx.once("landing_verdicts", build)


_LANDINGS: Any = None


def _landings() -> Any:
    """``landing.landings``, imported on the first shell call and kept: an import
    statement there would cost a module lookup on every call."""
    global _LANDINGS
    if _LANDINGS is None:
        from .landing import landings

        _LANDINGS = landings
    return _LANDINGS


def _result(verdicts: list[Any], verdict: Verdict, *, immune: bool, risk: Tier | None = None) -> LayerResult:
    first = verdicts[0]
    extra = f" (and {len(verdicts) - 1} more)" if len(verdicts) > 1 else ""
    from ..model import Finding, Severity

    findings = [Finding(v.code, Severity.HIGH if v.immune else Severity.MEDIUM, v.reason) for v in verdicts]
    return LayerResult(
        verdict,
        first.reason + extra,
        immune=immune,
        risk=risk,
        findings=findings,
        no_grant=any(v.no_grant for v in verdicts),
    )


class RemovalTargets:
    """Layer 2: deleting ``/``, ``~``, system folders or the workspace root is blocked."""

    name = "removal_targets"
    stage = 2
    can_deny = True

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        denies = [v for v in _verdicts(ctx) if v.verdict == "deny" and not _left_in_place(v.path, ctx)]
        return _result(denies, Verdict.DENY, immune=True, risk=Tier.DESTRUCTIVE) if denies else None


def _left_in_place(path: str, ctx: Context) -> bool:
    """Every use of ``path`` is a delete that cannot remove the folder there (``rm /``,
    ``rm -- -rf /``): it fails, so it is judged later as an ordinary delete."""
    parsed = ctx.parsed
    uses = [use for use in ctx.path_uses if use.path == path]
    if parsed is None or not uses:
        return False
    from .folder_deletes import leaves_folder

    return all(leaves_folder(use, parsed.commands, ctx.home) for use in uses)


class ProtectedPaths:
    """Layer 3: protected files and folders (``.git``, shell startup files, bastion's own
    settings) and credential stores ask in every mode.

    One narrowing (spec 002 §12.7): edits of a skill's own files
    (``.claude/skills/NAME/…``) suggest ``Edit(/.claude/skills/NAME/**)``, and an allow
    rule scoped that narrowly — it covers the skill and nothing else of ``.claude`` —
    lets the allow-rule layer decide instead of asking again.
    """

    name = "protected_paths"
    stage = 3
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        asks = [v for v in _verdicts(ctx) if v.verdict == "ask" and v.immune]
        if call.kind in (Kind.SHELL, Kind.MCP):
            asks.extend(v for v in _landing_verdicts(ctx) if v.immune)
        if not asks:
            return None
        scopes = [_skill_scope(v, ctx) for v in asks]
        if all(scopes):
            if _skill_rule_covers(asks, ctx):
                return None
            result = _result(asks, Verdict.ASK, immune=True)
            result.suggestions = sorted(set(scopes))  # type: ignore[arg-type]
            return result
        return _result(asks, Verdict.ASK, immune=True)


def _skill_dir(path: str, root: str) -> str | None:
    """``<root>/.claude/skills/NAME`` when ``path`` is a file inside a skill."""
    parts = path[len(root):].strip("/").split("/") if path.startswith(root.rstrip("/") + "/") else []
    if len(parts) >= 4 and parts[0].lower() == ".claude" and parts[1].lower() == "skills":
        return "/".join([root.rstrip("/"), *parts[:3]])
    return None


def _skill_scope(verdict: Any, ctx: Context) -> str | None:
    """The skill-scoped rule to suggest for a protected *edit* inside a skill, or None."""
    from .check import suggest_edit_scope

    if verdict.code != "FS002" or ctx.call.kind.value not in ("file_write", "file_edit"):
        return None
    root = ctx.workspace.project_root
    if _skill_dir(verdict.path, root) is None:
        return None
    return suggest_edit_scope(verdict.path, project_root=root)


def _skill_rule_covers(asks: list[Any], ctx: Context) -> bool:
    """An allow rule covers every skill file asked about, and is narrow: it matches no
    other part of ``.claude`` (settings, hooks, another skill)."""
    root = ctx.workspace.project_root.rstrip("/")
    probes = (f"{root}/.claude/settings.json", f"{root}/.claude/hooks/x", f"{root}/.claude/skills/~other~/SKILL.md")
    for rule in ctx.policy.rules_for("allow"):
        if rule.content is None or rule.tool not in ("Edit", "Write") or not rule.applies_to(ctx.call):
            continue
        if any(rule.matches_path(probe, home=ctx.home) for probe in probes):
            continue
        if all(rule.matches_path(v.path, home=ctx.home) for v in asks):
            return True
    return False


class PathBoundary:
    """Layer 6: writes outside the workspace and sensitive targets ask."""

    name = "path_boundary"
    stage = 6
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        asks = [v for v in _verdicts(ctx) if v.verdict == "ask" and not v.immune]
        if call.kind in (Kind.SHELL, Kind.MCP):
            asks.extend(v for v in _landing_verdicts(ctx) if not v.immune)
        return _result(asks, Verdict.ASK, immune=False) if asks else None
