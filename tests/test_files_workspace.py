"""Path resolution and the workspace boundary, on real directories and real symlinks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bastion.files.workspace import Workspace, is_within, resolve_path


@pytest.fixture()
def tree(tmp_path: Path) -> dict[str, str]:
    """A project, a home and an outside directory, all real, with realpath'd names."""
    base = Path(os.path.realpath(tmp_path))
    project = base / "project"
    home = base / "home"
    outside = base / "outside"
    for d in (project / "src", home / ".ssh", outside):
        d.mkdir(parents=True)
    (outside / "secret.txt").write_text("x")
    (project / "src" / "app.py").write_text("x")
    return {"base": str(base), "project": str(project), "home": str(home), "outside": str(outside)}


# --------------------------------------------------------------------------- resolve_path


def test_relative_joins_cwd(tree: dict[str, str]) -> None:
    p = tree["project"]
    assert resolve_path("src/app.py", cwd=p, home=tree["home"]) == f"{p}/src/app.py"
    assert resolve_path("./src/../src/app.py", cwd=p, home=tree["home"]) == f"{p}/src/app.py"


def test_absolute_is_kept(tree: dict[str, str]) -> None:
    assert resolve_path(tree["outside"], cwd=tree["project"], home=tree["home"]) == tree["outside"]


@pytest.mark.parametrize(
    "typed, expected_rel",
    [
        ("~", ""),
        ("~/", ""),
        ("~/.ssh/id_rsa", "/.ssh/id_rsa"),
        ("$HOME/.ssh", "/.ssh"),
        ("${HOME}/.ssh/config", "/.ssh/config"),
        ("$HOME", ""),
    ],
)
def test_home_expansion_uses_given_home(tree: dict[str, str], typed: str, expected_rel: str) -> None:
    assert resolve_path(typed, cwd=tree["project"], home=tree["home"]) == tree["home"] + expected_rel


@pytest.mark.parametrize("typed", ["$HOMEX/a", "${HOMEX}/a", "a/~/b", "x$HOME"])
def test_home_lookalikes_are_not_expanded(tree: dict[str, str], typed: str) -> None:
    got = resolve_path(typed, cwd=tree["project"], home=tree["home"])
    assert got.startswith(tree["project"] + "/")


def test_home_expansion_ignores_process_home(tree: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", tree["outside"])
    assert resolve_path("~/x", cwd=tree["project"], home=tree["home"]) == tree["home"] + "/x"


def test_tilde_user_uses_password_database(tree: dict[str, str]) -> None:
    import pwd

    entry = pwd.getpwuid(os.getuid())
    got = resolve_path(f"~{entry.pw_name}/x", cwd=tree["project"], home=tree["home"])
    assert got == os.path.realpath(entry.pw_dir) + "/x"


def test_unknown_tilde_user_stays_literal(tree: dict[str, str]) -> None:
    got = resolve_path("~no-such-user-bastion/x", cwd=tree["project"], home=tree["home"])
    assert got == tree["project"] + "/~no-such-user-bastion/x"


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("../outside/secret.txt", "{outside}/secret.txt"),
        ("src/../../outside", "{outside}"),
        ("../../../../../../../../../../etc/passwd", "/etc/passwd"),
        ("/..", "/"),
    ],
)
def test_dotdot_escapes(tree: dict[str, str], typed: str, expected: str) -> None:
    assert resolve_path(typed, cwd=tree["project"], home=tree["home"]) == expected.format(**tree)


def test_missing_path_resolves_parent(tree: dict[str, str]) -> None:
    p = tree["project"]
    assert resolve_path("new/dir/file.txt", cwd=p, home=tree["home"]) == f"{p}/new/dir/file.txt"


def test_missing_path_under_symlink_resolves_through_link(tree: dict[str, str]) -> None:
    p = tree["project"]
    os.symlink(tree["outside"], f"{p}/out")
    assert resolve_path("out/new/file", cwd=p, home=tree["home"]) == tree["outside"] + "/new/file"


def test_in_project_symlink_to_outside_resolves_outside(tree: dict[str, str]) -> None:
    p = tree["project"]
    os.symlink(f"{tree['outside']}/secret.txt", f"{p}/innocent")
    assert resolve_path("innocent", cwd=p, home=tree["home"]) == tree["outside"] + "/secret.txt"


def test_symlink_then_dotdot_follows_posix_order(tree: dict[str, str]) -> None:
    # link/.. is the parent of the link's *target*, not the project
    p = tree["project"]
    os.symlink(tree["outside"], f"{p}/out")
    assert resolve_path("out/../home/.ssh", cwd=p, home=tree["home"]) == tree["home"] + "/.ssh"


def test_dangling_link_resolves_to_target(tree: dict[str, str]) -> None:
    p = tree["project"]
    os.symlink(f"{tree['outside']}/not-yet", f"{p}/dangling")
    assert resolve_path("dangling", cwd=p, home=tree["home"]) == tree["outside"] + "/not-yet"


def test_link_loop_does_not_raise_and_keeps_prefix(tree: dict[str, str]) -> None:
    p = tree["project"]
    os.symlink(f"{p}/b", f"{p}/a")
    os.symlink(f"{p}/a", f"{p}/b")
    got = resolve_path("a/x", cwd=p, home=tree["home"])
    assert got.startswith(p + "/") and got.endswith("/x")


