"""MCP tool descriptions pinned across sessions: trust on first use.

The model reads a tool's description as trusted context, so a server that changes one
after the person started relying on it (a "rug pull") can order the model around
without anyone looking. ``bastion mcp-proxy`` therefore keeps the fingerprint of every
tool it let through (``tools.metadata_digest``: title, description, schemas,
annotations) in ``mcp-pins.json`` in bastion's state folder, per server name. The
first listing pins it; a later listing whose fingerprint differs is withheld and kept
as *pending*, with the start of the new text, until the person accepts it with
``bastion mcp trust SERVER`` (``cli.mcp``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["FILE_NAME", "PinBook", "Unreadable", "trust", "forget", "servers"]

FILE_NAME = "mcp-pins.json"
#: Characters of a changed description kept for ``bastion mcp trust`` to show.
EXCERPT = 400


class Unreadable(Exception):
    """The pin file exists but cannot be read or parsed."""


def _path(env: Mapping[str, str] | None) -> Path:
    from .. import state

    return state.state_dir(env if env is not None else os.environ) / FILE_NAME


def _load(env: Mapping[str, str] | None) -> dict[str, Any]:
    import json

    try:
        text = _path(env).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise Unreadable(str(exc)) from exc
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise Unreadable(str(exc)) from exc
    if not isinstance(data, dict):
        raise Unreadable("not a JSON object")
    return data


def _server(data: Any, server: str) -> dict[str, Any]:
    servers = data.get("servers") if isinstance(data, dict) else None
    entry = servers.get(server) if isinstance(servers, dict) else None
    return entry if isinstance(entry, dict) else {}


class PinBook:
    """One server's pins as read at a listing, and what that listing adds to them."""

    def __init__(self, server: str, env: Mapping[str, str] | None = None) -> None:
        self.server = server
        self.env = env
        entry = _server(_load(env), server)  # raises Unreadable
        tools = entry.get("tools")
        self.pins: dict[str, str] = {k: v for k, v in tools.items() if isinstance(v, str)} if isinstance(tools, dict) else {}
        self._new: dict[str, str] = {}
        self._pending: dict[str, dict[str, Any]] = {}

    def pinned(self, tool: str) -> str | None:
        return self.pins.get(tool)

    def pin(self, tool: str, digest: str) -> None:
        """Trust on first use: ``tool`` was seen for the first time and let through."""
        self._new[tool] = digest

    def changed(self, tool: str, digest: str, text: str) -> None:
        """``tool`` differs from its pin: keep the new one for the person to accept."""
        self._pending[tool] = {"digest": digest, "text": text[:EXCERPT], "seen": time.time()}

    def save(self) -> None:
        """Write what this listing learnt (nothing when it learnt nothing). Raises OSError."""
        if not self._new and not self._pending:
            return
        from .. import state

        def change(data: Any) -> Any:
            data = data if isinstance(data, dict) else {}
            servers = data.setdefault("servers", {})
            entry = servers.setdefault(self.server, {})
            tools = entry.setdefault("tools", {})
            for tool, digest in self._new.items():
                tools.setdefault(tool, digest)  # another proxy may have pinned it first: the first stays
            pending = entry.setdefault("pending", {})
            pending.update(self._pending)
            return data

        state.update_json(_path(self.env), change, {})


def trust(server: str, tools: list[str] | None = None, env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """Accept the pending descriptions of ``server`` (all, or only ``tools``): they
    become its pins. Returns ``(tool, start of its new text)`` for each one accepted."""
    from .. import state

    accepted: list[tuple[str, str]] = []

    def change(data: Any) -> Any:
        data = data if isinstance(data, dict) else {}
        entry = data.setdefault("servers", {}).setdefault(server, {})
        pending = entry.get("pending") if isinstance(entry.get("pending"), dict) else {}
        pins = entry.setdefault("tools", {})
        for tool in list(pending):
            if tools and tool not in tools:
                continue
            item = pending.pop(tool)
            if isinstance(item, dict) and isinstance(item.get("digest"), str):
                pins[tool] = item["digest"]
                accepted.append((tool, str(item.get("text") or "")))
        entry["pending"] = pending
        return data

    state.update_json(_path(env), change, {})
    return accepted


def forget(server: str, env: Mapping[str, str] | None = None) -> bool:
    """Drop every pin of ``server`` (its next listing is a first use again)."""
    from .. import state

    found: list[bool] = []

    def change(data: Any) -> Any:
        data = data if isinstance(data, dict) else {}
        servers = data.get("servers") if isinstance(data.get("servers"), dict) else {}
        found.append(servers.pop(server, None) is not None)
        data["servers"] = servers
        return data

    state.update_json(_path(env), change, {})
    return bool(found and found[0])


def servers(env: Mapping[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Every server's pins and pending changes, as stored (raises Unreadable)."""
    data = _load(env)
    raw = data.get("servers")
    if not isinstance(raw, dict):
        return {}
    return {name: entry for name, entry in raw.items() if isinstance(entry, dict)}
