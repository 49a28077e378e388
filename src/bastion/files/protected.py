"""Which paths are special: protected, credential stores, sensitive targets, removal targets.

Data first (the tables below), then small matchers. Every matcher takes a *resolved*
path (see ``workspace.resolve_path``) and compares it **lowercase on every platform**
(spec 002 §12.7): ``.GiT/HoOkS/pre-commit`` is ``.git/hooks/pre-commit``. On a
case-sensitive disk that only widens what is caught, which is the safe side.

The lists
---------
- ``DANGEROUS_FILES`` / ``DANGEROUS_DIRECTORIES`` — writing, editing or deleting a file
  with one of these names, or anything with such a directory among its components, is a
  *protected* change: ask, in every mode. They run code on their own (shell startup
  files, git hooks, editor tasks) or move security boundaries (agent and bastion config).
  Reading them is fine. ``.claude/worktrees/`` is structural (agents keep git worktrees
  there), so its ``.claude`` component does not count; anything else inside still does.
- bastion's own files — ``state.config_dir``, ``state.state_dir`` and the managed
  settings file (plus ``/etc/bastion``): writes and deletes are protected, and so is
  deleting any directory that contains them.
- ``HOME_CREDENTIALS`` (relative to a home directory: the agent's, ``/root``,
  ``/home/*``, ``/Users/*``), ``CREDENTIAL_NAMES`` and ``CREDENTIAL_COMPONENTS``
  (anywhere), ``SYSTEM_CREDENTIAL_GLOBS`` (absolute): *credential stores*. Reading asks
  and writing asks, in every mode; deleting a directory that contains one asks too.
- ``SENSITIVE_NAME_GLOBS`` (file names) and ``SENSITIVE_COMPONENTS`` (any ``.ssh``
  folder): *sensitive write targets* — writing asks, but a mode or allow rule may approve.
- ``SECRET_FILE_GLOBS`` — ``.env``, ``.env.*`` and direnv's ``.envrc`` anywhere: reading
  asks (they hold secrets), not immune (they are ordinary project files a trusted user
  works with).
  ``SECRET_FILE_EXEMPT`` (``.env.example``, ``.env.sample``, ``.env.template``,
  ``.env.dist``) are committed templates, not secrets: neither list applies to them.
- ``REMOVAL_TARGETS`` and ``REMOVAL_PARENTS`` — deleting ``/``, any direct child of
  ``/`` (``/tmp`` itself too), of ``/usr`` (``/bin`` → ``/usr/bin`` on merged-usr
  systems), of ``/private`` (macOS ``/tmp`` → ``/private/tmp``), of ``/home`` and
  ``/Users`` (other people's homes), the home directory and its parents, a workspace
  root or any parent of one: deny. Deleting *inside* them (``/tmp/x``) is not a
  removal target.

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
only add to the built-in lists, never remove from them.
"""

from __future__ import annotations

import fnmatch
import functools
import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..globs import glob_regex

__all__ = [
    "DANGEROUS_FILES",
    "DANGEROUS_DIRECTORIES",
    "HOME_CREDENTIALS",
    "CREDENTIAL_NAMES",
    "CREDENTIAL_COMPONENTS",
    "SYSTEM_CREDENTIAL_GLOBS",
    "SENSITIVE_NAME_GLOBS",
    "SENSITIVE_COMPONENTS",
    "SECRET_FILE_GLOBS",
    "SECRET_FILE_EXEMPT",
    "REMOVAL_TARGETS",
    "REMOVAL_PARENTS",
    "ProtectionConfig",
    "DEFAULT",
    "own_paths",
    "protected_reason",
    "credential_reason",
    "sensitive_reason",
    "secret_file_reason",
    "removal_reason",
]

# --------------------------------------------------------------------------- tables

