"""Nothing a sandboxed command writes into a git folder may change what git runs or where
it looks once the command is over, and no protected name it creates survives the run:
on both backends, on the real kernel, with a real ``git commit`` outside afterwards.

The escape these tests start from: a command points ``.git/commondir`` at a folder of its
own with a ``config`` and a ``hooks/pre-commit``; the person's next ``git commit``,
outside the sandbox, would run that hook.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bastion.paths.match import protected_names
from bastion.sandbox.plan import GIT_CONTROL
from sandbox_util import BACKENDS, make_world, snapshot
from waiting import PATIENCE, wait_for_file_sh

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always"]

#: The probe's setup.sh, as filed.
ESCAPE = """\
mkdir -p build/g/hooks && cp -r .git/objects .git/refs .git/HEAD build/g/
cp .git/config build/g/config
printf '#!/bin/sh\\ntouch PWNED\\n' > build/g/hooks/pre-commit
chmod +x build/g/hooks/pre-commit
echo ../build/g > .git/commondir
"""


def git(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*GIT, *args], cwd=str(cwd), env=env, capture_output=True, text=True, check=True)


def bastion_run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bastion", "run", *args],
        capture_output=True, text=True, cwd=str(cwd), env=env, timeout=PATIENCE * 2, start_new_session=True, check=False,
    )


def commit_outside(project: Path, env: dict[str, str] | None = None) -> None:
    """The person's next commit, unconfined; a planted hook would leave PWNED behind."""
    (project / "after.txt").write_text("after\n")
    git("add", "after.txt", cwd=project, env=env)
    git("commit", "-qm", "after the run", cwd=project, env=env)
    git("status", "--short", cwd=project, env=env)  # runs core.fsmonitor, if one were planted


def pwned(root: Path) -> list[str]:
    return [str(p) for p in root.rglob("PWNED*")]


@pytest.fixture
def settings(tmp_path: Path) -> str:
    path = tmp_path / "run-settings.json"
    path.write_text('{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}')
    return str(path)


# --------------------------------------------------------------------------- the filed escape, through `bastion run`


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_commondir_escape_is_stopped_and_the_next_commit_runs_no_planted_hook(
    project, bastion_env, settings, backend
):
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=project, env=bastion_env)
    (project / "setup.sh").write_text(ESCAPE)
    proc = bastion_run("--backend", backend, "--no-check", "--settings", settings, "--", "sh setup.sh", cwd=project, env=bastion_env)
    assert proc.returncode == 137, proc.stderr  # stopped, never a quiet 0
    assert not (project / ".git" / "commondir").exists()
    assert f"bastion: sandbox blocked the creation of {project}/.git/commondir" in proc.stderr
    assert "the run was stopped" in proc.stderr
    commit_outside(project, bastion_env)
    assert pwned(project) == []
    quarantined = list((Path(bastion_env["BASTION_STATE_DIR"]) / "quarantine").iterdir())
    assert [p.read_text() for p in quarantined] == ["../build/g\n"]  # kept for a look, not deleted


