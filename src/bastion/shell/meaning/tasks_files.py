"""What the task-file readers share: reading a file once per identity and modification
time, finding a file up the folder tree, and the ``cd`` a task's text starts with.

A leaf module, so ``tasks`` and its readers (``tasks_make``, ``tasks_more``) import it
without importing each other."""

from __future__ import annotations

import os
import posixpath
import stat
import time

from ..syntax.quoting import quote as shell_quote
from .facts import Ctx

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["MAX_BYTES", "MAX_UP", "Asked", "Runs", "Unreadable", "absolute", "cd_line", "find_up", "names_in", "read_cached"]


#: Largest task file read: the same bound as a script's (``scripts.MAX_BYTES``).
MAX_BYTES = 256 * 1024


#: Parents walked up to find a package.json, justfile, Taskfile or pytest ini file.
MAX_UP = 32


class Unreadable(Exception):
    """A task file exists but cannot be read: the command asks, naming it."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why


_CACHE: dict[tuple[str, str], tuple[tuple[int, int, int, int], Any]] = {}


_CACHE_LIMIT = 256


def read_cached(path: str, parse: Callable[[str, str], Any], kind: str = "") -> Any:
    """``parse(text, path)`` of the file at ``path``, or None when there is no such file.

    Raises :class:`Unreadable` for a file that is not regular (a FIFO or device would
    block or never end), too large, or not readable. The result is kept per path and
    kind while the file's identity and modification time stay the same."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise Unreadable(path, exc.strerror or "cannot be read") from None
    if stat.S_ISDIR(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable(path, "not a regular file")
    if st.st_size > MAX_BYTES:
        raise Unreadable(path, f"larger than {MAX_BYTES // 1024} KiB")
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    slot = (kind, path)
    held = _CACHE.get(slot)
    if held is not None and held[0] == key:
        return held[1]
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise Unreadable(path, exc.strerror or "cannot be read") from None
    value = parse(data.decode("utf-8", "replace"), path)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[slot] = (key, value)
    return value


def text_of(text: str, path: str) -> str:
    """The parser of a file read as plain text."""
    return text


def find_up(start: str, names: tuple[str, ...], stop: str = "/", asked: Asked | None = None) -> str | None:
    """The first ``start/NAME`` or ancestor's that exists (as anything but a folder).

    ``asked`` remembers each folder's answer for the rest of one reader's run (see
    :data:`Asked`)."""
    here = start
    for _ in range(MAX_UP):
        for name in _present(here, names, asked):
            candidate = posixpath.join(here, name)
            if os.path.lexists(candidate) and not os.path.isdir(candidate):
                return candidate
        if here in ("/", stop):
            return None
        here = posixpath.dirname(here)
    return None


#: Which of some names a folder may hold, per (folder, names), remembered for one
#: reader's run: pytest asks for its ini files in every parent (``find_up``) and then
#: again in the rootdir it picked (``names_in``). A folder changed in the last seconds
#: is not kept across calls (:data:`_HELD`), so without this it is asked twice.
Asked = dict[tuple[str, tuple[str, ...]], tuple[str, ...]]


#: Per folder and names asked for: the folder's identity and modification time, and which
#: of the names it held. A name is added or removed only by changing its folder, so one
#: stat of the folder answers for all of them while that stays the same.
_HELD: dict[tuple[str, tuple[str, ...]], tuple[tuple[int, int, int], tuple[str, ...]]] = {}

#: A folder changed this recently (ns) is not remembered: a second change within the
#: clock's granularity would leave the same modification time.
_SETTLED_NS = 2_000_000_000


def _present(here: str, names: tuple[str, ...], asked: Asked | None = None) -> tuple[str, ...]:
    """The names that may exist in ``here`` (a superset; the caller checks each live):
    ``find_up`` runs for every test runner and task command and would otherwise make
    one existence check per name and parent."""
    if asked is not None:
        known = asked.get((here, names))
        if known is None:
            known = asked[here, names] = _present(here, names)
        return known
    if "/" in "".join(names):  # a deeper path changes without its folder
        return names
    try:
        st = os.stat(here)
    except (FileNotFoundError, NotADirectoryError):
        return ()  # no such folder: no name is in it (``cd build && pytest`` before a build)
    except (OSError, ValueError):
        return names
    key = (st.st_dev, st.st_ino, st.st_mtime_ns)
    held = _HELD.get((here, names))
    if held is not None and held[0] == key:
        return held[1]
    prefix = here + "/" if here and not here.endswith("/") else here  # ``posixpath.join``, for names without a slash
    found = tuple(name for name in names if _lexists(prefix + name))
    if time.time_ns() - st.st_mtime_ns > _SETTLED_NS:
        if len(_HELD) >= _CACHE_LIMIT * 4:
            _HELD.clear()
        _HELD[here, names] = (key, found)
    return found


def names_in(folder: str, names: tuple[str, ...], asked: Asked | None = None) -> tuple[str, ...]:
    """Which of ``names`` may exist in ``folder``: a superset, as :func:`find_up` asks
    (a reader skips the others instead of failing to open each)."""
    return _present(folder, names, asked)


#: ``os.access`` can look at a name without following a link here (Linux, macOS).
_ACCESS_NO_FOLLOW = os.access in os.supports_follow_symlinks


def _lexists(path: str) -> bool:
    """``os.path.lexists`` without raising and catching an error for each missing name
    (the usual answer: most folders hold none of the files looked for)."""
    if not _ACCESS_NO_FOLLOW:
        return os.path.lexists(path)
    try:
        return os.access(path, os.F_OK, follow_symlinks=False)
    except ValueError:  # a NUL byte or an unencodable name: nothing by that name
        return False


def absolute(path: str, base: str, ctx: Ctx) -> str:
    from bastion.shell.meaning.paths import resolve  # absolute: a relative import looks up its package each call

    return resolve(path, base, ctx.home)


Runs = list[tuple[str, str, str]]


def cd_line(folder: str, ctx: Ctx) -> str:
    """A ``cd`` into the folder a task runs in, so the shell analysis resolves its
    relative paths there; nothing when that is where the call runs."""
    return "" if folder == ctx.cwd else f"cd {shell_quote(folder)}\n"
