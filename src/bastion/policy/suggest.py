"""Rule suggestions that keep matching: the rule a person may save after approving a call.

Users of every agent CLI report the same failure: they click "always allow", and the
next identical call asks again, because the saved rule was built from a spelling the
matcher never sees (a ``cd`` prefix, an environment variable, a wrapper). bastion builds
each suggestion from the exact string its allow layer matches (``shell.syntax.forms.allow_form``:
safe variables and harmless wrappers stripped, one rule per sub-command, ``cd`` left to
the workspace check) and then *proves* it:

1. every sub-command of the call is covered, tested with the allow layer's own
   function (``layers._shell_covered``), so saving the rules makes the same call pass;
2. no rule matches a destructive variant of the call (``policy.variants``: the call
   with ``--force`` added, sibling commands such as ``npm publish``, catastrophic
   commands) — when the broad form would, a narrower one is tried, down to the exact
   command;
3. never a bare shell, wrapper, interpreter or privilege prefix (spec 002 §12.6.4):
   ``Bash(bash:*)`` would allow everything; never a rule for a patch applier
   (``apply_patch``): a patch is an edit, judged by the files it changes.

Broadest acceptable first: for each sub-command the candidates run from the command's
identity (``npm install:*``, ``frobnicate:*``, ``python3 manage.py:*``) to the exact
command; the first that passes every check is offered. At most five rules for a compound
command (002 §12.6.6); a call that needs more gets none, because a partial set would not
make the call pass next time.
"""

from __future__ import annotations

import os

from ..model import Kind, ToolCall
from ..shell.syntax.quoting import join as shell_join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ..core.context import Context

MAX_SUGGESTIONS = 5
#: ``not_match`` examples saved with each rule (its self-test on every load).
MAX_SAVED_VARIANTS = 4

#: Tools whose first operand is a sub-command that belongs in the rule (besides the
#: shell catalog's ``TOOLS``, which all have sub-commands).
_SUBCOMMAND_TOOLS = frozenset(
    {"git", "make", "just", "task", "rake", "go", "aws", "gcloud", "az", "gsutil", "ansible-galaxy", "npx"}
)

#: Sub-commands whose next operand names what actually runs (``npm run build``);
#: ``"*"`` means every sub-command of that tool (``aws s3 ls``).
_NAMED_SUBS: dict[str, frozenset[str] | str] = {
    "npm": frozenset({"run", "run-script", "exec"}),
    "pnpm": frozenset({"run", "exec", "dlx"}),
    "yarn": frozenset({"run", "workspace", "dlx"}),
    "bun": frozenset({"run", "x"}),
    "uv": frozenset({"run", "pip", "tool"}),
    "poetry": frozenset({"run"}),
    "pipx": frozenset({"run"}),
    "docker": frozenset({"compose", "container", "image", "volume", "network", "system", "buildx"}),
    "podman": frozenset({"compose", "container", "image", "volume", "network", "system"}),
    "kubectl": frozenset({"config", "rollout"}),
    "gh": frozenset({"pr", "issue", "repo", "release", "run", "workflow", "secret", "gist", "label", "cache"}),
    "git": frozenset({"stash", "remote", "submodule", "worktree", "lfs", "notes"}),
    "go": frozenset({"mod", "tool"}),
    "cargo": frozenset({"run"}),
    "aws": "*",
    "gcloud": "*",
    "az": "*",
}

#: Short options of shells that take the command string (``bash -c``, also in clusters
#: such as ``-lc``).
_SHELL_INLINE = frozenset({"-c", "-C", "--command", "--init-command"})


class _Skip(Exception):
    """No rule can describe this command (it must be approved each time)."""


# --------------------------------------------------------------------------- rule text


def _escape(text: str) -> str:
    """Literal command text for the inside of ``Bash(…)``: stars, parentheses and
    backslashes escaped, as ``rules.parse_rule`` reads them back."""
    return "".join("\\" + c if c in "\\*()" else c for c in text)


def _prefix_rule(words: Sequence[str]) -> str:
    return f"Bash({_escape(shell_join(words))}:*)"


