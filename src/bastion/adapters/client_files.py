"""Facts about clients' settings files that the installer, Codex's trust records and the
tamper checks need: which files hold each client's hook entries, where Codex keeps its
files, how bastion's hook entry is recognised, and the one-line error for a file bastion
will not touch. Apart from ``install`` so that ``codex_trust`` (which ``install`` calls)
can use them without importing it back, and so that a decision (a command deleting a
settings file) reads them without the installer's imports (``pathlib``, ``json`` …)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

__all__ = ["MARKER", "PROJECT_HOOK_FILES", "InstallError", "codex_home", "home", "is_bastion_handler",
           "user_hook_file"]

#: Marks a hook command as bastion's (install updates it, uninstall removes it); every
#: form ``install.hook_command`` writes holds it, and so did the earlier ``-m bastion hook``.
MARKER = "bastion hook "


class InstallError(ValueError):
    """A settings file bastion will not touch (broken JSON, wrong shape); one line."""


#: The files in a project that hold each client's hook entries, relative to its root:
#: the shared file first, then Claude Code's one for a single person (``--local``).
PROJECT_HOOK_FILES = {
    "claude-code": (".claude/settings.json", ".claude/settings.local.json"),
    "codex": (".codex/hooks.json",),
    "gemini": (".gemini/settings.json",),
}


def _home_text(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def _codex_home_text(env: Mapping[str, str]) -> str:
    return env.get("CODEX_HOME") or os.path.join(_home_text(env), ".codex")


def user_hook_file(client: str, env: Mapping[str, str]) -> str:
    """The user's file that holds ``client``'s hook entries (one of PROJECT_HOOK_FILES' clients)."""
    if client == "claude-code":
        folder = env.get("CLAUDE_CONFIG_DIR")
        return os.path.join(folder, "settings.json") if folder else os.path.join(_home_text(env), ".claude", "settings.json")
    if client == "codex":
        return os.path.join(_codex_home_text(env), "hooks.json")
    if client == "gemini":
        return os.path.join(_home_text(env), ".gemini", "settings.json")
    raise KeyError(client)


def home(env: Mapping[str, str]) -> Path:
    from pathlib import Path

    return Path(_home_text(env))


def codex_home(env: Mapping[str, str]) -> Path:
    from pathlib import Path

    return Path(_codex_home_text(env))


def is_bastion_handler(handler: Any) -> bool:
    return isinstance(handler, dict) and MARKER in str(handler.get("command", ""))
