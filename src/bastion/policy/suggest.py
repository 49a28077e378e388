"""Rule suggestions: the narrowest rule that would allow an approved call next time.

Never a bare shell, wrapper, interpreter or privilege prefix (spec 002 §12.6.4): a rule
like ``Bash(bash:*)`` would allow everything. At most five rules for a compound command.
"""

from __future__ import annotations

import os
import shlex
from typing import Any

from ..model import Kind, ToolCall

MAX_SUGGESTIONS = 5

#: Prefixes that must never become an allow rule: they run arbitrary code.
NON_SUGGESTABLE = frozenset(
    {
        "sh", "bash", "zsh", "fish", "csh", "tcsh", "ksh", "dash", "ash", "cmd", "powershell", "pwsh",
        "env", "xargs", "nice", "stdbuf", "nohup", "timeout", "time", "parallel", "watch", "script",
        "sudo", "doas", "pkexec", "su", "runuser", "chroot", "setsid", "exec", "eval", "source", ".",
        "python", "python3", "node", "deno", "bun", "perl", "ruby", "php", "lua", "Rscript", "osascript",
        "awk", "gawk", "find", "ssh", "command", "builtin",
    }
)

#: Commands whose second word is a subcommand worth keeping in the rule (``git push``).
_SUBCOMMAND_TOOLS = frozenset(
    {
        "git", "npm", "pnpm", "yarn", "cargo", "go", "pip", "pip3", "uv", "poetry", "docker", "kubectl",
        "make", "gh", "dotnet", "mvn", "gradle", "bundle", "rake", "terraform", "helm", "aws", "gcloud",
    }
)


def _shell_rule(argv: tuple[str, ...]) -> str | None:
    if not argv:
        return None
    name = argv[0]
    if os.path.basename(name) in NON_SUGGESTABLE or name in NON_SUGGESTABLE:
        return None
    words = [name]
    if os.path.basename(name) in _SUBCOMMAND_TOOLS and len(argv) > 1 and not argv[1].startswith("-"):
        words.append(argv[1])
        if len(argv) > 2 and argv[1] == "run" and not argv[2].startswith("-"):
            words.append(argv[2])
    prefix = shlex.join(words).replace("*", "\\*")
    if len(words) == len(argv):
        return f"Bash({prefix})" if len(words) > 1 else f"Bash({prefix}:*)"
    return f"Bash({prefix}:*)"


def suggest(call: ToolCall, ctx: Any) -> list[str]:
    """Suggested allow rules for an ask, narrowest first; [] when none is safe."""
    if call.kind is Kind.SHELL:
        parsed = ctx.parsed
        if parsed is None or parsed.complex:
            return []
        rules: list[str] = []
        for cmd in parsed.commands:
            if cmd.name in ("cd", "pushd"):
                continue
            if cmd.wrappers and any(w in NON_SUGGESTABLE - {"timeout", "time", "nice", "nohup", "stdbuf"} for w in cmd.wrappers):
                return []
            rule = _shell_rule(cmd.argv)
            if rule is None:
                return []
            if rule not in rules:
                rules.append(rule)
        return rules[:MAX_SUGGESTIONS] if len(rules) <= MAX_SUGGESTIONS else []
    if call.kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
        from ..files.check import suggest_edit_scope

        project_root = getattr(ctx.policy, "project_root", "") or call.cwd
        found = []
        for use in ctx.path_uses:
            rule = suggest_edit_scope(use.path, project_root=project_root)
            if rule is None:
                return []
            found.append(rule)
        return found[:MAX_SUGGESTIONS]
    if call.kind is Kind.WEB_FETCH:
        from urllib.parse import urlsplit

        host = urlsplit(str(call.input.get("url", ""))).hostname
        return [f"WebFetch(domain:{host})"] if host else []
    if call.kind is Kind.MCP:
        return [call.tool]
    return [call.canonical_tool] if call.canonical_tool == call.tool else []
