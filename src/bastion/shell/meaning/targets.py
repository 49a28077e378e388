"""What a path *is*: a secret, a persistence target, a critical directory, a device.

The shell analyser asks these questions of lexically resolved absolute paths (see
``paths.resolve``). The answers come from the tables below, which are plain data; the
functions only split a path into the part relative to *a* home directory (the caller's,
``/root`` or any ``/home/<user>`` / ``/Users/<user>``), because a key under another
user's home is as secret as one under ours.

Levels: ``0`` nothing special, ``1`` sensitive (ask), ``2`` high value (hard block when
dumped or, for backdoor targets, when written).
"""

from __future__ import annotations

from functools import lru_cache

from ..syntax.lazyre import LazyPattern

__all__ = [
    "secret_level",
    "persistence_level",
    "critical_reason",
    "is_block_device",
    "is_temp",
    "is_harmless_device",
    "within",
    "strip_glob",
    "home_relative",
]

# --------------------------------------------------------------------------- secrets

#: Home-relative files or directories (a trailing ``/`` means everything below) → level.
HOME_SECRETS: dict[str, int] = {
    ".ssh/": 1,  # config, known_hosts …; private keys are caught by name below
    ".aws/credentials": 2,
    ".aws/sso/cache/": 2,
    ".aws/cli/cache/": 2,
    ".aws/": 1,
    ".config/gcloud/": 2,
    ".kube/config": 2,
    ".kube/": 1,
    ".docker/config.json": 2,
    ".dockercfg": 2,
    ".netrc": 2,
    ".git-credentials": 2,
    ".gnupg/": 2,
    ".password-store/": 2,
    ".vault-token": 2,
    ".config/gh/hosts.yml": 2,
    ".config/hub": 2,
    ".azure/": 2,
    ".pgpass": 2,
    ".boto": 2,
    ".s3cfg": 2,
    ".cargo/credentials": 2,
    ".cargo/credentials.toml": 2,
    ".gem/credentials": 2,
    ".terraform.d/credentials.tfrc.json": 2,
    ".local/share/keyrings/": 2,
    ".config/op/": 2,
    ".my.cnf": 1,
    ".npmrc": 1,
    ".pypirc": 1,
    ".composer/auth.json": 1,
    ".bash_history": 1,
    ".zsh_history": 1,
    ".python_history": 1,
    ".psql_history": 1,
    ".mysql_history": 1,
    ".config/gh/": 1,
    ".mozilla/": 1,
    ".config/google-chrome/": 1,
    ".config/chromium/": 1,
}

#: Absolute files or directories (trailing ``/``: everything below) → level.
ABSOLUTE_SECRETS: dict[str, int] = {
    "/etc/shadow": 2,
    "/etc/shadow-": 2,
    "/etc/gshadow": 2,
    "/etc/gshadow-": 2,
    "/etc/master.passwd": 2,
    "/etc/security/opasswd": 2,
    "/etc/krb5.keytab": 2,
    "/var/run/secrets/": 2,
    "/run/secrets/": 2,
    "/etc/sudoers": 1,
    "/etc/sudoers.d/": 1,
    "/etc/ssl/private/": 2,
}

#: Private-key file names (any directory); their ``.pub`` twins are public.
PRIVATE_KEY_NAMES = frozenset(
    {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "identity"}
)
#: Name suffixes of key and credential containers → level.
SECRET_SUFFIXES: tuple[tuple[str, int], ...] = (
    (".pem", 1),
    (".key", 1),
    (".p12", 1),
    (".pfx", 1),
    (".jks", 1),
    (".keystore", 1),
    (".kdbx", 1),
    (".ppk", 2),
    (".tfstate", 1),
)
#: Exact names of secret-bearing files in any directory → level.
SECRET_NAMES: dict[str, int] = {
    ".env": 1,
    ".envrc": 1,
    "credentials.json": 1,
    ".htpasswd": 1,
    "secrets.yaml": 1,
    "secrets.yml": 1,
    "secrets.json": 1,
    ".git-credentials": 2,
    ".netrc": 2,
    ".pgpass": 2,
}
#: ``.env.*`` files that are templates, not secrets.
ENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema"})