def test_the_check_reads_the_escape_script_before_it_runs(project, bastion_env, settings):
    """The check reads what ``sh setup.sh`` runs and refuses it before any sandbox starts
    (its line into .git/commondir is a write git obeys). The other tests here run the
    script with ``--no-check``: the sandbox must hold even when the check was fooled."""
    (project / "setup.sh").write_text(ESCAPE)
    proc = bastion_run("--settings", settings, "--", "sh setup.sh", cwd=project, env=bastion_env)
    assert proc.returncode == 4, proc.stderr
    assert not (project / "build").exists()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_escape_is_reported_in_the_json_result(project, bastion_env, settings, backend):
    (project / "setup.sh").write_text(ESCAPE)
    proc = bastion_run("--backend", backend, "--no-check", "--json", "--settings", settings, "--", "sh setup.sh",
                       cwd=project, env=bastion_env)
    result = json.loads(proc.stdout)
    assert proc.returncode == result["exit_code"] == 137
    assert [(v["kind"], v["target"]) for v in result["violations"]] == [("created", f"{project}/.git/commondir")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_commits_inside_the_sandbox_still_work(project, bastion_env, settings, backend):
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=project, env=bastion_env)
    (project / "work.sh").write_text(
        "echo one > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm one && "
        "git checkout -qb topic && echo two > b.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm two && "
        "git checkout -q - && git -c user.name=t -c user.email=t@t merge -q --no-edit --no-ff topic && "
        "git tag v1 && git pack-refs --all && git log --oneline | wc -l\n"
    )
    proc = bastion_run("--backend", backend, "--settings", settings, "--", "sh work.sh", cwd=project, env=bastion_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "4"
    assert "bastion: sandbox" not in proc.stderr
    log = git("log", "--format=%s", cwd=project, env=bastion_env).stdout.split()
    assert log[0] == "Merge" and sorted(log[3:]) == ["first", "one", "two"]
    assert (project / ".git" / "packed-refs").exists() and (project / ".git" / "ORIG_HEAD").exists()
    commit_outside(project, bastion_env)


# --------------------------------------------------------------------------- every control name of every git folder


@pytest.fixture
def world(tmp_path: Path):
    """A project with a commit, an absorbed submodule (``sub``) and a linked worktree kept
    inside the project (``.claude/worktrees/wt``), as agents make them."""
    world = make_world(tmp_path)
    project = world.project
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=project)
    lib = tmp_path / "lib"
    lib.mkdir()
    git("init", "-q", cwd=lib)
    (lib / "a.txt").write_text("a\n")
    git("add", "a.txt", cwd=lib)
    git("commit", "-qm", "a", cwd=lib)
    git("submodule", "add", "-q", str(lib), "sub", cwd=project)
    git("commit", "-qm", "submodule", cwd=project)
    git("worktree", "add", "-q", ".claude/worktrees/wt", cwd=project)
    (project / "build" / "g" / "hooks").mkdir(parents=True)
    shutil.copy(project / ".git" / "config", project / "build" / "g" / "config")
    with open(project / "build" / "g" / "config", "a") as handle:
        handle.write("[core]\n\tfsmonitor = touch PWNED-fsmonitor\n")
    hook = project / "build" / "g" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\ntouch PWNED-hook\n")
    hook.chmod(0o755)
    return world


#: What commits and checkouts change in a git folder (``objects/info`` is not among them).
COMMIT_NAMES = {"refs", "logs", "index", "HEAD", "ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG", "packed-refs"}


def control_state(project: Path) -> dict[str, bytes]:
    """Every file and folder of every git folder except what commits change, and each
    ``.git`` file of a checkout."""
    state = {}
    for rel, data in snapshot(project / ".git").items():
        parts = rel.rstrip("/").split("/")
        objects = [i for i, part in enumerate(parts) if part == "objects"]
        if COMMIT_NAMES & set(parts) or any(parts[i + 1 : i + 2] not in (["info"], []) for i in objects):
            continue
        state[rel] = data
    for dot_git in ("sub/.git", ".claude/worktrees/wt/.git"):
        state[dot_git] = (project / dot_git).read_bytes()
    return state


#: One write per control name of ``GIT_CONTROL``, in the main git folder, a submodule's
#: and a worktree's — as an attacker would: plain writes, appends, renames, links, new folders.
PLANTS = {
    "commondir": "echo ../build/g > .git/commondir",
    "commondir as a link": "ln -s ../build/g .git/commondir",
    "config.worktree": "printf '[core]\\n\\tfsmonitor = touch PWNED\\n' > .git/config.worktree",
    "config": "echo '[core] fsmonitor = touch PWNED' >> .git/config",
    "config renamed over": "cp build/g/config c && mv -f c .git/config",
    "gitdir": "echo /tmp/elsewhere/.git > .git/worktrees/wt/gitdir",
    "hooks": "cp build/g/hooks/pre-commit .git/hooks/pre-commit",
    "hooks renamed away": "mv .git/hooks .git/hooks.old && mkdir .git/hooks",
    "info": "echo '* diff=evil' > .git/info/attributes",
    "modules (a new one)": "mkdir -p .git/modules/evil/hooks",
    "modules (its config)": "echo '[core] fsmonitor = touch PWNED' >> .git/modules/sub/config",
    "modules (its hooks)": "cp build/g/hooks/pre-commit .git/modules/sub/hooks/pre-commit",
    "modules (its commondir)": "echo ../../../build/g > .git/modules/sub/commondir",
    "worktrees (a new one)": "mkdir .git/worktrees/evil && echo ../.. > .git/worktrees/evil/commondir",
    "worktrees (its commondir)": "echo ../../../build/g > .git/worktrees/wt/commondir",
    "worktrees (its config.worktree)": "echo '[core] fsmonitor = touch PWNED' > .git/worktrees/wt/config.worktree",
    "objects/info/alternates": "echo \"$PWD/build/g/objects\" > .git/objects/info/alternates",
    "objects/info/http-alternates": "echo http://evil.example/ > .git/objects/info/http-alternates",
    "objects/info swapped": "mv .git/objects/info .git/objects/info.old; mkdir .git/objects/info2 && "
                            "echo /x > .git/objects/info2/alternates && mv -T .git/objects/info2 .git/objects/info",
    "remotes": "mkdir -p .git/remotes && echo 'URL: /tmp/evil' > .git/remotes/origin",
    "branches": "echo /tmp/evil > .git/branches/origin",
    "a submodule's .git file": "echo 'gitdir: ../build/g' > sub/.git",
    "a submodule's .git file replaced": "rm -f sub/.git && echo 'gitdir: ../build/g' > sub/.git",
    "a worktree's .git file": "echo 'gitdir: ../../../build/g' > .claude/worktrees/wt/.git",
    ".git renamed away": "mv .git .git.old && mkdir .git",
}


