"""Layer 7: what happens when no rule, mode or finding decided.

Read-only calls and known-safe commands are allowed; a shell command bastion does not
know goes to ``review`` (the LLM reviewer if one is configured, else ask); everything
else that changes something asks.
"""

from __future__ import annotations

import os

from ..files.scratch_folders import LINKERS, made_by
from ..model import Kind, LayerResult, Mode, Source, Tier, ToolCall, Verdict
from ..paths.match import within
from ..shell.provider import accesses_of
from ..shell.syntax.quoting import quote as shell_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..core.context import Context


class Defaults:
    name = "defaults"
    stage = 7
    can_deny = False

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        kind = call.kind
        if kind is Kind.SHELL:
            return self._shell(call, ctx)
        if call.tier is Tier.READ_ONLY:
            return LayerResult(Verdict.ALLOW, f"{call.tool} is read-only", risk=Tier.READ_ONLY)
        if kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
            return LayerResult(Verdict.ASK, f"{call.tool} changes files; approval needed in {ctx.mode.value} mode")
        if kind is Kind.WEB_FETCH:
            return LayerResult(Verdict.ASK, f"{call.tool} fetches from the network; approval needed")
        if kind is Kind.MCP:
            return LayerResult(Verdict.ASK, f"MCP tool {call.tool} is not allowed by any rule")
        if call.tool not in _known_tools():
            # a client's own tool bastion has not met yet: a person may say yes; where
            # nobody can be asked the reason says how to let it through next time
            quoted = shell_quote(call.tool)
            quoted = quoted if quoted.startswith("'") else f"'{quoted}'"
            return LayerResult(Verdict.ASK, f"{call.tool} is not a tool bastion knows; approval needed "
                                            f"(to allow it: bastion rules add {quoted})")
        return LayerResult(Verdict.ASK, f"{call.tool} is {call.tier.value.replace('_', '-')}; approval needed")

    def _shell(self, call: ToolCall, ctx: Context) -> LayerResult:
        analysis = ctx.analysis
        if analysis is None:  # a shell call always has one; failing here asks
            raise ValueError("no shell analysis")
        if analysis.known_safe:
            written = _runs_code_after_writing(ctx)
            if written:
                return LayerResult(
                    Verdict.ASK,
                    f"writes {written} and runs code in the same command; approval needed",
                    risk=Tier.HIGH_RISK,
                )
            changed = _changed_files(ctx)
            if changed and ctx.mode is not Mode.ACCEPT_EDITS:
                more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
                return LayerResult(
                    Verdict.ASK,
                    f"changes code: {changed[0]}{more}; edits of code need approval in {ctx.mode.value} mode",
                    risk=Tier.LOW_RISK,
                )
        if analysis.known_safe and analysis.tier is not Tier.READ_ONLY:
            outside = _runs_outside(ctx)
            if outside:
                return LayerResult(
                    Verdict.ASK,
                    f"{outside} would run outside the workspace; approval needed",
                    risk=Tier.HIGH_RISK,
                )
        if analysis.known_safe:
            what = "read-only" if analysis.tier is Tier.READ_ONLY else "a known-safe development command"
            return LayerResult(Verdict.ALLOW, f"{what}", risk=analysis.tier, source=Source.BUILTIN)
        if analysis.unknown:
            names = ", ".join(dict.fromkeys(analysis.unknown))
            return LayerResult(
                Verdict.REVIEW,
                f"unknown command ({names}); approval needed",
                risk=analysis.tier,
            )
        return LayerResult(Verdict.ASK, "this command changes state; approval needed", risk=analysis.tier)


#: Where writing changes nothing a person would need to approve.
_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"})


#: Files that run later — sources, scripts, build and CI definitions. A shell command that
#: writes one is an Edit of code and asks like the Edit tool; writing data (``out.txt``,
#: ``results.csv``) does not.
CODE_EXTENSIONS = frozenset({
    ".sh", ".bash", ".zsh", ".fish", ".ksh", ".py", ".pyw", ".pth", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx",
    ".rb", ".pl", ".pm", ".php", ".lua", ".go", ".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".kt", ".scala",
    ".swift", ".cs", ".r", ".jl", ".ex", ".exs", ".erl", ".hs", ".ml", ".mk", ".cmake", ".gradle", ".ps1", ".bat",
    ".cmd", ".vbs", ".service", ".timer", ".desktop", ".plist", ".so", ".dylib",
})
CODE_FILE_NAMES = frozenset({
    "makefile", "gnumakefile", "justfile", "rakefile", "gemfile", "dockerfile", "containerfile", "vagrantfile",
    "cmakelists.txt", "package.json", "pyproject.toml", "setup.cfg", "tox.ini", "noxfile.py", "conftest.py",
    "pytest.ini", "build.gradle", "pom.xml", "cargo.toml", "build.rs", "go.mod", "taskfile.yml", "taskfile.yaml",
    ".pre-commit-config.yaml", "docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml",
    ".npmrc", ".yarnrc", ".yarnrc.yml", "procfile",
})
CODE_DIRECTORIES = frozenset({".github", ".gitlab-ci", ".circleci", "bin", "scripts", ".husky"})


