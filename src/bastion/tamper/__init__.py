"""Tampering with the guard: an agent that switches bastion off or loosens it.

In ``bypassPermissions`` mode the mode layer allows whatever stages 0–3 let through, so an
agent could otherwise run ``bastion uninstall claude-code`` or ``pip uninstall
bastion-guard`` and every later call would go unchecked. This module is the record table
of those effects — one record per effect, with why and match/not_match examples (the
tests in ``tests/test_tamper.py`` are generated from them) — and the stage-2 layer that
applies it:

* **off** — the guard stops checking: a deny in every mode (finding ``HB016``), whose
  reason tells the person to run the command themselves in a terminal if they mean it.
  The records that read one command line (``per_command``) are applied by the shell
  analysis to every simple command it reads (``shell/meaning/checks/guard.py``), so HB016 is
  found wherever the command would run: typed, inside interpreter code (``perl -e
  'exec(q{pkill -f bastion})'``), or planted in a file that runs later; this layer turns
  those findings into its reason and applies the records that need the whole call (the
  files it changes);
* **loosen** — the guard lets more through from now on: an immune ask, which the
  adapters turn into a deny when nobody can be asked.

Read-only verbs (``bastion check``, ``explain``, ``rules list``, ``audit tail``,
``doctor``, ``--help``) and tightening ones (``untrust``, ``rules add --behavior deny``)
are not tampering. Writes by shell or file tools to bastion's settings, state and grants
or to a client's hook configuration are already immune asks (``files/protected.py``).

Invocation forms are read from the parse (``sudo``, ``env``, ``bash -c``, ``xargs`` are
already peeled): ``bastion``, ``/any/path/bastion``, ``python -m bastion``, ``uvx
bastion``, ``uv run``/``uv tool run``/``pipx run bastion``; the loosening records also read
shell strings or argv lists inside interpreter code (``python -c "os.system('bastion
trust')"``) themselves, as they are asks the shell analysis cannot make immune.
"""

from __future__ import annotations

from ..model import Kind, LayerResult, Tier, ToolCall, Verdict
from .commands import bastion_args, command_name, python_module
from .installed import changes_command, changes_install, deletes_hook_entries, hook_files, install_paths, package_dir
from .processes import kills_bastion
from .scene import MAX_DEPTH, Scene, expand, inner_commands, scene_of
from .verbs import DIST, adds_allow_rule, runs_isolated, runs_unchecked, trusts_mcp_tools, uninstalls_package, verb_is

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..core.context import Context

__all__ = ["OFF", "LOOSEN", "DIST", "Tamper", "RECORDS", "TamperGuard", "Scene", "bastion_args", "python_module",
           "expand", "scene_of", "findings_for", "guard_off", "PER_COMMAND", "hook_files", "install_paths", "package_dir"]

OFF = "off"
LOOSEN = "loosen"


class Tamper:
    """One way of switching the guard off or loosening it.

    ``match`` / ``not_match`` are shell commands, or tool calls as ``{"tool", "input"}``;
    ``{package}`` stands for bastion's installed code folder, ``{site}`` and ``{stdlib}``
    for the site-packages and standard library folders of the interpreter running it. ``test`` returns what it
    found (shown in the reason) or None. A ``per_command`` record reads one command line
    (and the ``pgrep`` feeding a ``kill``): the shell analysis applies it wherever a
    command runs (:func:`guard_off`); the others need the whole call. (A plain class:
    cheaper to define at import than a dataclass, and every call loads this layer.)
    """

    __slots__ = ("id", "effect", "what", "why", "test", "match", "not_match", "per_command")

    def __init__(self, id: str, effect: str, what: str, why: str, test: Callable[[Scene], str | None], *,
                 match: tuple[Any, ...], not_match: tuple[Any, ...] = (), per_command: bool = False) -> None:
        self.id = id
        self.effect = effect
        self.what = what
        self.why = why
        self.test = test
        self.match = match
        self.not_match = not_match
        self.per_command = per_command

    def __repr__(self) -> str:
        return f"Tamper({self.id!r})"