#: File names whose change runs code later or moves a security boundary (name → why).
DANGEROUS_FILES: Mapping[str, str] = {
    ".gitconfig": "git config can set core.hooksPath or aliases that run commands",
    ".gitmodules": "submodules can pull other repositories",
    ".bashrc": "bash runs it at every shell start",
    ".bash_profile": "bash runs it at login",
    ".bash_login": "bash runs it at login",
    ".bash_logout": "bash runs it at logout",
    ".bash_aliases": "bash startup files source it",
    ".zshrc": "zsh runs it at every shell start",
    ".zshenv": "zsh runs it for every zsh, even scripts",
    ".zprofile": "zsh runs it at login",
    ".zlogin": "zsh runs it at login",
    ".zlogout": "zsh runs it at logout",
    ".profile": "login shells run it",
    ".inputrc": "readline key bindings can type and run commands",
    ".envrc": "direnv runs it on entering the directory",
    ".ripgreprc": "ripgrep config can set a --pre command",
    ".mcp.json": "MCP servers it lists run with full access",
    ".claude.json": "agent config holds permission rules and MCP servers",
    ".npmrc": "npm config can set node-options, script-shell or git, which every npm run uses",
    ".yarnrc": "yarn config can set yarn-path, a script every yarn command runs",
    ".yarnrc.yml": "yarn config can set yarnPath, a script every yarn command runs",
}

#: Directory names whose contents run code or hold agent/bastion config (name → why).
DANGEROUS_DIRECTORIES: Mapping[str, str] = {
    ".git": "git runs its hooks and obeys its config",
    ".vscode": "editor tasks and settings can run commands",
    ".idea": "IDE run configurations can run commands",
    ".claude": "agent settings, hooks, commands and agents live there",
    ".codex": "Codex CLI config sets its approval and sandbox policy",
    ".gemini": "Gemini CLI settings allow tools and define hooks",
    ".bastion": "bastion's own project settings",
}

#: Component pairs that are structural rather than dangerous: ``.claude/worktrees/``.
_STRUCTURAL = frozenset({(".claude", "worktrees")})

#: Credential stores relative to a home directory (lowercase, '/'-separated → what).
HOME_CREDENTIALS: Mapping[str, str] = {
    ".ssh": "SSH keys",
    ".aws": "AWS credentials",
    ".gnupg": "GnuPG keys",
    ".kube": "Kubernetes credentials",
    ".config/gcloud": "Google Cloud credentials",
    ".azure": "Azure credentials",
    ".docker/config.json": "Docker registry credentials",
    ".netrc": "netrc passwords",
    ".git-credentials": "git credentials",
    ".npmrc": "npm tokens",
    ".pypirc": "PyPI tokens",
    ".pgpass": "PostgreSQL passwords",
    ".my.cnf": "MySQL passwords",
    ".vault-token": "Vault token",
    ".cargo/credentials": "crates.io token",
    ".cargo/credentials.toml": "crates.io token",
    ".gem/credentials": "RubyGems token",
    ".terraform.d/credentials.tfrc.json": "Terraform Cloud token",
    ".config/gh/hosts.yml": "GitHub CLI token",
    ".config/hub": "GitHub token",
    ".claude/.credentials.json": "Claude Code login token",
    ".codex/auth.json": "Codex CLI login token",
    ".gemini/oauth_creds.json": "Gemini CLI login token",
    ".password-store": "pass password store",
    ".local/share/keyrings": "desktop keyring",
    ".mozilla/firefox": "browser profile (cookies, saved passwords)",
    ".config/google-chrome": "browser profile (cookies, saved passwords)",
    ".config/chromium": "browser profile (cookies, saved passwords)",
    ".config/bravesoftware": "browser profile (cookies, saved passwords)",
    ".config/microsoft-edge": "browser profile (cookies, saved passwords)",
    "library/application support/google/chrome": "browser profile (cookies, saved passwords)",
    "library/application support/firefox": "browser profile (cookies, saved passwords)",
    "library/application support/bravesoftware": "browser profile (cookies, saved passwords)",
    "library/application support/microsoft edge": "browser profile (cookies, saved passwords)",
    "library/cookies": "browser cookies",
    "library/keychains": "macOS keychains",
}

#: File names that are credentials wherever they are (private keys, password files).
CREDENTIAL_NAMES: Mapping[str, str] = {
    ".netrc": "netrc passwords",
    "_netrc": "netrc passwords",
    ".git-credentials": "git credentials",
    ".pgpass": "PostgreSQL passwords",
    "id_rsa": "SSH private key",
    "id_dsa": "SSH private key",
    "id_ecdsa": "SSH private key",
    "id_ecdsa_sk": "SSH private key",
    "id_ed25519": "SSH private key",
    "id_ed25519_sk": "SSH private key",
}

