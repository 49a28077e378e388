"""bubblewrap command line for a Plan.

Order matters — bubblewrap applies the mounts as given, each over the previous ones:

1. ``/`` read-only, a fresh ``/dev`` and ``/proc``, private ``/run`` and ``/tmp``;
2. what must stay visible inside the private ``/tmp`` (read-only);
3. the write roots, read-write;
4. protected paths inside them, read-only again (and their writable exceptions);
5. credential stores and ``denyRead`` paths, covered by unreadable placeholders.

Every namespace is new (``--unshare-all``: user, mount, PID, network, IPC, UTS,
cgroup); the network namespace has only a loopback device, so without the proxy
bridge nothing — TCP, UDP or DNS — leaves the sandbox. ``--die-with-parent`` and the
PID namespace mean that killing bubblewrap kills every process of the run, including
ones that called ``setsid``. As root, ``--cap-drop ALL`` matters: a process that kept
``CAP_SYS_ADMIN`` could unmount the placeholders.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .plan import Plan


@dataclass(frozen=True)
class RunDirs:
    """Per-run host paths: the private /tmp and the placeholders."""

    tmp: str
    denied_file: str
    denied_dir: str
    empty_dir: str

    @classmethod
    def create(cls, base: str) -> "RunDirs":
        tmp = os.path.join(base, "tmp")
        os.mkdir(tmp)
        os.chmod(tmp, 0o1777)
        denied_file = os.path.join(base, "denied")
        with open(denied_file, "w"):
            pass
        os.chmod(denied_file, 0)
        denied_dir = os.path.join(base, "denied.d")
        os.mkdir(denied_dir)
        os.chmod(denied_dir, 0)
        empty_dir = os.path.join(base, "empty.d")
        os.mkdir(empty_dir, 0o555)
        return cls(tmp, denied_file, denied_dir, empty_dir)


def find() -> str | None:
    """The bubblewrap binary, if installed."""
    return shutil.which("bwrap")


def build_argv(
    plan: "Plan",
    dirs: RunDirs,
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
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run", "--bind", dirs.tmp, "/tmp"]
    for path in plan.visible:
        argv += ["--ro-bind", path, path]
    for path in plan.write_roots:
        argv += ["--bind", path, path]
    for path, _why in plan.readonly:
        argv += ["--ro-bind", path, path]
    for path, _why in plan.create_readonly:
        argv += ["--ro-bind", dirs.empty_dir, path]
    for path in plan.rewritable:
        argv += ["--bind", path, path]
    for path, is_dir, _why in plan.hidden:
        argv += ["--ro-bind", dirs.denied_dir if is_dir else dirs.denied_file, path]
    argv += ["--chdir", plan.cwd]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    argv += ["--", *entry]
    return argv
