"""Layer 0: is the call well formed for its kind of tool?

A malformed call is denied with a message that says what is wrong, so the agent can
correct itself; it never reaches a layer that might misread it.
"""

from __future__ import annotations

from typing import Any, Mapping

from .model import Kind, LayerResult, Source, ToolCall, Verdict

#: Longest input bastion analyses; larger ones are refused rather than half-read.
MAX_INPUT_CHARS = 1_000_000


def _problem(call: ToolCall) -> str | None:
    data: Any = call.input
    if not isinstance(data, Mapping):
        return f"the input of {call.tool} must be a JSON object, not {type(data).__name__}"
    kind = call.kind
    if kind is Kind.SHELL:
        if call.command is None:
            keys = " or ".join(repr(k) for k in call.spec.command_keys)
            return f"{call.tool} needs a command string in {keys}"
        if not call.command.strip():
            return f"{call.tool} got an empty command"
        if "\x00" in call.command:
            return f"{call.tool} command contains a NUL byte"
    elif kind in (Kind.FILE_READ, Kind.FILE_WRITE, Kind.FILE_EDIT):
        if call.tool != "apply_patch" and not call.paths:
            keys = " or ".join(repr(k) for k in call.spec.path_keys)
            return f"{call.tool} needs a file path in {keys}"
        if any("\x00" in path for path in call.paths):
            return f"{call.tool} path contains a NUL byte"
    elif kind is Kind.WEB_FETCH:
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
