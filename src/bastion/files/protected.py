"""Which paths are special to the file checks: protected, credential stores, secret
files, sensitive write targets, removal targets.

The built-in paths are rows of the one path table (``bastion.paths.table``: each with its
why and example paths); this module turns its readings into the reasons ``check_access``
gives, and adds what is not in the table: bastion's own files and the patterns from
settings. Every path is a *resolved* one (see ``workspace.resolve_path``), compared
**lowercase on every platform** (spec 002 §12.7): ``.GiT/HoOkS/pre-commit`` is
``.git/hooks/pre-commit``. On a case-sensitive disk that only widens what is caught.

- *protected* (FS002, writes and deletes ask in every mode): the table's ``protected`` and
  ``startup`` rows, bastion's own files — ``state.config_dir``, ``state.state_dir``, the
  managed settings file and ``/etc/bastion`` (deleting a folder that contains them too) —
  and ``files.protected`` patterns from settings.
- *credential stores* (FS003, every access asks in every mode): the ``credential`` rows
  and ``files.credentials`` patterns; deleting a folder that contains one of the agent's
  home stores asks too.
- *sensitive write targets* (FS004): the ``secret`` and ``sensitive`` rows and
  ``files.sensitive`` patterns.
- *secret files* (FS005, reading asks): the ``secret`` rows (``.env``, key files).
- *removal targets* (FS001, denied): ``removal`` and ``delete_only`` rows, the home
  directory and its parents, each workspace root and its parents.

Extending the lists
-------------------
The ``files`` section of bastion's settings may add glob patterns::

    "files": {
      "protected":   [".husky", ".github/workflows", "~/.config/fish/config.fish"],
      "credentials": ["~/.config/rclone/rclone.conf", "/srv/vault/**"],
      "sensitive":   ["*.tfstate", "config/master.key"]
    }

``protected`` writes ask in every mode; ``credentials`` reads and writes ask in every
mode; ``sensitive`` writes ask. Patterns compare lowercase. ``*`` and ``?`` stay within
one path component, ``**`` crosses them, ``[abc]`` is a class. A pattern starting with
``/`` is absolute, ``~/`` is under the home directory; any other pattern (``.husky``,
``config/master.key``) matches that component sequence anywhere in the path. Every
pattern also covers everything below what it names. The engine passes the merged
lists in as a ``ProtectionConfig`` (``ProtectionConfig.from_settings``); settings can
only add to the built-in table, never remove from it.
"""

from __future__ import annotations

import os
from _collections_abc import Mapping  # collections.abc's classes, loaded with os
from dataclasses import dataclass

from ..globs import glob_regex
from ..paths import match as _paths
from ..std_lite import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

__all__ = [
    "ProtectionConfig",
    "DEFAULT",
    "own_paths",
    "protected_reason",
    "credential_reason",
    "sensitive_reason",
    "secret_file_reason",
    "removal_reason",
]

# --------------------------------------------------------------------------- config


def _patterns(value: Any, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"files.{key} must be a list of glob strings, got {type(value).__name__}")
    return tuple(v.strip() for v in value if v.strip())


