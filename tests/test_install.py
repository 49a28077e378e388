"""``bastion install|uninstall``: merges, keeps others' hooks, backs up, reverses exactly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bastion.adapters.install import (
    BACKUP_SUFFIX,
    CLIENTS,
    InstallError,
    _normal,
    add_hooks,
    hook_command,
    install,
    strip_hooks,
    target_file,
    uninstall,
)
from conftest import run_bastion

CLIENT_NAMES = sorted(CLIENTS)

OTHER_TOOL = {
    "claude-code": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "other-guard check"}]}]},
    "codex": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "other-guard check"}]}]},
    "gemini": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "other-guard"}]}]},
}


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}


@pytest.mark.parametrize(
    ("client", "scope", "expected"),
    [
        ("claude-code", "user", "home/.claude/settings.json"),
        ("claude-code", "project", "proj/.claude/settings.json"),
        ("codex", "user", "home/.codex/hooks.json"),
        ("codex", "project", "proj/.codex/hooks.json"),
        ("gemini", "user", "home/.gemini/settings.json"),
        ("gemini", "project", "proj/.gemini/settings.json"),
    ],
)
def test_target_files(tmp_path: Path, client: str, scope: str, expected: str) -> None:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "proj" / "src").mkdir()
    path = target_file(client, scope, cwd=str(tmp_path / "proj" / "src"), env=_env(tmp_path))
    assert path == tmp_path / expected


def test_codex_home_is_honoured(tmp_path: Path) -> None:
    env = {**_env(tmp_path), "CODEX_HOME": str(tmp_path / "ch")}
    assert target_file("codex", "user", env=env) == tmp_path / "ch" / "hooks.json"


def test_command_uses_this_interpreter_isolated_and_fails_closed() -> None:
    command = hook_command("codex")
    assert command.startswith(sys.executable) or command.startswith(f"'{sys.executable}'")
    assert " -I -m bastion hook codex" in command
    assert command.endswith("|| exit 2")


@pytest.mark.parametrize("client", CLIENT_NAMES)
def test_install_into_missing_file_then_uninstall_removes_it(tmp_path: Path, client: str) -> None:
    env = _env(tmp_path)
    result = install(client, "user", env=env)
    path = result.path
    assert result.changed and path.exists()
    data = json.loads(path.read_text())
    for event, matcher in CLIENTS[client].events:
        (group,) = data["hooks"][event]
        assert group["matcher"] == matcher
        assert group["hooks"][0]["command"] == hook_command(client)
    assert not Path(str(path) + BACKUP_SUFFIX).exists()  # nothing to back up
    assert uninstall(client, "user", env=env).changed
    assert not path.exists()
    assert not path.parent.exists()  # the client folder install had created


@pytest.mark.parametrize("client", CLIENT_NAMES)
@pytest.mark.parametrize(
    "original",
    [
        "{}",
        '{\n    "theme": "dark",\n    "model": "x"\n}',
        '{"permissions":{"allow":["Bash(ls)"]},"hooks":{}}\n',
        None,  # filled with another tool's hooks below
    ],
)
def test_round_trip_is_byte_identical(tmp_path: Path, client: str, original: str | None) -> None:
    env = _env(tmp_path)
    path = target_file(client, "user", env=env)
    path.parent.mkdir(parents=True)
    if original is None:
        original = json.dumps({"hooks": OTHER_TOOL[client], "x": [1, 2]}, indent="\t") + "\n"
    path.write_text(original)
    assert install(client, "user", env=env).changed
    assert Path(str(path) + BACKUP_SUFFIX).read_text() == original
    assert path.read_text() != original
    assert uninstall(client, "user", env=env).changed
    assert path.read_text() == original
    assert not Path(str(path) + BACKUP_SUFFIX).exists()


@pytest.mark.parametrize("client", CLIENT_NAMES)
def test_install_is_idempotent_and_keeps_other_hooks(tmp_path: Path, client: str) -> None:
    env = _env(tmp_path)
    path = target_file(client, "user", env=env)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hooks": OTHER_TOOL[client]}))
    install(client, "user", env=env)
    first = path.read_bytes()
    again = install(client, "user", env=env)
    assert not again.changed and "already installed" in again.message
    assert path.read_bytes() == first
    data = json.loads(first)
    for event, groups in OTHER_TOOL[client].items():
        assert groups[0] in data["hooks"][event]  # the other tool's entry is untouched


def test_reinstall_with_another_interpreter_updates_in_place(tmp_path: Path) -> None:
    env = _env(tmp_path)
    install("claude-code", "user", env=env, python="/opt/old/bin/python")
    result = install("claude-code", "user", env=env)
    data = json.loads(result.path.read_text())
    commands = [h["command"] for g in data["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert commands == [hook_command("claude-code")]


def test_uninstall_keeps_changes_made_after_install(tmp_path: Path) -> None:
    env = _env(tmp_path)
    path = target_file("gemini", "user", env=env)
    path.parent.mkdir(parents=True)
    path.write_text('{"a": 1}')
    install("gemini", "user", env=env)
    data = json.loads(path.read_text())
    data["b"] = 2  # the user edits the file afterwards
    path.write_text(json.dumps(data, indent=2))
    result = uninstall("gemini", "user", env=env)
    assert json.loads(path.read_text()) == {"a": 1, "b": 2}
    assert "pre-install copy" in result.message


def test_uninstall_when_not_installed_changes_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    path = target_file("codex", "user", env=env)
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {}}')
    result = uninstall("codex", "user", env=env)
    assert not result.changed and path.read_text() == '{"hooks": {}}'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"hooks": [}', "not plain JSON"),
        ("// comment\n{}", "not plain JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"hooks": []}', "'hooks' must be an object"),
    ],
)
def test_broken_settings_are_refused_untouched(tmp_path: Path, content: str, message: str) -> None:
    env = _env(tmp_path)
    path = target_file("claude-code", "user", env=env)
    path.parent.mkdir(parents=True)
    path.write_text(content)
    with pytest.raises(InstallError, match=message) as info:
        install("claude-code", "user", env=env)
    assert str(path) in str(info.value)
    assert path.read_text() == content


hook_entry = st.fixed_dictionaries(
    {"matcher": st.sampled_from(["*", "Bash", "Edit|Write"]),
     "hooks": st.lists(st.fixed_dictionaries({"type": st.just("command"), "command": st.text(max_size=12)}), min_size=1, max_size=2)}
)
settings_data = st.fixed_dictionaries(
    {},
    optional={
        "hooks": st.dictionaries(st.sampled_from(["PreToolUse", "PostToolUse", "BeforeTool", "Stop"]),
                                 st.lists(hook_entry, max_size=2), max_size=3),
        "model": st.text(max_size=5),
    },
)


@settings(max_examples=150, deadline=None)
@given(data=settings_data, client=st.sampled_from(CLIENT_NAMES))
def test_strip_undoes_add_for_any_settings(data: dict, client: str) -> None:
    added = add_hooks(data, CLIENTS[client], hook_command(client))
    assert _normal(strip_hooks(added)) == _normal(strip_hooks(data)) == _normal(data)
    assert add_hooks(added, CLIENTS[client], hook_command(client)) == added  # idempotent


def test_cli_install_and_uninstall(tmp_path: Path, bastion_env: dict[str, str]) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    done = run_bastion("install", "gemini", "--project", cwd=project, env=bastion_env)
    assert done.returncode == 0, done.stderr
    assert "installed bastion's hook for gemini" in done.stdout
    assert (project / ".gemini" / "settings.json").exists()
    undone = run_bastion("uninstall", "gemini", "--project", cwd=project, env=bastion_env)
    assert undone.returncode == 0, undone.stderr
    assert not (project / ".gemini").exists()


def test_cli_reports_a_broken_file_in_one_line(tmp_path: Path, bastion_env: dict[str, str]) -> None:
    path = Path(bastion_env["HOME"]) / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text("{oops")
    done = run_bastion("install", "claude-code", env=bastion_env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and str(path) in done.stderr and "Traceback" not in done.stderr