def test_the_plan_mounts_each_folder_before_what_lies_inside_it(world):
    from bastion.sandbox.plan import build_plan

    plan = build_plan(str(world.project), home=str(world.home), env={"HOME": str(world.home)})
    order = [(what, path[len(str(world.project)):]) for what, path in plan.mounts() if path.startswith(str(world.project))]
    for earlier, later in [
        (("ro", "/.git/modules"), ("rw", "/.git/modules/sub")),
        (("rw", "/.git/modules/sub"), ("ro", "/.git/modules/sub/config")),
        (("rw", "/.git/modules/sub"), ("ro", "/.git/modules/sub/hooks")),
        (("ro", "/.git/worktrees"), ("rw", "/.git/worktrees/wt")),
        (("rw", "/.git/worktrees/wt"), ("ro", "/.git/worktrees/wt/commondir")),
        (("ro", "/.claude"), ("rw", "/.claude/worktrees")),
        (("rw", "/.claude/worktrees"), ("ro", "/.claude/worktrees/wt/.git")),
    ]:
        assert order.index(earlier) < order.index(later), (earlier, later)
    assert str(world.project / ".git" / "commondir") in plan.stop_on_create
    assert str(world.project / ".git" / "modules" / "sub" / "commondir") in plan.stop_on_create
    assert (str(world.project / ".vscode"), ".vscode is protected (editor tasks and settings can run commands)") \
        in plan.create_readonly
    assert plan.protected_why(str(world.project / ".git" / "modules" / "sub" / "objects" / "ab")) is None
    assert plan.protected_why(str(world.project / ".git" / "modules" / "sub" / "hooks" / "pre-commit"))


