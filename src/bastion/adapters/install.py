"""``bastion install|uninstall CLIENT [--user|--project]``: the hook entry in a client's settings.

Install merges bastion's hook into the client's JSON settings and changes nothing else:
other tools' hooks stay, an existing bastion entry is updated in place, running it twice
changes nothing the second time. Before the first change it copies the file to
``<file>.bastion-backup``. Uninstall removes exactly bastion's entries; when nothing else
changed since the install, it restores the backup byte for byte (or removes the file
again when install created it).

The hook command is the absolute path of the interpreter that has bastion installed
(``sys.executable -I -m bastion hook CLIENT``): a version-manager shim on ``PATH`` can cost
tens of milliseconds per tool call, ``-I`` keeps a project's own folders off
``sys.path``, and ``|| exit 2`` makes a hook that cannot even start block the call
instead of letting it through.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import state

BACKUP_SUFFIX = ".bastion-backup"
#: Marks a hook command as bastion's (install updates it, uninstall removes it).
MARKER = "-m bastion hook "


@dataclass(frozen=True)
class ClientHooks:
    """Where a client keeps its hooks and what bastion adds there."""

    name: str
    #: (event, matcher) pairs bastion registers.
    events: tuple[tuple[str, str], ...]
    #: Extra keys of bastion's hook handler (timeouts in the client's unit).
    handler: Mapping[str, Any]
    user_file: Callable[[Mapping[str, str]], Path]
    project_file: Callable[[Path], Path]
    #: Shown after a successful install.
    note: str = ""


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


CLIENTS: dict[str, ClientHooks] = {
    "claude-code": ClientHooks(
        "claude-code",
        events=(("PreToolUse", "*"), ("PostToolUse", "*")),
        handler={"timeout": 30},
        user_file=lambda env: Path(env["CLAUDE_CONFIG_DIR"]) / "settings.json"
        if env.get("CLAUDE_CONFIG_DIR")
        else _home(env) / ".claude" / "settings.json",
        project_file=lambda root: root / ".claude" / "settings.json",
    ),
    "codex": ClientHooks(
        "codex",
        events=(("PreToolUse", "*"), ("PostToolUse", "*")),
        handler={"timeout": 30},
        user_file=lambda env: Path(env.get("CODEX_HOME") or _home(env) / ".codex") / "hooks.json",
        project_file=lambda root: root / ".codex" / "hooks.json",
        note="Codex runs a new or changed hook only once you trust it: open codex and review it with /hooks.",
    ),
    "gemini": ClientHooks(
        "gemini",
        events=(("BeforeTool", ".*"), ("AfterTool", ".*")),
        handler={"name": "bastion", "timeout": 30000},
        user_file=lambda env: _home(env) / ".gemini" / "settings.json",
        project_file=lambda root: root / ".gemini" / "settings.json",
        note="Gemini CLI runs project hooks only in trusted folders; --user hooks run everywhere.",
    ),
}


class InstallError(ValueError):
    """A settings file bastion will not touch (broken JSON, wrong shape); one line."""


@dataclass
class Result:
    path: Path
    changed: bool
    message: str


# --------------------------------------------------------------------------- the command


def hook_command(client: str, python: str | None = None) -> str:
    """The shell command a client runs for each hook call."""
    python = python or sys.executable
    return f"{shlex.quote(python)} -I {MARKER}{client} || exit 2"


def is_bastion_handler(handler: Any) -> bool:
    return isinstance(handler, dict) and MARKER in str(handler.get("command", ""))


# --------------------------------------------------------------------------- JSON editing


def _load(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not UTF-8 text; fix or remove it, then run again") from None
    except json.JSONDecodeError as exc:
        raise InstallError(
            f"{path}:{exc.lineno}:{exc.colno}: not plain JSON ({exc.msg}); bastion will not rewrite it — "
            "fix it (comments are not kept) or add the hook by hand"
        ) from None
    if not isinstance(data, dict):
        raise InstallError(f"{path}: settings must be a JSON object, not {type(data).__name__}")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InstallError(f"{path}: 'hooks' must be an object, not {type(hooks).__name__}")
    return raw, data


def _indent(raw: bytes | None) -> int | str:
    """Keep the file's own indentation (2 spaces when there is nothing to go by)."""
    if raw:
        for line in raw.decode("utf-8", "replace").splitlines()[1:]:
            stripped = line.lstrip(" \t")
            if stripped and len(stripped) < len(line):
                lead = line[: len(line) - len(stripped)]
                return lead if "\t" in lead else len(lead)
    return 2


def _dump(data: dict[str, Any], raw: bytes | None) -> str:
    return json.dumps(data, indent=_indent(raw), ensure_ascii=False) + "\n"


def add_hooks(data: dict[str, Any], spec: ClientHooks, command: str) -> dict[str, Any]:
    """``data`` with bastion's handler in each of the client's events (a copy)."""
    data = strip_hooks(data)
    hooks = data.setdefault("hooks", {})
    for event, matcher in spec.events:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise InstallError(f"'hooks.{event}' must be a list, not {type(groups).__name__}")
        groups.append({"matcher": matcher, "hooks": [{"type": "command", "command": command, **spec.handler}]})
    return data


