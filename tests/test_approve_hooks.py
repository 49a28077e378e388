"""Permission hook scripts: real subprocesses that allow, deny, fail, hang or babble."""

from __future__ import annotations

import json
import shlex
import threading
from pathlib import Path

import pytest

from bastion.approve.hooks import DEFAULT_TIMEOUT_MS, HookRun, HookSpec, PermissionHooks, hook_specs, notify_denied
from bastion.engine import Guard
from bastion.model import Mode, Source, ToolCall, Verdict
from bastion.policy.settings import Policy
from bastion.session import decide
from waiting import PATIENCE, gone, until, wait_for_file_sh

#: A hook's timeout when it should never run out (milliseconds).
LONG_MS = int(PATIENCE * 1000)


def guard_for(project: Path, env: dict[str, str], settings: dict | None = None, tmp: Path | None = None) -> Guard:
    files = []
    if settings is not None:
        assert tmp is not None
        path = tmp / "hook-settings.json"
        path.write_text(json.dumps(settings))
        files.append(str(path))
    return Guard.from_settings(str(project), isolated=True, settings_files=files, env=env)


def ask(project: Path, env: dict[str, str], command: str = "frobnicate --all", **kw):
    guard = guard_for(project, env)
    call = ToolCall("Bash", {"command": command}, cwd=str(project), session_id="hooks", mode=kw.get("mode"))
    decision = guard.check(call)
    assert decision.verdict is Verdict.ASK, decision.reason
    return guard, call, decision


def prints(obj: object) -> str:
    """A hook command that reads its input and prints ``obj`` as JSON."""
    return f"cat > /dev/null; printf '%s\\n' {shlex.quote(json.dumps(obj))}"


def hooks(*specs: HookSpec, env: dict[str, str], guard: Guard | None = None, settings_file: Path | None = None) -> PermissionHooks:
    return PermissionHooks(specs, env=env, guard=guard, settings_file=settings_file)


# --------------------------------------------------------------------------- settings


@pytest.mark.parametrize(
    "entries, expected, problems",
    [
        ([{"command": "a", "timeout": 5000}], [HookSpec("a", 5000)], 0),
        ([{"command": "a"}], [HookSpec("a", DEFAULT_TIMEOUT_MS)], 0),
        ([{"command": "a", "timeout": 10**9}], [HookSpec("a", 600_000)], 0),
        ([{"command": "a", "timeout": -1}], [HookSpec("a", DEFAULT_TIMEOUT_MS)], 1),
        ([{"command": "a", "matcher": "Bash|Edit"}], [HookSpec("a", DEFAULT_TIMEOUT_MS, "Bash|Edit")], 0),
        ([{"timeout": 5}, "a", {"command": ""}], [], 3),
        ("a", [], 1),
    ],
)
def test_hook_specs_from_settings(entries, expected, problems):
    specs, found = hook_specs(Policy(sections={"hooks": {"PermissionRequest": entries}}), "PermissionRequest")
    assert specs == expected and len(found) == problems


def test_matcher_selects_tools():
    spec = HookSpec("x", matcher="Edit|mcp__*")
    assert spec.applies_to(ToolCall("MultiEdit", {}))  # canonical name Edit
    assert spec.applies_to(ToolCall("mcp__github__create_issue", {}))
    assert not spec.applies_to(ToolCall("Bash", {"command": "ls"}))


# --------------------------------------------------------------------------- PermissionRequest


def test_the_script_gets_the_call_on_stdin(project, bastion_env, tmp_path):
    _, call, decision = ask(project, bastion_env, mode=Mode.ACCEPT_EDITS)
    seen = tmp_path / "seen.json"
    hooks(HookSpec(f"cat > {seen}; echo '{{}}'"), env=bastion_env).answer(call, decision)
    data = json.loads(seen.read_text())
    assert data == {"hook_event_name": "PermissionRequest", "tool_name": "Bash",
                    "tool_input": {"command": "frobnicate --all"}, "session_id": "hooks",
                    "cwd": str(project), "permission_mode": "acceptEdits"}


