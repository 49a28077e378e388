"""End-to-end fixtures: the real client CLIs, an isolated home, a project with a victim.

The CLIs come from ``.e2e/node_modules/.bin`` (``scripts/setup.sh --test`` installs them
there) or from ``PATH``; a test whose CLI is missing is skipped with the install command.
Each run gets its own HOME (so bastion's config, state and audit log, and the client's
settings, are all throw-away), a fake model server on 127.0.0.1, and a timeout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCAL_BIN = ROOT / ".e2e" / "node_modules" / ".bin"
CLI_TIMEOUT = 120
NPM_PACKAGES = {"claude": "@anthropic-ai/claude-code", "codex": "@openai/codex", "gemini": "@google/gemini-cli"}


def cli_binary(name: str) -> str:
    """The client's executable, or a skip that says how to install it."""
    local = LOCAL_BIN / name
    if local.exists():
        return str(local)
    found = shutil.which(name)
    if found:
        return found
    pytest.skip(f"{name} CLI not installed: run scripts/setup.sh --test (npm install {NPM_PACKAGES[name]} into .e2e/)")


@dataclass
class Workspace:
    """An isolated home and a project holding ``victim/keep.txt``."""

    home: Path
    project: Path
    runtime: Path  # where bastion's decision server puts its socket

    @property
    def victim(self) -> Path:
        return self.project / "victim"

    @property
    def keep(self) -> Path:
        return self.victim / "keep.txt"

    def env(self, **extra: str) -> dict[str, str]:
        """A minimal environment: no developer settings, no real keys leak in."""
        keep = ("PATH", "LANG", "LC_ALL", "TERM", "TMPDIR", "SYSTEMROOT")
        env = {key: os.environ[key] for key in keep if key in os.environ}
        env.update(HOME=str(self.home), XDG_CONFIG_HOME=str(self.home / ".config"),
                   XDG_STATE_HOME=str(self.home / ".local" / "state"), NO_COLOR="1",
                   BASTION_RUNTIME_DIR=str(self.runtime))
        env.update(extra)
        return env

    def bastion(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        """Run this interpreter's bastion (the one the hook command will point at)."""
        done = subprocess.run([sys.executable, "-m", "bastion", *args], cwd=self.project, env=env or self.env(),
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done

    def audit(self) -> list[dict[str, Any]]:
        path = self.home / ".local" / "state" / "bastion" / "audit.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    """The hooks run through bastion's decision server (as they do for users); it is
    stopped when the test ends."""
    from bastion.hook.server import stop_servers

    home = tmp_path / "client-home"
    project = tmp_path / "project"
    home.mkdir()
    (project / "victim").mkdir(parents=True)
    (project / "victim" / "keep.txt").write_text("precious\n")
    (project / "README.md").write_text("# demo project\n")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    runtime = Path(tempfile.mkdtemp(prefix="bh-"))  # short: socket paths are limited
    try:
        yield Workspace(home, project, runtime)
    finally:
        stop_servers(str(runtime))
        shutil.rmtree(runtime, ignore_errors=True)


def run_cli(argv: list[str], workspace: Workspace, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run a client with a timeout; its output is kept for the assertion messages."""
    return subprocess.run(argv, cwd=workspace.project, env=env, capture_output=True, text=True,
                          timeout=CLI_TIMEOUT, stdin=subprocess.DEVNULL)
