"""The path pipeline's shortcuts answer as the long way does.

A check resolves its folder and every path it touches, and asks the path table about
each: the call's folder is read once for the workspace and the paths inside it, a deep
path that is not there yet is looked up from that folder rather than from the top, a
path's table rows are worked out once whatever the home when the home cannot add any,
and a git landing asks git about each revision once. Each test compares the shortcut's
answer with the long way's."""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path

import pytest

from bastion.files.landing import git as landing_git
from bastion.files.workspace import Workspace, known_folder, resolve_folder, resolve_path
from bastion.paths import match


def _tree(base: str) -> str:
    """A project reached through a link, with folders, links that lead out, dangle or loop."""
    root = f"{base}/real/proj"
    os.makedirs(f"{root}/a/b/c")
    os.makedirs(f"{base}/other/x")
    os.symlink(root, f"{base}/via")
    open(f"{root}/a/file", "w").close()
    open(f"{root}/a/b/c/deep", "w").close()
    os.symlink(f"{base}/other", f"{root}/a/b/out")
    os.symlink(f"{root}/nowhere", f"{root}/a/dangling")
    os.symlink(f"{root}/loop2", f"{root}/a/loop1")
    os.symlink(f"{root}/a/loop1", f"{root}/loop2")
    return root


_DEEP = ("a", "b", "c", "deep", "file", "out", "x", "dangling", "loop1", "new", "..", ".")


@pytest.mark.parametrize("where", ["real/proj", "via"])
def test_a_deep_path_below_the_known_folder_resolves_as_without_it(tmp_path: Path, where: str) -> None:
    base = os.fspath(tmp_path)
    _tree(base)
    cwd = f"{base}/{where}"
    known = known_folder(cwd, resolve_path(cwd, cwd="/", home="/home/u"), home="/home/u")
    assert known is not None
    for depth in (3, 4, 5):
        for names in itertools.product(_DEEP, repeat=depth):
            if depth == 5 and names[:2] != ("a", "b"):
                continue  # the deepest paths only where folders are there to walk
            relative = "/".join(names)
            for raw in (relative, f"{cwd}/{relative}"):
                assert resolve_path(raw, cwd=cwd, home="/home/u", known=known) == resolve_path(
                    raw, cwd=cwd, home="/home/u"), raw


def test_a_missing_deep_path_keeps_the_names_after_the_deepest_folder_there(tmp_path: Path) -> None:
    base = os.fspath(tmp_path)
    root = _tree(base)
    cwd = f"{base}/via"
    known = known_folder(cwd, resolve_path(cwd, cwd="/", home=""), home="")
    for raw in ("a/b/c/new/x.py", "a/b/new/more/x.py", "a/file/x/y", "new/a/b/c/d/e/f/g/h/i/j"):
        assert resolve_path(raw, cwd=cwd, home="", known=known) == os.path.realpath(f"{cwd}/{raw}") == f"{root}/{raw}"


@pytest.mark.parametrize("cwd", ["{base}/via", "{base}/real/proj", "~/p", "{base}/via/../via", "{base}//via",
                                 "/", "relative/folder", "{base}/via\0/etc", "~nobody-here/p", ""])
def test_the_call_folder_and_its_known_form_are_those_of_the_long_way(tmp_path: Path, cwd: str) -> None:
    base = os.fspath(tmp_path)
    _tree(base)
    cwd = cwd.format(base=base)
    home = f"{base}/via"
    real, known = resolve_folder(cwd, home=home)
    assert real == resolve_path(cwd, cwd="/", home=home)
    assert known == known_folder(cwd, real, home=home)
    assert Workspace.around(real, ["a", "~/a"], home=home) == Workspace.create(cwd, ["a", "~/a"], home=home)


_PATHS = ("/srv/me/.config/gcloud/access.db", "/srv/me-too/.config/gcloud/access.db", "/home/u/.ssh/id_ed25519", "/home/u/.aws/credentials", "/home/u/.bashrc", "/home/u/proj/.env",
          "/home/u", "/home/u2/.ssh/id_rsa", "/root/.ssh/id_rsa", "/srv/p/.git/hooks/pre-commit",
          "/srv/p/src/app.py", "/etc/shadow", "/HOME/U/.SSH/ID_RSA", "/home/u/", "/tmp/x/.env.example")
_HOMES = ("/srv/me", "/home/u", "/home/u/", "/HOME/U", "", "/", "/root", "/home/u2", "~", "relative")