#: Directory names that hold credentials wherever they are (service accounts' homes).
CREDENTIAL_COMPONENTS: Mapping[str, str] = {".ssh": "SSH keys", ".gnupg": "GnuPG keys"}

#: Absolute system secrets (glob, lowercase; ``/etc/…`` also match ``/private/etc/…``).
SYSTEM_CREDENTIAL_GLOBS: Mapping[str, str] = {
    "/etc/shadow": "password hashes",
    "/etc/shadow-": "password hashes",
    "/etc/gshadow": "group password hashes",
    "/etc/gshadow-": "group password hashes",
    "/etc/master.passwd": "password hashes",
    "/etc/security/opasswd": "old password hashes",
    "/etc/sudoers": "sudo policy",
    "/etc/sudoers.d": "sudo policy",
    "/etc/ssh/ssh_host_*_key": "SSH host private key",
    "/proc/*/environ": "a process's environment (tokens, keys)",
    "/proc/*/task/*/environ": "a process's environment (tokens, keys)",
}

#: File-name globs that mark a sensitive write target (spec 001 SensitiveFileRule).
SENSITIVE_NAME_GLOBS: tuple[str, ...] = (
    ".env",
    ".env.*",
    "*credentials*",
    "*secret*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".htpasswd",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".git-credentials",
)

#: Any write below a folder with one of these names is sensitive.
SENSITIVE_COMPONENTS: frozenset[str] = frozenset({".ssh"})

#: Files whose *reading* asks because they hold secrets.
SECRET_FILE_GLOBS: tuple[str, ...] = (".env", ".env.*", ".envrc")

#: Committed templates that look like ``.env`` files but hold no secrets.
SECRET_FILE_EXEMPT: frozenset[str] = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist"})

#: Named removal targets (lowercase → what it is). Any other child of a
#: ``REMOVAL_PARENTS`` entry is a removal target too.
REMOVAL_TARGETS: Mapping[str, str] = {
    "/": "the root directory",
    "/home": "all users' home directories",
    "/users": "all users' home directories",
    "/root": "root's home directory",
    "/etc": "system configuration",
    "/usr": "system programs and libraries",
    "/bin": "system programs",
    "/sbin": "system programs",
    "/lib": "system libraries",
    "/lib32": "system libraries",
    "/lib64": "system libraries",
    "/libx32": "system libraries",
    "/boot": "the boot loader and kernels",
    "/var": "system state and databases",
    "/opt": "installed software",
    "/srv": "served data",
    "/sys": "the kernel's device tree",
    "/proc": "the kernel's process tree",
    "/dev": "device files",
    "/tmp": "the shared temporary directory",
    "/system": "the macOS system",
    "/applications": "installed applications",
    "/library": "macOS system libraries",
    "/private": "macOS system data",
    "/system/volumes/data": "the macOS data volume",
}

#: Directories every direct child of which is a removal target (lowercase).
REMOVAL_PARENTS: Mapping[str, str] = {
    "/": "a top-level system directory",
    "/usr": "a system directory",
    "/private": "a macOS system directory",
    "/system/volumes": "a macOS volume",
    "/system/volumes/data": "a top-level directory of the macOS data volume",
    "/home": "a user's home directory",
    "/users": "a user's home directory",
}

#: Parents of other users' home directories, for anchoring ``HOME_CREDENTIALS``.
_HOME_PARENTS = ("/home/", "/users/", "/system/volumes/data/home/", "/system/volumes/data/users/")
_OTHER_HOMES = ("/root", "/var/root", "/private/var/root")

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
    ) -> "ProtectionConfig":
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


DEFAULT = ProtectionConfig()


#: The environment variables that decide where bastion's own files are.
_OWN_PATH_VARIABLES = (
    "HOME", "BASTION_CONFIG_DIR", "XDG_CONFIG_HOME", "BASTION_STATE_DIR", "XDG_STATE_HOME", "BASTION_MANAGED_SETTINGS",
)


