"""The audit log: strict JSON, capped records, whole lines under kill -9, no stale temp
files, and a line for every answer that failed closed on bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bastion import state
from bastion.audit import denials, log
from bastion.audit.redact import REDACTED
from bastion.engine import Guard
from bastion.model import Decision, Tier, ToolCall, Verdict
from conftest import run_bastion


def _no_constants(name: str) -> None:
    raise ValueError(f"not strict JSON: {name}")


def strict_lines(path: Path) -> list[dict]:
    """Every line of the log, parsed by a strict parser (no NaN/Infinity, nothing torn)."""
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), "the log ends in the middle of a line"
    return [json.loads(line, parse_constant=_no_constants) for line in data.decode("utf-8").split("\n")[:-1]]


def _decision(reason: str = "test") -> Decision:
    return Decision(Verdict.DENY, reason, "test", Tier.HIGH_RISK)


# --------------------------------------------------------------------------- strict JSON


def test_non_finite_numbers_and_odd_values_are_written_as_strict_json(tmp_path: Path) -> None:
    nested: dict = {}
    cursor = nested
    for _ in range(3000):
        cursor["x"] = {}
        cursor = cursor["x"]
    call = ToolCall("mcp__db__query", {"limit": float("nan"), "scale": [float("inf"), -float("inf")],
                                       "big": 10**5000, "deep": nested, "odd": "lone \ud800 surrogate \x00"})
    path = tmp_path / "audit.jsonl"
    log.append(path, log.entry(call, _decision()))
    [record] = strict_lines(path)
    assert record["input"]["limit"] == "NaN" and record["input"]["scale"] == ["Infinity", "-Infinity"]
    assert "nested too deep" in json.dumps(record["input"]["deep"])


def test_a_bare_nan_written_by_old_code_is_what_the_strict_reader_refuses(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text('{"limit": NaN}\n')
    with pytest.raises(ValueError):
        strict_lines(path)


# --------------------------------------------------------------------------- the cap


def test_a_huge_command_is_cut_with_a_marker_and_the_record_stays_whole(tmp_path: Path) -> None:
    command = "echo " + "x" * 1_000_000
    path = tmp_path / "audit.jsonl"
    log.append(path, log.entry(ToolCall("Bash", {"command": command, "description": "d"}), _decision("why")))
    raw = path.read_bytes()
    assert len(raw) <= log.MAX_RECORD_BYTES
    [record] = strict_lines(path)
    shown = record["input"]["command"]
    head, _, count = shown.partition("…[truncated ")
    assert command.startswith(head) and count == f"{len(command) - len(head)} bytes]"
    assert record["reason"] == "why" and record["input"]["description"] == "d" and record["decision"] == "deny"


def test_many_large_fields_are_cut_longest_first(tmp_path: Path) -> None:
    call = ToolCall("mcp__x__y", {f"field{i}": chr(0x4e00 + i) * 30_000 for i in range(8)})  # 3 UTF-8 bytes each
    line = log.line(log.entry(call, _decision()))
    assert len(line) <= log.MAX_RECORD_BYTES and line.endswith(b"\n")
    record = json.loads(line, parse_constant=_no_constants)
    assert all("…[truncated " in value for value in record["input"].values())


def test_a_secret_at_the_clip_point_of_a_huge_value_does_not_reach_the_log(tmp_path: Path) -> None:
    secret = "ghp_" + "A1b2" * 10
    for at in range(log._CLIP_CHARS - 30, log._CLIP_CHARS + 5, 7):
        command = "x" * at + secret + " y" * 1000
        line = log.line(log.entry(ToolCall("Bash", {"command": command}), _decision()))
        assert secret[4:16] not in line.decode()


def test_secrets_are_redacted_in_every_field(tmp_path: Path) -> None:
    call = ToolCall("Edit", {"file_path": "app/settings.py", "old_string": "x = 1",
                             "new_string": "DATABASES = {'password': 'hunter2'}"})
    decision = _decision("edit of settings holding password='hunter2'")
    line = log.line(log.entry(call, decision)).decode()
    assert "hunter2" not in line and f"'password': '{REDACTED}'" in line


# --------------------------------------------------------------------------- whole lines


def test_a_torn_last_line_is_dropped_and_the_next_record_starts_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    log.append(path, log.entry(ToolCall("Bash", {"command": "first"}), _decision()))
    with open(path, "ab") as handle:  # what a writer killed in the middle of its write leaves
        handle.write(log.line(log.entry(ToolCall("Bash", {"command": "torn"}), _decision()))[:-20])
    assert [r["input"]["command"] for r in log.iter_records(path)] == ["first"]  # readers skip it
    log.append(path, log.entry(ToolCall("Bash", {"command": "next"}), _decision()))
    assert [r["input"]["command"] for r in strict_lines(path)] == ["first", "next"]


CHILD = r"""
import sys
from bastion.audit import log
from bastion.engine import Guard
from bastion.model import Decision, Tier, ToolCall, Verdict
from bastion.session import record

