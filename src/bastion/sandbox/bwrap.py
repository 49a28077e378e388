"""bubblewrap command line for a Plan.

Order matters — bubblewrap applies the mounts as given, each over the previous ones:

1. ``/`` read-only, a fresh ``/dev`` and ``/proc``, private ``/run`` and ``/tmp`` (tmpfs:
   they vanish with the run);
2. what must stay visible inside the private ``/tmp`` (read-only);
3. the write roots, read-write;
4. protected paths inside them, read-only again, and their writable exceptions, in path
   order (``Plan.mounts``);
5. credential stores and ``denyRead`` paths, covered by unreadable placeholders.

Every namespace is new (``--unshare-all``: user, mount, PID, network, IPC, UTS,
cgroup); the network namespace has only a loopback device, so without the proxy
bridge nothing — TCP, UDP or DNS — leaves the sandbox. ``--die-with-parent`` and the
PID namespace mean that killing bubblewrap kills every process of the run, including
ones that called ``setsid``. As root, ``--cap-drop ALL`` matters: a process that kept
``CAP_SYS_ADMIN`` could unmount the placeholders.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .plan import Plan


@dataclass(frozen=True)
class Placeholders:
    """Host paths mounted over what the sandbox must not see: an unreadable file, an
    unreadable directory, and an empty read-only directory. They never change, so one
    set per user is kept (and checked before every run) instead of made per run."""

    denied_file: str
    denied_dir: str
    empty_dir: str


_SPECS = (("denied", False, 0), ("denied.d", True, 0), ("empty.d", True, 0o555))


def _own_dir(path: str) -> bool:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        try:
            os.mkdir(path, 0o700)
            st = os.lstat(path)
        except OSError:
            return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def _ensure(path: str, is_dir: bool, mode: int) -> None:
    try:
        st = os.lstat(path)
        if (stat.S_ISDIR(st.st_mode) if is_dir else stat.S_ISREG(st.st_mode)) and stat.S_IMODE(st.st_mode) == mode \
                and (is_dir or st.st_size == 0) and st.st_uid == os.getuid():
            return
        if is_dir:
            os.chmod(path, 0o700)
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass
    if is_dir:
        os.mkdir(path, mode)
    else:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, mode))
    os.chmod(path, mode)


def placeholders() -> Placeholders:
    """The per-user placeholder set in ``$TMPDIR/bastion-sandbox-UID`` (0700, owned by
    this user — if someone else squats the name, a private directory is made instead)."""
    base = os.path.join(tempfile.gettempdir(), f"bastion-sandbox-{os.getuid()}")
    if not _own_dir(base):
        base = tempfile.mkdtemp(prefix="bastion-sandbox-")
    for name, is_dir, mode in _SPECS:
        _ensure(os.path.join(base, name), is_dir, mode)
    return Placeholders(*(os.path.join(base, name) for name, _, _ in _SPECS))


@functools.lru_cache(maxsize=1)
def _which() -> str | None:
    return shutil.which("bwrap")


def find() -> str | None:
    """The bubblewrap binary, if installed (looked up once per process)."""
    return _which()


def build_argv(
    plan: Plan,
    dirs: Placeholders,
    entry: Sequence[str],
    *,
    bwrap: str = "bwrap",
    seccomp_fd: int | None = None,
    info_fd: int | None = None,
    as_root: bool | None = None,
) -> list[str]:
    """The full ``bwrap … -- entry`` argv."""
    argv = [bwrap, "--die-with-parent", "--new-session", "--unshare-all"]
    if as_root if as_root is not None else os.geteuid() == 0:
        argv += ["--cap-drop", "ALL"]
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run", "--tmpfs", "/tmp"]
    sources = {"empty": dirs.empty_dir, "hide-dir": dirs.denied_dir, "hide-file": dirs.denied_file}
    for what, path in plan.mounts():
        argv += ["--bind" if what == "rw" else "--ro-bind", sources.get(what, path), path]
    argv += ["--chdir", plan.cwd]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    argv += ["--", *entry]
    return argv
