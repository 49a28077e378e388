"""``bastion install|uninstall``: merges, keeps others' hooks, backs up, reverses exactly."""

from __future__ import annotations

import ast
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import bastion
from bastion.adapters.install import (
    BACKUP_SUFFIX,
    CLIENTS,
    HOOK_CODE,
    HookCommand,
    InstallError,
    _literal,
    _normal,
    add_hooks,
    hook_argv,
    hook_command,
    install,
    parse_hook_command,
    site_code,
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
    assert f"{shlex.join(hook_argv('codex'))} || exit 2" in command
    assert hook_argv("codex")[:4] == [sys.executable, "-I", "-S", "-c"] and hook_argv("codex")[4].endswith(HOOK_CODE)
    assert parse_hook_command(command) == HookCommand("codex", sys.executable)
    # the forms earlier versions wrote
    assert parse_hook_command(f"/opt/py -I -c {shlex.quote(HOOK_CODE)} bastion hook codex || exit 2") == \
        HookCommand("codex", "/opt/py")
    assert parse_hook_command("/opt/py -I -m bastion hook gemini || exit 2") == HookCommand("gemini", "/opt/py")


_SITE_REPORT = ("import json, sys; print(json.dumps({'prefix': [sys.prefix, sys.exec_prefix], 'path': sys.path, "
                "'site': 'site' in sys.modules, 'pth': '_bastion_pth_ran' in sys.modules}))")


def test_the_hook_runs_no_code_of_the_environment_and_sees_what_site_would_set(tmp_path: Path) -> None:
    """``-S``: a ``.pth`` file in the environment runs in every interpreter ``site`` starts
    (and so inside the guard before it decides, where a hook runs with ``site``). The
    installed code sets what ``site`` would have: the environment's prefixes and the
    folders on ``sys.path``, in order."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "env")], check=True, timeout=120)
    python = str(tmp_path / "env" / "bin" / "python")
    done = subprocess.run([python, "-c", "import site, sys; print(site.getsitepackages()[0])"], capture_output=True,
                          text=True, check=True, timeout=60)
    site_packages = Path(done.stdout.strip())
    (site_packages / "extra").mkdir()
    (site_packages / "a_folder.pth").write_text(f"{site_packages / 'extra'}\n")
    (site_packages / "b_code.pth").write_text("import sys; sys.modules['_bastion_pth_ran'] = sys\n")
    (site_packages / "c_bastion.pth").write_text(f"{Path(bastion.__file__).parent.parent}\n")  # bastion, from here
    argv = hook_argv("codex", python)
    assert argv[:4] == [python, "-I", "-S", "-c"]
    with_site = json.loads(subprocess.run([python, "-I", "-c", _SITE_REPORT], capture_output=True, text=True,
                                          check=True, timeout=60).stdout)
    code = argv[4].replace(HOOK_CODE, _SITE_REPORT)
    as_hook = json.loads(subprocess.run([python, "-I", "-S", "-c", code], capture_output=True, text=True, check=True,
                                        timeout=60).stdout)
    assert with_site["pth"] and not as_hook["pth"] and not as_hook["site"]
    assert as_hook["prefix"] == with_site["prefix"] == [str(tmp_path / "env")] * 2
    assert as_hook["path"] == with_site["path"] and str(site_packages / "extra") in as_hook["path"]
    assert site_code("/nonexistent/python") is None
    assert hook_argv("codex", "/nonexistent/python")[1:4] == ["-I", "-c", HOOK_CODE]
    # an environment where bastion's hook cannot be imported that way keeps the earlier form
    (site_packages / "c_bastion.pth").unlink()
    site_code.cache_clear()
    assert hook_argv("codex", python)[1:4] == ["-I", "-c", HOOK_CODE]


@pytest.mark.parametrize("text", ["plain", "a'b", 'a"b', "a\\b", 'a\\"', "x\U0001F600y", "caf\xe9", "nl\nx",
                                  "\udcff", "$HOME `x`"])
def test_paths_are_written_as_ascii_python_literals(text: str) -> None:
    """Other scripts' letters, emoji and bytes a file name could not decode come back as
    they were; the literal stays in the shell's single quotes."""
    written = _literal(text)
    assert written.isascii() and written.startswith('"') and "'" not in written.replace("\\'", "")
    assert ast.literal_eval(written) == text


def test_project_command_names_bastion() -> None:
    command = hook_command("claude-code", by_name=True)
    assert "bastion hook claude-code || exit 2" in command and sys.executable not in command
    assert parse_hook_command(command) == HookCommand("claude-code", None)
    assert parse_hook_command("other-guard check") is None


def _sh(command: str, path: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "-c", command], input="{}", capture_output=True, text=True, timeout=60,
                          env={"PATH": path, "HOME": "/nonexistent"})