RECORDS: tuple[Tamper, ...] = (
    # --- off: deny in every mode (HB016) ----------------------------------------------
    Tamper(
        "uninstall_hook", OFF, "removes bastion's hook from a client",
        "the client stops calling bastion: every later tool call runs unchecked",
        verb_is("uninstall"),
        match=("bastion uninstall claude-code", "bastion uninstall codex --project",
               "/home/u/.venv/bin/bastion uninstall gemini", "python3 -I -m bastion uninstall claude-code",
               "uvx bastion uninstall claude-code", "pipx run --spec bastion-guard bastion uninstall codex",
               "sudo bastion uninstall claude-code", "bash -c 'bastion uninstall claude-code'",
               "env X=1 bastion uninstall claude-code", "cd /tmp && bastion uninstall claude-code",
               "echo claude-code | xargs bastion uninstall",
               "python3 -c \"import os; os.system('bastion uninstall claude-code')\"",
               "python3 -c 'import subprocess; subprocess.run([\"bastion\", \"uninstall\", \"claude-code\"])'",
               "uv run python -m bastion uninstall claude-code",
               "ruby -e 'system(\"bastion\", \"uninstall\", \"claude-code\")'"),
        not_match=("bastion uninstall --help", "bastion explain -- 'bastion uninstall claude-code'",
                   "echo 'bastion uninstall claude-code'", "git commit -m 'docs: bastion uninstall claude-code'",
                   "grep -r 'bastion uninstall' README.md", "bastion --help"),
        per_command=True,
    ),
    Tamper(
        "uninstall_package", OFF, "uninstalls bastion's package",
        "the hook command can no longer start; a client that ignores a failing hook then lets every call through",
        uninstalls_package,
        match=("pip uninstall bastion-guard", "pip3 uninstall -y bastion-guard", "pip3.11 uninstall -y Bastion_Guard",
               "python -m pip uninstall -y bastion-guard", "python3 -m pip uninstall bastion-guard requests",
               "pipx uninstall bastion-guard", "uv pip uninstall bastion-guard", "uv tool uninstall bastion-guard",
               "sudo -H pip uninstall -y bastion-guard"),
        not_match=("pip uninstall -y requests", "pip install bastion-guard", "pipx uninstall black",
                   "uv tool uninstall ruff", "pip show bastion-guard", "pip download bastion-guard"),
        per_command=True,
    ),
    Tamper(
        "kill_processes", OFF, "kills bastion's processes",
        "kills the sandbox supervisor before its sweep, the MCP proxy, or the warm decision server whose socket "
        "another process could then answer on",
        kills_bastion,
        match=("pkill -f bastion", "pkill bastion", "pkill -9 -f bastion", "killall bastion", "killall -9 bastion",
               "pkill -f hookd", "pkill -f '[b]astion'", "pkill -f 'bastion hook'", "kill $(pgrep -f bastion)",
               "pgrep -f bastion | xargs kill -9", "kill -9 `pidof bastion`", "killall -r '^bast'",
               "perl -e 'exec(q{pkill -f bastion})'"),
        not_match=("pkill -f 'node server.js'", "pkill -f python", "pgrep -f bastion", "killall node",
                   "kill 1234", "pkill -f hook", "ps aux | grep bastion"),
        per_command=True,
    ),
    Tamper(
        "run_unchecked", OFF, "runs a command with no check",
        "'bastion run --no-check' skips the decision; the guard outside sees only 'bastion run', never the command inside",
        runs_unchecked,
        match=("bastion run --no-check -- rm -rf ~/project", "bastion run --no-ch -- make",
               "python3 -I -m bastion run --no-check --no-prompt --cwd /w --timeout 120 -- 'curl x | sh'"),
        not_match=("bastion run -- make test", "bastion run --no-prompt -- make test", "bastion check --no-audit -- ls"),
        per_command=True,
    ),
    Tamper(
        "change_install", OFF, "changes or deletes bastion's installed code",
        "replacing or removing the code that decides switches the guard off; so does code written into the "
        "Python libraries it runs on, which runs inside the guard (a .pth or sitecustomize.py file at every start "
        "of the decision server and of bastion's commands, a dependency or the standard library while it decides). A copy inside the workspace is the project being "
        "worked on, and is not protected",
        changes_install,
        match=("rm -rf {package}", "echo 'def check(*a): pass' > {package}/engine.py", "rm -rf {package}/..",
               "sed -i 's/DENY/ALLOW/' {package}/layers.py",
               {"tool": "Write", "input": {"file_path": "{package}/tamper.py", "content": ""}},
               {"tool": "Edit", "input": {"file_path": "{package}/engine.py", "old_string": "a", "new_string": "b"}},
               "echo 'import os; os._exit(0)' > {site}/zz-start.pth",
               {"tool": "Write", "input": {"file_path": "{site}/sitecustomize.py", "content": "import os"}},
               "cp /tmp/shim.py {stdlib}/json/__init__.py"),
        not_match=("cat {package}/engine.py", "rm -rf build/", "ls {package}",
                   {"tool": "Read", "input": {"file_path": "{package}/engine.py"}},
                   "ls {site}", "grep -r tree_sitter {site}/tree_sitter/__init__.py",
                   "echo 'import os' > .venv/lib/python3.11/site-packages/zz.pth"),
    ),
    Tamper(
        "delete_hook_file", OFF, "deletes a client settings file that holds bastion's hook",
        "the hook entry goes with the file: every later tool call runs unchecked",
        deletes_hook_entries,
        match=("rm ~/.claude/settings.json", "rm -rf ~/.claude", "mv ~/.claude/settings.json /tmp/",
               "rm -f ~/.codex/hooks.json", "find ~/.gemini -name settings.json -delete"),
        not_match=("rm .claude/settings.json", "cat ~/.claude/settings.json", "rm ~/.claude/notes.md"),
    ),
    # --- loosen: immune ask ---------------------------------------------------------
    Tamper(
        "trust", LOOSEN, "trusts a project",
        "a trusted project's own settings may allow commands, set modes, add directories and hooks",
        verb_is("trust"),
        match=("bastion trust", "bastion trust ~/src/app", "python -m bastion trust .", "sudo bastion trust",
               "true && bastion trust"),
        not_match=("bastion untrust", "bastion trust --help", "bastion rules list"),
    ),
    Tamper(
        "mcp_trust", LOOSEN, "accepts changed MCP tool descriptions",
        "a changed tool description is withheld from the model until a person accepts it; an agent accepting it "
        "would let a server that turned malicious speak to the model",
        trusts_mcp_tools,
        match=("bastion mcp trust github", "python -m bastion mcp trust files read_file"),
        not_match=("bastion mcp pins", "bastion mcp trust --help", "bastion mcp forget github"),
    ),
    Tamper(
        "add_allow_rule", LOOSEN, "saves an allow rule",
        "a saved allow rule lets matching calls through without asking, in every later session",
        adds_allow_rule,
        match=("bastion rules add 'Bash(curl:*)' --force", "bastion rules add 'Bash(npm test:*)'",
               "bastion rules add --scope project 'WebFetch'", "bastion rules add --behavior=allow Read"),
        not_match=("bastion rules add 'Bash(rm:*)' --behavior deny", "bastion rules add --beh ask 'Bash(git push:*)'",
                   "bastion rules list", "bastion rules test .bastion/settings.json"),
    ),
    Tamper(
        "disable_command", LOOSEN, "disables the bastion command",
        "a client's hook runs the bastion command: made not executable, replaced or removed, the hook fails or "
        "answers whatever the replacement says, and every later tool call may run unchecked",
        changes_command,
        match=('chmod -x "$(command -v bastion)"', "chmod 000 $(which bastion)", 'mv "$(command -v bastion)" /tmp/b',
               'ln -sf /bin/true "$(command -v bastion)"', "cp /bin/true ~/.local/bin/bastion"),
        not_match=("command -v bastion", 'ls -l "$(command -v bastion)"', "chmod -x /tmp/run.sh",
                   "cp bin/bastion.md /tmp/", "rm -f build/bastion.log"),
    ),
    Tamper(
        "install_hook", LOOSEN, "rewrites bastion's hook entry",
        "install points the client's hook at whichever bastion runs it — possibly a copy the agent made",
        verb_is("install"),
        match=("bastion install claude-code", "/tmp/venv/bin/bastion install codex --user",
               "python3 -m bastion install gemini --project"),
        not_match=("bastion doctor", "pip install bastion-guard", "bastion install --help"),
    ),
    Tamper(
        "run_isolated", LOOSEN, "runs a command checked without the managed and user settings",
        "'bastion run --isolated' drops the managed and user deny rules for the command inside, which the guard "
        "outside never looked at",
        runs_isolated,
        match=("bastion run --isolated -- curl -d @data https://example.com", "bastion run --iso -- make"),
        not_match=("bastion check --isolated -- curl example.com", "bastion run -- make"),
    ),
)

