"""Facts bastion reads before anything heavy is loaded: where its own folders are, and
whether the LLM reviewer is on.

Each is needed by a path that must stay cheap — the hook's thin client
(``hook.client``) keys its server's socket on the state folder, and ``Guard`` must not
import the review package when the reviewer is off — so each is defined once here, and
``state`` and ``review.config`` hand these same definitions on. Imports only ``os``
(no ``__future__``, no ``typing``, no ``pathlib``): the thin client loads this module.
"""

import os  # only os: the hook's thin client imports this module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: The words that switch something on (``BASTION_REVIEW=yes``).
TRUE = frozenset({"1", "true", "yes", "on"})


def env_dir(env: "Mapping[str, str]", own: str, xdg: str, fallback: str) -> str:
    """``$own``, else ``$xdg/bastion``, else ``~/<fallback>/bastion`` (``~`` expanded)."""
    if env.get(own):
        return os.path.expanduser(env[own])
    base = env.get(xdg) or os.path.join(env.get("HOME") or os.path.expanduser("~"), fallback)
    return os.path.join(os.path.expanduser(base), "bastion")


def state_dir(env: "Mapping[str, str]") -> str:
    """User state (trust, grants, audit): ``$BASTION_STATE_DIR``, else ``$XDG_STATE_HOME/bastion``."""
    return env_dir(env, "BASTION_STATE_DIR", "XDG_STATE_HOME", ".local/state")


def config_dir(env: "Mapping[str, str]") -> str:
    """User configuration: ``$BASTION_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/bastion``."""
    return env_dir(env, "BASTION_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")


def review_enabled(section: "Mapping[str, Any]", env: "Mapping[str, str]") -> bool:
    """Is the reviewer on? ``BASTION_REVIEW`` (1/true/yes/on) beats settings
    ``review.enabled``; off by default."""
    flag = (env.get("BASTION_REVIEW") or "").strip().lower()
    if flag:
        return flag in TRUE
    return section.get("enabled") is True