def test_every_control_name_is_planted_by_some_case():
    names = {rel.rstrip("/").split("/")[-1] for rel in GIT_CONTROL}
    planted = " ".join(PLANTS)
    assert all(name in planted for name in names), names


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(PLANTS))
def test_no_git_control_write_survives_the_run(world, backend, case):
    project = world.project
    before = control_state(project)
    result = world.sandbox(backend).run(PLANTS[case], cwd=str(project), timeout=PATIENCE)
    assert result.exit_code != 0, result.stderr
    assert control_state(project) == before, result.stderr
    assert [v for v in result.violations if v["kind"] in ("write", "created")], result.stderr
    commit_outside(project)
    (project / "sub" / "x.txt").write_text("x\n")
    git("add", "x.txt", cwd=project / "sub")
    git("commit", "-qm", "x", cwd=project / "sub")
    git("status", cwd=project / ".claude" / "worktrees" / "wt")
    assert pwned(world.home.parent) == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_planted_control_file_stops_the_run_at_once(world, backend):
    """An editor's `git status` would obey a planted commondir while the command still
    ran: the command never gets past planting it."""
    result = world.sandbox(backend).run(
        f"echo ../build/g > .git/commondir; {wait_for_file_sh(Path('never'))}; touch survived",
        cwd=str(world.project), timeout=PATIENCE * 2,
    )
    assert result.exit_code == 137
    assert not result.timed_out
    assert not (world.project / "survived").exists()
    assert not (world.project / ".git" / "commondir").exists()
    (item,) = result.violations
    assert item["kind"] == "created" and item["target"] == str(world.project / ".git" / "commondir")
    assert "the run was stopped as soon as it appeared" in item["detail"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_inotify_the_plant_is_still_taken_away_and_the_run_fails(world, backend, monkeypatch):
    from bastion.sandbox.livewatch import CreationWatch

    def refuse(links):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(CreationWatch, "start", staticmethod(refuse))
    result = world.sandbox(backend).run("echo ../build/g > .git/commondir", cwd=str(world.project))
    assert result.exit_code == 137
    assert not (world.project / ".git" / "commondir").exists()
    assert "the run counts as stopped" in result.violations[0]["detail"]
    assert any("no live watch on git's control files" in m for m in result.enforced["missing"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_commits_in_the_submodule_and_the_worktree_still_work(world, backend):
    project = world.project
    commit = "git -c user.name=t -c user.email=t@t commit -qm"
    result = world.sandbox(backend).run(
        f"(cd sub && echo y > y.txt && git add y.txt && {commit} y) && "
        f"(cd .claude/worktrees/wt && echo z > z.txt && git add z.txt && {commit} z) && "
        f"echo w > w.txt && git add w.txt && {commit} w && git log --oneline | wc -l",
        cwd=str(project), timeout=PATIENCE,
    )
    assert result.exit_code == 0, result.stderr
    assert result.violations == []
    assert git("log", "-1", "--format=%s", cwd=project / "sub").stdout.strip() == "y"
    assert git("log", "-1", "--format=%s", cwd=project / ".claude" / "worktrees" / "wt").stdout.strip() == "z"
    assert git("log", "-1", "--format=%s", cwd=project).stdout.strip() == "w"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_repository_cannot_be_created_at_the_top_of_a_workspace_without_one(world, backend):
    bare = world.outside / "plain"
    bare.mkdir()
    result = world.sandbox(backend).run(
        "git init -q && cp /dev/null .git/hooks/pre-commit; echo x > notes.txt", cwd=str(bare), workspace=str(bare)
    )
    assert result.exit_code == 137
    assert not os.path.lexists(bare / ".git")
    assert [v["target"] for v in result.violations] == [str(bare / ".git")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_workspace_that_is_a_linked_worktree_keeps_its_git_file(world, backend):
    checkout = world.project / ".claude" / "worktrees" / "wt"
    before = (checkout / ".git").read_text()
    result = world.sandbox(backend).run(
        "rm -f .git; echo 'gitdir: ../../../build/g' > .git; echo x > z.txt && git add z.txt && "
        "git -c user.name=t -c user.email=t@t commit -qm z",
        cwd=str(checkout), workspace=str(world.project),
    )
    assert (checkout / ".git").read_text() == before
    assert result.exit_code == 0, result.stderr  # the commit after the failed plant still works
    assert any(v["target"] == str(checkout / ".git") for v in result.violations)


# --------------------------------------------------------------------------- the protected names of the one table


_FOLDERS, _FILES = protected_names()
DIRS = sorted(d for d in _FOLDERS if d != ".git")
FILES = sorted(_FILES)


@pytest.fixture
def plain(tmp_path: Path):
    """A project with nothing protected in it yet."""
    return make_world(tmp_path)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", DIRS)
def test_a_protected_folder_created_in_the_sandbox_does_not_survive(plain, backend, name):
    project = plain.project
    assert not os.path.lexists(project / name)
    result = plain.sandbox(backend).run(
        f"mkdir -p {name}/sub && echo planted > {name}/settings.json; echo planted > {name}/sub/tasks.json",
        cwd=str(project),
    )
    assert result.exit_code != 0
    left = [str(p) for p in (project / name).rglob("*")] if (project / name).exists() else []
    assert left == []  # at most the empty folder the mount left
    assert any(v["kind"] == "write" and v["target"].startswith(str(project / name)) for v in result.violations)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", FILES)
def test_a_protected_file_created_in_the_sandbox_does_not_survive(plain, backend, name):
    project = plain.project
    result = plain.sandbox(backend).run(f"echo planted > {name}", cwd=str(project))
    assert not os.path.lexists(project / name)
    assert [(v["kind"], v["target"]) for v in result.violations] == [("created", str(project / name))]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_filed_editor_and_npm_plants_do_not_survive_bastion_run(project, bastion_env, settings, backend):
    (project / "plant.sh").write_text(
        "mkdir -p .vscode && echo '{}' > .vscode/tasks.json; mkdir -p .idea && echo x > .idea/workspace.xml; "
        "echo 'node-options=--require ./x.js' > .npmrc; true\n"
    )
    proc = bastion_run("--backend", backend, "--no-check", "--settings", settings, "--", "sh plant.sh", cwd=project, env=bastion_env)
    assert not (project / ".vscode" / "tasks.json").exists()
    assert not (project / ".idea" / "workspace.xml").exists()
    assert not os.path.lexists(project / ".npmrc")
    for path in (".vscode/tasks.json", ".idea/workspace.xml", ".npmrc"):
        assert f"{project}/{path} (" in proc.stderr, proc.stderr
