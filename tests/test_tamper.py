"""Tampering with the guard (bastion.tamper): switching it off is denied in every mode
(HB016), loosening it is an immune ask; read-only and tightening verbs stay ordinary.
The cases are generated from the record table's match/not_match examples."""

from __future__ import annotations

import json
import os
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from bastion import tamper
from bastion.engine import Guard
from bastion.model import Mode, ToolCall, Verdict

MODES = [Mode.DEFAULT, Mode.BYPASS, Mode.DONT_ASK]
HOOK = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
    {"type": "command", "command": "/usr/bin/python3 -I -m bastion hook claude-code || exit 2"}]}]}}


@pytest.fixture
def home_with_hooks(project: Path) -> Path:
    """The user's client settings hold bastion's hook; the project's own do not."""
    home = Path(os.environ["HOME"])
    for rel in (".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json"):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(json.dumps(HOOK))
    (home / ".claude" / "notes.md").write_text("notes\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": []}}))
    return home


#: The folders ``{site}`` and ``{stdlib}`` stand for: those of the interpreter running bastion.
_PLACES = {"{site}": sysconfig.get_paths()["purelib"], "{stdlib}": sysconfig.get_paths()["stdlib"]}


def _fill(value: Any) -> Any:
    if isinstance(value, str):
        for name, place in _PLACES.items():
            value = value.replace(name, place)
        return value.replace("{package}", tamper.package_dir())
    if isinstance(value, dict):
        return {k: _fill(v) for k, v in value.items()}
    return value


def _call(example: Any, project: Path) -> ToolCall:
    example = _fill(example)
    if isinstance(example, str):
        return ToolCall("Bash", {"command": example}, cwd=str(project))
    return ToolCall(example["tool"], example["input"], cwd=str(project))


def _cases(field: str) -> list[Any]:
    return [
        pytest.param(record, example, id=f"{record.id}:{example if isinstance(example, str) else example['tool']}")
        for record in tamper.RECORDS
        for example in getattr(record, field)
    ]


def _tamper_trace(decision: Any) -> str:
    return next(t.verdict for t in decision.trace if t.layer == "tamper")


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(("record", "example"), _cases("match"))
def test_match(record: tamper.Tamper, example: Any, mode: Mode, project: Path, home_with_hooks: Path) -> None:
    guard = Guard.from_settings(str(project), isolated=True, mode=mode)
    decision = guard.check(_call(example, project))
    assert decision.immune, decision.reason
    if record.effect == tamper.OFF:
        assert decision.verdict is Verdict.DENY, decision.reason
        assert decision.layer in ("tamper", "hard_blocks", "removal_targets"), decision.layer
        if decision.layer == "tamper":
            assert any(f.code == "HB016" for f in decision.findings), decision.findings
            assert "yourself" in decision.reason and record.what in decision.reason
            assert decision.no_grant
    else:
        expected = Verdict.DENY if mode is Mode.DONT_ASK else Verdict.ASK
        assert decision.verdict is expected, decision.reason
        assert _tamper_trace(decision) == "ask"
        assert record.what in decision.reason and "yourself in a terminal" in decision.reason
        assert not decision.suggestions


@pytest.mark.parametrize(("record", "example"), _cases("not_match"))
def test_not_match(record: tamper.Tamper, example: Any, project: Path, home_with_hooks: Path) -> None:
    decision = Guard.from_settings(str(project), isolated=True, mode=Mode.BYPASS).check(_call(example, project))
    assert all(t.verdict in ("abstain", "skipped") for t in decision.trace if t.layer == "tamper"), decision.reason
    assert decision.layer != "tamper"


# --------------------------------------------------------------------------- wherever the command runs

#: Switching the guard off one level down: inside interpreter code, in text planted in a
#: file that runs later, in a literal script run later in the same line. The shell
#: analysis finds HB016 there itself (shell/meaning/checks/guard.py applies the per-command records).
NESTED_OFF = [
    "perl -e 'exec(q{pkill -f bastion})'",
    "python3 -c \"import os; os.system('pip uninstall -y bastion-guard')\"",
    "ruby -e 'system(\"bastion\", \"uninstall\", \"claude-code\")'",
    "echo 'bastion uninstall claude-code' >> ~/.bashrc",
    "printf 'pkill -f bastion\\n' > /tmp/off.sh; sh /tmp/off.sh",
    "node -e 'require(\"child_process\").execSync(\"pip3 uninstall -y bastion-guard\")'",
    "python3 -c 'import subprocess; subprocess.call([\"pkill\", \"-f\", \"[b]astion\"])'",
    "php -r 'shell_exec(\"bastion run --no-check -- make\");'",
    "echo '* * * * * pkill -f bastion' | crontab -",
    "python3 -c \"import os; os.system('pgrep -f bastion | xargs kill -9')\"",
    "perl -e 'system(\"uv\", \"tool\", \"uninstall\", \"bastion-guard\")'",
    "cat > /tmp/off.sh <<'EOF'\npython3 -m bastion uninstall claude-code\nEOF\nbash /tmp/off.sh",
    "echo bastion-guard | xargs pip uninstall -y",
]