def _own_paths_from(env: Mapping[str, str]) -> tuple[str, ...]:
    return _own_paths_for(tuple(env.get(name) or "" for name in _OWN_PATH_VARIABLES))


@functools.lru_cache(maxsize=16)
def _own_paths_for(values: tuple[str, ...]) -> tuple[str, ...]:
    """Resolved once per distinct environment: this runs on every check."""
    from .. import state
    from .workspace import resolve_path

    env = {name: value for name, value in zip(_OWN_PATH_VARIABLES, values) if value}
    home = env.get("HOME") or os.path.expanduser("~")
    raw = (state.config_dir(env), state.state_dir(env), state.managed_settings_path(env), "/etc/bastion")
    return tuple(dict.fromkeys(resolve_path(str(p), cwd="/", home=home) for p in raw))


@functools.lru_cache(maxsize=1)
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


def _name_matcher(globs: Iterable[str]) -> Callable[[str], bool]:
    import re

    regex = re.compile("|".join(fnmatch.translate(g.lower()) for g in globs), re.DOTALL)
    return lambda name: regex.match(name) is not None


@functools.lru_cache(maxsize=1)
def _builtin() -> dict[str, Any]:
    """Built-in matchers, compiled on first use (never at import)."""
    system = {}
    for glob, why in SYSTEM_CREDENTIAL_GLOBS.items():
        system[glob] = why
        if glob.startswith("/etc/"):
            system["/private" + glob] = why
    first: dict[str, list[tuple[str, str]]] = {}
    for rel, why in HOME_CREDENTIALS.items():
        first.setdefault(rel.split("/", 1)[0], []).append((rel, why))
    return {
        # (literal prefix, matcher, why): the prefix test skips the regex for most paths
        "system": [(g.split("*", 1)[0], _PathGlobs([g], "", "re"), why) for g, why in system.items()],
        "home_first": {k: tuple(v) for k, v in first.items()},
        "sensitive_name": _name_matcher(SENSITIVE_NAME_GLOBS),
        "secret_name": _name_matcher(SECRET_FILE_GLOBS),
    }


@functools.lru_cache(maxsize=64)
def _extra(config: ProtectionConfig, home: str) -> tuple[_PathGlobs, _PathGlobs, _PathGlobs]:
    """Compiled settings patterns for one config and home (cached per process)."""
    return (
        _PathGlobs(config.protected, home, "re2"),
        _PathGlobs(config.credentials, home, "re2"),
        _PathGlobs(config.sensitive, home, "re2"),
    )


@functools.lru_cache(maxsize=64)
def _own_lower(paths: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p.lower().rstrip("/") or "/" for p in paths)


# --------------------------------------------------------------------------- matchers


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/") or root == "/"


def _components(lower_path: str) -> list[str]:
    return [c for c in lower_path.split("/") if c]


def protected_reason(
    resolved: str, *, home: str, config: ProtectionConfig = DEFAULT, deleting: bool = False
) -> str | None:
    """Why changing ``resolved`` is a protected change, or None.

    ``deleting`` also protects directories that *contain* bastion's own files.
    """
    lower = resolved.lower()
    parts = _components(lower)
    for i, part in enumerate(parts):
        why = DANGEROUS_DIRECTORIES.get(part)
        if why and not (i + 1 < len(parts) and (part, parts[i + 1]) in _STRUCTURAL):
            return f"{part} is a protected directory ({why})"
    if parts and parts[-1] in DANGEROUS_FILES:
        return f"{parts[-1]} is a protected file ({DANGEROUS_FILES[parts[-1]]})"
    for own in _own_lower(own_paths(config)):
        if _within(lower, own):
            return "bastion's own settings and state are protected"
        if deleting and own.startswith(lower.rstrip("/") + "/"):
            return "it contains bastion's own settings and state"
    if (config.protected and _extra(config, home)[0](lower)):
        return "it matches a protected pattern from settings"
    return None