# ------------------------------------------------------------------ persistence targets

#: Home-relative targets → level (2 = backdoor: hard block on write).
HOME_PERSISTENCE: dict[str, int] = {
    ".ssh/authorized_keys": 2,
    ".ssh/authorized_keys2": 2,
    ".ssh/rc": 1,
    ".ssh/config": 1,
    ".bashrc": 1,
    ".bash_profile": 1,
    ".bash_login": 1,
    ".bash_logout": 1,
    ".profile": 1,
    ".zshrc": 1,
    ".zprofile": 1,
    ".zshenv": 1,
    ".zlogin": 1,
    ".zlogout": 1,
    ".cshrc": 1,
    ".tcshrc": 1,
    ".kshrc": 1,
    ".inputrc": 1,
    ".config/fish/": 1,
    ".config/autostart/": 1,
    ".config/systemd/": 1,
    ".config/environment.d/": 1,
    ".gitconfig": 1,
    ".config/git/config": 1,
    "Library/LaunchAgents/": 1,
    ".local/share/systemd/": 1,
    ".vimrc": 1,
    ".pam_environment": 1,
    ".xinitrc": 1,
    ".xprofile": 1,
}

ABSOLUTE_PERSISTENCE: dict[str, int] = {
    "/etc/sudoers": 2,
    "/etc/sudoers.d/": 2,
    "/etc/ld.so.preload": 2,
    "/etc/passwd": 2,
    "/etc/shadow": 2,
    "/etc/group": 2,
    "/etc/gshadow": 2,
    "/etc/pam.d/": 2,
    "/etc/ld.so.conf": 1,
    "/etc/ld.so.conf.d/": 1,
    "/etc/profile": 1,
    "/etc/profile.d/": 1,
    "/etc/bash.bashrc": 1,
    "/etc/bashrc": 1,
    "/etc/zsh/": 1,
    "/etc/zshrc": 1,
    "/etc/environment": 1,
    "/etc/crontab": 1,
    "/etc/cron.d/": 1,
    "/etc/cron.hourly/": 1,
    "/etc/cron.daily/": 1,
    "/etc/cron.weekly/": 1,
    "/etc/cron.monthly/": 1,
    "/var/spool/cron/": 1,
    "/etc/systemd/": 1,
    "/lib/systemd/": 1,
    "/usr/lib/systemd/": 1,
    "/etc/init.d/": 1,
    "/etc/rc.local": 1,
    "/etc/xdg/autostart/": 1,
    "/Library/LaunchAgents/": 1,
    "/Library/LaunchDaemons/": 1,
    "/etc/ssh/sshd_config": 1,
    "/etc/ssh/sshd_config.d/": 1,
    "/etc/hosts": 1,
    "/etc/resolv.conf": 1,
    "/etc/apt/sources.list": 1,
    "/etc/apt/sources.list.d/": 1,
    "/etc/modules-load.d/": 1,
    "/etc/udev/rules.d/": 1,
}

# ------------------------------------------------------------------ critical directories

#: Directories whose recursive deletion (or recursive chmod/chown) is catastrophic.
CRITICAL_DIRS = frozenset(
    {
        "/",
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/home",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/media",
        "/mnt",
        "/opt",
        "/proc",
        "/root",
        "/run",
        "/sbin",
        "/srv",
        "/sys",
        "/usr",
        "/var",
        "/var/lib",
        "/var/log",
        "/var/spool",
        "/var/mail",
        "/var/www",
        "/var/cache",
        "/var/backups",
        "/System",
        "/Library",
        "/Applications",
        "/Users",
        "/Volumes",
        "/private",
        "/private/etc",
        "/private/var",
        "/nix",
        "/nix/store",
        "/snap",
    }
)
#: Parents whose every direct child is critical too (``/usr/lib``, ``/home/alice`` …).
CRITICAL_PARENTS = frozenset({"/usr", "/home", "/Users", "/etc", "/usr/local", "/System", "/Library", "/boot", "/var/lib"})
#: Top-level directories that are *not* critical (scratch space).
NON_CRITICAL_TOP = frozenset({"/tmp", "/var/tmp", "/private/tmp", "/dev/shm", "/workspace", "/work", "/build", "/scratch", "/data/tmp"})

TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp", "/dev/shm", "/private/var/folders")

#: Device files that are safe to read or write.
HARMLESS_DEVICES = frozenset(
    {"/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full", "/dev/ptmx"}
)

_BLOCK_DEVICE = LazyPattern(
    r"^/dev/(?:sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?"
    r"|r?disk\d+(?:s\d+)*|md\d+|md/.*|dm-\d+|mapper/.+|loop\d+|sr\d+|nbd\d+|zd\d+|cciss/.+|disk/by-.+"
    r"|root|mtdblock\d+|ubi.*|mem|kmem|port)$"
)


def within(path: str, root: str) -> bool:
    """Component-wise containment on lexical absolute paths (``/a/bc`` is not in ``/a/b``)."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root + "/")


def is_temp(path: str) -> bool:
    return any(within(path, t) for t in TEMP_DIRS)


def is_harmless_device(path: str) -> bool:
    return path in HARMLESS_DEVICES or path.startswith("/dev/fd/") or path.startswith("/dev/pts/")


def is_block_device(path: str) -> bool:
    """A disk, partition or raw memory device: writing it destroys data."""
    return bool(_BLOCK_DEVICE.match(path))


_HOME_PARENTS = ("/home/", "/Users/")


def home_relative(path: str, home: str) -> str | None:
    """The part of ``path`` below a home directory, or None when it is under none.

    Returns ``""`` for a home directory itself.
    """
    if home and home != "/":
        if path == home:
            return ""
        if path.startswith(home + "/"):
            return path[len(home) + 1 :]
    if path == "/root":
        return ""
    if path.startswith("/root/"):
        return path[6:]
    for parent in _HOME_PARENTS:
        if path.startswith(parent):
            rest = path[len(parent) :]
            user, sep, below = rest.partition("/")
            if user:
                return below if sep else ""
    return None


def _first_component(path: str) -> str:
    """``etc`` for ``/etc/ssh/x``, ``.ssh`` for ``.ssh/id_rsa``, ``.bashrc`` for itself."""
    return path.split("/", 2)[1] if path.startswith("/") else path.split("/", 1)[0]


class _Table:
    """Exact names plus ``dir/`` prefixes, split once at import time."""

    __slots__ = ("exact", "prefixes", "firsts")

    def __init__(self, table: dict[str, int]) -> None:
        self.exact = table
        #: ``dir/`` entries. A prefix of ``rel`` that ends in ``/`` is ``rel`` cut just
        #: after one of its slashes, so looking those cuts up (longest first) finds the
        #: most specific prefix without scanning every entry.
        self.prefixes = {k: v for k, v in table.items() if k.endswith("/")}
        #: The first path component of every entry (``etc`` of ``/etc/shadow``, ``.ssh``
        #: of ``.ssh/``): a path starting anywhere else matches nothing, found in one lookup.
        self.firsts = frozenset(_first_component(k) for k in table)

    def level(self, rel: str) -> int:
        if _first_component(rel) not in self.firsts:
            return 0
        level = self.exact.get(rel)
        if level is not None:
            return level
        prefixes = self.prefixes
        level = prefixes.get(rel + "/")  # ``rel`` is itself a listed directory
        if level is not None:
            return level
        cut = rel.rfind("/")
        while cut >= 0:
            level = prefixes.get(rel[: cut + 1])
            if level is not None:
                return level
            cut = rel.rfind("/", 0, cut)
        return 0


_HOME_SECRETS = _Table(HOME_SECRETS)
_ABSOLUTE_SECRETS = _Table(ABSOLUTE_SECRETS)
_HOME_PERSISTENCE = _Table(HOME_PERSISTENCE)
_ABSOLUTE_PERSISTENCE = _Table(ABSOLUTE_PERSISTENCE)


#: Lookups below are pure functions of (path, home) over the constant tables above, and
#: the same paths come back (twice per command, and across calls in one process): keep
#: the answers for short paths in small bounded caches.
_CACHED_PATH_LEN = 512
_CACHE_SIZE = 2048


def secret_level(path: str, home: str) -> int:
    """How secret the file at ``path`` is: 0 no, 1 sensitive, 2 high-value."""
    if isinstance(home, str) and len(path) <= _CACHED_PATH_LEN and len(home) <= _CACHED_PATH_LEN:
        return _secret_level_cached(path, home)
    return _secret_level(path, home)


_SECRET_SUFFIX_ENDINGS = tuple(suffix for suffix, _level in SECRET_SUFFIXES)


def _secret_level(path: str, home: str) -> int:
    base = path.rsplit("/", 1)[-1]
    level = 0
    if base in PRIVATE_KEY_NAMES or (
        base.startswith("id_") and base.split(".", 1)[0] in PRIVATE_KEY_NAMES and not base.endswith(".pub")
    ):
        return 2
    if base in SECRET_NAMES:
        level = SECRET_NAMES[base]
    elif (base.startswith(".env.") and base not in ENV_TEMPLATES) or (base.startswith(".env") and "*" in base):
        level = 1
    elif base.endswith(_SECRET_SUFFIX_ENDINGS):  # one C-level test before the loop
        for suffix, value in SECRET_SUFFIXES:
            if base.endswith(suffix):
                level = value
                break
    if path.startswith("/proc/") and base == "environ":
        return 2
    if path.startswith("/etc/ssh/ssh_host_") and path.endswith("_key"):
        return 2
    level = max(level, _ABSOLUTE_SECRETS.level(path))
    rel = home_relative(path, home)
    if rel:
        if base.endswith(".pub") and rel.startswith(".ssh/"):
            return level
        level = max(level, _HOME_SECRETS.level(rel))
    return level


def persistence_level(path: str, home: str) -> int:
    """Whether writing ``path`` plants something that runs later: 0, 1 (ask), 2 (backdoor)."""
    if isinstance(home, str) and len(path) <= _CACHED_PATH_LEN and len(home) <= _CACHED_PATH_LEN:
        return _persistence_level_cached(path, home)
    return _persistence_level(path, home)


def _persistence_level(path: str, home: str) -> int:
    level = _ABSOLUTE_PERSISTENCE.level(path)
    if "/.git/hooks/" in path or path.endswith("/.git/hooks") or path.endswith("/.git/config"):
        level = max(level, 1)
    rel = home_relative(path, home)
    if rel:
        level = max(level, _HOME_PERSISTENCE.level(rel))
    return level


_secret_level_cached = lru_cache(maxsize=_CACHE_SIZE)(_secret_level)
_persistence_level_cached = lru_cache(maxsize=_CACHE_SIZE)(_persistence_level)


def critical_reason(path: str, home: str, roots: tuple[str, ...] = (), *, others: bool = True) -> str | None:
    """Why a recursive delete of ``path`` would be catastrophic, or None.

    Critical: ``/`` and system directories (and their direct children for ``/usr``,
    ``/etc`` …), any top-level directory but scratch space, any home directory, and any
    workspace root or an ancestor of one. A glob whose directory part is critical
    (``/*``, ``~/*``) counts as the directory itself. ``others=False`` leaves out other
    users' homes and arbitrary top-level directories (for chmod/chown, where handing a
    home to its user is routine administration).
    """
    path = strip_glob(path)
    if path in CRITICAL_DIRS:
        return "root directory" if path == "/" else "system directory"
    parent = path.rsplit("/", 1)[0] or "/"
    if parent in CRITICAL_PARENTS and not is_temp(path):
        if parent not in ("/home", "/Users"):
            return "system directory"
        if others:
            return "home directory"
    if others and parent == "/" and path not in NON_CRITICAL_TOP:
        return "top-level directory"
    if home and home != "/" and (path == home or within(home, path)):
        return "home directory"
    for root in roots:
        if root and (path == root or within(root, path)):
            return "workspace root" if path == root else "ancestor of the workspace"
    return None


def strip_glob(path: str) -> str:
    """``/etc/*`` → ``/etc``; ``/home/*/`` → ``/home``: a pure glob component means "everything in"."""
    while path not in ("", "/"):
        head, _, last = path.rpartition("/")
        if last and last.strip("*?") == "" or last in (".*", "*.*", "{*,.*}", ".[!.]*", "..?*"):
            path = head or "/"
            continue
        break
    return path
