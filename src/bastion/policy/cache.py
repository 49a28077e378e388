"""Settings loaded once per project in the warm decision server, kept while nothing changed.

Without it every hook call reads and builds every settings file (up to eight, plus the
trust list and guard plugins) although they change a few times a day. A cached
:class:`~.settings.Policy` is reused only while every file it came from has the same
identity — device, inode, size, mtime, ctime and mode, or still being absent — so an
edit, a new file, a removed file, an atomic replace or a ``chmod`` loads the settings
again on the very next call. A lookup costs one ``stat`` per file and reads nothing.

A file changed within :data:`RACY_NS` of being read may have been changed again
within the file system's timestamp granularity, leaving size and mtime as they were
(git's "racily clean" problem): settings that recent are not kept, so they are read
again until they have been still for that long.

Entries are keyed by everything a load depends on besides the files (project root,
home, state and config folders, the flags), so projects and callers never share one;
lookups are thread-safe (the server answers each call on its own thread).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: Files changed this recently (ns) before a load are read again on the next call.
RACY_NS = 1_000_000_000
#: Settings kept at most (one per project and caller setup); the oldest go first.
MAX_ENTRIES = 64

Identity = tuple[Any, ...]


def identity(path: str) -> Identity:
    """What says a file is unchanged: its stat fields, or that it is absent."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ("absent",)
    except OSError as exc:
        return ("error", exc.errno)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


def _newest(identities: Sequence[Identity]) -> int:
    """The latest mtime among the present files (0 when none is present). Every write
    sets mtime and ctime to the same coarse clock, so a file can change unseen only while
    its mtime is that recent; a chmod or ``touch -d`` changes mode or ctime, which are
    part of the identity anyway."""
    return max((i[3] for i in identities if len(i) == 6), default=0)


class PolicyCache(Generic[T]):
    """Loaded settings, per project and caller, valid while their files are unchanged.
    It knows nothing of settings: ``settings.load_policy`` names the files to watch."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: OrderedDict[tuple[Any, ...], tuple[tuple[str, ...], tuple[Identity, ...], T]] = OrderedDict()
        self._lock = threading.Lock()
        self.max_entries = max_entries
        #: Loads done and loads saved, for tests and benchmarks.
        self.loads = 0
        self.hits = 0

    def get(self, key: tuple[Any, ...], paths: Callable[[], list[str]], load: Callable[[], T]) -> T:
        """The cached Policy for ``key`` when every watched file is unchanged, else
        ``load()`` (stored unless a watched file changed too recently)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is not None:
            watched, before, policy = entry
            if tuple(identity(path) for path in watched) == before:
                with self._lock:
                    self.hits += 1
                return policy
        watched = tuple(paths())
        started = time.time_ns()
        before = tuple(identity(path) for path in watched)  # stat before reading: a change during the load reloads next time
        policy = load()
        with self._lock:
            self.loads += 1
            if _newest(before) < started - RACY_NS:
                self._entries[key] = (watched, before, policy)
                self._entries.move_to_end(key)
                while len(self._entries) > self.max_entries:
                    self._entries.popitem(last=False)
            else:
                self._entries.pop(key, None)
        return policy

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