#: File-tool writes of files that run later, holding a guard-off command.
NESTED_OFF_WRITES = [
    (".git/hooks/pre-commit", "#!/bin/sh\npkill -f bastion\n"),
    (".git/hooks/post-checkout", "#!/bin/sh\npython3 -c \"import os; os.system('bastion uninstall claude-code')\"\n"),
    ("~/.profile", "uvx bastion uninstall claude-code\n"),
]

#: Text that only mentions switching the guard off.
NESTED_BENIGN = [
    "python3 -c \"print('pkill -f bastion')\"",
    "echo 'bastion uninstall claude-code' > docs/uninstall.md",
    "python3 -c \"import sys; sys.stdout.write('pip uninstall -y bastion-guard')\"",
    "printf 'pkill -f bastion\\n' > notes.txt",
]


def _has_hb016(decision: Any) -> bool:
    return any(f.code == "HB016" for f in decision.findings)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("command", NESTED_OFF)
def test_switching_the_guard_off_one_level_down_is_denied(command: str, mode: Mode, project: Path) -> None:
    decision = Guard.from_settings(str(project), isolated=True, mode=mode).check(
        ToolCall("Bash", {"command": command}, cwd=str(project)))
    assert decision.verdict is Verdict.DENY and decision.immune, (command, decision.reason)
    assert decision.layer == "tamper" and _has_hb016(decision), (decision.layer, decision.findings)
    assert "switches the guard off" in decision.reason and "yourself in a terminal" in decision.reason


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(("rel", "content"), NESTED_OFF_WRITES, ids=[r for r, _ in NESTED_OFF_WRITES])
def test_a_guard_off_command_planted_in_a_file_that_runs_later_is_denied(rel: str, content: str, mode: Mode,
                                                                         project: Path) -> None:
    path = rel.replace("~", os.environ["HOME"]) if rel.startswith("~") else str(project / rel)
    decision = Guard.from_settings(str(project), isolated=True, mode=mode).check(
        ToolCall("Write", {"file_path": path, "content": content}, cwd=str(project)))
    assert decision.verdict is Verdict.DENY and _has_hb016(decision), (rel, decision.reason)
    assert "switches the guard off" in decision.reason and "planted in" in decision.reason


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("command", NESTED_BENIGN)
def test_text_that_only_mentions_switching_the_guard_off_is_not_denied(command: str, mode: Mode, project: Path) -> None:
    (project / "docs").mkdir(exist_ok=True)
    decision = Guard.from_settings(str(project), isolated=True, mode=mode).check(
        ToolCall("Bash", {"command": command}, cwd=str(project)))
    assert not _has_hb016(decision) and decision.layer != "tamper", (command, decision.reason)
    if mode is Mode.BYPASS:
        assert decision.verdict is Verdict.ALLOW, (command, decision.reason)


def test_the_shell_analysis_finds_hb016_on_its_own() -> None:
    """The knowledge lives in the analysis: any caller of ``analyse`` sees it."""
    from bastion.shell.meaning.analyse import analyse
    from bastion.shell.syntax.parse import parse

    for command in ("pkill -f bastion", "perl -e 'exec(q{pkill -f bastion})'", "kill $(pgrep -f '[b]astion')"):
        analysis = analyse(parse(command), cwd="/w", home="/home/u")
        assert [f.code for f in analysis.hard_blocks] == ["HB016"], (command, analysis.hard_blocks)
    for command in ("pgrep -f bastion", "kill 1234", "pip install bastion-guard", "python3 -c 'print(1)'"):
        assert not analyse(parse(command), cwd="/w", home="/home/u").hard_blocks, command


# --------------------------------------------------------------------------- ordinary use of bastion

READ_ONLY = [
    "bastion explain -- 'rm -rf ~'",
    "bastion check -- ls",
    "bastion check --mode bypassPermissions -- 'pkill -f bastion'",
    "bastion rules list",
    "bastion rules test .bastion/settings.json",
    "bastion audit tail",
    "bastion doctor",
    "bastion --help",
    "bastion untrust",
    "bastion run -- make test",
    "pip uninstall -y requests",
    "pkill -f 'node server.js'",
]


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_and_tightening_verbs_stay_allowed_in_bypass_mode(command: str, project: Path) -> None:
    decision = Guard.from_settings(str(project), isolated=True, mode=Mode.BYPASS).check(
        ToolCall("Bash", {"command": command}, cwd=str(project)))
    assert decision.verdict is Verdict.ALLOW, (command, decision.reason)


# --------------------------------------------------------------------------- writes to the guard's files