@pytest.mark.parametrize(
    "command, verdict, reason",
    [
        (prints({"behavior": "allow", "message": "ok by policy"}), Verdict.ALLOW, "allowed by permission hook: ok by policy"),
        (prints({"behavior": "deny", "message": "prod is off limits"}), Verdict.DENY, "denied by permission hook: prod is off limits"),
        (prints({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny"}}}),
         Verdict.DENY, "denied by permission hook"),
        ("cat >/dev/null; echo 'not allowed here' >&2; exit 2", Verdict.DENY, "denied by permission hook: not allowed here"),
        # never allows by failing: no opinion
        ("cat >/dev/null; echo 'allow'", None, ""),
        ("cat >/dev/null; echo '[\"allow\"]'", None, ""),
        (prints({"behavior": "yes"}), None, ""),
        ("cat >/dev/null", None, ""),
        (prints({"behavior": "allow"}) + "; exit 1", None, ""),
        ("exec /nonexistent/hook", None, ""),
        ("cat >/dev/null; head -c 2000000 /dev/zero | tr '\\0' ' '; " + prints({"behavior": "allow"}), None, ""),
    ],
)
def test_answers(project, bastion_env, command, verdict, reason):
    _, call, decision = ask(project, bastion_env)
    result = hooks(HookSpec(command), env=bastion_env).answer(call, decision)
    if verdict is None:
        assert result is None
    else:
        assert result.verdict is verdict and result.source is Source.HOOK
        assert result.reason.startswith(reason) and decision.reason in result.reason
    assert decision.verdict is Verdict.ASK  # the input decision is never changed


def test_a_slow_hook_times_out_without_an_answer(project, bastion_env):
    _, call, decision = ask(project, bastion_env)
    slow = HookSpec(f"sleep {PATIENCE:.0f}; " + prints({"behavior": "allow"}), timeout_ms=300)
    assert hooks(slow, env=bastion_env).answer(call, decision) is None  # waited for, it would have allowed


def test_deny_from_any_hook_wins_and_interrupt_is_kept(project, bastion_env):
    _, call, decision = ask(project, bastion_env)
    result = hooks(
        HookSpec(prints({"behavior": "allow"})),
        HookSpec("sleep 0.3; " + prints({"behavior": "deny", "interrupt": True, "message": "chain stopped"})),
        env=bastion_env,
    ).answer(call, decision)
    assert result.verdict is Verdict.DENY and result.interrupt and "chain stopped" in result.reason


def test_hooks_run_in_parallel(project, bastion_env, tmp_path):
    _, call, decision = ask(project, bastion_env)
    here = tmp_path / "started"
    here.mkdir()
    all_started = f"[ $(ls {here} | wc -l) -ge 4 ]"
    wait = f"i=0; until {all_started} || [ $i -ge {int(PATIENCE / 0.05)} ]; do sleep 0.05; i=$((i+1)); done"
    # each hook allows only once all four have started: run one after the other, none would
    specs = [HookSpec(f"touch {here}/{n}; {wait}; {all_started} && " + prints({"behavior": "allow"}), timeout_ms=LONG_MS)
             for n in range(4)]
    result = hooks(*specs, env=bastion_env).answer(call, decision)
    assert result is not None and result.verdict is Verdict.ALLOW


def test_a_hook_cannot_allow_an_immune_ask_but_can_deny_it(project, bastion_env):
    guard = guard_for(project, bastion_env)
    call = ToolCall("Write", {"file_path": ".git/config", "content": "x"}, cwd=str(project))
    decision = guard.check(call)
    assert decision.verdict is Verdict.ASK and decision.immune
    assert hooks(HookSpec(prints({"behavior": "allow"})), env=bastion_env).answer(call, decision) is None
    assert hooks(HookSpec(prints({"behavior": "deny"})), env=bastion_env).answer(call, decision).verdict is Verdict.DENY


def test_updated_input_is_checked_again(project, bastion_env):
    guard, call, decision = ask(project, bastion_env)
    safe = hooks(HookSpec(prints({"behavior": "allow", "updatedInput": {"command": "ls -la"}})), env=bastion_env, guard=guard)
    result = safe.answer(call, decision)
    assert result.verdict is Verdict.ALLOW and result.updated_input == {"command": "ls -la"}
    assert result.to_dict()["updated_input"] == {"command": "ls -la"}
    evil = hooks(HookSpec(prints({"behavior": "allow", "updatedInput": {"command": "rm -rf /"}})), env=bastion_env, guard=guard)
    result = evil.answer(call, decision)
    assert result.verdict is Verdict.DENY and "updated input is not allowed" in result.reason
    unchecked = hooks(HookSpec(prints({"behavior": "allow", "updatedInput": {"command": "ls"}})), env=bastion_env)
    result = unchecked.answer(call, decision)
    assert result.verdict is Verdict.ALLOW and result.updated_input is None and "ignored" in result.reason


def test_updated_permissions_are_saved_unless_too_broad(project, bastion_env, tmp_path):
    _, call, decision = ask(project, bastion_env)
    target = tmp_path / "saved.json"
    answer = {"behavior": "allow", "updatedPermissions": [
        "Bash(frobnicate --all)",
        {"tool": "Bash", "pattern": "make test", "behavior": "allow"},
        "Bash(bash:*)",
        {"tool": "Bash", "pattern": "rm -rf /tmp/cache", "behavior": "deny"},
        42,
    ]}
    result = hooks(HookSpec(prints(answer)), env=bastion_env, settings_file=target).answer(call, decision)
    assert result.verdict is Verdict.ALLOW
    saved = json.loads(target.read_text())["permissions"]
    assert saved["allow"] == ["Bash(frobnicate --all)", "Bash(make test)"]
    assert saved["deny"] == ["Bash(rm -rf /tmp/cache)"]
    assert "refused to save the too-broad rule Bash(bash:*)" in result.reason
    again = Guard.from_settings(str(project), isolated=True, settings_files=[str(target)], env=bastion_env)
    assert again.check(call).verdict is Verdict.ALLOW


def test_stop_ends_running_hooks_and_drops_their_answers(project, bastion_env, tmp_path):
    _, call, decision = ask(project, bastion_env)
    gate, pidfile, marker = tmp_path / "go", tmp_path / "hook.pid", tmp_path / "finished"
    run = HookRun()
    box: list = []
    slow = hooks(HookSpec(f"echo $$ > {pidfile}; {wait_for_file_sh(gate)}; touch {marker}; " + prints({"behavior": "allow"}),
                          timeout_ms=LONG_MS), env=bastion_env)
    worker = threading.Thread(target=lambda: box.append(slow.answer(call, decision, run=run)))
    worker.start()
    until(pidfile.exists, "the hook started")
    run.stop()
    worker.join(PATIENCE)
    assert box == [None]
    gone(pidfile, "the stopped hook ended")
    gate.touch()  # too late: nobody is left to act on it
    assert not marker.exists()


# --------------------------------------------------------------------------- PermissionDenied


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_permission_denied_scripts_get_every_denial(project, bastion_env, tmp_path):
    log, gate, after = tmp_path / "denied.jsonl", tmp_path / "go", tmp_path / "after"
    # the script holds on until the test lets it go: had the decision waited for it, it would never have come back
    script = f"{{ cat; echo; }} >> {log}; {wait_for_file_sh(gate)}; [ -e {gate} ] && echo >> {after}"
    guard = guard_for(project, bastion_env, {"hooks": {"PermissionDenied": [{"command": script, "timeout": LONG_MS}]}}, tmp_path)
    call = ToolCall("Bash", {"command": "rm -rf /"}, cwd=str(project), session_id="d1")
    decision = decide(guard, call, audit=False)
    assert decision.verdict is Verdict.DENY
    gate.touch()
    until(lambda: _lines(after), "the script finished after the decision came back")
    data = json.loads(_lines(log)[0])
    assert data["hook_event_name"] == "PermissionDenied" and data["tool_input"] == {"command": "rm -rf /"}
    assert data["decision"] == "deny" and data["reason"] == decision.reason.split(" — ")[0] and data["layer"] == decision.layer
    allowed = decide(guard, ToolCall("Bash", {"command": "ls"}, cwd=str(project)), audit=False)
    assert allowed.verdict is Verdict.ALLOW
    again = decide(guard, ToolCall("Bash", {"command": "rm -rf ~"}, cwd=str(project)), audit=False)
    assert again.verdict is Verdict.DENY
    until(lambda: len(_lines(after)) == 2, "the second denial was reported")
    reported = [json.loads(line)["tool_input"]["command"] for line in _lines(log)]
    assert reported == ["rm -rf /", "rm -rf ~"]  # allows are not reported


def test_a_slow_permission_denied_script_is_killed_at_its_timeout(project, bastion_env, tmp_path):
    gate, pidfile, marker = tmp_path / "go", tmp_path / "script.pid", tmp_path / "late"
    guard = guard_for(project, bastion_env, {"hooks": {"PermissionDenied": [
        {"command": f"echo $$ > {pidfile}; {wait_for_file_sh(gate)}; touch {marker}", "timeout": 300}]}}, tmp_path)
    decision = decide(guard, ToolCall("Bash", {"command": "rm -rf /"}, cwd=str(project)), audit=False)
    assert decision.verdict is Verdict.DENY
    gone(pidfile, "the script was killed at its timeout")
    gate.touch()
    assert not marker.exists()


def test_notify_denied_without_hooks_starts_nothing(project):
    call = ToolCall("Bash", {"command": "x"}, cwd=str(project))
    assert notify_denied(Policy(), call, None) == 0  # type: ignore[arg-type]


# --------------------------------------------------------------------------- trust


def test_hooks_from_an_untrusted_project_do_not_run(project, bastion_env, tmp_path):
    from bastion.policy.settings import trust

    marker = tmp_path / "ran"
    hook = {"command": f"touch {marker}; " + prints({"behavior": "allow"})}
    (project / ".bastion").mkdir()
    (project / ".bastion" / "settings.json").write_text(json.dumps({"hooks": {"PermissionRequest": [hook]}}))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PermissionRequest": [hook]}}))

    guard = Guard.from_settings(str(project), env=bastion_env)
    assert guard.policy.section("hooks") == {}
    assert any("ignored 'hooks' settings from untrusted project file" in n for n in guard.policy.notices)
    call = ToolCall("Bash", {"command": "frobnicate"}, cwd=str(project))
    decision = guard.check(call)
    assert PermissionHooks.from_guard(guard).answer(call, decision) is None and not marker.exists()

    trust(str(project), env=bastion_env)
    trusted = Guard.from_settings(str(project), env=bastion_env)
    specs, _ = hook_specs(trusted.policy, "PermissionRequest")
    assert len(specs) == 1  # the bastion file only: Claude Code files give permissions, never hooks
    assert PermissionHooks.from_guard(trusted).answer(call, decision).verdict is Verdict.ALLOW and marker.exists()