def _exact_rule(words: Sequence[str]) -> str:
    return f"Bash({_escape(shell_join(words))})"


# --------------------------------------------------------------------------- identity


def _base(name: str) -> str:
    from ..shell.catalog.catalog import canonical_name

    return canonical_name(name.rsplit("/", 1)[-1])


def _never_a_prefix(name: str) -> bool:
    """Shells, wrappers and privilege tools: no rule may start with them alone."""
    from ..shell.catalog import catalog
    from ..shell.syntax.unwrap import NON_SUGGESTABLE

    return name in NON_SUGGESTABLE or name in catalog.PRIVILEGE or name in catalog.WRAPPERS


def _no_rule(name: str) -> bool:
    """Commands no Bash rule may describe at all: a patch applier writes whatever its
    patch names (the allow layer never lets a Bash rule cover it)."""
    from ..files.patch import PATCH_COMMANDS

    return name in PATCH_COMMANDS


def _script_operand(argv: Sequence[str], inline: frozenset[str], value_opts: frozenset[str], shell: bool) -> int:
    """Length of ``interpreter [options] script`` (``python3 -m pytest`` counts the
    module); raises _Skip for inline code or when no script is named (stdin, REPL)."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in inline or (shell and word.startswith("-") and not word.startswith("--") and "c" in word[1:]):
            raise _Skip(f"{argv[0]} runs inline code")
        if word == "-m":
            if index + 1 >= len(argv):
                raise _Skip("no module")
            return index + 2
        if word == "--":
            index += 1
            break
        if not word.startswith("-") or word == "-":
            break
        index += 2 if word in value_opts else 1
    if index >= len(argv) or argv[index] == "-":
        raise _Skip(f"{argv[0]} reads its program from standard input")
    return index + 1


def identity_length(argv: Sequence[str]) -> int:
    """How many leading words name *what runs*: the shortest prefix a rule may have.

    ``frobnicate --all`` → 1, ``git push origin`` → 2, ``npm run build`` → 3,
    ``python3 manage.py migrate`` → 2. Raises _Skip for commands no rule may describe
    (a shell's ``-c``, an interpreter's inline code, a bare wrapper).
    """
    from ..shell.catalog import catalog

    name = _base(argv[0])
    if _no_rule(name):
        raise _Skip(f"{name} is an edit, judged by the files its patch changes")
    if name in catalog.SHELLS or name in ("sh", "bash", "zsh", "fish", "dash", "ksh"):
        return _script_operand(argv, _SHELL_INLINE, frozenset({"--rcfile", "--init-file", "-o", "-O"}), True)
    if name in catalog.INTERPRETERS:
        values = catalog.INTERPRETER_VALUE_OPTS.get(name, frozenset())
        return _script_operand(argv, catalog.INTERPRETERS[name], values, False)
    if name in catalog.PACKAGE_RUNNERS:
        return _script_operand(argv, frozenset({"-c", "--call"}), frozenset({"-p", "--package"}), False)
    if _never_a_prefix(name):
        raise _Skip(f"{name} runs other commands")
    tool = catalog.TOOLS.get(name)
    if tool is None and name not in _SUBCOMMAND_TOOLS:
        return 1
    value_opts = catalog.GIT_VALUE_OPTS if name == "git" else getattr(tool, "value_opts", frozenset())
    index = 1
    while index < len(argv) and argv[index].startswith("-"):
        index += 2 if argv[index] in value_opts else 1
    if index >= len(argv):
        return len(argv)
    named = _NAMED_SUBS.get(name, frozenset())
    if (named == "*" or argv[index] in named) and index + 1 < len(argv) and not argv[index + 1].startswith("-"):
        return index + 2
    return index + 1


# --------------------------------------------------------------------------- checks


def _parse(rule_text: str) -> Any:
    from .rules import parse_rule

    return parse_rule(rule_text, "allow", source="session")


def rule_is_safe(rule: Any, triggers: Sequence[str], argv_list: Sequence[Sequence[str]]) -> bool:
    """The rule matches every trigger string and none of the destructive variants of
    any of the commands it was made for."""
    from .variants import variants

    if not all(rule.matches_command(t) for t in triggers):
        return False
    for argv in argv_list:
        if any(rule.matches_command(v) for v in variants(argv)):
            return False
    return True


def rule_for_command(argv: Sequence[str]) -> str | None:
    """The broadest safe rule for one command (its allow-form words), or None."""
    if not argv:
        return None
    try:
        base = identity_length(argv)
    except _Skip:
        return None
    trigger = shell_join(argv)
    candidates = [_prefix_rule(argv[:k]) for k in range(max(base, 1), len(argv) + 1)]
    candidates.append(_exact_rule(argv))
    for text in dict.fromkeys(candidates):
        try:
            rule = _parse(text)
        except ValueError:
            continue
        if rule_is_safe(rule, [trigger], [argv]):
            return text
    return None


def is_too_broad(rule_text: str) -> bool:
    """True for a Bash allow rule that no suggestion would ever produce: the whole tool,
    a bare shell/wrapper/interpreter/privilege prefix, or one matching a catastrophic
    command. Used to refuse rules a permission hook tries to add."""
    from .variants import ALWAYS

    try:
        rule = _parse(rule_text)
    except ValueError:
        return True
    if rule.tool != "Bash":
        return _too_broad_for_files(rule)
    if rule.content is None:
        return True
    words = rule.content.replace(":*", " ").replace("*", " ").split()
    if not words:
        return True
    head = _base(words[0])
    from ..shell.catalog import catalog

    if _no_rule(head):
        return True
    if len(words) == 1 and (
        _never_a_prefix(head) or head in catalog.SHELLS or head in catalog.INTERPRETERS or head in _OPEN_ENDED
    ):
        return True
    return any(rule.matches_command(cmd) for cmd in ALWAYS)


#: Commands whose arguments can run anything or reach anywhere: never allowed as a whole.
_OPEN_ENDED = frozenset({
    "find", "awk", "gawk", "mawk", "nawk", "sed", "ssh", "scp", "rsync", "git", "docker", "podman", "kubectl",
    "curl", "wget", "nc", "ncat", "socat", "tar", "npx", "pnpx", "bunx",
})

#: Probes a file rule must not cover: credential stores and protected configuration.
_FILE_PROBES = ("~/.ssh/id_rsa", "~/.aws/credentials", "~/.bashrc", "//etc/shadow", "/.git/config", "/.claude/settings.json")


def _too_broad_for_files(rule: Any) -> bool:
    """A whole file tool (``Edit``, ``Write``), or a path rule reaching credential stores
    or protected configuration (``Read(~/.ssh/**)``, ``Edit(//**)``)."""
    if rule.tool in ("Edit", "Write") and rule.content is None:
        return True
    if rule.content is None or rule.tool not in ("Read", "Edit", "Write", "Glob", "Grep"):
        return False
    home = "/home/u"
    root = "/project"
    probes = [p.replace("~", home, 1) if p.startswith("~") else (p[1:] if p.startswith("//") else root + p) for p in _FILE_PROBES]
    try:
        from .rules import parse_rule

        anchored = parse_rule(rule.text, "allow", source="user", base_dir=root)
        return any(anchored.matches_path(probe, home=home) for probe in probes)
    except ValueError:
        return True


# --------------------------------------------------------------------------- per kind


def _shell_suggestions(call: ToolCall, ctx: Context) -> list[str]:
    from ..shell.syntax.forms import allow_form
    from .layers import _shell_covered

    parsed = ctx.parsed
    if parsed is None or parsed.complex or not parsed.commands:
        return []
    rules: list[str] = []
    for cmd in parsed.commands:
        if cmd.name in ("cd", "pushd") and cmd.origin == "top" and not cmd.wrappers:
            continue  # the allow layer lets a cd inside the workspace through by itself
        form = allow_form(cmd)
        if form is None:
            return []
        rule = rule_for_command(cmd.argv)
        if rule is None:
            return []
        if rule not in rules:
            rules.append(rule)
    if not rules or len(rules) > MAX_SUGGESTIONS:
        return []
    parsed_rules = tuple(_parse(text) for text in rules)
    if not _shell_covered(parsed_rules, call, ctx):
        return []  # e.g. a write outside the workspace: no allow rule can ever cover it
    return rules


def _abs_path_rule(scope: str, root: str) -> str:
    """``Edit(/src/app.py)`` anchored at ``root`` → ``Edit(//abs/root/src/app.py)``, which
    means the same file from whichever settings file it is saved in."""
    from ..files.check import _rule_escape

    inner = scope[len("Edit(") : -1]
    anchored = "/".join(_rule_escape(part) for part in root.strip("/").split("/") if part)
    return f"Edit(//{anchored}{inner})" if anchored else f"Edit(/{inner})"


def _file_suggestions(call: ToolCall, ctx: Context) -> list[str]:
    from ..files.check import suggest_edit_scope
    from ..files.workspace import resolve_path

    project_root = getattr(ctx.policy, "project_root", "") or call.cwd
    root = resolve_path(project_root, cwd="/", home="")
    found: list[str] = []
    for use in ctx.path_uses:
        scope = suggest_edit_scope(use.path, project_root=project_root)
        if scope is None:
            return []
        rule_text = _abs_path_rule(scope, root)
        rule = _parse(rule_text)
        if not rule.matches_path(use.path, home=ctx.home):
            return []
        if rule_text not in found:
            found.append(rule_text)
    return found[:MAX_SUGGESTIONS] if len(found) <= MAX_SUGGESTIONS else []


def suggest(call: ToolCall, ctx: Context) -> list[str]:
    """Suggested allow rules for an ask, broadest safe form first; [] when none is safe."""
    if call.kind is Kind.SHELL:
        return _shell_suggestions(call, ctx)
    if call.kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
        return _file_suggestions(call, ctx)
    if call.kind is Kind.WEB_FETCH:
        from urllib.parse import urlsplit

        try:
            host = urlsplit(str(call.input.get("url", ""))).hostname
        except ValueError:
            return []
        return [f"WebFetch(domain:{host})"] if host and all(c not in host for c in "/:@ *?()") else []
    if call.kind is Kind.MCP:
        from .layers import _mcp_covered

        # only a rule that would let this very call through (not one whose arguments
        # write outside the workspace, or carry a command no rule covers)
        return [call.tool] if _mcp_covered(_parse(call.tool), call, ctx) else []
    return [call.canonical_tool] if call.canonical_tool == call.tool else []


# --------------------------------------------------------------------------- self-tests


def examples_for(rule_text: str, call: ToolCall, parsed: Any = None) -> tuple[list[str], list[str]]:
    """``(match, not_match)`` examples a saved rule carries: the parts of the approved
    call it must keep matching, and destructive variants it must never match.
    ``parsed``: the command's parse from the check, when the caller has it."""
    from .rules import RuleError

    try:
        rule = _parse(rule_text)
    except RuleError:
        return [], []
    if rule.tool == "Bash" and call.command is not None:
        from ..shell.syntax.forms import allow_form
        from ..shell.syntax.parse import parse
        from .variants import variants

        if parsed is None:
            parsed = parse(call.command)
        match: list[str] = []
        avoid: list[str] = []
        for cmd in parsed.commands:
            form = allow_form(cmd)
            if form and rule.matches_command(form):
                match.append(form)
                avoid += [v for v in variants(cmd.argv) if v != form][:MAX_SAVED_VARIANTS]
        return list(dict.fromkeys(match)), list(dict.fromkeys(avoid))[:MAX_SAVED_VARIANTS]
    if rule.tool == "Edit" and rule.content and rule.content.startswith("//"):
        paths = [p for p in call.paths if isinstance(p, str)]
        home = os.path.expanduser("~")
        resolved = ["/" + os.path.normpath(os.path.join(call.cwd, p)) for p in paths if not p.startswith("~")]
        return [p for p in resolved if rule.matches_example(p, home=home)], []
    if rule.tool == "WebFetch":
        url = call.input.get("url")
        return ([url] if isinstance(url, str) and rule.matches_example(url, home="/") else []), []
    return [], []
