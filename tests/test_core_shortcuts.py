"""The shortcuts of a check's hot path answer as the long way does.

Each shortcut here skips work the long way does on every call: resolving a path through
a folder already resolved in the same call, a missing folder's names, the files settings
made into a protection config once, the MCP proxies' record found once per state folder.
Each test compares the two answers, or shows the shortcut following a change."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from bastion.files.protected import ProtectionConfig
from bastion.files.workspace import _realpath, known_folder, resolve_path
from bastion.injection.taint import proxies_file
from bastion.shell.meaning.tasks_files import find_up, names_in


def _tree(base: str) -> str:
    """A project reached through a link, with links inside it that lead out, dangle or loop."""
    root = f"{base}/real/proj"
    os.makedirs(f"{root}/a/b")
    os.makedirs(f"{base}/other/x")
    os.symlink(root, f"{base}/via")
    open(f"{root}/a/file", "w").close()
    os.symlink(f"{base}/other", f"{root}/out")
    os.symlink(f"{base}/other/x", f"{root}/a/outx")
    os.symlink(f"{root}/nowhere", f"{root}/dangling")
    os.symlink("a", f"{root}/relative")
    os.symlink(f"{root}/loop2", f"{root}/loop1")
    os.symlink(f"{root}/loop1", f"{root}/loop2")
    return root


_NAMES = ("a", "b", "file", "out", "outx", "x", "dangling", "relative", "loop1", "missing", "new", "..", ".", "")


def test_realpath_equals_the_standard_one_for_links_and_missing_folders(tmp_path: os.PathLike[str]) -> None:
    root = _tree(os.fspath(tmp_path))
    for depth in range(1, 4):
        for names in itertools.product(_NAMES, repeat=depth):
            path = root + "/" + "/".join(names)
            assert _realpath(path) == os.path.realpath(path), path


@pytest.mark.parametrize("where", ["real/proj", "via", "via/a", "real/proj/a"])
def test_a_path_inside_a_known_folder_resolves_as_without_it(tmp_path: os.PathLike[str], where: str) -> None:
    base = os.fspath(tmp_path)
    _tree(base)
    cwd = f"{base}/{where}"
    known = known_folder(cwd, resolve_path(cwd, cwd="/", home="/home/u"), home="/home/u")
    assert known is not None
    for depth in range(4):
        for names in itertools.product(_NAMES, repeat=depth):
            relative = "/".join(names)
            for raw in (relative, f"{cwd}/{relative}"):
                assert resolve_path(raw, cwd=cwd, home="/home/u", known=known) == resolve_path(
                    raw, cwd=cwd, home="/home/u"), raw


def test_a_folder_that_is_not_plain_gives_no_shortcut() -> None:
    assert known_folder("/", "/", home="") is None
    assert known_folder("/a/../b", "/b", home="") is None
    assert known_folder("/a//b", "/a/b", home="") is None
    assert known_folder("~/p", "/home/u/p", home="/home/u") == ("/home/u/p", "/home/u/p")


def test_the_protection_config_is_made_once_per_settings_and_environment() -> None:
    env = {"HOME": "/home/u", "BASTION_STATE_DIR": "/tmp/state-a"}
    first = ProtectionConfig.cached({"protected": [".husky"]}, env=env)
    assert ProtectionConfig.cached({"protected": [".husky"]}, env=dict(env)) is first
    assert first == ProtectionConfig.from_settings({"protected": [".husky"]}, env=env)
    moved = ProtectionConfig.cached({"protected": [".husky"]}, env={**env, "BASTION_STATE_DIR": "/tmp/state-b"})
    assert moved.own_paths != first.own_paths
    assert ProtectionConfig.cached({}, env=env).protected == ()
    for _ in range(2):  # an invalid section raises every time, it is never kept
        with pytest.raises(ValueError):
            ProtectionConfig.cached({"protect": ["x"]}, env=env)
    unhashable = {"protected": [".husky"], "credentials": [["nested"]]}
    with pytest.raises(ValueError):
        ProtectionConfig.cached(unhashable, env=env)


def test_a_missing_folder_holds_none_of_the_names_and_a_new_file_is_found(tmp_path: os.PathLike[str]) -> None:
    base = os.fspath(tmp_path)
    names = ("pytest.ini", "tox.ini")
    assert names_in(f"{base}/not/there", names) == ()
    assert find_up(f"{base}/not/there", names, stop=base) is None
    open(f"{base}/tox.ini", "w").close()
    assert "tox.ini" in names_in(base, names)
    assert find_up(f"{base}/not/there", names, stop=base) == f"{base}/tox.ini"


def test_the_proxies_record_follows_the_state_folder() -> None:
    first = proxies_file({"BASTION_STATE_DIR": "/tmp/state-a"})
    assert first == "/tmp/state-a/mcp-proxies.json"
    assert proxies_file({"BASTION_STATE_DIR": "/tmp/state-b"}) == "/tmp/state-b/mcp-proxies.json"
    assert proxies_file({"XDG_STATE_HOME": "/tmp/xdg"}) == "/tmp/xdg/bastion/mcp-proxies.json"


def test_names_of_the_commands_own_descriptors_are_not_followed_into_bastions(tmp_path: Path) -> None:
    """``/proc/self/fd/3`` in a command is the command's descriptor: the answer must not
    depend on what the deciding process holds open (a hook holds its bundle file open)."""
    held = tmp_path / "held.txt"
    held.write_text("x")
    fd = os.open(held, os.O_RDONLY)
    try:
        for name in (f"/proc/self/fd/{fd}", f"/dev/fd/{fd}", f"/proc/{os.getpid()}/fd/{fd}", f"/proc/thread-self/fd/{fd}"):
            assert _realpath(name) == os.path.normpath(name)
        assert _realpath("/dev/stdin") == "/dev/stdin"
        assert _realpath("/proc/self") == "/proc/self"
    finally:
        os.close(fd)
    assert _realpath(str(held)) == os.path.realpath(held)  # anything else resolves as before
    assert _realpath("/proc/1/status") == os.path.realpath("/proc/1/status")
