"""What a call runs, touches or fetches, read from its input: the one list of the input
fields that say it (the OpenTelemetry attributes and ``bastion replay``'s examples)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The input fields that say what a call runs, touches or fetches (the first one set of
#: each kind): the OpenTelemetry attributes and ``bastion replay``'s examples show them.
TARGET_FIELDS = {
    "command": ("command", "cmd"),
    "path": ("file_path", "path", "notebook_path", "absolute_path", "dir_path", "directory"),
    "url": ("url", "uri"),
}


def targets(tool_input: Any) -> dict[str, str]:
    """``{"command"|"path"|"url": text}`` for a call's input (a command given as a list of
    words is joined)."""
    out: dict[str, str] = {}
    if not isinstance(tool_input, Mapping):
        return out
    for kind, keys in TARGET_FIELDS.items():
        for key in keys:
            value = tool_input.get(key)
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                value = " ".join(value)
            if isinstance(value, str) and value:
                out[kind] = value
                break
    return out
