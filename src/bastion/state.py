"""Where bastion keeps its files, and safe read-modify-write of small JSON state.

Several hook processes of one agent session can run at once, so every change to shared
state happens under an exclusive ``flock`` and is written atomically (temporary file,
``fsync``, ``rename``): a crash never leaves half a file, and two writers lose nothing.
"""

from __future__ import annotations

import fcntl
import os

from . import early, fastjson
from .digest import sha256
from .std_lite import lru_cache, suppress

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from contextlib import AbstractContextManager
    from pathlib import Path
    from typing import Any

#: A path as callers hand it in: text or a ``Path``.
StrPath = str | os.PathLike[str]

MANAGED_SETTINGS = "/etc/bastion/managed-settings.json"


def path_text(first: str, *rest: str) -> str:
    """``str(pathlib.Path(first, *rest))`` without ``pathlib``: the parts joined, then
    empty and ``.`` parts and a trailing slash dropped (``..`` stays). The decision path
    names its files with these strings — pathlib brings ``urllib.parse`` and
    ``ipaddress`` into every fresh hook process — and they read exactly as the ``Path``
    forms below, in messages and rule origins alike."""
    joined = os.path.join(first, *rest)
    root = "//" if joined.startswith("//") and not joined.startswith("///") else "/" if joined.startswith("/") else ""
    return root + "/".join(part for part in joined.split("/") if part and part != ".") or "."


def config_folder(env: Mapping[str, str] | None = None) -> str:
    """User configuration: ``$BASTION_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/bastion``
    (the rule is ``bastion.early``'s, shared with the hook's thin client)."""
    return path_text(early.config_dir(env if env is not None else os.environ))


def state_folder(env: Mapping[str, str] | None = None) -> str:
    """User state (trust, grants, audit): ``$BASTION_STATE_DIR``, else ``$XDG_STATE_HOME/bastion``
    (the rule is ``bastion.early``'s, shared with the hook's thin client)."""
    return path_text(early.state_dir(env if env is not None else os.environ))


def managed_settings_file(env: Mapping[str, str] | None = None) -> str:
    """The managed settings file: ``$BASTION_MANAGED_SETTINGS``, else :data:`MANAGED_SETTINGS`."""
    env = env if env is not None else os.environ
    return path_text(env.get("BASTION_MANAGED_SETTINGS") or MANAGED_SETTINGS)


def session_path(session_id: str, env: Mapping[str, str] | None = None) -> str:
    """The per-session state file; the id is hashed so it can never escape the folder."""
    env = env if env is not None else os.environ
    return _session_path(session_id, env.get("BASTION_STATE_DIR") or "", env.get("XDG_STATE_HOME") or "", env.get("HOME") or "")


@lru_cache(maxsize=64)
def _session_path(session_id: str, own: str, xdg: str, home: str) -> str:
    """Cached: several layers ask for the same session's file on every check."""
    env = {k: v for k, v in (("BASTION_STATE_DIR", own), ("XDG_STATE_HOME", xdg), ("HOME", home)) if v}
    digest = sha256(session_id.encode("utf-8", "replace")).hexdigest()[:32]
    return path_text(state_folder(env), "sessions", f"{digest}.json")


# The same four as ``Path``s, for commands and callers that build on them (``/``,
# ``read_text``); the decision path uses the strings above.


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """:func:`config_folder` as a ``Path``."""
    from pathlib import Path

    return Path(config_folder(env))


def state_dir(env: Mapping[str, str] | None = None) -> Path:
    """:func:`state_folder` as a ``Path``."""
    from pathlib import Path

    return Path(state_folder(env))


def managed_settings_path(env: Mapping[str, str] | None = None) -> Path:
    """:func:`managed_settings_file` as a ``Path``."""
    from pathlib import Path

    return Path(managed_settings_file(env))


def session_file(session_id: str, env: Mapping[str, str] | None = None) -> Path:
    """:func:`session_path` as a ``Path``."""
    from pathlib import Path

    return Path(session_path(session_id, env))


def make_parent(path: StrPath) -> None:
    """Create the folder ``path`` is in, and its parents (``Path.parent.mkdir``'s
    ``parents=True, exist_ok=True``)."""
    os.makedirs(os.path.dirname(path_text(os.fspath(path))) or ".", exist_ok=True)


def _touch(path: str) -> None:
    """``Path(path).touch(mode=0o600)``: create it, or set its times to now."""
    try:
        os.utime(path)
    except OSError:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def locked(path: StrPath) -> _Locked:
    """Hold an exclusive lock on ``path.lock`` (created if needed) for the block."""
    return _Locked(path)


class _Locked:
    """The block of :func:`locked`: ``make_parent``, open, then ``try: flock; <block>;
    finally: unlock; close``, as ``contextlib.contextmanager`` ran it from a generator,
    written out (a fresh decision that counts a denial does without ``contextlib``)."""

    __slots__ = ("_path", "_fd")

    def __init__(self, path: StrPath) -> None:
        self._path = path
        self._fd = -1

    def __enter__(self) -> None:
        make_parent(self._path)
        fd = os.open(os.fspath(self._path) + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            raise
        self._fd = fd

    def __exit__(self, *exc_info: object) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)