@dataclass(frozen=True)
class ProtectionConfig:
    """Extra patterns from settings (see the module docstring) and bastion's own paths.

    ``own_paths`` holds resolved paths of bastion's settings, grants and audit files;
    ``None`` means: derive them from the process environment when first needed.
    """

    protected: tuple[str, ...] = ()
    credentials: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    own_paths: tuple[str, ...] | None = None

    @classmethod
    def from_settings(
        cls, files: Mapping[str, Any] | None, *, env: Mapping[str, str] | None = None
    ) -> ProtectionConfig:
        """Build from a merged ``files`` settings section; raises ``ValueError`` naming the key."""
        files = files or {}
        if not isinstance(files, Mapping):
            raise ValueError(f"files must be an object, got {type(files).__name__}")
        unknown = sorted(set(files) - {"protected", "credentials", "sensitive"})
        if unknown:
            raise ValueError(f"files: unknown key {unknown[0]!r} (expected protected, credentials, sensitive)")
        return cls(
            protected=_patterns(files.get("protected"), "protected"),
            credentials=_patterns(files.get("credentials"), "credentials"),
            sensitive=_patterns(files.get("sensitive"), "sensitive"),
            own_paths=None if env is None else _own_paths_from(env),
        )

    @classmethod
    def cached(cls, files: Mapping[str, Any] | None, *, env: Mapping[str, str] | None = None) -> ProtectionConfig:
        """:meth:`from_settings`, built once per distinct ``files`` section and values of
        the variables that place bastion's own files: the file layers need it on every
        call. A section that cannot be a key (or is invalid, which raises each time) is
        built afresh."""
        try:
            key = (
                tuple((name, tuple(value) if isinstance(value, list) else value) for name, value in files.items())
                if files else (),
                None if env is None else tuple(map(env.get, _OWN_PATH_VARIABLES)),
            )
            config = _CONFIGS.get(key)
        except (AttributeError, TypeError):  # not a mapping, or a value that cannot be hashed
            return cls.from_settings(files, env=env)
        if config is None:
            config = cls.from_settings(files, env=env)
            if len(_CONFIGS) >= _CONFIGS_MAX:
                _CONFIGS.clear()
            _CONFIGS[key] = config
        return config


DEFAULT = ProtectionConfig()


#: Configs already built, by settings and environment (see ``ProtectionConfig.cached``).
_CONFIGS: dict[tuple[Any, ...], ProtectionConfig] = {}
_CONFIGS_MAX = 16


#: The environment variables that decide where bastion's own files are.
_OWN_PATH_VARIABLES = (
    "HOME", "BASTION_CONFIG_DIR", "XDG_CONFIG_HOME", "BASTION_STATE_DIR", "XDG_STATE_HOME", "BASTION_MANAGED_SETTINGS",
)


def _own_paths_from(env: Mapping[str, str]) -> tuple[str, ...]:
    return _own_paths_for(tuple(env.get(name) or "" for name in _OWN_PATH_VARIABLES))


@lru_cache(maxsize=16)
def _own_paths_for(values: tuple[str, ...]) -> tuple[str, ...]:
    """Resolved once per distinct environment: this runs on every check."""
    from .. import state
    from .workspace import resolve_path

    env = {name: value for name, value in zip(_OWN_PATH_VARIABLES, values, strict=True) if value}
    home = env.get("HOME") or os.path.expanduser("~")
    raw = (state.config_folder(env), state.state_folder(env), state.managed_settings_file(env), "/etc/bastion")
    return tuple(dict.fromkeys(resolve_path(str(p), cwd="/", home=home) for p in raw))


@lru_cache(maxsize=1)
def _own_paths_from_environ() -> tuple[str, ...]:
    return _own_paths_from(dict(os.environ))


def own_paths(config: ProtectionConfig) -> tuple[str, ...]:
    """bastion's own settings/state paths (resolved) for this config."""
    return config.own_paths if config.own_paths is not None else _own_paths_from_environ()


# --------------------------------------------------------------------------- globs






def _path_regex(pattern: str, home: str) -> str | None:
    """One settings/built-in path pattern → regex text over a lowercase absolute path."""
    pat = pattern.strip().lower()
    if pat == "~" or pat.startswith("~/"):
        if not home:
            return None
        pat = home.lower().rstrip("/") + pat[1:]
    pat = pat.rstrip("/") if pat != "/" else pat
    if not pat:
        return None
    below = "(?:/.*)?"
    if pat == "/":
        return "/.*"
    if pat.startswith("/"):
        return glob_regex(pat) + below
    return ".*/" + glob_regex(pat) + below


class _PathGlobs:
    """A compiled set of path patterns; ``engine`` is ``re`` (built-in) or ``re2`` (settings)."""

    __slots__ = ("_match",)

    def __init__(self, patterns: Iterable[str], home: str, engine: str) -> None:
        parts = [r for p in patterns if (r := _path_regex(p, home))]
        self._match: Callable[[str], Any] | None = None
        if parts:
            text = "|".join(f"(?:{r})" for r in parts)
            if engine == "re2":
                import re2

                self._match = re2.compile(text).fullmatch
            else:
                import re

                self._match = re.compile(text, re.DOTALL).fullmatch

    def __call__(self, lower_path: str) -> bool:
        return self._match is not None and self._match(lower_path) is not None