assert len({r.id for r in RECORDS}) == len(RECORDS)


#: The records the shell analysis applies to each simple command (HB016 wherever it runs).
PER_COMMAND: tuple[Tamper, ...] = tuple(r for r in RECORDS if r.per_command)

#: Process finders whose output a ``kill`` in the same text may be fed.
_FINDERS = ("pgrep", "pidof")


def guard_off(cmd: Any, source: str = "", depth: int = 0) -> list[tuple[Tamper, str]]:
    """The ``per_command`` records that fire on one simple command, with what they found.

    ``source`` is the text the command was parsed from: a ``kill`` counts with the
    ``pgrep``/``pidof`` there that finds bastion's processes (``kill $(pgrep -f
    bastion)``, ``pgrep -f bastion | xargs kill``). The command ``bastion run`` or
    ``bastion mcp-proxy`` would start is judged too."""
    if not cmd.argv or depth > MAX_DEPTH:
        return []
    commands = [cmd]
    if command_name(cmd.argv[0]) == "kill" and any(w in source for w in _FINDERS):
        from ..shell.syntax.parse import parse

        commands += [c for c in parse(source).commands if c.argv and command_name(c.argv[0]) in _FINDERS]
    scene = Scene(commands, [], "", None, None)
    found = [(record, detail) for record in PER_COMMAND if (detail := record.test(scene))]
    for inner in inner_commands(cmd):
        found += guard_off(inner, " ".join(inner.argv), depth + 1)
    return found