def _home_relatives(lower: str, home_lower: str) -> list[str]:
    """``lower`` relative to every home directory it is under (the agent's, root's, others')."""
    found = []
    homes = [home_lower] if home_lower else []
    homes.extend(_OTHER_HOMES)
    for h in homes:
        if h and h != "/" and lower.startswith(h + "/"):
            found.append(lower[len(h) + 1 :])
    for parent in _HOME_PARENTS:
        if lower.startswith(parent):
            rest = lower[len(parent) :].partition("/")[2]
            if rest:
                found.append(rest)
    return found


def credential_reason(
    resolved: str, *, home: str, config: ProtectionConfig = DEFAULT, deleting: bool = False
) -> str | None:
    """Why ``resolved`` is (inside) a credential store, or None.

    ``deleting`` also catches directories that contain one of the agent's home stores
    (``rm -rf ~/.config`` takes ``~/.config/gcloud`` with it).
    """
    lower = resolved.lower()
    built = _builtin()
    home_lower = home.lower().rstrip("/")
    for rel in _home_relatives(lower, home_lower):
        for entry, why in built["home_first"].get(rel.split("/", 1)[0], ()):
            if rel == entry or rel.startswith(entry + "/"):
                return f"credential store: {why}"
    parts = _components(lower)
    if parts and parts[-1] in CREDENTIAL_NAMES:
        return f"credential file: {CREDENTIAL_NAMES[parts[-1]]}"
    for part in parts:
        if part in CREDENTIAL_COMPONENTS:
            return f"credential store: {CREDENTIAL_COMPONENTS[part]}"
    for prefix, matches, why in built["system"]:
        if lower.startswith(prefix) and matches(lower):
            return f"system secret: {why}"
    if config.credentials and _extra(config, home)[1](lower):
        return "it matches a credential pattern from settings"
    if deleting and home_lower:
        prefix = lower.rstrip("/") + "/"
        for entry, why in HOME_CREDENTIALS.items():
            if f"{home_lower}/{entry}".startswith(prefix):
                return f"it contains a credential store ({why})"
    return None


def sensitive_reason(resolved: str, *, home: str, config: ProtectionConfig = DEFAULT) -> str | None:
    """Why writing ``resolved`` touches a sensitive file, or None."""
    lower = resolved.lower()
    parts = _components(lower)
    name = parts[-1] if parts else ""
    if name and name not in SECRET_FILE_EXEMPT and _builtin()["sensitive_name"](name):
        return f"{name} looks like a secret or key file"
    for part in parts[:-1]:
        if part in SENSITIVE_COMPONENTS:
            return f"it is inside a {part} folder"
    if config.sensitive and _extra(config, home)[2](lower):
        return "it matches a sensitive pattern from settings"
    return None


def secret_file_reason(resolved: str) -> str | None:
    """Why *reading* ``resolved`` may expose secrets (``.env`` files), or None."""
    name = resolved.lower().rstrip("/").rpartition("/")[2]
    if name and name not in SECRET_FILE_EXEMPT and _builtin()["secret_name"](name):
        return f"{name} usually holds secrets"
    return None


def removal_reason(resolved: str, *, home: str, roots: Iterable[str] = ()) -> str | None:
    """Why deleting ``resolved`` would be catastrophic, or None.

    Catches ``/``, the named system directories, any direct child of a
    ``REMOVAL_PARENTS`` entry, the home directory and its parents, and each workspace
    root and its parents. Compared lowercase (``/USERS/me`` is home on macOS).
    """
    lower = resolved.lower().rstrip("/") or "/"
    if lower == "/":
        return f"it is {REMOVAL_TARGETS['/']}"
    home_lower = home.lower().rstrip("/")
    if home_lower and lower == home_lower:
        return "it is your home directory"
    if home_lower and home_lower.startswith(lower + "/"):
        return "it contains your home directory"
    for root in roots:
        root_lower = root.lower().rstrip("/") or "/"
        if lower == root_lower:
            return "it is the workspace root"
        if root_lower.startswith(lower + "/"):
            return "it contains the workspace"
    named = REMOVAL_TARGETS.get(lower)
    if named:
        return f"it is {named}"
    parent = lower.rpartition("/")[0] or "/"
    if parent in REMOVAL_PARENTS:
        return f"it is {REMOVAL_PARENTS[parent]}"
    return None