def strip_hooks(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without bastion's handlers, dropping the groups, events and ``hooks``
    object that only held them; containers that were empty before stay (a copy)."""
    data = copy.deepcopy(data)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    removed_any = False
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(handlers, list) and any(is_bastion_handler(h) for h in handlers):
                removed_any = True
                rest = [h for h in handlers if not is_bastion_handler(h)]
                if not rest:
                    continue
                group = {**group, "hooks": rest}
            kept.append(group)
        if len(kept) == len(groups) and kept == groups:
            continue
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    if removed_any and not hooks:
        del data["hooks"]
    return data


def has_bastion(data: dict[str, Any]) -> bool:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return False
    return any(
        is_bastion_handler(handler)
        for groups in hooks.values() if isinstance(groups, list)
        for group in groups if isinstance(group, dict) and isinstance(group.get("hooks"), list)
        for handler in group["hooks"]
    )


# --------------------------------------------------------------------------- install


def target_file(client: str, scope: str, *, cwd: str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The settings file ``install`` edits for a client and a scope (``user``/``project``)."""
    env = env if env is not None else os.environ
    spec = _spec(client)
    if scope == "user":
        return spec.user_file(env)
    if scope == "project":
        from ..policy.settings import find_project_root

        return spec.project_file(Path(find_project_root(os.path.abspath(cwd or os.getcwd()), env=env)))
    raise InstallError(f"unknown scope {scope!r} (expected user or project)")


def _spec(client: str) -> ClientHooks:
    try:
        return CLIENTS[client]
    except KeyError:
        raise InstallError(f"unknown client {client!r} (expected one of: {', '.join(CLIENTS)})") from None


def install(client: str, scope: str = "user", *, cwd: str | None = None, env: Mapping[str, str] | None = None,
            python: str | None = None) -> Result:
    """Add (or update) bastion's hook in the client's settings."""
    spec = _spec(client)
    path = target_file(client, scope, cwd=cwd, env=env)
    with _lock(env):
        raw, data = _load(path)
        new = add_hooks(data, spec, hook_command(client, python))
        if raw is not None and new == data:
            return Result(path, False, f"bastion is already installed for {client} in {path}")
        backup = Path(str(path) + BACKUP_SUFFIX)
        if raw is not None and not has_bastion(data):
            state.write_atomic(backup, raw.decode("utf-8"), mode=path.stat().st_mode & 0o777)
        state.write_atomic(path, _dump(new, raw), mode=0o644 if raw is None else 0o600)
    where = f" (backup: {backup})" if backup.exists() else ""
    note = f"\n{spec.note}" if spec.note else ""
    return Result(path, True, f"installed bastion's hook for {client} in {path}{where}{note}")


def uninstall(client: str, scope: str = "user", *, cwd: str | None = None,
              env: Mapping[str, str] | None = None) -> Result:
    """Remove bastion's hook; restore the file exactly when nothing else changed."""
    _spec(client)
    path = target_file(client, scope, cwd=cwd, env=env)
    backup = Path(str(path) + BACKUP_SUFFIX)
    with _lock(env):
        raw, data = _load(path)
        if raw is None or not has_bastion(data):
            return Result(path, False, f"bastion's hook is not installed for {client} in {path}")
        stripped = strip_hooks(data)
        original = _read_backup(backup)
        before = _loads_or_none(original) if original is not None else None
        if original is not None and before is not None and _normal(strip_hooks(before)) == _normal(stripped):
            state.write_atomic(path, original.decode("utf-8"), mode=path.stat().st_mode & 0o777)
            backup.unlink()
            how = "restored the file as it was before install"
        elif original is None and stripped == {}:
            path.unlink()
            _remove_empty_dir(path.parent)
            how = "removed the file install had created"
        else:
            state.write_atomic(path, _dump(stripped, raw), mode=path.stat().st_mode & 0o777)
            how = "removed bastion's entries" + (f" (the pre-install copy is still at {backup})" if original is not None else "")
    return Result(path, True, f"uninstalled bastion's hook for {client} from {path}: {how}")


def _normal(data: dict[str, Any]) -> dict[str, Any]:
    """Settings compared without empty hook containers (install may have filled them)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    hooks = {event: groups for event, groups in hooks.items() if groups != []}
    rest = {key: value for key, value in data.items() if key != "hooks"}
    return {**rest, "hooks": hooks} if hooks else rest


def _read_backup(backup: Path) -> bytes | None:
    try:
        return backup.read_bytes()
    except OSError:
        return None


def _loads_or_none(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def _remove_empty_dir(folder: Path) -> None:
    """Remove a client folder (``.claude``…) that only the install had put there."""
    if folder.name.startswith("."):
        try:
            folder.rmdir()  # only succeeds when it is empty
        except OSError:
            pass


def _lock(env: Mapping[str, str] | None) -> Any:
    """One install at a time; the lock lives in bastion's state folder, not the client's."""
    return state.locked(state.state_dir(env) / "install")