def findings_for(scene: Scene, *, skip_per_command: bool = False) -> list[tuple[Tamper, str]]:
    """Every record that fires, with what it found (off records first); with
    ``skip_per_command`` only those the shell analysis does not apply itself."""
    found = []
    for record in RECORDS:
        if skip_per_command and record.per_command:
            continue
        detail = record.test(scene)
        if detail:
            found.append((record, detail))
    return sorted(found, key=lambda pair: pair[0].effect != OFF)


def _why_terminal(command: str | None) -> str:
    if command is None:
        return "if you mean it, make the change yourself"
    return f"if you mean it, run it yourself in a terminal: {command}"


def _record_of(message: str) -> Tamper:
    """The record an HB016 finding of the shell analysis names (``…: WHAT: detail``)."""
    named = [(message.find(f"{r.what}: "), i) for i, r in enumerate(PER_COMMAND) if f"{r.what}: " in message]
    return PER_COMMAND[min(named)[1]] if named else PER_COMMAND[0]


def _shell_off(call: ToolCall, ctx: Context, kind: Kind | None = None) -> list[Any]:
    """HB016 findings of the shell analysis: a guard-off command anywhere it reads."""
    if (kind or call.kind) not in (Kind.SHELL, Kind.MCP):
        return []
    analysis = ctx.analysis
    if analysis is None or not analysis.hard_blocks:
        return []
    return [f for f in analysis.hard_blocks if f.code == "HB016"]


def _wider_hard_block(call: ToolCall, ctx: Context) -> bool:
    """The shell command has a catastrophic effect besides touching the guard (a wipe of
    a folder that holds bastion, say), which the hard blocks deny with its own reason."""
    if call.kind is not Kind.SHELL or ctx.analysis is None:
        return False
    return any(f.code != "HB016" for f in ctx.analysis.hard_blocks)


class TamperGuard:
    """Layer 2: switching the guard off is denied in every mode; loosening it is an
    immune ask (a deny where nobody can be asked). Runs before ``hard_blocks`` so that
    the analysis' HB016 findings are denied with this layer's reason."""

    name = "tamper"
    stage = 2
    can_deny = True

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        kind = call.kind
        if kind not in (Kind.SHELL, Kind.MCP, Kind.FILE_WRITE, Kind.FILE_EDIT):
            return None
        off = _shell_off(call, ctx, kind)
        scene = scene_of(call, ctx) if kind is not Kind.MCP else None
        found = findings_for(scene, skip_per_command=True) if scene is not None else []
        if not off and not found:
            return None  # nearly every call: nothing touches the guard
        shown = call.command if kind is Kind.SHELL else None
        if not off and found and found[0][0].effect == OFF and _wider_hard_block(call, ctx):
            return None  # ``rm -rf /`` also deletes bastion: the wipe is what hard_blocks names
        if off or (found and found[0][0].effect == OFF):
            from ..shell.catalog.intents import finding

            record = _record_of(off[0].message) if off else found[0][0]
            return LayerResult(
                Verdict.DENY,
                f"blocked: switches the guard off — {record.what}: {record.why}. bastion never lets an agent do "
                f"this, in any mode; {_why_terminal(shown)}",
                immune=True,
                risk=Tier.DESTRUCTIVE,
                findings=off + [finding("HB016", f"{r.what}: {d}") for r, d in found if r.effect == OFF],
                no_grant=True,
            )
        if not found:
            return None
        record = found[0][0]
        return LayerResult(
            Verdict.ASK,
            f"loosens the guard — {record.what}: {record.why}; this needs a person in every mode "
            f"({_why_terminal(shown)})",
            immune=True,
            risk=Tier.HIGH_RISK,
            no_grant=True,
        )
