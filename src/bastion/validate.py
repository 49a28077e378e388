"""Layer 0: is the call well formed for its kind of tool?

A malformed call is denied with a message that says what is wrong, so the agent can
correct itself; it never reaches a layer that might misread it.

Each tool's catalog entry names exactly the fields its client executes (Claude Code's
``Bash`` runs ``command``, Codex's ``exec_command`` runs ``cmd`` in ``workdir``, Gemini's
``run_shell_command`` runs ``command`` in ``dir_path``). A call that carries another
command or directory field besides those — ``{"cmd": "rm -rf ~", "command": "ls"}`` —
is refused: bastion would otherwise judge one field while the client runs the other.

Before any of that, :func:`parse_input` turns the raw bytes of a call (a hook payload, a
``bastion check`` call, one line of ``--batch``) into a JSON object, or refuses them with
one line that says why. It is the one gate for every entry point — the CLI, the hook in
its own process and the decision server all hand it the same bytes and the same
directory — so the same input gets the same answer wherever it is decided.
"""

from __future__ import annotations

from _collections_abc import Mapping  # collections.abc's classes, loaded with os

from .model import TOOL_CATALOG, Kind, LayerResult, Source, ToolCall, Verdict
from .precompiled import pattern as compiled_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .core.context import Context

#: Longest input bastion analyses; larger ones are refused rather than half-read.
MAX_INPUT_CHARS = 1_000_000
#: Most bytes of one call's raw JSON bastion reads (checked before parsing): room for a
#: call of MAX_INPUT_CHARS characters in any UTF-8, so that limit still says why.
MAX_INPUT_BYTES = 4 * MAX_INPUT_CHARS
#: Deepest nesting of arrays and objects in one call (checked before parsing, so no
#: parser or walker can run out of stack); real tool calls nest a handful of levels.
MAX_DEPTH = 100

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
    others = COMMAND_FIELDS.difference(spec.command_keys)
    extra = sorted(k for k in others if data.get(k) is not None) if not others.isdisjoint(data) else []
    if extra:
        return (f"{call.tool} runs the command in {_keys(spec.command_keys)}, but the call also carries {_keys(extra)}; "
                "refused rather than guessing which one runs")
    others = DIRECTORY_FIELDS.difference(spec.workdir_keys)
    extra = sorted(k for k in others if data.get(k) is not None) if not others.isdisjoint(data) else []
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
    command = call.command
    if command is None:
        return f"{call.tool} needs a command string in {_keys(spec.command_keys)}"
    if not command.strip():
        return f"{call.tool} got an empty command"
    if "\x00" in command:
        return f"{call.tool} command contains a NUL byte"
    return None


def _posix_shell(program: str) -> bool:
    """A known POSIX shell, by name or from a standard bin directory (not a look-alike
    program that is merely called ``bash``)."""
    import posixpath

    from .shell.catalog.catalog import STANDARD_BIN_DIRS

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

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None:
        problem = _problem(call)
        if problem is None:
            return None
        return LayerResult(Verdict.DENY, f"malformed call: {problem}", immune=True, source=Source.BUILTIN)


# --------------------------------------------------------------------------- raw input


