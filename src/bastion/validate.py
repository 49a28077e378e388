"""Layer 0: is the call well formed for its kind of tool?

A malformed call is denied with a message that says what is wrong, so the agent can
correct itself; it never reaches a layer that might misread it.

Each tool's catalog entry names exactly the fields its client executes (Claude Code's
``Bash`` runs ``command``, Codex's ``exec_command`` runs ``cmd`` in ``workdir``, Gemini's
``run_shell_command`` runs ``command`` in ``dir_path``). A call that carries another
command or directory field besides those — ``{"cmd": "rm -rf ~", "command": "ls"}`` —
is refused: bastion would otherwise judge one field while the client runs the other.
"""

from __future__ import annotations

from typing import Any, Mapping

from .model import TOOL_CATALOG, Kind, LayerResult, Source, ToolCall, Verdict

#: Longest input bastion analyses; larger ones are refused rather than half-read.
MAX_INPUT_CHARS = 1_000_000

#: Fields that hold a command or the directory it runs in, in any client's tools (and
#: a few spellings no client uses but a decoy might): a shell call may carry only the
#: ones its own tool executes.
COMMAND_FIELDS = frozenset({"command", "cmd"}.union(*(s.command_keys for s in TOOL_CATALOG.values())))
DIRECTORY_FIELDS = frozenset(
    {"workdir", "dir_path", "directory", "cwd", "working_directory"}.union(*(s.workdir_keys for s in TOOL_CATALOG.values()))
)
#: Shells whose language is the one bastion analyses (a POSIX shell, bash, zsh).
POSIX_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"})


def _keys(keys: Any) -> str:
    return " or ".join(repr(k) for k in keys)


def _shell_problem(call: ToolCall, data: Mapping[str, Any]) -> str | None:
    spec = call.spec
    extra = sorted(k for k in COMMAND_FIELDS.difference(spec.command_keys) if data.get(k) is not None)
    if extra:
        return (f"{call.tool} runs the command in {_keys(spec.command_keys)}, but the call also carries {_keys(extra)}; "
                "refused rather than guessing which one runs")
    extra = sorted(k for k in DIRECTORY_FIELDS.difference(spec.workdir_keys) if data.get(k) is not None)
    if extra:
        where = f"in {_keys(spec.workdir_keys)}" if spec.workdir_keys else "in the call's own directory"
        return (f"{call.tool} runs its command {where}, but the call also names a directory in {_keys(extra)}; "
                "refused rather than guessing where it runs")
    for key in spec.workdir_keys:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            return f"{call.tool}'s {key!r} must be a directory path string"
    if spec.program_key and data.get(spec.program_key) is not None:
        program = data.get(spec.program_key)
        if not isinstance(program, str) or not _posix_shell(program):
            return (f"{call.tool} would run its command with {program!r} ({spec.program_key!r}); bastion judges commands "
                    f"for a POSIX shell ({', '.join(sorted(POSIX_SHELLS))}) only")
    if call.command is None:
        return f"{call.tool} needs a command string in {_keys(spec.command_keys)}"
    if not call.command.strip():
        return f"{call.tool} got an empty command"
    if "\x00" in call.command:
        return f"{call.tool} command contains a NUL byte"
    return None


def _posix_shell(program: str) -> bool:
    """A known POSIX shell, by name or from a standard bin directory (not a look-alike
    program that is merely called ``bash``)."""
    import posixpath

    from .shell.catalog import STANDARD_BIN_DIRS

    folder, name = posixpath.split(program)
    return name in POSIX_SHELLS and (not folder or folder in STANDARD_BIN_DIRS)


def _patch_problem(call: ToolCall, data: Mapping[str, Any]) -> str | None:
    keys = call.spec.patch_keys
    patches = {k: v for k in keys if (v := data.get(k)) is not None}
    if not patches or not all(isinstance(v, str) for v in patches.values()):
        return f"{call.tool} needs its patch as a string in {_keys(keys)}"
    if len(set(patches.values())) > 1:
        return (f"{call.tool} carries different patches in {_keys(sorted(patches))}; "
                "refused rather than guessing which one is applied")
    return None


def _problem(call: ToolCall) -> str | None:
    data: Any = call.input
    if not isinstance(data, Mapping):
        return f"the input of {call.tool} must be a JSON object, not {type(data).__name__}"
    kind = call.kind
    if kind is Kind.SHELL:
        problem = _shell_problem(call, data)
        if problem:
            return problem
    elif call.spec.patch_keys:
        problem = _patch_problem(call, data)
        if problem:
            return problem
    elif kind in (Kind.FILE_READ, Kind.FILE_WRITE, Kind.FILE_EDIT):
        if not call.paths:
            return f"{call.tool} needs a file path in {_keys(call.spec.path_keys)}"
    if kind in (Kind.FILE_READ, Kind.FILE_WRITE, Kind.FILE_EDIT) and any("\x00" in path for path in call.paths):
        return f"{call.tool} path contains a NUL byte"
    if kind is Kind.WEB_FETCH:
        url = data.get("url")
        if not isinstance(url, str) or not url.strip():
            return f"{call.tool} needs a 'url' string (or URLs to a single host in its prompt)"
    if len(repr(data)) > MAX_INPUT_CHARS:
        return f"the input of {call.tool} is larger than {MAX_INPUT_CHARS} characters"
    return None


class ValidateInput:
    """Deny calls whose input does not fit the tool's schema."""

    name = "validate"
    stage = 0
    can_deny = True

    def check(self, call: ToolCall, ctx: Any) -> LayerResult | None:
        problem = _problem(call)
        if problem is None:
            return None
        return LayerResult(Verdict.DENY, f"malformed call: {problem}", immune=True, source=Source.BUILTIN)