@lru_cache(maxsize=64)
def _extra(config: ProtectionConfig, home: str) -> tuple[_PathGlobs, _PathGlobs, _PathGlobs]:
    """Compiled settings patterns for one config and home (cached per process)."""
    return (
        _PathGlobs(config.protected, home, "re2"),
        _PathGlobs(config.credentials, home, "re2"),
        _PathGlobs(config.sensitive, home, "re2"),
    )


@lru_cache(maxsize=64)
def _own_lower(paths: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p.lower().rstrip("/") or "/" for p in paths)


# --------------------------------------------------------------------------- matchers


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/") or root == "/"


def _component(hit: Any) -> str:
    """The folder name of a protected-folder row (``.git`` of ``.git/``)."""
    return next(p for p in hit.row.patterns if p.endswith("/")).rstrip("/").rpartition("/")[2]


def protected_reason(
    resolved: str, *, home: str, config: ProtectionConfig = DEFAULT, deleting: bool = False
) -> str | None:
    """Why changing ``resolved`` is a protected change, or None.

    ``deleting`` also protects directories that *contain* bastion's own files.
    """
    lower = resolved.lower()
    for hit in _paths.protected_rows(resolved, home):
        if hit.via == "folder":
            return f"{_component(hit)} is a protected directory ({hit.row.why})"
        name = lower.rstrip("/").rpartition("/")[2]
        return f"{name} is a protected file ({hit.row.why})"
    for own in _own_lower(own_paths(config)):
        if _within(lower, own):
            return "bastion's own settings and state are protected"
        if deleting and own.startswith(lower.rstrip("/") + "/"):
            return "it contains bastion's own settings and state"
    if config.protected and _extra(config, home)[0](lower):
        return "it matches a protected pattern from settings"
    return None


def credential_reason(
    resolved: str, *, home: str, config: ProtectionConfig = DEFAULT, deleting: bool = False
) -> str | None:
    """Why ``resolved`` is (inside) a credential store, or None.

    ``deleting`` also catches directories that contain one of the agent's home stores
    (``rm -rf ~/.config`` takes ``~/.config/gcloud`` with it).
    """
    hits = _paths.credential_rows(resolved, home)
    if hits:
        hit = hits[0]
        return f"{'credential file' if hit.via == 'name' else 'credential store'}: {hit.row.title}"
    if config.credentials and _extra(config, home)[1](resolved.lower()):
        return "it matches a credential pattern from settings"
    if deleting:
        contained = _paths.contained_stores(resolved, home)
        if contained:
            return f"it contains a credential store ({contained[0].title})"
    return None


def sensitive_reason(resolved: str, *, home: str, config: ProtectionConfig = DEFAULT) -> str | None:
    """Why writing ``resolved`` touches a sensitive file, or None."""
    hits = _paths.sensitive_rows(resolved, home)
    if hits:
        name = resolved.lower().rstrip("/").rpartition("/")[2]
        folder = next((h for h in hits if h.via == "folder"), None)
        if folder is not None and len(hits) == 1:
            return f"it is inside a {_component(folder)} folder"
        return f"{name} looks like a secret or key file"
    if config.sensitive and _extra(config, home)[2](resolved.lower()):
        return "it matches a sensitive pattern from settings"
    return None


def secret_file_reason(resolved: str, *, home: str = "") -> str | None:
    """Why *reading* ``resolved`` may expose secrets (``.env`` files, key files), or None."""
    if _paths.secret_rows(resolved, home):
        name = resolved.lower().rstrip("/").rpartition("/")[2]
        return f"{name} usually holds secrets"
    return None


def removal_reason(resolved: str, *, home: str, roots: Iterable[str] = ()) -> str | None:
    """Why deleting ``resolved`` would be catastrophic, or None (see ``paths.match.removal_reason``)."""
    return _paths.removal_reason(resolved, home=home, roots=roots)
