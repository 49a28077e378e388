"""Policy: the rule grammar, settings sources and trust, guard plugins and grants.

The public names are re-exported here but loaded on first use (PEP 562), so importing
one submodule on the hook's path (say ``bastion.policy.rules``) does not pull in the
others. Nothing here imports PyYAML; only loading an actual guard file does.
"""

from __future__ import annotations

from ..std_lite import import_module

_EXPORTS = {
    "Rule": "rules",
    "RuleError": "rules",
    "parse_rule": "rules",
    "normalize_command": "rules",
    "Policy": "settings",
    "load_policy": "settings",
    "find_project_root": "settings",
    "is_trusted": "settings",
    "trust": "settings",
    "untrust": "settings",
    "trusted_roots": "settings",
    "PluginGuard": "plugins",
    "PluginPattern": "plugins",
    "load_plugins": "plugins",
    "grant_key": "grants",
    "add_session_grant": "grants",
    "session_grants": "grants",
    "save_always_rule": "grants",
    "SettingsWriteError": "grants",
}

__all__ = sorted(_EXPORTS)

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``X as X``: the re-export form that type checkers and linters read
    from typing import Any

    from .grants import (
        SettingsWriteError as SettingsWriteError,
        add_session_grant as add_session_grant,
        grant_key as grant_key,
        save_always_rule as save_always_rule,
        session_grants as session_grants,
    )
    from .plugins import (
        PluginGuard as PluginGuard,
        PluginPattern as PluginPattern,
        load_plugins as load_plugins,
    )
    from .rules import (
        Rule as Rule,
        RuleError as RuleError,
        normalize_command as normalize_command,
        parse_rule as parse_rule,
    )
    from .settings import (
        Policy as Policy,
        find_project_root as find_project_root,
        is_trusted as is_trusted,
        load_policy as load_policy,
        trust as trust,
        trusted_roots as trusted_roots,
        untrust as untrust,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
