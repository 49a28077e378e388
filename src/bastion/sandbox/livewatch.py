"""Names whose creation stops the run at once: ``Plan.stop_on_create``.

A missing ``.git/commondir``, ``.git/config.worktree`` or ``objects/info/alternates``
cannot be covered by a mount (a mount needs a file on the host, and an empty
``commondir`` breaks git there), so the quarantine sweep takes away what the run made of
them — but only once the command has ended. Git obeys these names at once and asks no
one, and editors run ``git status`` on their own every few seconds: a ``commondir``
pointing at a folder with its own config (``core.fsmonitor``) and hooks would run code
outside the sandbox while the command still sleeps.

So the folders that hold such names are watched with inotify (the kernel reports every
creation and rename into them, whichever mount namespace it came from; each folder is a
mount point inside the sandbox, so it cannot be renamed away from the watch). When one of
the names appears, the runner kills the whole tree at once and the sweep moves the name
away. If the kernel's event queue overflows, every watched name is checked instead.
"""

from __future__ import annotations

import ctypes
import os
import struct
from collections.abc import Mapping

__all__ = ["CreationWatch"]

IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_Q_OVERFLOW = 0x00004000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
_EVENT = struct.Struct("iIII")


class CreationWatch:
    """An inotify watch on the folders of the watched names; ``fileno`` is readable when
    something was created in one of them, and ``created`` says which names changed."""

    def __init__(self, fd: int, names: dict[int, dict[str, str]], links: Mapping[str, str | None]) -> None:
        self._fd = fd
        self._names = names  # watch descriptor → {name → watched path}
        self._links = links

    @classmethod
    def start(cls, links: Mapping[str, str | None]) -> CreationWatch:
        """Watch each path's folder. ``links`` maps a path to what it linked to when the run
        began (None: it did not exist). Raises ``OSError`` when inotify cannot watch."""
        wanted = sorted(links)
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            err = ctypes.get_errno()
            raise OSError(err, f"inotify: {os.strerror(err)}")
        names: dict[int, dict[str, str]] = {}
        try:
            for path in wanted:
                folder, name = os.path.split(path)
                wd = libc.inotify_add_watch(fd, os.fsencode(folder), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_DONT_FOLLOW)
                if wd < 0:
                    err = ctypes.get_errno()
                    raise OSError(err, f"inotify cannot watch {folder}: {os.strerror(err)}")
                names.setdefault(wd, {})[name] = path
        except BaseException:
            os.close(fd)
            raise
        return cls(fd, names, dict(links))

    def fileno(self) -> int:
        return self._fd

    def created(self) -> list[str]:
        """The watched paths that were created (or, for a link, replaced), judged from the
        queued events (every watched path when the queue overflowed)."""
        hits: set[str] = set()
        overflow = False
        while True:
            try:
                data = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                break
            if not data:
                break
            offset = 0
            while offset + _EVENT.size <= len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if mask & IN_Q_OVERFLOW:
                    overflow = True
                    continue
                path = self._names.get(wd, {}).get(os.fsdecode(name))
                if path is not None:
                    hits.add(path)
        if overflow:
            hits.update(self._links)
        return sorted(path for path in hits if self._changed(path))

    def _changed(self, path: str) -> bool:
        link = self._links[path]
        if link is None:
            return os.path.lexists(path)
        try:
            return os.readlink(path) != link
        except OSError:  # no longer a link
            return os.path.lexists(path)

    def close(self) -> None:
        """Close the watch off the caller's path: the kernel waits for a grace period
        (about 20 ms) before closing an inotify descriptor, which the run need not pay."""
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            import threading

            threading.Thread(target=os.close, args=(fd,), name="bastion-unwatch", daemon=True).start()
