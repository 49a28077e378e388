"""Each tool is judged on exactly the fields its client executes.

Claude Code's ``Bash`` runs ``command``; Codex's ``exec_command`` runs ``cmd`` in
``workdir`` (with the shell in ``shell``), its ``shell``/``local_shell`` run the argv in
``command``; Gemini's ``run_shell_command`` (0.61) runs ``command`` in ``dir_path``. A
call carrying another command or directory field besides those is refused at stage 0,
never guessed: a decoy ``command`` next to the ``cmd`` Codex runs, or a decoy
``workdir`` next to the ``dir_path`` Gemini runs in.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters import gemini
from bastion.engine import Guard
from bastion.hook import run as hook
from bastion.model import TOOL_CATALOG, Kind, Mode, ToolCall, Verdict


@pytest.fixture
def guard(project: Path, bastion_env: dict[str, str]) -> Guard:
    return Guard.from_settings(str(project), isolated=True, env=bastion_env, mode=Mode.BYPASS)


def check(guard: Guard, project: Path, tool: str, tool_input: dict) -> object:
    return guard.check(ToolCall(tool, tool_input, cwd=str(project)))


def test_codex_runs_cmd_so_a_decoy_command_is_refused(guard: Guard, project: Path) -> None:
    decision = check(guard, project, "exec_command", {"cmd": "rm -rf ~", "command": "ls"})
    assert decision.verdict is Verdict.DENY and decision.layer == "validate"
    assert "'cmd'" in decision.reason and "'command'" in decision.reason


def test_gemini_runs_in_dir_path_so_a_decoy_workdir_is_refused(guard: Guard, project: Path) -> None:
    decision = check(guard, project, "run_shell_command",
                     {"command": "rm -rf etc", "dir_path": "/", "workdir": str(project)})
    assert decision.verdict is Verdict.DENY and decision.layer == "validate"
    assert "'dir_path'" in decision.reason and "'workdir'" in decision.reason


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Bash", {"command": "ls", "cmd": "rm -rf ~"}),
    ("Bash", {"command": "ls", "workdir": "/"}),
    ("Bash", {"command": "ls", "cwd": "/"}),
    ("exec_command", {"cmd": "ls", "dir_path": "/"}),
    ("shell", {"command": ["ls"], "cmd": "rm -rf ~"}),
    ("run_shell_command", {"command": "ls", "cmd": "rm -rf ~"}),
    ("run_shell_command", {"command": "ls", "directory": "/"}),  # an older Gemini's field; 0.61 runs dir_path
])
def test_extra_command_or_directory_fields_are_refused(guard: Guard, project: Path, tool: str, tool_input: dict) -> None:
    decision = check(guard, project, tool, tool_input)
    assert decision.verdict is Verdict.DENY and decision.layer == "validate", decision.reason
    assert "refused rather than guessing" in decision.reason


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("exec_command", {"command": "ls"}),  # Codex runs cmd: without it nothing bastion saw would run
    ("run_shell_command", {"cmd": "ls"}),
    ("Bash", {"cmd": "ls"}),
])
def test_a_command_in_a_field_the_client_does_not_run_is_refused(guard: Guard, project: Path, tool: str,
                                                                 tool_input: dict) -> None:
    assert check(guard, project, tool, tool_input).verdict is Verdict.DENY


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Bash", {"command": "ls", "description": "list", "timeout": 1000, "run_in_background": False,
              "dangerouslyDisableSandbox": False}),
    ("exec_command", {"cmd": "ls", "workdir": "src", "shell": "bash", "login": True, "tty": False,
                      "yield_time_ms": 1000, "max_output_tokens": 100, "justification": "x", "prefix_rule": ["ls"]}),
    ("exec_command", {"cmd": "ls", "shell": "/bin/zsh"}),
    ("exec_command", {"cmd": "ls", "command": None, "workdir": None}),  # absent fields sent as null
    ("shell", {"command": ["bash", "-lc", "ls"], "workdir": "src", "timeout_ms": 1000}),
    ("local_shell", {"command": ["ls", "-la"]}),
    ("shell_command", {"command": "ls", "workdir": "src"}),
    ("run_shell_command", {"command": "ls", "description": "list", "dir_path": "src", "is_background": False,
                           "delay_ms": 0}),
])
def test_the_shapes_the_clients_send_pass(project: Path, bastion_env: dict[str, str], tool: str,
                                          tool_input: dict) -> None:
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    decision = check(guard, project, tool, tool_input)
    assert decision.verdict is Verdict.ALLOW, decision.reason


@pytest.mark.parametrize("program", ["/tmp/evil/bash", "python3", "fish", "./sh"])
def test_exec_command_runs_only_in_a_posix_shell_bastion_can_read(guard: Guard, project: Path, program: str) -> None:
    decision = check(guard, project, "exec_command", {"cmd": "ls", "shell": program})
    assert decision.verdict is Verdict.DENY and "POSIX shell" in decision.reason


def test_the_working_directory_is_the_one_the_client_uses(project: Path, bastion_env: dict[str, str]) -> None:
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env, mode=Mode.BYPASS)
    codex = check(guard, project, "exec_command", {"cmd": "echo x > pre-commit", "workdir": ".git/hooks"})
    assert codex.verdict is Verdict.ASK and codex.immune
    gemini_call = check(guard, project, "run_shell_command", {"command": "echo x > pre-commit", "dir_path": ".git/hooks"})
    assert gemini_call.verdict is Verdict.ASK and gemini_call.immune


def test_every_shell_tool_names_one_command_field() -> None:
    for spec in TOOL_CATALOG.values():
        if spec.kind is Kind.SHELL:
            assert len(spec.command_keys) == 1, spec.name
            assert len(spec.workdir_keys) <= 1, spec.name


def test_patches_in_two_fields_must_agree(guard: Guard, project: Path) -> None:
    one = "*** Begin Patch\n*** Add File: notes.txt\n+x\n*** End Patch\n"
    other = "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+x\n*** End Patch\n"
    assert check(guard, project, "apply_patch", {"input": one, "command": other}).verdict is Verdict.DENY
    assert check(guard, project, "apply_patch", {"input": one, "patch": one}).verdict is Verdict.ALLOW
    assert check(guard, project, "apply_patch", {}).verdict is Verdict.DENY


def test_gemini_hook_with_a_decoy_directory_is_denied(project: Path, bastion_env: dict[str, str]) -> None:
    payload = json.dumps({
        "session_id": "s-keys", "transcript_path": "/dev/null", "cwd": str(project), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf etc", "dir_path": "/", "workdir": str(project)},
    })
    out = json.loads(hook.run(gemini, payload).stdout)
    assert out["decision"] == "deny" and "workdir" in out["reason"]
