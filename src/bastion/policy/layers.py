"""The layers that come from settings: deny rules (1), ask rules (3), plugin guards,
the permission mode (4) and allow rules with grants (5).

Rules name canonical tools, so ``Bash(npm test:*)`` governs Claude Code's ``Bash``,
Codex's ``exec_command`` and Gemini's ``run_shell_command`` alike. For shell calls a deny
or ask rule matches if it matches the whole command or **any** sub-command; an allow
rule covers a call only if it covers **every** sub-command.
"""

from __future__ import annotations

from ..files.patch import PATCH_COMMANDS
from ..model import Kind, LayerResult, Mode, Source, Tier, ToolCall, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ..core.context import Context

#: Calls whose files are read out of their input (a shell command's, an MCP tool's
#: arguments): ``Read(...)`` and ``Edit(...)`` rules see those files too.
_FACT_KINDS = frozenset({Kind.SHELL, Kind.MCP})
_READ_OPS = frozenset({"read"})
_WRITE_OPS = frozenset({"write", "delete"})
#: File-operation commands that ``acceptEdits`` lets through inside the workspace (002 §12.2),
#: with a patch applier (``apply_patch``: its files are read from its patch) and ``cd``
#: (Codex's ``cd DIR && apply_patch``; every path, the one ``cd`` enters too, must be inside).
ACCEPT_EDITS_COMMANDS = frozenset({"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed", "cd"}) | PATCH_COMMANDS


def _shell_commands(ctx: Context) -> tuple[Any, ...]:
    parsed = ctx.parsed
    return tuple(parsed.commands) if parsed is not None else ()


def _matching_rule(rules: Iterable[Any], call: ToolCall, ctx: Context) -> Any | None:
    """The first rule that matches the call anywhere (whole call, a sub-command, or a
    file the call touches) — the test for deny and ask rules."""
    for rule in rules:
        if not rule.applies_to(call):
            if rule.content is not None and rule.tool in ("Read", "Edit", "Write") and call.kind in _FACT_KINDS:
                if _path_rule_hits(rule, ctx):
                    return rule
            elif rule.tool == "Bash" and call.kind is Kind.MCP and ctx.command is not None:
                if rule.content is None or _command_hits(rule, ctx.command, ctx):
                    return rule  # an MCP tool's shell command meets the Bash rules
            continue
        if rule.content is None:
            return rule
        if call.kind is Kind.SHELL:
            if _command_hits(rule, call.command or "", ctx):
                return rule
            continue
        if _path_rule_hits(rule, ctx) or rule.matches(call, home=ctx.home):
            return rule
    return None


def _command_hits(rule: Any, command: str, ctx: Context) -> bool:
    """A Bash rule matches the whole command or any spelling of a sub-command."""
    from ..shell.syntax.forms import deny_forms

    if rule.matches_command(command) or rule.matches_command(" ".join(command.split())):
        return True
    return any(rule.matches_command(form) for cmd in _shell_commands(ctx) for form in deny_forms(cmd))


def _path_rule_hits(rule: Any, ctx: Context) -> bool:
    """``Read(...)`` rules see every read, ``Edit(...)``/``Write(...)`` every write or
    delete — from file tools and from shell commands alike."""
    if rule.content is None or rule.tool not in ("Read", "Edit", "Write", "Glob", "Grep"):
        return False
    ops = _READ_OPS if rule.tool in ("Read", "Glob", "Grep") else _WRITE_OPS
    return any(use.op in ops and _hits(rule, use.path, ctx.home) for use in ctx.path_uses)


def _hits(rule: Any, path: str, home: str) -> bool:
    """A rule hits a path, or — for a folder that is searched, archived or copied whole —
    anything inside it (``Read(./secrets/**)`` stops ``grep -r key secrets``)."""
    import os.path

    if rule.matches_path(path, home=home):
        return True
    return os.path.isdir(path) and rule.matches_path(path.rstrip("/") + "/_", home=home)


class DenyRules:
    """Layer 1: deny rules from every settings source. Nothing can lift them."""

    name = "deny_rules"
    stage = 1
    can_deny = True

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if not ctx.policy.rules:  # most setups: no rule to look through
            return None
        rule = _matching_rule(ctx.policy.rules_for("deny"), call, ctx)
        if rule is None:
            return None
        where = f" ({rule.origin})" if rule.origin else ""
        return LayerResult(
            Verdict.DENY, f"denied by rule {rule.text}{where}", immune=True, source=Source.CONFIG
        )


class AskRules:
    """Layer 3: ask rules force a prompt in every mode, even ``bypassPermissions``."""

    name = "ask_rules"
    stage = 3
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if not ctx.policy.rules:
            return None
        rule = _matching_rule(ctx.policy.rules_for("ask"), call, ctx)
        if rule is None:
            return None
        where = f" ({rule.origin})" if rule.origin else ""
        return LayerResult(Verdict.ASK, f"rule {rule.text}{where} asks for approval", immune=True, source=Source.CONFIG)


