"""``files.workspace._realpath`` (the kernel's answer where it has one) agrees with
``os.path.realpath`` on every shape of path: links absolute and relative, dangling links,
loops, ``..`` after a link, missing tails, a file used as a folder, a fifo, a link to ``/``."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from bastion.files.workspace import _realpath, resolve_path


def test_the_kernel_and_os_path_realpath_agree(tmp_path: Path) -> None:
    root = str(tmp_path)
    os.makedirs(f"{root}/a/b/c")
    Path(f"{root}/a/f").write_text("")
    os.symlink(f"{root}/a/b", f"{root}/l1")
    os.symlink("../a/b/c", f"{root}/a/l2")
    os.symlink("nowhere", f"{root}/dang")
    os.symlink(f"{root}/loop2", f"{root}/loop1")
    os.symlink(f"{root}/loop1", f"{root}/loop2")
    os.symlink("/", f"{root}/top")
    os.mkfifo(f"{root}/fifo")
    parts = ["a", "b", "c", "f", "l1", "l2", "dang", "loop1", "..", ".", "missing", "top", "etc", "fifo", ""]
    checked = 0
    for size in range(1, 4):
        for combo in itertools.product(parts, repeat=size):
            path = root + "/" + "/".join(combo)
            for spelled in (path, path + "/"):
                assert _realpath(spelled) == os.path.realpath(spelled), spelled
                checked += 1
    for path in ("/", "/tmp", "/dev/null", "//tmp", "/proc/1", "/etc/passwd"):
        assert _realpath(path) == os.path.realpath(path), path
    # the one departure: a process's own descriptors and files are kept as written
    # (tests/test_core_shortcuts.py), not followed into the deciding process
    assert _realpath("/proc/self") == "/proc/self" != os.path.realpath("/proc/self")
    assert checked > 6000


def test_resolve_path_follows_links_through_it(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert resolve_path("link/new.txt", cwd=str(tmp_path), home="/h") == str(tmp_path / "real" / "new.txt")
    assert resolve_path("link", cwd=str(tmp_path), home="/h") == str(tmp_path / "real")
