"""check_access and suggest_edit_scope on real directories, real symlinks and a fake HOME."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bastion.files import PathVerdict, ProtectionConfig, Workspace, check_access, resolve_path, suggest_edit_scope


class Env:
    """A real project, home and outside directory under tmp_path."""

    def __init__(self, base: Path) -> None:
        self.base = os.path.realpath(base)
        self.project = f"{self.base}/home/me/project"
        self.home = f"{self.base}/home/me"
        # not in /tmp itself: pytest's tmp_path lives there, and a file below a temp
        # directory is scratch (no FS006); below the test's home it is someone's again
        self.outside = f"{self.home}/outside"
        for d in (f"{self.project}/src", f"{self.project}/.git/hooks", f"{self.home}/.ssh", self.outside):
            os.makedirs(d)
        Path(f"{self.home}/.ssh/id_rsa").write_text("key")
        Path(f"{self.project}/src/app.py").write_text("x")
        self.own = (f"{self.home}/.config/bastion", f"{self.home}/.local/state/bastion")
        self.config = ProtectionConfig(own_paths=self.own)
        self.ws = Workspace.create(self.project, home=self.home)

    def check(self, op: str, path: str, cwd: str | None = None, config: ProtectionConfig | None = None) -> list[PathVerdict]:
        resolved = resolve_path(path, cwd=cwd or self.project, home=self.home)
        return check_access(op, resolved, workspace=self.ws, home=self.home, config=config or self.config)

    def codes(self, op: str, path: str, **kw: object) -> list[str]:
        return [v.code for v in self.check(op, path, **kw)]  # type: ignore[arg-type]


@pytest.fixture()
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize(
    "op, path, codes",
    [
        # inside the workspace
        ("read", "src/app.py", []),
        ("write", "src/app.py", []),
        ("write", "src/new/dir/file.py", []),
        ("delete", "src/app.py", []),
        ("delete", "build", []),
        ("exec", "src/app.py", []),
        # protected, any case
        ("write", ".git/hooks/pre-commit", ["FS002"]),
        ("write", ".GiT/HoOkS/pre-commit", ["FS002"]),
        ("delete", ".git", ["FS002"]),
        ("write", ".cLauDe/Settings.locaL.json", ["FS002"]),
        ("write", ".bashrc", ["FS002"]),
        ("write", "~/.bashrc", ["FS002", "FS006"]),
        ("write", ".vscode/tasks.json", ["FS002"]),
        ("read", ".git/config", []),
        ("read", "~/.bashrc", []),
        # bastion's own files
        ("write", "~/.config/bastion/settings.json", ["FS002", "FS006"]),
        ("write", ".bastion/settings.json", ["FS002"]),
        ("delete", "~/.local/state", ["FS002", "FS006"]),
        ("read", "~/.local/state/bastion/grants.json", []),
        # credential stores: every op
        ("read", "~/.ssh/id_rsa", ["FS003"]),
        ("read", "$HOME/.SSH/ID_RSA", ["FS003"]),
        ("exec", "~/.ssh/id_rsa", ["FS003"]),
        ("write", "~/.ssh/authorized_keys", ["FS003", "FS006"]),
        ("read", "~/.aws/credentials", ["FS003"]),
        ("read", "/etc/shadow", ["FS003"]),
        ("read", "/proc/self/environ", ["FS003"]),
        ("delete", "~/.config", ["FS002", "FS003", "FS006"]),
        # sensitive write targets and secret reads
        ("write", ".env", ["FS004"]),
        ("write", ".env.production", ["FS004"]),
        ("write", "config/tls.key", ["FS004"]),
        ("write", ".env.example", []),
        ("read", ".env", ["FS005"]),
        ("read", ".ENV.local", ["FS005"]),
        ("read", ".env.example", []),
        ("write", "../outside/.env", ["FS004", "FS006"]),
        # outside the workspace
        ("read", "/etc/hosts", []),
        ("read", "../outside/x", []),
        ("exec", "/usr/bin/env", []),
        ("write", "/etc/hosts", ["FS006"]),
        ("write", "../sibling/file", ["FS006"]),
        ("write", "src/../../project-evil/x", ["FS006"]),
        ("delete", "/tmp/x", []),  # a file in a temp directory is scratch
        # dangerous removal targets
        ("delete", "/", ["FS001", "FS006"]),
        ("delete", "/tmp", ["FS001", "FS006"]),
        ("delete", "/ETC", ["FS001", "FS006"]),
        ("delete", "~", ["FS001", "FS006"]),
        ("delete", ".", ["FS001"]),
        ("delete", "..", ["FS001", "FS006"]),
        ("delete", "~/.ssh", ["FS003", "FS006"]),
        # writing is not removing
        ("write", "/", ["FS006"]),
        ("write", ".", []),
    ],
)
def test_check_table(env: Env, op: str, path: str, codes: list[str]) -> None:
    assert env.codes(op, path) == codes


def test_verdict_fields(env: Env) -> None:
    [removal, outside] = env.check("delete", "/")
    assert (removal.verdict, removal.immune, removal.no_grant, removal.path) == ("deny", True, True, "/")
    assert (outside.verdict, outside.immune, outside.no_grant) == ("ask", False, True)
    [prot] = env.check("write", ".git/hooks/pre-commit")
    assert (prot.verdict, prot.immune, prot.no_grant) == ("ask", True, False)
    assert prot.path == f"{env.project}/.git/hooks/pre-commit"
    [cred] = env.check("read", "~/.ssh/id_rsa")
    assert (cred.verdict, cred.immune, cred.no_grant) == ("ask", True, False)
    [sens] = env.check("write", ".env")
    assert (sens.verdict, sens.immune, sens.no_grant) == ("ask", False, False)
    [secret] = env.check("read", ".env")
    assert (secret.verdict, secret.immune) == ("ask", False)


def test_every_removal_ask_refuses_grants(env: Env) -> None:
    for path in ("/opt/x", ".git", "~/.ssh", "/", "~/.config"):
        verdicts = env.check("delete", path)
        assert verdicts and all(v.no_grant for v in verdicts), path


def test_reasons_are_one_line_and_name_the_path(env: Env) -> None:
    for op, path in [("delete", "/"), ("write", ".git/hooks/x"), ("read", "~/.ssh/id_rsa"), ("write", ".env"), ("write", "/etc/hosts")]:
        for v in env.check(op, path):
            assert "\n" not in v.reason
            shown = v.path.replace(env.home, "~", 1) if v.path.startswith(env.home) else v.path
            assert shown in v.reason, (v.reason, shown)
    [cred] = env.check("read", "~/.ssh/id_rsa")
    assert cred.reason == "reading ~/.ssh/id_rsa needs approval in every mode: credential file: SSH private key"


def test_control_characters_in_names_are_escaped(env: Env) -> None:
    [v] = env.check("write", "/etc/evil\nallowed: yes")
    assert "\n" not in v.reason and "\\n" in v.reason


# --------------------------------------------------------------------------- symlinks


def test_in_project_link_to_outside_is_outside(env: Env) -> None:
    os.symlink(env.outside, f"{env.project}/vendor")
    assert env.codes("write", "vendor/file.txt") == ["FS006"]
    assert env.codes("read", "vendor/file.txt") == []


def test_in_project_link_to_credentials_is_a_credential(env: Env) -> None:
    os.symlink(f"{env.home}/.ssh", f"{env.project}/keys")
    assert env.codes("read", "keys/id_rsa") == ["FS003"]
    os.symlink(f"{env.home}/.ssh/id_rsa", f"{env.project}/notes.txt")
    assert env.codes("read", "notes.txt") == ["FS003"]


def test_in_project_link_to_protected_file_is_protected(env: Env) -> None:
    Path(f"{env.home}/.zshrc").write_text("")
    os.symlink(f"{env.home}/.zshrc", f"{env.project}/readme.txt")
    assert env.codes("write", "readme.txt") == ["FS002", "FS006"]


def test_dangling_link_to_outside_is_outside(env: Env) -> None:
    os.symlink(f"{env.outside}/later.txt", f"{env.project}/later.txt")
    assert env.codes("write", "later.txt") == ["FS006"]


def test_link_loop_inside_project_stays_inside(env: Env) -> None:
    os.symlink(f"{env.project}/b", f"{env.project}/a")
    os.symlink(f"{env.project}/a", f"{env.project}/b")
    assert env.codes("write", "a") == []
    assert env.codes("write", "a/x") == []


def test_workspace_through_symlink(env: Env) -> None:
    link = f"{env.base}/proj-link"
    os.symlink(env.project, link)
    ws = Workspace.create(link, home=env.home)
    for path, codes in [("src/app.py", []), (".", ["FS001"]), (".git/config", ["FS002"]), ("../x", ["FS006"])]:
        resolved = resolve_path(path, cwd=link, home=env.home)
        op = "delete" if path == "." else "write"
        assert [v.code for v in check_access(op, resolved, workspace=ws, home=env.home, config=env.config)] == codes


def test_deleting_a_link_to_a_removal_target_is_blocked(env: Env) -> None:
    # fail closed: the target is what a `rm -rf link/` would destroy
    os.symlink("/", f"{env.project}/root-link")
    assert env.codes("delete", "root-link")[0] == "FS001"


def test_additional_directory_is_inside_and_its_root_is_a_removal_target(env: Env) -> None:
    ws = Workspace.create(env.project, [env.outside], home=env.home)

    def codes(op: str, path: str) -> list[str]:
        resolved = resolve_path(path, cwd=env.project, home=env.home)
        return [v.code for v in check_access(op, resolved, workspace=ws, home=env.home, config=env.config)]

    assert codes("write", f"{env.outside}/x") == []
    assert codes("delete", env.outside) == ["FS001"]
    assert codes("delete", env.base) == ["FS001"]  # in /tmp: FS001 alone says it


# --------------------------------------------------------------------------- odd input and settings


def test_unknown_op_fails_closed(env: Env) -> None:
    assert env.codes("chmod", "src/app.py") == ["FS000"]
    assert env.codes("frobnicate", "/") == ["FS001", "FS000", "FS006"]
    assert all(v.no_grant for v in env.check("frobnicate", "src/app.py"))


@pytest.mark.parametrize("op", ["READ", " write ", "Delete"])
def test_op_is_case_insensitive(env: Env, op: str) -> None:
    assert "FS000" not in env.codes(op, "src/app.py")


@pytest.mark.parametrize("bad", ["", "relative/path", "/a\0b", None])
def test_unresolved_input_asks(env: Env, bad: object) -> None:
    [v] = check_access("read", bad, workspace=env.ws, home=env.home)  # type: ignore[arg-type]
    assert (v.code, v.verdict, v.immune) == ("FS000", "ask", True)


def test_settings_extensions_reach_check(env: Env) -> None:
    cfg = ProtectionConfig(protected=(".husky",), credentials=("~/.config/rclone",), sensitive=("*.tfstate",), own_paths=env.own)
    assert env.codes("write", ".husky/pre-commit", config=cfg) == ["FS002"]
    assert env.codes("read", "~/.config/rclone/rclone.conf", config=cfg) == ["FS003"]
    assert env.codes("write", "infra/prod.tfstate", config=cfg) == ["FS004"]
    assert env.codes("write", ".husky/pre-commit") == []


def test_default_config_protects_bastion_dirs_from_environ(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    from bastion.files import protected

    monkeypatch.setenv("BASTION_STATE_DIR", f"{env.outside}/bastion-state")
    protected._own_paths_from_environ.cache_clear()
    try:
        resolved = resolve_path(f"{env.outside}/bastion-state/grants.json", cwd="/", home=env.home)
        assert [v.code for v in check_access("write", resolved, workspace=env.ws, home=env.home)] == ["FS002", "FS006"]
    finally:
        protected._own_paths_from_environ.cache_clear()


# --------------------------------------------------------------------------- suggest_edit_scope


@pytest.mark.parametrize(
    "rel, rule",
    [
        (".claude/skills/my-tool/handler.ts", "Edit(/.claude/skills/my-tool/**)"),
        (".claude/skills/my-tool/lib/deep/x.py", "Edit(/.claude/skills/my-tool/**)"),
        (".Claude/SKILLS/Tool/x.md", "Edit(/.Claude/SKILLS/Tool/**)"),
        (".claude/skills/README.md", "Edit(/.claude/skills/README.md)"),
        (".claude/settings.json", "Edit(/.claude/settings.json)"),
        ("src/app.py", "Edit(/src/app.py)"),
        ("new/file.txt", "Edit(/new/file.txt)"),
        ("weird/a*b?.py", "Edit(/weird/a\\*b\\?.py)"),
        ("weird/f(1).txt", "Edit(/weird/f\\(1\\).txt)"),
        ("weird/[x].txt", "Edit(/weird/\\[x].txt)"),
    ],
)
def test_suggest_edit_scope(env: Env, rel: str, rule: str) -> None:
    resolved = resolve_path(rel, cwd=env.project, home=env.home)
    assert suggest_edit_scope(resolved, project_root=env.project) == rule


@pytest.mark.parametrize(
    "rel, other, covered",
    [
        (".claude/skills/my-tool/handler.ts", ".claude/skills/my-tool/other/file.md", True),
        (".claude/skills/my-tool/handler.ts", ".claude/skills/other-tool/x", False),
        (".claude/skills/my-tool/handler.ts", ".claude/settings.json", False),
        (".claude/skills/my-tool/handler.ts", ".claude/hooks/x.sh", False),
        ("src/app.py", "src/app.py", True),
        ("src/app.py", "src/other.py", False),
        ("weird/a*b?.py", "weird/a*b?.py", True),
        ("weird/a*b?.py", "weird/aXXbY.py", False),
        ("weird/f(1).txt", "weird/f(1).txt", True),
        ("weird/[x].txt", "weird/[x].txt", True),
        ("weird/[x].txt", "weird/x.txt", False),
    ],
)
def test_suggested_rules_parse_and_stay_narrow(env: Env, rel: str, other: str, covered: bool) -> None:
    from bastion.policy.rules import parse_rule

    suggestion = suggest_edit_scope(f"{env.project}/{rel}", project_root=env.project)
    assert suggestion is not None
    rule = parse_rule(suggestion, "allow", source="session", base_dir=env.project)
    assert rule.matches_path(f"{env.project}/{rel}", home=env.home)
    assert rule.matches_path(f"{env.project}/{other}", home=env.home) is covered


@pytest.mark.parametrize("path", ["{outside}/x", "{project}", "{base}/home/me/projectx/y", "relative/x", "{project}/ lead", "{project}/a\nb"])
def test_no_suggestion(env: Env, path: str) -> None:
    resolved = path.format(outside=env.outside, project=env.project, base=env.base)
    assert suggest_edit_scope(resolved, project_root=env.project) is None


def test_suggest_with_project_root_through_symlink(env: Env) -> None:
    link = f"{env.base}/proj-link"
    os.symlink(env.project, link)
    resolved = resolve_path("src/app.py", cwd=link, home=env.home)
    assert suggest_edit_scope(resolved, project_root=link) == "Edit(/src/app.py)"


# --------------------------------------------------------------------------- properties

_SEGMENTS = st.sampled_from(
    ["", ".", "..", "~", "$HOME", "src", ".git", ".GIT", ".env", ".env.example", ".ssh", "id_rsa", "etc", "shadow",
     "tmp", "home", "me", "project", ".claude", "worktrees", "skills", "a b", "x\ny", "secret.key", "proc", "environ"]
)
_PATHS = st.lists(_SEGMENTS, max_size=6).map(lambda parts: "/".join(parts))
_WS = Workspace(("/home/me/project",))
_CFG = ProtectionConfig(own_paths=("/home/me/.config/bastion",))


def _codes(op: str, resolved: str) -> list[str]:
    return [v.code for v in check_access(op, resolved, workspace=_WS, home="/home/me", config=_CFG)]


@settings(max_examples=300, deadline=None)
@given(_PATHS, st.booleans())
def test_check_access_properties(text: str, absolute: bool) -> None:
    resolved = resolve_path(("/" if absolute else "") + text, cwd="/home/me/project", home="/home/me")
    by_op = {op: check_access(op, resolved, workspace=_WS, home="/home/me", config=_CFG) for op in ("read", "exec", "write", "delete")}
    for verdicts in by_op.values():
        for v in verdicts:
            assert v.verdict in ("ask", "deny") and (v.verdict == "deny") == (v.code == "FS001")
            assert "\n" not in v.reason and v.path == resolved
    read, write, delete = (_codes(op, resolved) for op in ("read", "write", "delete"))
    assert set(read) <= {"FS003", "FS005"} and read == _codes("exec", resolved)
    assert set(write) <= set(delete)
    assert all(v.no_grant for v in by_op["delete"]) and not any(v.no_grant for v in by_op["write"])
    order = ["FS001", "FS000", "FS002", "FS003", "FS004", "FS005", "FS006"]
    assert delete == sorted(delete, key=order.index)