class InputError(ValueError):
    """Raw input that is not a call bastion can read; the message is one line.

    ``data`` is the JSON object when the problem was found after parsing, so a caller
    can still echo its ``id`` or read the client's permission mode for its answer."""

    def __init__(self, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.data = data


#: The fields around a call's tool input, in the hook clients' spelling and in
#: ``bastion check``'s, with the JSON type each must have when present (null = absent).
#: A value of another type is refused: bastion must not judge a call by a guess at what
#: ``{"cwd": 5}`` or ``{"session_id": {}}`` means.
ENVELOPE_FIELDS: dict[str, type] = {
    "hook_event_name": str, "tool_name": str, "tool": str, "tool_input": dict, "input": dict,
    "cwd": str, "session_id": str, "permission_mode": str, "mode": str, "agent": str,
}
_JSON_TYPES = {dict: "a JSON object", list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "a boolean", type(None): "null"}
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_patterns: dict[str, Any] = {}  # compiled patterns and the strict decoder, built on first use


def _pattern(name: str, text: str) -> Any:
    if name not in _patterns:
        _patterns[name] = compiled_pattern(text)  # this module's own text: kept, built without re
    return _patterns[name]


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _depth(text: str) -> int:
    """How deep the JSON text nests arrays and objects, brackets inside strings not
    counted; linear in the text (a string without its closing quote runs to the end)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0  # too few openers to nest deeper than the limit
    from itertools import accumulate

    bare = _pattern("string", r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?').sub("", text)
    brackets = _pattern("other", r"[^\[\]{}]+").sub("", bare)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _not_a_constant(name: str) -> Any:
    raise InputError(f"{name} is not a JSON number (non-finite numbers are refused)")


def _finite(text: str) -> float:
    import math

    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the number {_show(text)} is out of range (non-finite numbers are refused)")
    return value


def _loads(text: str) -> Any:
    from . import fastjson

    if _depth(text) > MAX_DEPTH:
        raise InputError(f"the JSON nests deeper than {MAX_DEPTH} levels")
    if "decoder" not in _patterns:
        _patterns["decoder"] = fastjson.Decoder(parse_constant=_not_a_constant, parse_float=_finite)
    try:
        return _patterns["decoder"].decode(text)
    except fastjson.JSONDecodeError as exc:
        raise InputError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except InputError:
        raise
    except RecursionError:
        raise InputError(f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise InputError(f"invalid JSON: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


def _text_only(data: dict[str, Any], text: str) -> None:
    """Refuse lone surrogates (``"\\ud800"``): not text, so nothing can print, log or
    pass them on. Only a ``\\uD8xx``–``\\uDFxx`` escape makes one; pairs are fine."""
    if not _pattern("surrogate", r"\\u[dD][89a-fA-F]").search(text):
        return
    from . import fastjson

    try:
        fastjson.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("the JSON holds a lone surrogate escape (\\ud800-\\udfff), which is not text", data) from None


def _envelope(data: dict[str, Any], cwd: str | None) -> None:
    for key, kind in ENVELOPE_FIELDS.items():
        value = data.get(key)
        if value is not None and not isinstance(value, kind):
            raise InputError(f'"{key}" must be {_JSON_TYPES[kind]}, not {_JSON_TYPES.get(type(value), "that")}', data)
    where = data.get("cwd")
    if where is None:
        if not cwd:
            raise InputError("the call names no \"cwd\" and the caller's own folder is gone", data)
        where = cwd
    elif not where.startswith("/"):
        raise InputError(f'"cwd" must be an absolute path, not {_show(where)}', data)
    if "\x00" in where:
        raise InputError('"cwd" contains a NUL byte', data)
    try:
        where.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f'"cwd" is not text: {_show(where)}', data) from None
    import os

    data["cwd"] = os.path.normpath(where)


def parse_input(raw: bytes | None, *, cwd: str | None) -> dict[str, Any]:
    """The JSON object of one call from its raw bytes, or InputError saying why not.

    ``raw`` is None when there was nothing to read (stdin closed). ``cwd`` is the
    caller's own directory (absolute; None when it is gone), the call's ``cwd`` when it
    names none; a ``cwd`` it names must be absolute, since a relative one means whatever
    the reading process's directory happens to be. Size and nesting are bounded before parsing;
    the text must be UTF-8 and strict JSON (no ``NaN``, no ``Infinity``, no lone
    surrogates); the envelope's fields must have their types (:data:`ENVELOPE_FIELDS`).
    On success ``cwd`` is always present, absolute and normalised."""
    if raw is None:
        raise InputError("stdin is closed: there is no call to read")
    if len(raw) > MAX_INPUT_BYTES:
        raise InputError(f"the call is larger than {MAX_INPUT_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the call is not UTF-8 at byte {exc.start}: {exc.reason}") from None
    if not text.strip():
        raise InputError("the input is empty: no call given")
    data = _loads(text)
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object, not {_JSON_TYPES.get(type(data), 'that')}")
    _text_only(data, text)
    _envelope(data, cwd)
    return data
