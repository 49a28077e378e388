"""Shared fixtures: every test runs with its own HOME, config, state and managed-settings
paths, so nothing reads or writes the developer's real files."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests judge outcomes, never speed: a busy machine must not fail them.
settings.register_profile("bastion", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("bastion")

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture
def bastion_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An isolated environment (also exported, so subprocesses inherit it)."""
    home = tmp_path / "home"
    home.mkdir()
    values = {
        "HOME": str(home),
        "BASTION_CONFIG_DIR": str(tmp_path / "config"),
        "BASTION_STATE_DIR": str(tmp_path / "state"),
        "BASTION_MANAGED_SETTINGS": str(tmp_path / "managed" / "managed-settings.json"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
    }
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("BASTION_AUDIT", raising=False)
    monkeypatch.delenv("BASTION_AUDIT_LOG", raising=False)
    # A person's machine: CI itself sets CI=true, which makes bastion refuse to prompt;
    # the tests that are about CI set it themselves.
    for name in ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD"):
        monkeypatch.delenv(name, raising=False)
    return dict(os.environ)


@pytest.fixture
def project(tmp_path: Path, bastion_env: dict[str, str]) -> Path:
    """A real git project with a source file, as an agent would work in."""
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hello')\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def run_bastion(*args: str, stdin: str = "", cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the real ``bastion`` command in a subprocess, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "bastion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=str(cwd) if cwd else None,
        env=env,
        timeout=60,
    )


def throwaway_workspace(base: Path) -> tuple[str, dict[str, str]]:
    """A git project under ``base`` and an environment whose HOME, config, state and
    managed-settings paths are throw-away folders beside it (for module-scoped guards)."""
    root, home = base / "project", base / "home"
    root.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BASTION_CONFIG_DIR": str(base / "config"),
        "BASTION_STATE_DIR": str(base / "state"),
        "BASTION_MANAGED_SETTINGS": str(base / "managed" / "managed-settings.json"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
    }
    return str(root), env


def guard_with_settings(project: Path, env: dict[str, str], settings: dict | None = None, **kw: object) -> object:
    """A guard with built-in defaults plus ``settings`` given as a ``--settings`` file."""
    import json

    from bastion.engine import Guard

    files = []
    if settings is not None:
        path = project.parent / "flag-settings.json"
        path.write_text(json.dumps(settings))
        files.append(str(path))
    return Guard.from_settings(str(project), isolated=True, settings_files=files, env=env, **kw)  # type: ignore[arg-type]


def empty_precompiled_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``bastion.precompiled`` with an empty cache in a file of the test's own, saved only
    when a test says so (never at the test process's exit)."""
    from bastion import precompiled

    monkeypatch.setattr(precompiled, "_path", lambda: str(tmp_path / "__pycache__" / "cache.marshal"))
    monkeypatch.setattr(precompiled, "_FILE", {})
    monkeypatch.setattr(precompiled, "_OPENED", {})
    monkeypatch.setattr(precompiled, "_USED", {})
    monkeypatch.setattr(precompiled, "_CHANGED", set())
    monkeypatch.setattr(precompiled, "_SAVING", True)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def module_from_source(name: str, source: str) -> types.ModuleType:
    """``source`` run as the module ``name`` (in ``sys.modules`` while it runs, as an
    imported module is while its class statements run)."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(compile(source, name, "exec"), module.__dict__)  # noqa: S102 - the classes under test
    finally:
        del sys.modules[name]
    return module