def _is_code(path: str) -> bool:
    name = os.path.basename(path).lower()
    if name in CODE_FILE_NAMES or os.path.splitext(name)[1] in CODE_EXTENSIONS:
        return True
    return any(part.lower() in CODE_DIRECTORIES for part in path.split("/")[:-1])


def _changed_files(ctx: Context) -> list[str]:
    """Code the command writes or deletes — the shell's equivalent of an Edit of a
    source, script or build file, which asks in default mode too. Data files, created
    directories and sinks such as ``/dev/null`` are not; writes outside the workspace
    are the path layer's business."""
    workspace = ctx.workspace
    return [
        use.raw
        for use in ctx.path_uses
        if use.op in ("write", "delete") and use.path not in _SINKS and use.command != "mkdir"
        and workspace.contains(use.path) and _is_code(use.path)
        and not (use.op == "delete" and _untracked(use.path))
    ]


def _untracked(path: str) -> bool:
    """Deleting a file git does not track is removing the agent's scratch (a verification
    test, a repro script), not an edit of the project (``files.tracked``)."""
    from ..files.tracked import untracked_file

    return untracked_file(path) is True


def _runs_code_after_writing(ctx: Context) -> str | None:
    """The file written when a later sub-command runs code (a build, a test runner, a
    script): what runs may be what was just written (``printf … > Makefile && make``,
    ``cp /tmp/x.sh . && bash x.sh``). None otherwise. A command that runs a file the line
    wrote from literal text was judged by that text (``Analysis.planned_runs``)."""
    written: str | None = None
    parsed = ctx.parsed
    analysis = ctx.analysis
    planned = analysis.planned_runs if analysis is not None else frozenset()
    commands = parsed.commands if parsed is not None else ()
    # a command that may run what an earlier one wrote: not a mere file command, and not
    # a run of a file the line wrote from literal text
    may_run = [cmd.name not in _FILE_COMMANDS and cmd.text not in planned for cmd in commands]
    last_runner = max((i for i, runs in enumerate(may_run) if runs), default=-1)
    for i, cmd in enumerate(commands):
        if written and may_run[i]:
            from ..shell.meaning.analyse import analyse  # only after a write: most lines write nothing
            from ..shell.syntax.script import Script

            single = analyse(Script((cmd,)), cwd=ctx.call.cwd, home=ctx.home)
            if single.tier is not Tier.READ_ONLY:
                return written
        # what a command writes after the last one that may run code runs after nothing;
        # resolving paths is the larger cost, so only a command that writes pays for it
        if written or i >= last_runner or cmd.name == "mkdir" or not any(
                a.op == "write" for a in accesses_of(ctx, cmd)):
            continue
        for use in ctx.paths_of(cmd):
            if use.op == "write" and use.path not in _SINKS:
                written = written or use.raw
    return None


#: Commands that only move bytes between files; running them after a write runs no code.
_FILE_COMMANDS = frozenset({"cp", "mv", "rm", "mkdir", "touch", "cat", "echo", "printf", "tee", "chmod", "ls", "head", "tail"})


def _runs_outside(ctx: Context) -> str | None:
    """The first command that changes a directory outside the workspace (a test runner
    or build in ``/etc`` runs whatever code lives there), or None. A folder below /tmp
    that an earlier ``mkdir`` of the line made fresh is scratch (``files.scratch_folders``)."""
    parsed = ctx.parsed
    commands = parsed.commands if parsed is not None else ()
    scratch: list[str] = []  # folders below /tmp an earlier mkdir of this line made fresh
    linked = any(cmd.name in LINKERS for cmd in commands)
    for cmd in commands:
        # ``cd``, and commands that load no code from their folder (``mkdir``, ``touch``,
        # ``echo > f``): what they write is judged by the path rules wherever it is
        if cmd.name not in ("cd", "pushd") and cmd.name not in _FILE_COMMANDS:
            where = ctx.resolve(os.path.join(ctx.call.run_dir, cmd.cwd or "."))
            if not ctx.workspace.contains(where) and not any(within(where, made) for made in scratch):
                return " ".join(cmd.argv[:2])
        if not linked:
            scratch.extend(made_by(cmd, ctx))
    return None


def _known_tools() -> frozenset[str]:
    from ..model import TOOL_CATALOG

    return frozenset(TOOL_CATALOG)
