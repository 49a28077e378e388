"""Grants (spec 000): "allow for this session" and "always allow" as stored state.

Session grants live in the session's state file under ``"grants"``; an "always" grant
becomes an allow rule in a bastion settings file. Both are pure storage: whether a call
may get a grant at all (never for destructive calls) is the caller's decision.

Several hook processes may write at once, so every change happens under the file's
lock and is written atomically; a settings file that is not valid JSON is never
overwritten (the user's data matters more than the new rule).
"""

from __future__ import annotations

import os

from .. import fastjson, state
from ..model import Kind, ToolCall
from .rules import BEHAVIORS, RuleError, normalize_command, parse_rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any


class SettingsWriteError(ValueError):
    """A settings file bastion refuses to change; the message names the file."""


# --------------------------------------------------------------------------- keys


def grant_key(call: ToolCall, normalized_command: str | None = None) -> str:
    """What a grant covers: ``Bash:<command, whitespace collapsed>`` for shell calls,
    the full name for MCP tools, ``Write:<absolute path>`` for file tools (approving an
    edit of ``src/a.py`` must not approve ``/etc/motd``), the canonical tool otherwise."""
    if call.kind is Kind.SHELL:
        command = normalized_command if normalized_command is not None else (call.command or "")
        return "Bash:" + normalize_command(command)
    if call.kind is Kind.MCP:
        return call.tool
    if call.paths:
        import os.path

        paths = sorted(os.path.normpath(os.path.join(call.cwd, os.path.expanduser(p))) for p in call.paths)
        return f"{call.canonical_tool}:{'|'.join(paths)}"
    if call.kind is Kind.WEB_FETCH and isinstance(call.input.get("url"), str):
        return f"{call.canonical_tool}:{call.input['url']}"
    return call.canonical_tool


# --------------------------------------------------------------------------- session grants


def add_session_grant(session_id: str, key: str, env: Mapping[str, str] | None = None) -> None:
    """Remember ``key`` for the session; other keys of the session file are kept."""
    path = state.session_path(session_id, env)

    def change(value: Any) -> Any:
        data = value if isinstance(value, dict) else {}
        grants = data.get("grants")
        grants = [g for g in grants if isinstance(g, str)] if isinstance(grants, list) else []
        if key not in grants:
            grants.append(key)
        data["grants"] = grants
        return data

    state.update_json(path, change, {})


def session_grants(session_id: str, env: Mapping[str, str] | None = None) -> frozenset[str]:
    """The session's grant keys (a missing or unreadable file has none)."""
    data = state.read_json(state.session_path(session_id, env), {})
    grants = data.get("grants") if isinstance(data, dict) else None
    if not isinstance(grants, list):
        return frozenset()
    return frozenset(g for g in grants if isinstance(g, str))


# --------------------------------------------------------------------------- "always" rules


def _base_dir(settings_path: Path, env: Mapping[str, str]) -> str:
    """Where relative path rules of this file are anchored (see ``settings``)."""
    if settings_path.parent.name in (".bastion", ".claude"):
        return str(settings_path.parent.parent)
    return env.get("HOME") or os.path.expanduser("~")


def _check(rule: str, behavior: str, examples: Sequence[str], settings_path: Path, env: Mapping[str, str],
           not_examples: Sequence[str] = ()) -> None:
    if behavior not in BEHAVIORS:
        raise SettingsWriteError(f"cannot save rule {rule!r}: behavior must be allow, deny or ask, not {behavior!r}")
    parsed = parse_rule(rule, behavior, source="user", origin=str(settings_path), base_dir=_base_dir(settings_path, env))
    home = env.get("HOME") or os.path.expanduser("~")
    for example in examples:
        if not parsed.matches_example(example, home=home):
            raise SettingsWriteError(f"cannot save rule {rule!r}: it does not match its own example {example!r}")
    for example in not_examples:
        if parsed.matches_example(example, home=home):
            raise SettingsWriteError(f"cannot save rule {rule!r}: it matches {example!r}, which it must not")


def _load_for_update(settings_path: Path) -> dict[str, Any]:
    try:
        raw = settings_path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    if not raw.strip():
        return {}
    try:
        data = fastjson.loads(raw)
    except fastjson.JSONDecodeError as exc:
        raise SettingsWriteError(
            f"{settings_path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}; "
            "not changing it (fix the file, then save the rule again)"
        ) from None
    if not isinstance(data, dict):
        raise SettingsWriteError(f"{settings_path}: settings must be a JSON object; not changing it")
    return data


def save_always_rule(
    settings_path: str | os.PathLike[str],
    rule: str,
    *,
    examples: Sequence[str] = (),
    behavior: str = "allow",
    env: Mapping[str, str] | None = None,
    not_examples: Sequence[str] = (),
) -> None:
    """Add ``rule`` to ``permissions.<behavior>`` of a bastion settings file.

    With ``examples`` the entry is self-testing (``{"rule": ..., "match": [...]}``) and
    each example must match the rule; ``not_examples`` (saved as ``not_match``) must not.
    Every other key and entry is kept, a rule already
    present is not added twice. Raises ``RuleError`` for a malformed rule and
    ``SettingsWriteError`` (leaving the file untouched) when the file is not valid JSON
    or its ``permissions`` do not have the expected shape. ``env`` supplies HOME for
    checking path examples.
    """
    from pathlib import Path  # a person saving a rule, not the decision path

    settings_path = Path(settings_path)
    examples = [e for e in examples if isinstance(e, str) and e]
    not_examples = [e for e in not_examples if isinstance(e, str) and e]
    try:
        _check(rule, behavior, examples, settings_path, env if env is not None else os.environ, not_examples)
    except RuleError as exc:
        raise RuleError(f"cannot save rule: {exc}") from None
    with state.locked(settings_path):
        data = _load_for_update(settings_path)
        perms = data.setdefault("permissions", {})
        if not isinstance(perms, dict):
            raise SettingsWriteError(f"{settings_path}: 'permissions' is not an object; not changing it")
        entries = perms.setdefault(behavior, [])
        if not isinstance(entries, list):
            raise SettingsWriteError(f"{settings_path}: 'permissions.{behavior}' is not a list; not changing it")
        if any(e == rule or (isinstance(e, dict) and e.get("rule") == rule) for e in entries):
            return
        entry: dict[str, Any] = {"rule": rule}
        if examples:
            entry["match"] = list(examples)
        if not_examples:
            entry["not_match"] = list(not_examples)
        entries.append(entry if len(entry) > 1 else rule)
        import json  # indented text is json's Python encoder; only a saved rule needs it

        # configuration, not a secret: readable like any project file (an existing file keeps its mode)
        state.write_atomic(settings_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", mode=0o644)
