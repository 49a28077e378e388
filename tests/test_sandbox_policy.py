"""Engine integration: autoAllowBashIfSandboxed, dangerouslyDisableSandbox, the settings
section, and the command rewrite the Claude Code adapter uses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bastion.engine import Guard
from bastion.model import Mode, ToolCall, Verdict
from bastion.sandbox import bwrap, landlock
from bastion.sandbox.config import SandboxSettings, SandboxSettingsError, resolve_setting_path
from bastion.sandbox.rewrite import sandboxed_command, should_rewrite

SANDBOX_ON = {"enabled": True, "autoAllowBashIfSandboxed": True}

needs_backend = pytest.mark.skipif(
    bwrap.find() is None and landlock.abi() == 0, reason="no sandbox backend on this machine (bubblewrap or Landlock)"
)


def _guard(project: Path, tmp_path: Path, sandbox: dict | None, *, deny=(), ask=(), mode=None) -> Guard:
    settings = {"permissions": {"deny": list(deny), "ask": list(ask)}}
    if sandbox is not None:
        settings["sandbox"] = sandbox
    path = tmp_path / "flags-settings.json"
    path.write_text(json.dumps(settings))
    guard = Guard.from_settings(str(project), isolated=True, settings_files=[str(path)], mode=mode)
    guard.runs_sandboxed = True  # as in `bastion run` and the rewriting Claude Code hook
    return guard


def _check(guard: Guard, project: Path, command: str, **extra) -> object:
    return guard.check(ToolCall("Bash", {"command": command, **extra}, cwd=str(project)))


@needs_backend
@pytest.mark.parametrize(
    "command, before_layer",
    [
        ("frobnicate --x", "defaults"),  # unknown command
        ("curl http://example.com", "shell_analysis"),  # network finding
        ("touch /etc/x", "shell_analysis"),  # outside the workspace: the sandbox stops the write
        ("python3 -c 'import os,sys; os.system(sys.argv[1])' x", "shell_analysis"),
    ],
)
def test_layer_6_7_asks_become_allows_when_sandboxed(project, tmp_path, command, before_layer):
    plain = _check(_guard(project, tmp_path, None), project, command)
    assert plain.verdict is Verdict.ASK and plain.layer == before_layer and not plain.immune
    decision = _check(_guard(project, tmp_path, SANDBOX_ON), project, command)
    assert decision.verdict is Verdict.ALLOW
    assert decision.layer == "sandbox"
    assert "runs in bastion's sandbox" in decision.reason
    assert decision.trace[-1].layer == "sandbox" and decision.trace[-1].verdict == "allow"


@needs_backend
@pytest.mark.parametrize(
    "command, verdict, layer, kwargs",
    [
        ("rm -rf ~", Verdict.DENY, "hard_blocks", {}),
        ("echo x > .git/hooks/pre-commit", Verdict.ASK, "protected_paths", {}),
        ("f() { echo hi; }; f", Verdict.ASK, "too_complex", {}),  # a read-only loop is analysed now
        ("npm publish", Verdict.ASK, "ask_rules", {"ask": ["Bash(npm publish:*)"]}),
        ("frobnicate --x", Verdict.DENY, "deny_rules", {"deny": ["Bash(frobnicate:*)"]}),
        ("frobnicate --x", Verdict.ASK, "mode", {"mode": Mode.PLAN}),
    ],
)
def test_what_the_sandbox_never_relaxes(project, tmp_path, command, verdict, layer, kwargs):
    decision = _check(_guard(project, tmp_path, SANDBOX_ON, **kwargs), project, command)
    assert decision.verdict is verdict
    assert decision.layer == layer


@pytest.mark.parametrize(
    "sandbox",
    [
        {"enabled": False, "autoAllowBashIfSandboxed": True},
        {"enabled": True},
        {"enabled": True, "autoAllowBashIfSandboxed": "yes"},  # broken: relaxes nothing
        None,
    ],
)
def test_no_auto_allow_unless_both_switches_are_on(project, tmp_path, sandbox):
    decision = _check(_guard(project, tmp_path, sandbox), project, "frobnicate --x")
    assert decision.verdict is Verdict.ASK and decision.layer == "defaults"


def test_no_auto_allow_where_nothing_can_confine(project, tmp_path, monkeypatch):
    from bastion.sandbox import doctor

    monkeypatch.setattr(doctor, "available", lambda: False)
    decision = _check(_guard(project, tmp_path, SANDBOX_ON), project, "frobnicate --x")
    assert decision.verdict is Verdict.ASK and decision.layer == "defaults"


@pytest.mark.parametrize("mode", [None, Mode.BYPASS, Mode.ACCEPT_EDITS])
def test_dangerously_disable_sandbox_needs_explicit_approval(project, tmp_path, mode):
    guard = _guard(project, tmp_path, SANDBOX_ON, mode=mode)
    assert _check(guard, project, "ls").verdict is Verdict.ALLOW
    decision = _check(guard, project, "ls", dangerouslyDisableSandbox=True)
    assert decision.verdict is Verdict.ASK and decision.immune and decision.no_grant
    assert decision.layer == "sandbox"
    assert "dangerouslyDisableSandbox" in decision.reason
    assert decision.suggestions == []


def test_dangerously_disable_sandbox_never_turns_a_deny_into_an_ask(project, tmp_path):
    decision = _check(_guard(project, tmp_path, SANDBOX_ON), project, "rm -rf ~", dangerouslyDisableSandbox=True)
    assert decision.verdict is Verdict.DENY and decision.layer == "hard_blocks"


def test_dangerously_disable_sandbox_under_dont_ask_is_denied(project, tmp_path):
    guard = _guard(project, tmp_path, SANDBOX_ON, mode=Mode.DONT_ASK)
    decision = _check(guard, project, "ls", dangerouslyDisableSandbox=True)
    assert decision.verdict is Verdict.DENY


def test_dangerously_disable_sandbox_without_the_sandbox_changes_nothing(project, tmp_path):
    decision = _check(_guard(project, tmp_path, None), project, "ls", dangerouslyDisableSandbox=True)
    assert decision.verdict is Verdict.ALLOW


def test_non_shell_calls_are_untouched(project, tmp_path):
    guard = _guard(project, tmp_path, SANDBOX_ON)
    decision = guard.check(ToolCall("Write", {"file_path": "/etc/x", "content": "x"}, cwd=str(project)))
    assert decision.verdict is Verdict.ASK and decision.layer != "sandbox"


# --------------------------------------------------------------------------- settings


def test_settings_section_is_parsed_with_path_conventions(tmp_path):
    section = {
        "enabled": True,
        "autoAllowBashIfSandboxed": True,
        "network": {"allowedDomains": ["pypi.org", "*.pythonhosted.org"], "deniedDomains": ["evil.example"]},
        "filesystem": {"allowWrite": ["~/.cache/pip", "//var/tmp/x", "build", "/out"], "denyRead": ["./secrets"]},
        "env": {"allow": ["NODE_*"]},
        "timeout": 90,
        "limits": {"processes": 256, "memoryMB": 2048, "cpus": 1.5},
    }
    settings = SandboxSettings.from_section(section, base="/proj", home="/home/me")
    assert (settings.processes, settings.memory_mb, settings.cpus) == (256, 2048, 1.5)
    assert settings.enabled and settings.auto_allow
    assert settings.allowed_domains == ("pypi.org", "*.pythonhosted.org")
    assert settings.allow_write == ("/home/me/.cache/pip", "/var/tmp/x", "/proj/build", "/proj/out")
    assert settings.deny_read == ("/proj/secrets",)
    assert settings.env_allow == ("NODE_*",) and settings.timeout == 90.0


@pytest.mark.parametrize(
    "section, message",
    [
        ({"enabled": "yes"}, "sandbox.enabled must be true or false"),
        ({"network": {"allowedDomains": "pypi.org"}}, "sandbox.network.allowedDomains must be a list"),
        ({"network": {"allowed": []}}, "unknown setting sandbox.network.allowed"),
        ({"filesystem": []}, "sandbox.filesystem must be an object"),
        ({"timeout": -1}, "sandbox.timeout must be a positive number"),
        ({"bogus": 1}, "unknown setting sandbox.bogus"),
        ({"limits": {"processes": 0}}, "sandbox.limits.processes must be a positive whole number"),
        ({"limits": {"processes": 1}}, "sandbox.limits.processes must be at least 16"),
        ({"limits": {"memoryMB": 1.5}}, "sandbox.limits.memoryMB must be a positive whole number"),
        ({"limits": {"cpus": True}}, "sandbox.limits.cpus must be a positive number"),
        ({"limits": {"threads": 1}}, "unknown setting sandbox.limits.threads"),
    ],
)
def test_bad_settings_name_the_key(section, message):
    with pytest.raises(SandboxSettingsError, match=message):
        SandboxSettings.from_section(section, base="/p", home="/h")


@pytest.mark.parametrize(
    "path, expected",
    [("//etc/x", "/etc/x"), ("~/a", "/h/a"), ("/src", "/p/src"), ("./src", "/p/src"), ("src/../lib", "/p/lib")],
)
def test_path_conventions(path, expected):
    assert resolve_setting_path(path, base="/p", home="/h") == expected


# --------------------------------------------------------------------------- rewrite


@pytest.mark.parametrize(
    "command",
    ["echo hello", "echo 'it'\"'\"'s' \"$HOME\" `x` $(y) ; | & > <", "printf '%s\\n' a\\ b", "echo $'\\x41'"],
)
def test_sandboxed_command_round_trips_through_a_real_shell(command, tmp_path):
    line = sandboxed_command(command, str(tmp_path / "dir with space"), {"sandbox": {"enabled": True}}, timeout=15)
    probe = subprocess.run(["bash", "-c", f"printf '%s\\0' {line.split(' ', 1)[1]}"], capture_output=True, text=True)
    words = probe.stdout.split("\0")[:-1]
    assert words[:3] == ["-I", "-m", "bastion"]
    assert words[words.index("--cwd") + 1] == str(tmp_path / "dir with space")
    assert words[words.index("--timeout") + 1] == "15"
    assert words[-2:] == ["--", command]
    assert line.split(" ", 1)[0].startswith("/")  # absolute interpreter


@needs_backend
def test_sandboxed_command_really_runs_sandboxed(project, bastion_env):
    line = sandboxed_command("echo ran > made.txt; touch /etc/bastion-rewrite-probe", str(project), None, timeout=20)
    proc = subprocess.run(["bash", "-c", line], capture_output=True, text=True, cwd="/", env=bastion_env, timeout=60)
    assert (project / "made.txt").read_text() == "ran\n"
    assert not Path("/etc/bastion-rewrite-probe").exists()
    assert proc.returncode == 1
    assert "sandbox blocked a write to /etc/bastion-rewrite-probe" in proc.stderr


def test_sandboxed_command_timeout_comes_from_settings_then_default():
    assert "--timeout 45" in sandboxed_command("ls", "/p", {"sandbox": {"enabled": True, "timeout": 45}})
    assert "--timeout 120" in sandboxed_command("ls", "/p", None)


@pytest.mark.parametrize(
    "tool, tool_input, settings, expected",
    [
        ("Bash", {"command": "ls"}, {"sandbox": {"enabled": True}}, True),
        ("Bash", {"command": "ls", "dangerouslyDisableSandbox": True}, {"sandbox": {"enabled": True}}, False),
        ("Bash", {"command": "ls"}, {"sandbox": {"enabled": False}}, False),
        ("Bash", {"command": "ls"}, None, False),
        ("Read", {"file_path": "x"}, {"sandbox": {"enabled": True}}, False),
    ],
)
def test_should_rewrite(tool, tool_input, settings, expected):
    assert should_rewrite(ToolCall(tool, tool_input, cwd="/p"), settings) is expected


def test_webfetch_domain_rules_feed_the_network_lists(project, tmp_path):
    from bastion.sandbox.config import rule_domains

    settings = {"permissions": {"allow": ["WebFetch(domain:github.com)", "WebFetch(https://docs.python.org/3/)"],
                                "deny": ["WebFetch(domain:evil.example)"], "ask": ["WebFetch(domain:maybe.example)"]}}
    path = tmp_path / "web.json"
    path.write_text(json.dumps(settings))
    guard = Guard.from_settings(str(project), isolated=True, settings_files=[str(path)])
    assert rule_domains(guard.policy) == (("github.com", "*.github.com"), ("evil.example", "*.evil.example"))


def test_no_auto_allow_when_the_caller_runs_commands_unsandboxed(project, tmp_path):
    guard = _guard(project, tmp_path, SANDBOX_ON)
    guard.runs_sandboxed = False
    decision = _check(guard, project, "frobnicate --x")
    assert decision.verdict.value == "ask" and decision.layer != "sandbox"
