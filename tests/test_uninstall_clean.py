"""``bastion uninstall`` leaves nothing of the install behind: no lock, no state folder, no
client file or folder that the install made. The install lock exists only while held."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bastion import state
from bastion.adapters.install import install, uninstall

CLIENTS = ("claude-code", "codex", "gemini")


def _tree(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*")}


def _env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_STATE_HOME": str(home / ".local" / "state"),
            "CODEX_HOME": str(home / ".codex")}


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("scope", ["user", "project"])
def test_install_then_uninstall_leaves_the_machine_as_it_was(tmp_path: Path, client: str, scope: str) -> None:
    env = _env(tmp_path)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    before = _tree(tmp_path)
    installed = install(client, scope, cwd=str(project), env=env)
    assert installed.changed and installed.path.exists()
    assert not list(tmp_path.rglob("install.lock")), "the lock outlived the install"
    assert uninstall(client, scope, cwd=str(project), env=env).changed
    assert _tree(tmp_path) == before


def test_the_cli_round_trip_leaves_no_lock_or_state(tmp_path: Path) -> None:
    env = {**os.environ, **_env(tmp_path)}
    env.pop("BASTION_STATE_DIR", None)
    env.pop("BASTION_CONFIG_DIR", None)
    before = _tree(tmp_path)
    for verb in ("install", "uninstall"):
        done = subprocess.run([sys.executable, "-m", "bastion", verb, "claude-code"], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    assert _tree(tmp_path) == before
    assert not (tmp_path / "home" / ".local" / "state" / "bastion").exists()


def test_uninstall_keeps_the_state_bastion_wrote_in_use(tmp_path: Path) -> None:
    """The audit log and other state of a bastion in use are the user's record: only what
    the install itself made goes."""
    env = _env(tmp_path)
    audit = state.state_dir(env) / "audit.jsonl"
    audit.parent.mkdir(parents=True)
    audit.write_text('{"decision": "allow"}\n')
    install("claude-code", "user", env=env)
    uninstall("claude-code", "user", env=env)
    assert sorted(p.name for p in audit.parent.iterdir()) == ["audit.jsonl"]


def test_the_passing_lock_lets_one_holder_in_at_a_time(tmp_path: Path) -> None:
    """Holders come and go, each removing the lock file: a waiter that got the removed
    file's lock must not run beside the next holder of the new file."""
    target = tmp_path / "state" / "install"
    counter = tmp_path / "counter"
    counter.write_text("0")
    inside: list[int] = []
    overlaps: list[int] = []

    def work() -> None:
        for _ in range(30):
            with state.passing_lock(target):
                inside.append(1)
                if len(inside) > 1:
                    overlaps.append(len(inside))
                counter.write_text(str(int(counter.read_text()) + 1))
                inside.pop()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert overlaps == [] and counter.read_text() == "120"
    assert not list(tmp_path.rglob("install.lock"))