class PluginGuards:
    """Plugin guards from ``guards/`` folders. In the ``restrict`` phase (after the
    built-in checks) their deny and ask patterns apply; in the ``allow`` phase (next to
    the allow rules, after the mode) their allow patterns do.

    A plugin's ask is its author asking for a person each time, as an ask rule or a
    Claude Code PreToolUse hook answering "ask" does: it runs before grants and allow
    rules are read, so it offers no session or "always" grant (the engine's rule for
    every ask from before ``allow_rules``). To stop it asking, change the guard file."""

    can_deny = True

    def __init__(self, phase: str) -> None:
        self.phase = phase
        self.name = f"plugins_{phase}"
        self.stage = 3 if phase == "restrict" else 5
        self.can_deny = phase == "restrict"

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        if not ctx.policy.plugins:  # most setups have none: nothing to evaluate, no parse needed
            return None
        if self.phase == "allow" and call.kind is Kind.SHELL:
            return self._allow_shell(call, ctx)
        wanted = ("deny", "ask") if self.phase == "restrict" else ("allow",)
        # deny and ask patterns see the whole command and every sub-command
        # (`cd x && docker run` is caught by `^docker`)
        commands: list[str | None] = [None]
        if call.kind is Kind.SHELL and self.phase == "restrict" and ctx.policy.plugins:
            from ..shell.syntax.forms import deny_forms

            commands += [form for cmd in _shell_commands(ctx) for form in deny_forms(cmd)]
        strongest: tuple[str, str, str] | None = None
        for guard in ctx.policy.plugins:
            for command in commands:
                hit = guard.evaluate(call, command=command)
                if hit is None or hit[0] not in wanted:
                    continue
                verdict, reason = hit
                if strongest is None or wanted.index(verdict) < wanted.index(strongest[0]):
                    strongest = (verdict, reason, guard.id)
        if strongest is None:
            return None
        verdict, reason, guard_id = strongest
        return LayerResult(Verdict(verdict), f"{reason} (guard {guard_id})", source=Source.CONFIG)


    def _allow_shell(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        """Like an allow rule, a plugin's allow pattern must cover **every** sub-command
        (``frob; git push --force`` is not covered by ``^frob\b``), each writing only
        inside the workspace."""
        from ..shell.syntax.forms import allow_form

        parsed = ctx.parsed
        if parsed is None or parsed.complex or not parsed.commands:
            return None
        workspace = ctx.workspace
        ids: list[str] = []
        for cmd in parsed.commands:
            form = allow_form(cmd)
            if form is None or any(u.op in _WRITE_OPS and not workspace.contains(u.path) for u in ctx.paths_of(cmd)):
                return None
            hit = next(
                ((guard.id, hit[1]) for guard in ctx.policy.plugins
                 if (hit := guard.evaluate(call, command=form)) is not None and hit[0] == "allow"),
                None,
            )
            if hit is None:
                return None
            ids.append(hit[0])
        return LayerResult(Verdict.ALLOW, f"allowed by guard {', '.join(dict.fromkeys(ids))}", source=Source.CONFIG)


class ModeLayer:
    """Layer 4: the permission mode. Runs after deny rules and safety asks, so
    ``bypassPermissions`` can never skip them (002 §12.4).

    Plan mode's ask is the mode's own restriction ("look, don't change"): a grant must
    not silently lift it, and none is offered (it runs before grants are read); leaving
    plan mode lifts it."""

    name = "mode"
    stage = 4
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        mode = ctx.mode
        if mode is Mode.BYPASS:
            return LayerResult(Verdict.ALLOW, "bypassPermissions mode allows it", source=Source.MODE)
        if mode is Mode.PLAN:
            if _is_read_only(call, ctx):
                return None
            return LayerResult(
                Verdict.ASK, "plan mode: only read-only calls run without approval", source=Source.MODE
            )
        if mode is Mode.ACCEPT_EDITS and _is_workspace_edit(call, ctx):
            return LayerResult(Verdict.ALLOW, "acceptEdits mode allows edits inside the workspace", source=Source.MODE)
        return None


def _is_read_only(call: ToolCall, ctx: Context) -> bool:
    if call.kind is Kind.SHELL:
        analysis, parsed = ctx.analysis, ctx.parsed
        return analysis is not None and parsed is not None and not parsed.complex and analysis.tier is Tier.READ_ONLY
    return call.tier is Tier.READ_ONLY


def _is_workspace_edit(call: ToolCall, ctx: Context) -> bool:
    workspace = ctx.workspace
    if call.kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
        uses = ctx.path_uses
        return bool(uses) and all(workspace.contains(use.path) for use in uses)
    if call.kind is Kind.SHELL:
        parsed = ctx.parsed
        if parsed is None or parsed.complex or not parsed.commands:
            return False
        if any((cmd.name not in ACCEPT_EDITS_COMMANDS or cmd.wrappers) and not _feeds_only(cmd) for cmd in parsed.commands):
            return False
        analysis = ctx.analysis
        if analysis is None or analysis.unknown:  # e.g. a patch piped in: the files it changes are not known
            return False
        return all(workspace.contains(use.path) for use in ctx.path_uses)
    return False


def _feeds_only(cmd: Any) -> bool:
    """A here-document the parser hung on a whole list (``cd d && apply_patch <<'EOF'``):
    no program, only input for the command beside it."""
    return not cmd.argv and not cmd.assignments and bool(cmd.redirects) and all(
        r.op in ("<<", "<<-") for r in cmd.redirects)


class AllowRules:
    """Layer 5: allow rules, plugin allows and grants. For shell, every sub-command must
    be covered by an allow rule, and a ``cd`` must stay inside the workspace."""

    name = "allow_rules"
    stage = 5
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        grant_key = _grant_key()
        kind = call.kind
        if kind is Kind.SHELL:
            grants = ctx.session_grants  # a command's key is worked out only when there are grants to look in
            if grants and grant_key(call, " ".join((call.command or "").split())) in grants:
                return LayerResult(Verdict.ALLOW, "allowed for this session", source=Source.USER_TEMPORARY)
        elif grant_key(call) in ctx.session_grants:
            return LayerResult(Verdict.ALLOW, f"{call.canonical_tool} allowed for this session", source=Source.USER_TEMPORARY)

        rules = ctx.policy.rules_for("allow") if ctx.policy.rules else ()
        if not rules:
            return None
        if kind is Kind.SHELL:
            covered = _shell_covered(rules, call, ctx)
            if covered:
                return LayerResult(
                    Verdict.ALLOW, f"allowed by rule {', '.join(covered)}", source=Source.CONFIG
                )
            return None
        for rule in rules:
            if not rule.applies_to(call):
                continue
            if call.kind is Kind.MCP and not _mcp_covered(rule, call, ctx):
                continue  # the tool may be used, but not for what its arguments do here
            if rule.content is None:
                return LayerResult(Verdict.ALLOW, f"allowed by rule {rule.text}", source=Source.CONFIG)
            uses = ctx.path_uses
            if uses and rule.tool in ("Read", "Edit", "Write", "Glob", "Grep"):
                if all(rule.matches_path(use.path, home=ctx.home) for use in uses):
                    return LayerResult(Verdict.ALLOW, f"allowed by rule {rule.text}", source=Source.CONFIG)
                continue
            if rule.matches(call, home=ctx.home):
                return LayerResult(Verdict.ALLOW, f"allowed by rule {rule.text}", source=Source.CONFIG)
        return None


_GRANT_KEY: Any = None


def _grant_key() -> Any:
    """``grants.grant_key``, imported on the first check and kept: an import statement
    in the layer would cost a module lookup on every call."""
    global _GRANT_KEY
    if _GRANT_KEY is None:
        from .grants import grant_key

        _GRANT_KEY = grant_key
    return _GRANT_KEY


def _mcp_covered(rule: Any, call: ToolCall, ctx: Context) -> bool:
    """An allow rule for an MCP server or tool lets the tool be used, as a ``Bash`` rule
    lets the shell be used: not to write or delete outside the workspace, and — for a
    shell command among its arguments — only as far as a ``Bash`` rule would cover it."""
    workspace = ctx.workspace
    if any(use.op in _WRITE_OPS and not workspace.contains(use.path) for use in ctx.path_uses):
        return False
    return ctx.command is None or bool(_shell_covered((rule,), call, ctx))


def _shell_covered(rules: tuple[Any, ...], call: ToolCall, ctx: Context) -> list[str]:
    """The rules that together cover every sub-command, or [] when one is uncovered."""
    from ..model import Severity
    from ..shell.syntax.forms import allow_form

    parsed = ctx.parsed
    if parsed is None or parsed.complex or not parsed.commands:
        return []
    if any(f.severity in (Severity.HIGH, Severity.CRITICAL) for f in parsed.findings):
        return []
    shell_rules = [rule for rule in rules if rule.applies_to(call)]
    if not shell_rules:
        return []
    workspace = ctx.workspace
    used: list[str] = []
    for cmd in parsed.commands:
        uses = ctx.paths_of(cmd)
        if cmd.name in ("cd", "pushd") and cmd.origin == "top" and not cmd.wrappers:
            if uses and all(workspace.contains(use.path) for use in uses):
                continue
            return []
        form = allow_form(cmd) if cmd.name not in PATCH_COMMANDS else None  # a patch is an edit, not a command
        if form is None or any(use.op in _WRITE_OPS and not workspace.contains(use.path) for use in uses):
            return []
        match = next((rule for rule in shell_rules if rule.content is None or rule.matches_command(form)), None)
        if match is None:
            return []
        if match.text not in used:
            used.append(match.text)
    return used
