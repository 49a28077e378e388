"""Shared pieces of the sandbox tests: which backends this machine has, and a fake home
and project to run commands against."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from bastion.sandbox import Sandbox, doctor, landlock


def _landlock_usable() -> tuple[bool, str]:
    if landlock.abi() == 0:
        return False, "this kernel has no Landlock"
    if os.geteuid() != 0:
        ok, detail = doctor._in_child(doctor._unshare(landlock.CLONE_NEWUSER))
        if not ok:
            return False, f"no user namespaces for the Landlock backend: {detail}"
    return True, ""


def _backend_params() -> list:
    """Each backend this machine can run; the others are skipped with the reason
    (``bastion doctor`` says the same; scripts/setup.sh --test installs bubblewrap)."""
    params = []
    check = doctor._bwrap_check()
    for name, (usable, why) in (("bwrap", (check.ok, check.detail)), ("landlock", _landlock_usable())):
        marks = [] if usable else [pytest.mark.skip(reason=f"{name} backend unusable here: {why}")]
        params.append(pytest.param(name, marks=marks, id=name))
    return params


BACKENDS = _backend_params()


@dataclass
class World:
    """A fake home with secrets and a git project next to it (both outside the other)."""

    home: Path
    project: Path
    outside: Path

    def sandbox(self, backend: str, **kwargs) -> Sandbox:
        environ = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "BASTION_CONFIG_DIR": str(self.home / ".config" / "bastion"),
            "BASTION_STATE_DIR": str(self.home / ".local" / "state" / "bastion"),
        }
        environ.update(kwargs.pop("extra_env", {}))
        kwargs.setdefault("warn", None)
        return Sandbox(backend=backend, home=str(self.home), environ=environ, **kwargs)


def make_world(tmp_path: Path) -> World:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = secret\n")
    (home / ".netrc").write_text("machine example.com password secret\n")
    (home / "notes.txt").write_text("keep me\n")
    (home / "docs").mkdir()
    (home / "docs" / "a.md").write_text("keep me too\n")
    (home / ".bashrc").write_text("# shell startup\n")
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('hello')\n")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    return World(home, project, outside)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its content (to prove nothing changed)."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(root))] = path.read_bytes()
        elif path.is_dir():
            out[str(path.relative_to(root)) + "/"] = b""
    return out
