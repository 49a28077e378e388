"""Facts about clients' settings files that both the installer and Codex's trust
records need: where Codex keeps its files, how bastion's hook entry is recognised, and
the one-line error for a file bastion will not touch. Apart from ``install`` so that
``codex_trust`` (which ``install`` calls) can use them without importing it back."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MARKER", "InstallError", "codex_home", "home", "is_bastion_handler"]

#: Marks a hook command as bastion's (install updates it, uninstall removes it); every
#: form ``install.hook_command`` writes holds it, and so did the earlier ``-m bastion hook``.
MARKER = "bastion hook "


class InstallError(ValueError):
    """A settings file bastion will not touch (broken JSON, wrong shape); one line."""


def home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def codex_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("CODEX_HOME") or home(env) / ".codex")


def is_bastion_handler(handler: Any) -> bool:
    return isinstance(handler, dict) and MARKER in str(handler.get("command", ""))