def _cold(path: str, home: str) -> tuple[match.Hit, ...]:
    match._rows_cached.cache_clear()
    match._unhomed.cache_clear()
    return match.rows_for(path, home)


def test_a_paths_rows_are_the_same_in_any_order_of_asking() -> None:
    cold = {(path, home): _cold(path, home) for path in _PATHS for home in _HOMES}
    match._rows_cached.cache_clear()
    match._unhomed.cache_clear()
    for path, home in itertools.chain(cold, reversed(list(cold))):
        assert match.rows_for(path, home) == cold[path, home], (path, home)
    # the home adds rows only below it
    gcloud = "/srv/me/.config/gcloud/access.db"
    assert cold[gcloud, "/srv/me"] != cold[gcloud, ""] == cold[gcloud, "/home/u"] == ()
    assert cold["/srv/me-too/.config/gcloud/access.db", "/srv/me"] == ()
    assert cold["/srv/p/src/app.py", "/home/u"] == cold["/srv/p/src/app.py", ""]


def _git(cwd: str, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture()
def repo(tmp_path: Path) -> str:
    path = os.fspath(tmp_path / "proj")
    os.makedirs(f"{path}/src")
    _git(path, "init", "-q")
    _git(path, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "one")
    _git(path, "checkout", "-qb", "feature")
    Path(path, "src", "b.py").write_text("y = 1\n")
    _git(path, "add", ".")
    _git(path, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "two")
    _git(path, "checkout", "-q", "-")
    return path


class _Scene:
    """What ``_Repo`` reads of a landing's scene."""

    args: tuple[str, ...] = ()
    earlier: tuple[object, ...] = ()

    def __init__(self, base: str) -> None:
        self.base = base

    def real(self, path: str) -> str:
        return os.path.realpath(os.path.join(self.base, path))

    def dynamic(self, word: str) -> bool:
        return "$" in word


def test_git_is_asked_about_each_revision_once_and_answers_as_before(repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[tuple[str, ...]] = []
    real = landing_git.git_lines

    def counted(cwd: str, *args: str) -> list[str]:
        runs.append(args)
        return real(cwd, *args)

    monkeypatch.setattr(landing_git, "git_lines", counted)
    questions = (("feature",), ("HEAD",), ("HEAD", "feature"), ("nothere",), ("HEAD", "nothere"), ("-x",), ())
    fresh = [landing_git._Repo(_Scene(repo)).resolves(*q) for q in questions]  # type: ignore[arg-type]
    assert fresh == [True, True, True, False, False, False, True]
    runs.clear()
    kept = landing_git._Repo(_Scene(repo))  # type: ignore[arg-type]
    assert [kept.resolves(*q) for q in questions] == fresh
    assert len(runs) == 3  # feature, then HEAD, then nothere; the rest is known
    assert kept.top == os.path.realpath(repo)
    runs.clear()
    changed = sorted(landing_git._Repo(_Scene(repo)).changes("HEAD", "feature"))  # type: ignore[arg-type]
    assert changed == [os.path.realpath(f"{repo}/src/b.py")]
    assert len(runs) == 2  # HEAD and feature together, then the diff
    with pytest.raises(landing_git.Unlistable):
        landing_git._Repo(_Scene(repo)).changes("HEAD", "$REV")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- a folder linked to /


def test_a_call_folder_linked_to_the_root_is_the_root(tmp_path: Path, bastion_env: dict[str, str]) -> None:
    """The shortcut from the call's folder must not turn ``/`` into an empty path: the
    folder and ``.`` in it are ``/``, so ``rm -rf .`` there deletes the root and is denied
    in every mode (it once asked "cannot check path '.'", which a person could approve)."""
    from bastion.engine import Guard
    from bastion.model import Mode, ToolCall, Verdict

    link = tmp_path / "rootlink"
    link.symlink_to("/")
    real, known = resolve_folder(str(link), home="/root")
    assert real == "/" and known is None
    assert resolve_path(".", cwd=str(link), home="/root", known=known) == "/"
    assert resolve_path("etc", cwd=str(link), home="/root", known=known) == "/etc"
    guard = Guard.from_settings(str(link), isolated=True, env=bastion_env)
    for mode in (Mode.DEFAULT, Mode.BYPASS):
        for command in ("rm -rf .", "rm -rf ./", "rm -rf ./*"):
            decision = guard.check(ToolCall("Bash", {"command": command}, cwd=str(link), mode=mode))
            assert decision.verdict is Verdict.DENY, (mode, command, decision.reason)