#: Already immune asks through files/protected.py (bastion's own folders, .claude,
#: .codex, .gemini, .bastion): checked here in bypassPermissions mode, not re-implemented.
GUARD_FILE_WRITES = [
    "echo '{{}}' > {config}/settings.json",
    "echo '{{}}' > {state}/trusted.json",
    "rm {state}/grants.json",
    "echo '{{}}' > .bastion/settings.json",
    "cp /tmp/evil.json ~/.claude/settings.json",
    "mv /tmp/evil.json .claude/settings.local.json",
    "sed -i 's/bastion/true/' ~/.claude/settings.json",
    "jq 'del(.hooks)' ~/.claude/settings.json | sponge ~/.claude/settings.json",
    "tee ~/.gemini/settings.json < /tmp/x",
    "echo x > .gemini/settings.json",
    "echo x > ~/.codex/hooks.json",
    "echo x >> ~/.codex/config.toml",
    "ln -sf /tmp/evil.json ~/.claude/settings.json",
    "rm .claude/settings.json",
]


@pytest.mark.parametrize("command", GUARD_FILE_WRITES)
def test_shell_writes_to_guard_files_need_a_person_in_bypass_mode(command: str, project: Path, home_with_hooks: Path) -> None:
    command = command.format(config=os.environ["BASTION_CONFIG_DIR"], state=os.environ["BASTION_STATE_DIR"])
    decision = Guard.from_settings(str(project), isolated=True, mode=Mode.BYPASS).check(
        ToolCall("Bash", {"command": command}, cwd=str(project)))
    assert decision.verdict in (Verdict.ASK, Verdict.DENY) and decision.immune, (command, decision.reason)


@pytest.mark.parametrize("rel", [".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json",
                                 ".bastion/settings.local.json"])
def test_file_tool_writes_to_guard_files_need_a_person_in_bypass_mode(rel: str, project: Path) -> None:
    guard = Guard.from_settings(str(project), isolated=True, mode=Mode.BYPASS)
    for path in (project / rel, Path(os.environ["HOME"]) / rel):
        decision = guard.check(ToolCall("Write", {"file_path": str(path), "content": "{}"}, cwd=str(project)))
        assert decision.verdict is Verdict.ASK and decision.immune, (path, decision.reason)


# --------------------------------------------------------------------------- pieces


def test_the_installed_code_inside_the_workspace_is_the_project_being_worked_on(bastion_env: dict[str, str]) -> None:
    """Working on bastion's own source tree: its files are ordinary project files there."""
    package = Path(tamper.package_dir())
    guard = Guard.from_settings(str(package.parent), isolated=True, mode=Mode.BYPASS)
    decision = guard.check(ToolCall("Write", {"file_path": str(package / "engine.py"), "content": ""}, cwd=str(package.parent)))
    assert decision.layer != "tamper", decision.reason


@pytest.mark.parametrize(("argv", "expected"), [
    (["bastion", "trust"], ("trust",)),
    (["/opt/venv/bin/bastion", "rules", "list"], ("rules", "list")),
    (["python3.12", "-I", "-m", "bastion", "doctor"], ("doctor",)),
    (["python", "-Im", "bastion.cli", "trust"], ("trust",)),
    (["python", "-X", "dev", "-mbastion", "trust"], ("trust",)),
    (["python3", "/home/u/.local/bin/bastion", "trust"], ("trust",)),
    (["uvx", "--from", "bastion-guard", "bastion", "trust"], ("trust",)),
    (["uv", "tool", "run", "bastion", "trust"], ("trust",)),
    (["uv", "run", "--with", "x", "python", "-m", "bastion", "trust"], ("trust",)),
    (["pipx", "run", "--spec", "bastion-guard", "bastion", "trust"], ("trust",)),
    (["python", "-c", "print(1)"], None),
    (["python", "-m", "pip", "list"], None),
    (["uvx", "ruff", "check"], None),
    (["bastionx", "trust"], None),
])
def test_bastion_invocations(argv: list[str], expected: tuple[str, ...] | None) -> None:
    assert tamper.bastion_args(argv) == expected


def test_every_record_has_examples_both_ways() -> None:
    for record in tamper.RECORDS:
        assert record.effect in (tamper.OFF, tamper.LOOSEN) and record.why and record.match and record.not_match, record.id


@pytest.mark.parametrize(("command", "says"), [
    ("bastion uninstall claude-code", "switches the guard off"),
    ("bastion trust", "trusts a project"),
    ("pkill -f bastion", "switches the guard off"),
])
def test_through_the_claude_code_hook_in_bypass_mode(command: str, says: str, project: Path) -> None:
    """An immune ask becomes a deny where nobody can be asked; both name what happened."""
    from bastion.adapters import claude_code
    from bastion.hook import run as hook

    text = json.dumps({"session_id": "s", "transcript_path": "/dev/null", "cwd": str(project),
                       "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
                       "permission_mode": "bypassPermissions", "tool_use_id": "t"})
    out = json.loads(hook.run(claude_code, text).stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny", out
    assert says in out["permissionDecisionReason"] and "terminal" in out["permissionDecisionReason"], out
