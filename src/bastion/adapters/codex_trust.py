"""Codex's hook trust: Codex runs a hook only once the person has trusted it, and it skips
an untrusted one without a word — so a Codex with bastion installed but not trusted runs
unguarded.

Observed with Codex 0.169 (and checked against ``codex app-server``'s ``hooks/list`` in
the end-to-end tests): the /hooks review writes, to ``$CODEX_HOME/config.toml``, one
table per trusted handler::

    [hooks.state."<hooks.json path>:<event>:<group>:<handler>"]
    trusted_hash = "sha256:<hex>"

``<event>`` is the event's snake_case name (``pre_tool_use``), ``<group>`` and
``<handler>`` are positions in hooks.json, and the hash is SHA-256 of the canonical JSON
(sorted keys, no spaces) of the event, the matcher and the handler with its timeout
defaulted to 600 s and ``async`` spelled out. It covers the command's exact text, so a
changed command is untrusted again. ``bastion install codex --trust`` writes the same
tables for bastion's own hooks (the person installing is the one trusting), ``bastion
doctor`` compares them, and uninstall removes them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import state
from ..shell.syntax.lazyre import LazyPattern
from .client_files import InstallError, codex_home, is_bastion_handler

#: Codex's names of the events bastion registers, as its trust keys spell them.
EVENT_KEYS = {"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use"}
DEFAULT_TIMEOUT = 600
#: The line of a trust table that holds its hash (replaced when the table is rewritten).
_TRUSTED_HASH = LazyPattern(r"\s*trusted_hash\s*=")


def config_path(env: Mapping[str, str]) -> Path:
    return codex_home(env) / "config.toml"


def handler_hash(event: str, matcher: Any, handler: Mapping[str, Any]) -> str:
    """Codex's trust hash of one command handler of a hooks.json group."""
    normal: dict[str, Any] = {"type": "command", "command": handler.get("command"),
                              "timeout": max(1, int(handler.get("timeout") or DEFAULT_TIMEOUT)),
                              "async": bool(handler.get("async", False))}
    if handler.get("statusMessage") is not None:
        normal["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": EVENT_KEYS.get(event, event), "hooks": [normal]}
    if matcher is not None:
        identity["matcher"] = matcher
    blob = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()


def bastion_hooks(hooks_path: Path, data: Mapping[str, Any]) -> dict[str, str]:
    """``{trust key: current hash}`` of bastion's handlers in a hooks.json."""
    found: dict[str, str] = {}
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if is_bastion_handler(handler):
                    key = f"{hooks_path}:{EVENT_KEYS.get(event, event)}:{g}:{h}"
                    found[key] = handler_hash(event, group.get("matcher"), handler)
    return found


def trusted_hashes(env: Mapping[str, str]) -> dict[str, str]:
    """``{trust key: trusted hash}`` from Codex's config.toml (empty when unreadable)."""
    import tomllib

    try:
        config = tomllib.loads(config_path(env).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    hooks = config.get("hooks")
    table = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(table, dict):
        return {}
    return {key: str(value["trusted_hash"]) for key, value in table.items()
            if isinstance(value, dict) and isinstance(value.get("trusted_hash"), str)}


def untrusted(hooks_path: Path, data: Mapping[str, Any], env: Mapping[str, str]) -> list[str]:
    """The trust keys of bastion's handlers Codex would skip (not trusted, or trusted
    for an earlier command)."""
    trusted = trusted_hashes(env)
    return [key for key, digest in bastion_hooks(hooks_path, data).items() if trusted.get(key) != digest]


def _header(key: str) -> str:
    return f"[hooks.state.{json.dumps(key, ensure_ascii=False)}]"


def _edit(text: str, key: str, digest: str | None) -> str:
    """``text`` with the table of ``key`` set to ``digest`` (None: removed)."""
    lines = text.splitlines(keepends=True)
    header = _header(key)
    start = next((i for i, line in enumerate(lines) if line.strip() == header), None)
    if start is None:
        if digest is None:
            return text
        lead = "" if not text or text.endswith("\n") else "\n"
        return f"{text}{lead}\n{header}\ntrusted_hash = {json.dumps(digest)}\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    if digest is None:
        while start > 0 and not lines[start - 1].strip():
            start -= 1  # the blank line install put before the table
        return "".join(lines[:start] + lines[end:])
    body = [line for line in lines[start + 1:end] if not _TRUSTED_HASH.match(line)]
    return "".join([*lines[:start + 1], f"trusted_hash = {json.dumps(digest)}\n", *body, *lines[end:]])


def _write(env: Mapping[str, str], changes: Mapping[str, str | None]) -> Path | None:
    """Apply ``{key: hash or None}`` to config.toml; the result must parse as TOML with
    exactly those values, or nothing is written."""
    import tomllib

    path = config_path(env)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read it ({exc}); trust the hook in codex with /hooks instead") from None
    new = text
    for key, digest in changes.items():
        new = _edit(new, key, digest)
    if new == text:
        return None
    try:
        state_table = tomllib.loads(new).get("hooks", {}).get("state", {})
        ok = all((state_table.get(key) or {}).get("trusted_hash") == digest for key, digest in changes.items())
    except (tomllib.TOMLDecodeError, AttributeError):
        ok = False
    if not ok:
        raise InstallError(f"{path}: bastion cannot change its hooks.state tables safely (written another way?); "
                           "trust the hook in codex with /hooks instead")
    if not new.strip() and all(digest is None for digest in changes.values()):
        path.unlink()  # nothing left but bastion's own entries: the file goes as it came
    else:
        state.write_atomic(path, new, mode=0o600)
    return path


def trust(hooks_path: Path, data: Mapping[str, Any], env: Mapping[str, str]) -> tuple[Path, bool]:
    """Trust bastion's handlers of ``hooks_path`` as they are now."""
    written = _write(env, bastion_hooks(hooks_path, data))
    return config_path(env), written is not None


def untrust(hooks_path: Path, data: Mapping[str, Any], env: Mapping[str, str]) -> Path | None:
    """Remove the trust entries of bastion's handlers (uninstall); the file when changed."""
    trusted = trusted_hashes(env)
    ours = {key: None for key, digest in bastion_hooks(hooks_path, data).items() if trusted.get(key) == digest}
    if not ours:
        return None
    try:
        return _write(env, ours)
    except InstallError:
        return None  # leave a table written another way as it is
