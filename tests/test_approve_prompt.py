"""The terminal prompt, driven through a real pseudo-terminal (pexpect): keys, grace
period, session grants, /dev/tty, the no-terminal fallback and ``bastion run``.

Keys are sent once the prompt shows it is live (the selection marker is drawn when the
grace period is over), never after a fixed wait."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from bastion.approve.terminal import GRACE_SECONDS, TerminalApprover, grace_seconds
from waiting import PATIENCE

LIVE = "❯"  # the selection marker: drawn once keys count


def spawn(args: list[str], cwd: Path, env: dict[str, str], **extra_env: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable, ["-m", "bastion", *args], cwd=str(cwd), env={**env, **extra_env},
        timeout=PATIENCE, dimensions=(40, 120), encoding="utf-8",
    )


def check(command: str, cwd: Path, env: dict[str, str], *flags: str, **extra_env: str) -> pexpect.spawn:
    return spawn(["check", "--prompt", "--isolated", "--no-audit", *flags, "--", command], cwd, env, **extra_env)


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


def plain(text: str) -> str:
    """Terminal output without colours and cursor movements."""
    return _ANSI.sub("", text)


def result(child: pexpect.spawn) -> tuple[dict, int, str]:
    """The JSON decision printed after the prompt, the exit status and the whole screen text."""
    child.expect(pexpect.EOF)
    child.close()
    text = plain(child.before or "")
    match = re.search(r'^\{"decision".*$', text, re.M)
    assert match, text
    return json.loads(match.group(0)), child.exitstatus, text


def shown(child: pexpect.spawn, *, live: bool = True) -> str:
    """Wait for the prompt and, with ``live``, until keys count (the selection marker is
    drawn when the grace period is over); the text a person reads."""
    child.expect("Deny")
    text = (child.before or "") + "Deny"
    if live:
        child.expect(LIVE)
        text += (child.before or "") + LIVE
    return plain(text + (child.buffer or ""))


@pytest.mark.parametrize(
    "keys, verdict, source, status",
    [
        ("\r", "allow", "user_temporary", 0),  # Enter: the default, allow once
        ("y", "allow", "user_temporary", 0),
        ("n", "deny", "user_reject", 4),
        ("\x1b", "deny", "user_abort", 4),  # Esc
        ("\x03", "deny", "user_abort", 4),  # Ctrl-C
        ("\x1b[B\x1b[B\r", "deny", "user_reject", 4),  # down, down, Enter: the third option
        ("j\r", "allow", "user_temporary", 0),  # down, Enter: allow for this session
    ],
)
def test_each_key(project, bastion_env, keys, verdict, source, status):
    child = check("frobnicate --all", project, bastion_env, "--session", "keys")
    shown(child)
    child.send(keys)
    decision, code, screen = result(child)
    assert (decision["decision"], decision["source"], code) == (verdict, source, status)
    assert f"bastion: {'allowed' if verdict == 'allow' else 'denied'} ({source}): frobnicate --all" in screen


def test_what_the_person_sees(project, bastion_env):
    child = check("git push origin main", project, bastion_env, "--session", "s")
    screen = shown(child)
    for text in ("wants to run a shell command", "git push origin main", "Runs git push; it talks to the network.",
                 "MEDIUM", "Why    network access", "Allow once", "y / Enter", "Allow for this session", "n / Esc",
                 "bastion rules add 'Bash(git push origin main)'"):
        assert text in screen, text
    assert "Always" not in screen  # "always allow" is never offered inline
    child.sendcontrol("c")
    result(child)


def test_session_grant_is_stored_and_allows_the_same_command_again(project, bastion_env):
    child = check("frobnicate --all", project, bastion_env, "--session", "s1")
    shown(child)
    child.send("a")
    decision, code, _ = result(child)
    assert code == 0 and decision["reason"].startswith("allowed for this session at the terminal")
    again = subprocess.run(
        [sys.executable, "-m", "bastion", "check", "--isolated", "--no-audit", "--session", "s1", "--", "frobnicate --all"],
        cwd=project, env=bastion_env, capture_output=True, text=True, timeout=60,
    )
    assert json.loads(again.stdout)["decision"] == "allow"


def test_no_session_option_without_a_session_id(project, bastion_env):
    child = check("frobnicate --all", project, bastion_env)
    screen = shown(child)
    assert "Allow for this session" not in screen and "no session to remember it for" in screen
    child.send("a")  # not an option here: ignored
    child.send("n")
    decision, _, _ = result(child)
    assert decision["source"] == "user_reject"


def test_destructive_asks_offer_only_allow_once(project, bastion_env):
    child = check("git push --force origin main", project, bastion_env, "--session", "s")
    screen = shown(child)
    assert "Allow for this session" not in screen and "it is destructive" in screen and "HIGH" in screen
    child.send("a")
    child.send("\r")
    decision, _, _ = result(child)
    assert decision["decision"] == "allow" and decision["reason"].startswith("allowed once")


def test_keys_in_the_grace_period_are_ignored(project, bastion_env):
    child = check("frobnicate --all", project, bastion_env, BASTION_PROMPT_GRACE_MS="10000")
    screen = shown(child, live=False)
    assert LIVE not in screen  # nothing is selected while keys are ignored
    child.send("y")  # at once: a key meant for the agent, not an approval
    child.send("\r")
    child.sendcontrol("c")  # Ctrl-C counts even now: had y or Enter counted, this came too late
    decision, _, screen = result(child)
    assert (decision["decision"], decision["source"]) == ("deny", "user_abort")
    assert LIVE not in screen


def test_a_longer_grace_period_ends_too(project, bastion_env):
    child = check("frobnicate --all", project, bastion_env, BASTION_PROMPT_GRACE_MS="800")
    shown(child)
    child.send("n")
    decision, _, _ = result(child)
    assert decision["decision"] == "deny" and decision["source"] == "user_reject"


def test_ctrl_c_denies_even_in_the_grace_period(project, bastion_env):
    child = check("frobnicate --all", project, bastion_env, BASTION_PROMPT_GRACE_MS="10000")
    shown(child, live=False)
    child.sendcontrol("c")
    decision, code, _ = result(child)
    assert decision["source"] == "user_abort" and code == 4


def test_grace_period_is_200_ms_and_only_longer_by_choice():
    assert GRACE_SECONDS == 0.2
    assert TerminalApprover(env={}).grace == 0.2
    assert grace_seconds({"BASTION_PROMPT_GRACE_MS": "50"}) == 0.2
    assert grace_seconds({"BASTION_PROMPT_GRACE_MS": "800"}) == 0.8
    assert grace_seconds({"BASTION_PROMPT_GRACE_MS": "soon"}) == 0.2


def test_reads_dev_tty_when_stdin_is_a_pipe(project, bastion_env):
    call = json.dumps({"tool": "Edit", "input": {"file_path": "src/app.py", "old_string": "print('hello')",
                                                  "new_string": "print('bye')"}})
    child = pexpect.spawn("bash", ["-c", f"echo {json.dumps(call)} | {sys.executable} -m bastion check --prompt --isolated --no-audit"],
                          cwd=str(project), env=bastion_env, timeout=PATIENCE, dimensions=(40, 120), encoding="utf-8")
    screen = shown(child)
    assert "wants to edit a file" in screen and "src/app.py" in screen
    assert "-print('hello')" in screen and "+print('bye')" in screen  # the diff
    child.send("y")
    decision, code, _ = result(child)
    assert code == 0 and decision["source"] == "user_temporary"


def test_without_a_terminal_an_ask_is_denied_with_the_reason(project, bastion_env):
    env = {k: v for k, v in bastion_env.items() if k not in ("CI", "GITHUB_ACTIONS")}
    proc = subprocess.run(
        [sys.executable, "-m", "bastion", "check", "--prompt", "--isolated", "--no-audit", "--", "frobnicate --all"],
        cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        start_new_session=True,  # no controlling terminal: /dev/tty cannot be opened
    )
    decision = json.loads(proc.stdout)
    assert proc.returncode == 4
    assert decision["source"] == "builtin"
    assert decision["reason"].startswith("nobody can be asked: unknown command (frobnicate)")
    assert "Bash(frobnicate:*)" in decision["reason"]


def test_ci_never_prompts_even_on_a_terminal(project, bastion_env):
    child = check("frobnicate --all", project, bastion_env, CI="true")
    decision, code, screen = result(child)
    assert code == 4 and "Allow once" not in screen and decision["reason"].startswith("nobody can be asked")


def test_prompt_and_batch_do_not_mix(project, bastion_env):
    proc = subprocess.run([sys.executable, "-m", "bastion", "check", "--prompt", "--batch"], input="", cwd=project,
                          env=bastion_env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "cannot be combined with --batch" in proc.stderr


@pytest.mark.parametrize("key, runs", [("\r", True), ("n", False)])
def test_bastion_run_asks_with_the_prompt(project, bastion_env, key, runs):
    child = spawn(["run", "--", "frobnicate --x; touch marker"], project, bastion_env)
    screen = shown(child)
    assert "frobnicate --x; touch marker" in screen
    child.send(key)
    child.expect(pexpect.EOF)
    child.close()
    assert (project / "marker").exists() is runs
    assert child.exitstatus == (0 if runs else 4)


def test_a_long_command_scrolls_and_the_options_stay_on_screen(project, bastion_env):
    command = "cat > notes.txt <<EOF\n" + "\n".join(f"note {i}" for i in range(60)) + "\nEOF\nfrobnicate"
    child = pexpect.spawn(sys.executable, ["-m", "bastion", "check", "--prompt", "--isolated", "--no-audit", "--", command],
                          cwd=str(project), env=bastion_env, timeout=PATIENCE, dimensions=(24, 100), encoding="utf-8")
    screen = shown(child)
    assert "note 3" in screen and "note 50" not in screen and "of 63: PgUp / PgDn to scroll" in screen
    child.send("\x1b[6~" * 5)  # PgDn
    child.expect("frobnicate")
    child.expect("Deny")
    child.send("n")
    decision, _, _ = result(child)
    assert decision["source"] == "user_reject"


def test_hidden_characters_are_shown_not_obeyed(project, bastion_env):
    child = check("echo safe\u202e; frobnicate \x1b[2Jgone", project, bastion_env)
    screen = shown(child)
    assert "<U+202E>" in screen and "<U+001B>[2J" in screen
    child.send("n")
    result(child)