def passing_lock(path: StrPath) -> AbstractContextManager[None]:
    """Like :func:`locked`, for a rare action that must leave nothing behind (install,
    uninstall): ``path.lock`` exists only while someone holds it, and a state folder this
    lock had to create goes too when nothing else is in it. The holder removes the file
    before letting go; a waiter that then gets the removed file's lock sees that the name
    no longer leads to it and takes a fresh one, so two holders never overlap."""
    import contextlib  # install and uninstall only

    return contextlib.contextmanager(_passing_lock)(path)


def _passing_lock(path: StrPath) -> Iterator[None]:
    """The steps of :func:`passing_lock`, around the block (the ``yield``)."""
    from pathlib import Path

    lock = Path(os.fspath(path) + ".lock")
    made: list[Path] = []
    while True:
        made += [folder for folder in (lock.parent, *lock.parent.parents) if not folder.exists() and folder not in made]
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(str(lock), os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except (FileNotFoundError, FileExistsError):
            continue  # a holder that finished removed the folder it had made while we made it: again
        fcntl.flock(fd, fcntl.LOCK_EX)
        held = os.fstat(fd)
        try:
            if held.st_nlink and os.stat(lock).st_ino == held.st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(fd)  # a holder that finished removed it: lock the new one
    try:
        yield
    finally:
        with suppress(OSError):
            lock.unlink()
        os.close(fd)
        for folder in sorted(made, key=lambda f: len(f.parts), reverse=True):  # deepest first; only while empty
            with suppress(OSError):
                folder.rmdir()


def write_atomic(path: StrPath, text: str, mode: int = 0o600) -> None:
    """Replace ``path`` with ``text`` in one step (temp file in the same folder + rename)."""
    folder, name = os.path.split(path_text(os.fspath(path)))
    make_parent(path)
    if os.path.exists(path):
        mode = os.stat(path).st_mode & 0o777
    fd, tmp = _temp_file(folder or ".", name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


#: The letters of a temporary name: ``tempfile``'s own.
_TEMP_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def _temp_file(folder: str, name: str) -> tuple[int, str]:
    """``tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)`` (a new file
    only this process opened, mode 0600) without ``tempfile``: it imports ``shutil``,
    ``random``, ``bz2`` and ``lzma``, a cost on every decision that updates a session's
    denial count in a fresh process."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(10000):  # tempfile.TMP_MAX
        letters = "".join(_TEMP_LETTERS[byte % len(_TEMP_LETTERS)] for byte in os.urandom(8))
        tmp = os.path.abspath(os.path.join(folder, f".{name}.{letters}.tmp"))
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name in {folder}")


#: ``write_atomic``'s temporary names: ``.<file>.<8 random chars>.tmp``.
_TEMP_NAME = r"\..+\.[a-z0-9_]{8}\.tmp"
#: A temporary file older than this belongs to a writer that was killed (SIGKILL skips
#: ``write_atomic``'s cleanup); a live writer replaces its file within milliseconds.
STALE_TEMP_SECONDS = 600.0


def sweep_stale_temps(folder: StrPath, *, older_than: float = STALE_TEMP_SECONDS, every: float = STALE_TEMP_SECONDS) -> int:
    """Remove ``write_atomic`` leftovers older than ``older_than`` seconds from ``folder``
    (our own name shape only); returns how many. Costs one ``stat`` when a sweep of this
    folder ran less than ``every`` seconds ago (the time is kept as ``.swept``'s mtime)."""
    import stat
    import time

    now = time.time()
    marker = os.path.join(folder, ".swept")
    try:
        if now - os.stat(marker).st_mtime < every:
            return 0
    except OSError:
        pass
    try:
        _touch(marker)
        names = os.listdir(folder)
    except OSError:
        return 0
    # the shape's fixed ends first: a folder without leftovers (nearly always) needs no re
    leftovers = [name for name in names if name.startswith(".") and name.endswith(".tmp")]
    if not leftovers:
        return 0
    import re

    pattern, removed = re.compile(_TEMP_NAME), 0
    for name in leftovers:
        if not pattern.fullmatch(name):
            continue
        with suppress(OSError):
            path = os.path.join(folder, name)
            info = os.lstat(path)
            if now - info.st_mtime >= older_than and stat.S_ISREG(info.st_mode):
                os.unlink(path)
                removed += 1
    return removed


def read_json(path: StrPath, default: Any) -> Any:
    """Read a JSON state file; a missing or unreadable one reads as ``default``."""
    try:
        with open(path, encoding="utf-8") as handle:
            return fastjson.load(handle)
    except (OSError, ValueError):
        return default


def update_json(path: StrPath, change: Callable[[Any], Any], default: Any) -> Any:
    """Read, change and write back a JSON state file under its lock; returns the new value.

    A change that leaves the value as it was writes nothing: most hook calls (an allow
    in a session with no denials to reset) then cost no temp file and no fsync."""
    with locked(path):
        value = read_json(path, default)
        before = fastjson.dumps(value, indent=1, sort_keys=True)  # before ``change`` can mutate it
        value = change(value)
        text = fastjson.dumps(value, indent=1, sort_keys=True)
        if text != before or not os.path.exists(path):
            write_atomic(path, text)
        return value
