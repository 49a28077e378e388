"""``bastion doctor``: for each client, is the hook installed, does its command resolve,
does it answer a probe, is it trusted (Codex) — each answer with its fix. The probes run
the installed commands for real (``sh -c``, as the clients run them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bastion.adapters.install import install
from bastion.cli.doctor import client_report
from conftest import run_bastion

VENV_BIN = str(Path(sys.executable).parent)


def _checks(report) -> dict[str, list]:
    found: dict[str, list] = {}
    for check in report.checks:
        found.setdefault(check.name, []).append(check)
    return found


@pytest.fixture
def env(bastion_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    return {**bastion_env, "PATH": "/usr/bin:/bin", "CODEX_HOME": str(tmp_path / "codex")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.mark.parametrize("client", ["claude-code", "codex", "gemini"])
def test_not_installed_says_how_to_install(client: str, env: dict[str, str], project: Path) -> None:
    report = client_report(client, str(project), env)
    assert not report.installed and not report.ok
    (check,) = report.checks
    assert check.ok is False and check.fix.startswith(f"bastion install {client}")


@pytest.mark.parametrize("client", ["claude-code", "gemini"])
def test_a_user_install_resolves_and_denies_the_probe(client: str, env: dict[str, str], project: Path) -> None:
    install(client, "user", env=env)
    report = client_report(client, str(project), env)
    checks = _checks(report)
    assert report.ok, report.render()
    assert checks["command"][0].ok and sys.executable in checks["command"][0].detail
    assert checks["answers a probe"][0].ok and "denied" in checks["answers a probe"][0].detail
    assert checks["in force"][0].detail.startswith("user")
    assert not (Path(env["BASTION_STATE_DIR"]) / "audit.jsonl").exists()  # a probe is no decision to keep


def test_a_project_install_needs_bastion_on_path(env: dict[str, str], project: Path) -> None:
    install("claude-code", "project", cwd=str(project), env=env)
    report = client_report("claude-code", str(project), env)
    command = _checks(report)["command"][0]
    assert not report.ok and command.ok is False and "PATH" in command.fix
    on_path = {**env, "PATH": f"{VENV_BIN}:/usr/bin:/bin"}
    report = client_report("claude-code", str(project), on_path)
    assert report.ok, report.render()
    assert "bastion on PATH" in _checks(report)["in force"][0].detail


def test_a_moved_interpreter_is_named_with_its_fix(env: dict[str, str], project: Path) -> None:
    install("gemini", "user", env=env, python="/nonexistent/venv/bin/python")
    command = _checks(client_report("gemini", str(project), env))["command"][0]
    assert command.ok is False and "/nonexistent/venv/bin/python is gone" in command.detail
    assert command.fix.endswith("bastion install gemini")


def test_a_hook_that_sets_other_folders_than_its_interpreter_has_now_is_named(env: dict[str, str],
                                                                               project: Path) -> None:
    """The installed command sets ``sys.path`` as ``site`` did at install: when bastion was
    reinstalled elsewhere (an editable install pointed at another checkout), the hook would
    decide with another copy than its server and the ``bastion`` commands."""
    install("claude-code", "user", env=env)
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    text = settings.read_text()
    assert "sys.path[:] = [" in text
    settings.write_text(text.replace("sys.path[:] = [", 'sys.path[:] = [\\"/elsewhere/src\\", '))
    command = _checks(client_report("claude-code", str(project), env))["command"][0]
    assert command.ok is False and "other folders" in command.detail
    assert command.fix == "bastion install claude-code"
    install("claude-code", "user", env=env)
    assert _checks(client_report("claude-code", str(project), env))["command"][0].ok


def test_a_hook_that_does_not_decide_fails_the_probe(env: dict[str, str], project: Path, tmp_path: Path) -> None:
    """A command that blocks everything (exit 2) is not bastion answering."""
    install("gemini", "user", env=env, python=str(Path(sys.executable).parent / "python"))
    settings = Path(env["HOME"]) / ".gemini" / "settings.json"
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\necho boom >&2\nexit 1\n")
    broken.chmod(0o755)
    settings.write_text(settings.read_text().replace(json.dumps(str(Path(sys.executable).parent / "python"))[1:-1], str(broken)))
    probe = _checks(client_report("gemini", str(project), env))["answers a probe"][0]
    assert probe.ok is False and "exit 2" in probe.detail and "boom" in probe.detail


def test_codex_untrusted_then_trusted(env: dict[str, str], project: Path) -> None:
    install("codex", "user", env=env)
    report = client_report("codex", str(project), env)
    trusted = _checks(report)["hook trusted"][0]
    assert not report.ok and trusted.ok is False and "WITHOUT bastion" in trusted.detail
    assert trusted.fix.startswith("bastion install codex --trust") and "/hooks" in trusted.fix
    assert _checks(report)["in force"][0].ok is False
    install("codex", "user", env=env, trust=True)
    assert client_report("codex", str(project), env).ok


def test_codex_project_needs_a_trusted_project(env: dict[str, str], project: Path) -> None:
    on_path = {**env, "PATH": f"{VENV_BIN}:/usr/bin:/bin"}
    install("codex", "project", cwd=str(project), env=on_path, trust=True)
    checks = _checks(client_report("codex", str(project), on_path))
    assert checks["project trusted"][0].ok is False and str(project) in checks["project trusted"][0].fix
    config = Path(env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text() + f'\n[projects."{project}"]\ntrust_level = "trusted"\n')
    assert client_report("codex", str(project), on_path).ok


def test_two_scopes_both_run(env: dict[str, str], project: Path) -> None:
    install("claude-code", "user", env=env)
    install("claude-code", "local", cwd=str(project), env=env)
    in_force = _checks(client_report("claude-code", str(project), env))["in force"][0]
    assert "user" in in_force.detail and "local" in in_force.detail and "2 times" in in_force.detail
    assert in_force.fix.startswith("to keep one: bastion uninstall claude-code")


def test_cli_json_and_exit_status(env: dict[str, str], project: Path) -> None:
    install("gemini", "user", env=env)
    done = run_bastion("doctor", "gemini", "--json", cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)["clients"]
    assert report["client"] == "gemini" and report["ok"] and report["in_force"] == ["user"]
    missing = run_bastion("doctor", "codex", cwd=project, env=env)
    assert missing.returncode == 1 and "fix: bastion install codex --trust" in missing.stdout