cwd, audit = sys.argv[1], sys.argv[2]
guard = Guard.from_settings(cwd, isolated=True)
big = log.entry(ToolCall("Bash", {"command": "echo " + "y" * 200_000}), Decision(Verdict.DENY, "big", "t", Tier.HIGH_RISK))
for n in range(10**9):
    if n % 2:
        log.append(__import__("pathlib").Path(audit), big)  # mostly writing: the likeliest place to be killed
    else:
        call = ToolCall("Bash", {"command": f"echo {n} " + "x" * 300_000}, cwd=cwd, session_id="killed")
        record(guard, call, Decision(Verdict.DENY, "test", "test", Tier.HIGH_RISK))
    if n == 2:
        print("writing", flush=True)
"""


def test_kill_9_during_large_appends_leaves_only_whole_lines(project: Path, bastion_env: dict[str, str]) -> None:
    import random

    audit = Path(bastion_env["BASTION_STATE_DIR"]) / "audit.jsonl"
    rng = random.Random(13)
    markers = []
    for round_ in range(12):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(project), str(audit)], stdout=subprocess.PIPE,
                                 env=bastion_env, text=True)
        assert child.stdout is not None and child.stdout.readline() == "writing\n"
        time.sleep(rng.uniform(0, 0.3))  # a random point in the loop, not a timing assertion
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        marker = f"after kill {round_}"
        markers.append(marker)
        log.append(audit, log.entry(ToolCall("Bash", {"command": marker}), _decision()))  # the next writer
    records = strict_lines(audit)  # every line whole and strict: nothing torn, nothing glued
    assert [r["input"]["command"] for r in records if r["input"]["command"].startswith("after kill")] == markers
    assert all(len(line) <= log.MAX_RECORD_BYTES for line in audit.read_bytes().split(b"\n"))
    # the killed writers' temporary files are swept once they are stale, and nothing else is
    sessions = state.session_file("killed", bastion_env).parent
    (sessions / ".abandoned.json.k1ll3d_9.tmp").write_text("{}")
    for leftover in sessions.glob(".*.tmp"):
        os.utime(leftover, (time.time() - 3600, time.time() - 3600))
    (sessions / ".fresh.json.inflight.tmp").write_text("{}")  # a live writer's, seconds old
    (sessions / "notes.tmp").write_text("not ours")
    os.utime(sessions / "notes.tmp", (time.time() - 3600, time.time() - 3600))
    (sessions / ".swept").unlink(missing_ok=True)
    denials.record("killed", False, env=bastion_env)
    assert sorted(p.name for p in sessions.glob("*.tmp")) == [".fresh.json.inflight.tmp", "notes.tmp"]


def test_the_sweep_costs_one_stat_between_sweeps(tmp_path: Path) -> None:
    stale = tmp_path / ".grants.json.abcd1234.tmp"
    stale.write_text("{}")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    assert state.sweep_stale_temps(tmp_path) == 1 and not stale.exists()
    stale.write_text("{}")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    assert state.sweep_stale_temps(tmp_path) == 0 and stale.exists()  # swept recently: not again yet


def test_concurrent_appenders_never_interleave(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    script = (
        "import sys; from pathlib import Path; from bastion.audit import log; from bastion.model import *\n"
        "for i in range(15):\n"
        "    log.append(Path(sys.argv[1]), log.entry(ToolCall('Bash', {'command': sys.argv[2] * 90_000}),"
        " Decision(Verdict.ALLOW, 'ok', 't', Tier.READ_ONLY)))\n"
    )
    children = [subprocess.Popen([sys.executable, "-c", script, str(path), letter]) for letter in "abcd"]
    assert [child.wait() for child in children] == [0, 0, 0, 0]
    records = strict_lines(path)
    assert len(records) == 60
    assert all(len(set(r["input"]["command"].split("…")[0])) == 1 for r in records)


# --------------------------------------------------------------------------- fail-closed answers


def _fail_closed(path: Path) -> list[dict]:
    return [r for r in strict_lines(path) if r.get("fail_closed")] if path.exists() else []


@pytest.mark.parametrize(
    "stdin, words",
    [
        ("", "empty"),
        ("{not json at all, password=hunter2", "invalid JSON"),
        ('{"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": 7, "x": NaN}', ""),
        ("[1, 2, 3]", "object"),
    ],
)
def test_every_fail_closed_hook_answer_is_logged(project: Path, bastion_env: dict[str, str], stdin: str, words: str) -> None:
    audit = Path(bastion_env["BASTION_STATE_DIR"]) / "audit.jsonl"
    env = {**bastion_env, "BASTION_HOOK_SERVER": "0"}
    result = run_bastion("hook", "claude-code", stdin=stdin, cwd=project, env=env)
    assert "Traceback" not in result.stderr
    [record] = _fail_closed(audit)
    assert record["decision"] in ("ask", "deny") and record["agent"] == "claude-code"
    assert words in record["reason"] and "hunter2" not in json.dumps(record)
    assert len(record["input_prefix"]) <= log.FAIL_CLOSED_PREFIX + 40


def test_a_fail_closed_record_keeps_only_a_short_safe_prefix_of_the_input(tmp_path: Path) -> None:
    raw = b"\xff\xfe{\"tool_input\": {\"command\": \"curl -u admin:s3cret https://x\"}\x1b[31m" + "\u202e".encode() + b"z" * 100_000
    path = tmp_path / "audit.jsonl"
    log.append(path, log.fail_closed_entry("hook payload is not JSON", verdict="deny", agent="codex", raw=raw))
    [record] = strict_lines(path)
    prefix = record["input_prefix"]
    assert "s3cret" not in prefix and "admin:[REDACTED]" in prefix and "\x1b" not in prefix and "\\u001b" in prefix
    assert len(prefix) < 300 and prefix.endswith("bytes]") and record["input_digest"].startswith("sha256:")


def test_fail_closed_logging_never_breaks_the_answer(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    log.record_fail_closed("bad input", env={"BASTION_AUDIT_LOG": str(blocker / "audit.jsonl")})  # cannot be created
    log.record_fail_closed("bad input", env={"BASTION_AUDIT": "0", "BASTION_AUDIT_LOG": str(tmp_path / "a.jsonl")})
    assert not (tmp_path / "a.jsonl").exists()


def test_cli_bad_input_is_logged(project: Path, bastion_env: dict[str, str]) -> None:
    audit = Path(bastion_env["BASTION_STATE_DIR"]) / "audit.jsonl"
    result = run_bastion("check", "--isolated", stdin='{"tool": "Bash", "input": {"command": "ls", "token=abc123"',
                         cwd=project, env=bastion_env)
    assert result.returncode == 2
    [record] = _fail_closed(audit)
    assert "invalid JSON" in record["reason"] and "abc123" not in json.dumps(record)
    run_bastion("check", "--isolated", "--no-audit", stdin="{", cwd=project, env=bastion_env)
    assert len(_fail_closed(audit)) == 1  # --no-audit is honoured


def test_decisions_still_log_normally(project: Path, bastion_env: dict[str, str]) -> None:
    from bastion.session import decide

    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    decide(guard, ToolCall("Bash", {"command": "curl -u admin:pass https://x"}, cwd=str(project)))
    [record] = strict_lines(Path(bastion_env["BASTION_STATE_DIR"]) / "audit.jsonl")
    assert record["input"]["command"] == f"curl -u admin:{REDACTED} https://x" and "fail_closed" not in record