@pytest.mark.parametrize("by_name", [True, False], ids=["project", "user"])
def test_a_missing_bastion_blocks_with_a_clear_message(by_name: bool) -> None:
    """A command the shell cannot find exits 127, which Claude Code, Codex and Gemini CLI
    treat as a non-blocking error (the tool runs): the hook must exit 2, saying why."""
    command = hook_command("codex", "/nonexistent/venv/bin/python", by_name=by_name)
    done = _sh(command, "/usr/bin:/bin")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("bastion is not installed") and "blocked" in done.stderr


def test_a_present_bastion_answers(tmp_path: Path) -> None:
    """The project form runs whatever ``bastion`` PATH holds; its exit 2 stays a block."""
    fake = tmp_path / "bastion"
    fake.write_text("#!/bin/sh\necho \"called: $*\"; exit 3\n")
    fake.chmod(0o755)
    done = _sh(hook_command("gemini", by_name=True), f"{tmp_path}:/usr/bin:/bin")
    assert done.stdout == "called: hook gemini\n" and done.returncode == 2


def test_the_user_command_decides(tmp_path: Path) -> None:
    """The interpreter form runs the hook itself (``-c HOOK_CODE bastion hook CLIENT``)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"},
                       "cwd": str(tmp_path), "session_id": "install", "permission_mode": "default"})
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "BASTION_HOOK_SERVER": "0", "BASTION_AUDIT": "0",
           "BASTION_STATE_DIR": str(tmp_path / ".state"), "BASTION_CONFIG_DIR": str(tmp_path / ".cfg")}
    done = subprocess.run(["sh", "-c", hook_command("claude-code")], input=call, capture_output=True, text=True,
                          timeout=60, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"


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
    assert "installed bastion's hook for Gemini CLI" in done.stdout
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


# --------------------------------------------------------------------------- scopes


def test_project_file_names_bastion_and_local_file_names_the_interpreter(tmp_path: Path) -> None:
    """The committed file must work on a teammate's machine; the machine's interpreter
    path goes only to files this machine alone reads."""
    env = _env(tmp_path)
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    committed = install("claude-code", "project", cwd=str(project), env=env)
    local = install("claude-code", "local", cwd=str(project), env=env)
    assert committed.path == project / ".claude" / "settings.json"
    assert local.path == project / ".claude" / "settings.local.json"
    assert sys.executable not in committed.path.read_text() and "safe to commit" in committed.message
    assert json.dumps(sys.executable)[1:-1] in local.path.read_text()
    assert "bastion install claude-code --local" in local.path.read_text()  # the fix the block names
    assert uninstall("claude-code", "local", cwd=str(project), env=env).changed
    assert committed.path.exists() and not local.path.exists()


@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_local_scope_is_refused_where_the_client_has_none(tmp_path: Path, client: str) -> None:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    with pytest.raises(InstallError, match="--user"):
        install(client, "local", cwd=str(tmp_path / "proj"), env=_env(tmp_path))


def test_reinstall_from_project_to_user_form_updates_in_place(tmp_path: Path) -> None:
    env = _env(tmp_path)
    path = target_file("gemini", "user", env=env)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [
        {"type": "command", "command": f"{sys.executable} -I -m bastion hook gemini || exit 2"}]}]}}))
    install("gemini", "user", env=env)  # an install of an earlier version, replaced
    groups = json.loads(path.read_text())["hooks"]["BeforeTool"]
    assert [h["command"] for g in groups for h in g["hooks"]] == [hook_command("gemini")]


# --------------------------------------------------------------------------- Codex trust, edits


def test_codex_install_says_trust_is_needed_and_names_the_hook(tmp_path: Path) -> None:
    env = _env(tmp_path)
    result = install("codex", "user", env=env)
    assert "/hooks" in result.message and "--trust" in result.message and "WITHOUT bastion" in result.message
    assert "changed" in result.message or "change to its command" in result.message
    handler = json.loads(result.path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["statusMessage"] == "bastion"  # what Codex's /hooks list shows


def test_codex_trust_round_trip_keeps_the_rest_of_config(tmp_path: Path) -> None:
    from bastion.adapters import codex_trust

    env = _env(tmp_path)
    config = codex_trust.config_path(env)
    config.parent.mkdir(parents=True)
    original = 'model = "gpt-5.5"\n\n[projects."/x"]\ntrust_level = "trusted"\n'
    config.write_text(original)
    result = install("codex", "user", env=env, trust=True)
    data = json.loads(result.path.read_text())
    assert codex_trust.untrusted(result.path, data, env) == []
    assert set(codex_trust.trusted_hashes(env)) == set(codex_trust.bastion_hooks(result.path, data))
    assert config.read_text().startswith(original)
    # a changed command is untrusted again until trusted anew (the hash covers its text)
    install("codex", "user", env=env, python="/opt/other/bin/python")
    changed = json.loads(result.path.read_text())
    assert len(codex_trust.untrusted(result.path, changed, env)) == 2
    install("codex", "user", env=env, python="/opt/other/bin/python", trust=True)
    assert codex_trust.untrusted(result.path, changed, env) == []
    assert len(codex_trust.trusted_hashes(env)) == 2  # replaced, not added
    uninstall("codex", "user", env=env)
    assert config.read_text() == original


def test_codex_trust_hash_matches_codex() -> None:
    """The hash of a handler as ``codex app-server`` reported it for this exact hooks.json
    group (Codex 0.169); the end-to-end tests compare with the live Codex too."""
    from bastion.adapters.codex_trust import handler_hash

    handler = {"type": "command", "command": "echo hi bastion hook codex", "timeout": 30, "statusMessage": "bastion"}
    assert handler_hash("PreToolUse", "*", handler) == \
        "sha256:883f129a86cadca5d9f85070a1018a51a0a1580a099ccc5b4977e6fdb8a9b37d"
    del handler["statusMessage"]
    assert handler_hash("PreToolUse", "*", handler) == \
        "sha256:5d85b673b8f876f64625abf4757f4450042d9b19ab545e6ab4b28a876947c671"


def test_trust_is_refused_for_other_clients(tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="Codex"):
        install("gemini", "user", env=_env(tmp_path), trust=True)


@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_accept_edits_is_offered_and_sets_bastions_mode(tmp_path: Path, client: str) -> None:
    env = {**_env(tmp_path), "BASTION_CONFIG_DIR": str(tmp_path / "config")}
    plain = install(client, "user", env=env)
    assert f"bastion install {client} --accept-edits" in plain.message
    assert not (tmp_path / "config" / "settings.json").exists()
    settings = tmp_path / "config" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"permissions": {"allow": ["Bash(make:*)"]}}')
    chosen = install(client, "user", env=env, accept_edits=True)
    assert "acceptEdits" in chosen.message
    assert json.loads(settings.read_text()) == {"permissions": {"allow": ["Bash(make:*)"], "defaultMode": "acceptEdits"}}


def test_cli_install_options(tmp_path: Path, bastion_env: dict[str, str]) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    env = {**bastion_env, "CODEX_HOME": str(tmp_path / "codex")}
    done = run_bastion("install", "codex", "--trust", "--accept-edits", cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    assert "Trusted bastion's hooks" in done.stdout and (tmp_path / "codex" / "config.toml").exists()
    local = run_bastion("install", "claude-code", "--local", cwd=project, env=env)
    assert local.returncode == 0 and (project / ".claude" / "settings.local.json").exists()


def test_install_hint_names_a_command_that_works_where_bastion_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """bastion-guard is not on the package index: the hint installs the extra's own
    packages into the environment bastion runs in, as it was installed."""
    from bastion.adapters.install import install_hint

    hint = install_hint("mcp")
    assert hint.startswith(f"{shlex.quote(sys.executable)} -m pip install ") and "'mcp<3,>=2.3'" in hint
    assert "bastion-guard[" not in hint
    monkeypatch.setattr(sys, "prefix", "/home/u/.local/share/pipx/venvs/bastion-guard")
    assert install_hint("agent-sdk") == "pipx inject bastion-guard 'claude-agent-sdk>=0.2'"
    monkeypatch.setattr(sys, "prefix", "/home/u/.local/share/uv/tools/bastion-guard")
    assert install_hint("mcp").startswith("uv pip install --python ")


ROOT = Path(__file__).resolve().parents[1]


def test_make_demo_ends_by_saying_how_to_use_the_installed_command() -> None:
    done = subprocess.run(["bash", str(ROOT / "scripts" / "setup.sh"), "--where"], capture_output=True, text=True,
                          timeout=60, check=True)
    assert ".venv/bin/bastion" in done.stdout and "pipx install" in done.stdout and "bastion doctor" in done.stdout
    assert "setup.sh --where" in (ROOT / "Makefile").read_text().split("demo:")[1].split("\n\n")[0]


def test_docs_name_install_commands_that_work() -> None:
    """No ``pip install 'bastion-guard[…]'`` (not on the package index), and every
    ``bastion install`` line of the README's install section parses."""
    from bastion.cli.app import build_parser

    readme = (ROOT / "README.md").read_text()
    for text in (readme, (ROOT / "docs" / "integrations.md").read_text()):
        assert "pip install 'bastion-guard[" not in text and "pip install bastion-guard" not in text.replace(
            "`pip install bastion-guard` finds nothing", "")
    section = readme.split("## Install")[1].split("\n## ")[0]
    code = "\n".join(block.split("```")[0] for block in section.split("```sh\n")[1:])
    lines = [line.split("#")[0].split() for line in code.splitlines() if line.startswith("bastion ")]
    assert len(lines) >= 5
    for words in lines:
        build_parser().parse_args(words[1:])


def test_the_tamper_checks_and_the_installer_name_the_same_hook_files(tmp_path: Path) -> None:
    """A command deleting a file that holds bastion's hook entries is caught from
    ``client_files``' list, read without the installer: the installer writes those files."""
    from bastion.adapters.client_files import PROJECT_HOOK_FILES, user_hook_file
    from bastion.adapters.install import CLIENTS

    assert set(CLIENTS) == set(PROJECT_HOOK_FILES)
    for env in ({"HOME": str(tmp_path)}, {"HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": f"{tmp_path}/cc/",
                                          "CODEX_HOME": f"{tmp_path}//cx"}):
        for name, client in CLIENTS.items():
            assert str(client.user_file(env)) == str(Path(user_hook_file(name, env)))
            files = [client.project_file(tmp_path)] + ([client.local_file(tmp_path)] if client.local_file else [])
            assert [str(f.relative_to(tmp_path)) for f in files] == list(PROJECT_HOOK_FILES[name])
