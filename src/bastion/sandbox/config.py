"""The ``sandbox`` settings section, validated, with paths resolved.

```json
"sandbox": {
  "enabled": true,
  "autoAllowBashIfSandboxed": true,
  "network": {"allowedDomains": ["pypi.org", "*.pythonhosted.org"], "deniedDomains": ["evil.example"]},
  "filesystem": {"allowWrite": ["~/.cache/pip"], "denyRead": ["//srv/secrets", "~/private"]},
  "env": {"allow": ["NODE_*", "CI"]},
  "allowUnixSockets": false,
  "timeout": 120,
  "limits": {"processes": 4096, "memoryMB": 4096, "cpus": 2}
}
```

Path conventions (spec 002 §12.9): ``//path`` is absolute, ``~/path`` is under the home
directory, ``/path``, ``./path`` and ``path`` are relative to the project root (merged
settings do not remember which file a value came from, so bastion anchors them where
its rule grammar anchors ``/path``: the project).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cgroups import MIN_PROCESSES

_KNOWN = {
    "": {"enabled", "autoAllowBashIfSandboxed", "network", "filesystem", "env", "allowUnixSockets", "timeout",
         "limits"},
    "limits": {"processes", "memoryMB", "cpus"},
    "network": {"allowedDomains", "deniedDomains"},
    "filesystem": {"allowWrite", "denyRead"},
    "env": {"allow"},
}


class SandboxSettingsError(ValueError):
    """A bad ``sandbox`` section; the message names the key."""


def resolve_setting_path(path: str, *, base: str, home: str) -> str:
    """Apply the §12.9 path conventions."""
    if path.startswith("//"):
        return os.path.normpath("/" + path.lstrip("/"))
    if path == "~" or path.startswith("~/"):
        return os.path.normpath(home + path[1:])
    return os.path.normpath(os.path.join(base, path.lstrip("/")))


@dataclass(frozen=True)
class SandboxSettings:
    """The ``sandbox`` section of the settings, read and checked."""

    enabled: bool = False
    auto_allow: bool = False
    allowed_domains: tuple[str, ...] = ()
    denied_domains: tuple[str, ...] = ()
    allow_write: tuple[str, ...] = ()
    deny_read: tuple[str, ...] = ()
    env_allow: tuple[str, ...] = ()
    allow_unix_sockets: bool = False
    timeout: float | None = None
    #: Processes at once, memory in MB and CPUs for each run's process tree (cgroups).
    processes: int | None = None
    memory_mb: int | None = None
    cpus: float | None = None

    @classmethod
    def from_section(cls, section: Mapping[str, Any] | None, *, base: str, home: str) -> SandboxSettings:
        section = section or {}
        if not isinstance(section, Mapping):
            raise SandboxSettingsError("sandbox must be an object")
        _check_keys(section, "")
        network = _object(section, "network")
        filesystem = _object(section, "filesystem")
        env = _object(section, "env")
        caps = _object(section, "limits")
        timeout = section.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
            raise SandboxSettingsError("sandbox.timeout must be a positive number of seconds")

        def paths(key: str) -> tuple[str, ...]:
            return tuple(resolve_setting_path(p, base=base, home=home) for p in _strings(filesystem, "filesystem", key))

        return cls(
            enabled=_bool(section, "enabled"),
            auto_allow=_bool(section, "autoAllowBashIfSandboxed"),
            allowed_domains=_strings(network, "network", "allowedDomains"),
            denied_domains=_strings(network, "network", "deniedDomains"),
            allow_write=paths("allowWrite"),
            deny_read=paths("denyRead"),
            env_allow=_strings(env, "env", "allow"),
            allow_unix_sockets=_bool(section, "allowUnixSockets"),
            timeout=float(timeout) if timeout is not None else None,
            processes=_at_least(_positive(caps, "processes", whole=True), MIN_PROCESSES, "processes"),  # type: ignore[arg-type]
            memory_mb=_positive(caps, "memoryMB", whole=True),  # type: ignore[arg-type]
            cpus=_positive(caps, "cpus"),
        )

    @classmethod
    def from_policy(cls, policy: Any, *, home: str) -> SandboxSettings:
        sections = getattr(policy, "sections", None) or {}
        base = getattr(policy, "project_root", "") or os.getcwd()
        return cls.from_section(sections.get("sandbox"), base=base, home=home)


def rule_domains(policy: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Hosts of ``WebFetch(domain:HOST)`` allow and deny rules (spec 002 §12.9: the
    sandbox's network list follows the WebFetch rules). A rule covers the host and its
    subdomains, so each gives ``HOST`` and ``*.HOST``."""
    allowed: list[str] = []
    denied: list[str] = []
    for rule in getattr(policy, "rules", ()):
        content = rule.content or ""
        if rule.tool != "WebFetch" or not content.startswith("domain:") or rule.behavior == "ask":
            continue
        host = content[len("domain:"):].strip().lower().lstrip("*").strip(".")
        if host:
            (allowed if rule.behavior == "allow" else denied).extend((host, f"*.{host}"))
    return tuple(allowed), tuple(denied)


def credential_globs(policy: Any, home: str) -> tuple[str, ...]:
    """Absolute and ``~/`` patterns of ``files.credentials``: hidden in the sandbox too."""
    files = (getattr(policy, "sections", None) or {}).get("files") or {}
    patterns = files.get("credentials") if isinstance(files, Mapping) else None
    if not isinstance(patterns, list):
        return ()
    out = []
    for pattern in patterns:
        if isinstance(pattern, str) and pattern.startswith("/"):
            out.append(pattern)
        elif isinstance(pattern, str) and pattern.startswith("~/"):
            out.append(home + pattern[1:])
    return tuple(out)


def _check_keys(section: Mapping[str, Any], where: str) -> None:
    unknown = sorted(set(section) - _KNOWN[where])
    if unknown:
        name = f"sandbox.{where + '.' if where else ''}{unknown[0]}"
        raise SandboxSettingsError(f"unknown setting {name}")


def _object(section: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = section.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SandboxSettingsError(f"sandbox.{key} must be an object")
    _check_keys(value, key)
    return value


def _positive(section: Mapping[str, Any], key: str, *, whole: bool = False) -> float | int | None:
    value = section.get(key)
    if value is None:
        return None
    number_types = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, number_types) or value <= 0:
        kind = "a positive whole number" if whole else "a positive number"
        raise SandboxSettingsError(f"sandbox.limits.{key} must be {kind}")
    return value


def _at_least(value: float | int | None, least: int, key: str) -> float | int | None:
    if value is not None and value < least:
        raise SandboxSettingsError(f"sandbox.limits.{key} must be at least {least} (the sandbox itself needs a few)")
    return value


def _bool(section: Mapping[str, Any], key: str) -> bool:
    value = section.get(key, False)
    if not isinstance(value, bool):
        raise SandboxSettingsError(f"sandbox.{key} must be true or false")
    return value


def _strings(section: Mapping[str, Any], where: str, key: str) -> tuple[str, ...]:
    value = section.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise SandboxSettingsError(f"sandbox.{where}.{key} must be a list of non-empty strings")
    return tuple(v.strip() for v in value)