def test_link_loop_behind_outside_link_resolves_outside(tree: dict[str, str]) -> None:
    p, out = tree["project"], tree["outside"]
    os.symlink(out, f"{p}/out")
    os.symlink(f"{out}/loop", f"{out}/loop")
    got = resolve_path("out/loop/x", cwd=p, home=tree["home"])
    assert got.startswith(out + "/")


def test_cwd_through_symlink(tree: dict[str, str]) -> None:
    link = tree["base"] + "/project-link"
    os.symlink(tree["project"], link)
    assert resolve_path("src/app.py", cwd=link, home=tree["home"]) == tree["project"] + "/src/app.py"


@pytest.mark.parametrize("odd", ["", "\0", "a\0/../../etc", "////", "/./././", "." * 300, "~" * 5, "a" * 5000])
def test_odd_input_never_raises(tree: dict[str, str], odd: str) -> None:
    got = resolve_path(odd, cwd=tree["project"], home=tree["home"])
    assert got.startswith("/")


def test_nul_byte_ends_the_path(tree: dict[str, str]) -> None:
    got = resolve_path("~/.bashrc\0.txt", cwd=tree["project"], home=tree["home"])
    assert got == tree["home"] + "/.bashrc"


def test_empty_path_is_cwd(tree: dict[str, str]) -> None:
    assert resolve_path("", cwd=tree["project"], home=tree["home"]) == tree["project"]


def test_empty_home_leaves_tilde_literal(tree: dict[str, str]) -> None:
    assert resolve_path("~/x", cwd=tree["project"], home="") == tree["project"] + "/~/x"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab./~$\\{}\0 H")), max_size=40))
def test_resolve_is_total_and_absolute(typed: str) -> None:
    got = resolve_path(typed, cwd="/nonexistent-bastion/cwd", home="/nonexistent-bastion/home")
    assert got.startswith("/")
    assert got == os.path.normpath(got) or got == "/"
    assert "/../" not in got + "/"


# --------------------------------------------------------------------------- Workspace


def test_workspace_roots_are_resolved(tree: dict[str, str]) -> None:
    link = tree["base"] + "/via-link"
    os.symlink(tree["project"], link)
    ws = Workspace.create(link, ["../outside", "~/work"], home=tree["home"])
    assert ws.roots == (tree["project"], tree["outside"], tree["home"] + "/work")
    assert ws.project_root == tree["project"]


def test_workspace_reached_through_symlink_compares_equal(tree: dict[str, str]) -> None:
    link = tree["base"] + "/via-link"
    os.symlink(tree["project"], link)
    ws = Workspace.create(link, home=tree["home"])
    assert ws == Workspace.create(tree["project"], home=tree["home"])
    assert ws.contains(resolve_path(f"{link}/src/app.py", cwd="/", home=tree["home"]))


def test_workspace_dedupes_roots(tree: dict[str, str]) -> None:
    ws = Workspace.create(tree["project"], [tree["project"], ".", "", tree["project"] + "/"], home=tree["home"])
    assert ws.roots == (tree["project"],)


@pytest.mark.parametrize(
    "rel, inside",
    [
        ("", True),
        ("/src", True),
        ("/src/app.py", True),
        ("/src/deep/new/file", True),
        ("c", False),  # /…/projectc is not inside /…/project
        ("-other/x", False),
        ("/../outside", False),
    ],
)
def test_contains_is_component_wise(tree: dict[str, str], rel: str, inside: bool) -> None:
    ws = Workspace.create(tree["project"], home=tree["home"])
    resolved = resolve_path(tree["project"] + rel, cwd="/", home=tree["home"])
    assert ws.contains(resolved) is inside


def test_contains_is_case_sensitive(tree: dict[str, str]) -> None:
    ws = Workspace.create(tree["project"], home=tree["home"])
    assert not ws.contains(tree["base"] + "/PROJECT/src/app.py")


def test_symlink_inside_project_pointing_outside_is_outside(tree: dict[str, str]) -> None:
    p = tree["project"]
    os.symlink(tree["outside"], f"{p}/vendor")
    ws = Workspace.create(p, home=tree["home"])
    assert not ws.contains(resolve_path("vendor/secret.txt", cwd=p, home=tree["home"]))
    assert ws.contains(resolve_path("src/app.py", cwd=p, home=tree["home"]))


def test_additional_directories_extend_the_boundary(tree: dict[str, str]) -> None:
    ws = Workspace.create(tree["project"], [tree["outside"]], home=tree["home"])
    assert ws.contains(tree["outside"] + "/secret.txt")
    assert not ws.contains(tree["home"] + "/.ssh")


def test_is_root(tree: dict[str, str]) -> None:
    ws = Workspace.create(tree["project"], [tree["outside"]], home=tree["home"])
    assert ws.is_root(tree["project"]) and ws.is_root(tree["outside"]) and ws.is_root(tree["project"] + "/")
    assert not ws.is_root(tree["project"] + "/src")
    assert not ws.is_root(tree["base"])


def test_root_slash_contains_everything() -> None:
    ws = Workspace(("/",))
    assert ws.contains("/etc/passwd") and ws.contains("/")


@pytest.mark.parametrize(
    "path, root, expected",
    [
        ("/a/b", "/a/b", True),
        ("/a/b/c", "/a/b", True),
        ("/a/bc", "/a/b", False),
        ("/a", "/a/b", False),
        ("/x", "/", True),
    ],
)
def test_is_within(path: str, root: str, expected: bool) -> None:
    assert is_within(path, root) is expected
