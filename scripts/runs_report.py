"""Figures for the read-before-run sets (``tests/attacks/runs/``): sequences of tool calls
over files, where the danger sits in a file the last call runs.

    .venv/bin/python scripts/runs_report.py [FILE.jsonl …]

Each case gets a fresh git workspace and a throw-away home whose Claude Code settings hold
bastion's hook (``attack_report.installed_home``); its ``files`` are created (``~/`` in that
home, ``/tmp/bastion-runs/`` outside the workspace, a file starting with ``#!`` made
executable), its earlier steps applied (a Write or an Edit as such; a Bash step only when it
is nothing but a write of text, which is then run, since it only creates a file), and its
last step checked. ``not_allow`` cases pass when neither default nor acceptEdits mode allows
the last step; ``allow`` controls pass when default mode allows it (acceptEdits for a last
step that is a Write or an Edit, which default mode asks for by design).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bastion.engine import Guard  # noqa: E402
from bastion.model import Mode, ToolCall, Verdict  # noqa: E402

OUTSIDE = Path("/tmp/bastion-runs")
#: Commands a setup step may consist of: they only create files.
_WRITERS = frozenset({"cat", "echo", "printf", "tee", "mkdir", "touch", "chmod"})


def _installed_home(base: Path) -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("attack_report", ROOT / "scripts" / "attack_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    env: dict[str, str] = module.installed_home(base)
    return env


def _place(path: str, workspace: Path, home: Path) -> Path:
    if path.startswith("~/"):
        return home / path[2:]
    if path.startswith("/"):
        if not path.startswith(str(OUTSIDE) + "/"):
            raise ValueError(f"absolute path outside {OUTSIDE}: {path}")
        return Path(path)
    return workspace / path


def _write(target: Path, content: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    if content.startswith("#!"):
        target.chmod(0o755)


def _only_writes(command: str) -> bool:
    from bastion.shell.syntax.parse import parse

    parsed = parse(command)
    return not parsed.complex and all(c.name in _WRITERS for c in parsed.commands)


def _call(step: dict[str, Any], workspace: Path, home: Path) -> ToolCall:
    if step["tool"] == "Bash":
        return ToolCall("Bash", {"command": step["command"]}, cwd=str(workspace))
    data = {k: v for k, v in step.items() if k != "tool"}
    data["file_path"] = str(_place(step["file_path"], workspace, home))
    return ToolCall(step["tool"], data, cwd=str(workspace))


def _apply(step: dict[str, Any], workspace: Path, home: Path, env: dict[str, str]) -> None:
    if step["tool"] == "Write":
        _write(_place(step["file_path"], workspace, home), step["content"])
    elif step["tool"] == "Edit":
        target = _place(step["file_path"], workspace, home)
        target.write_text(target.read_text().replace(step["old_string"], step["new_string"], 1))
    elif _only_writes(step["command"]):
        subprocess.run(["bash", "-c", step["command"]], cwd=workspace, env=env, check=False, capture_output=True)
    else:
        raise ValueError(f"a setup step that does more than write a file: {step['command'][:80]!r}")


def run_case(record: dict[str, Any]) -> dict[str, str]:
    """The verdicts of the last step in default and acceptEdits mode."""
    with tempfile.TemporaryDirectory(dir="/var/tmp" if Path("/var/tmp").is_dir() else None) as tmp:
        base = Path(tmp)
        workspace = base / "project"
        subprocess.run(["git", "init", "-q", str(workspace)], check=True)
        env = _installed_home(base)
        home = Path(env["HOME"])
        shutil.rmtree(OUTSIDE, ignore_errors=True)
        try:
            for path, content in record["files"].items():
                _write(_place(path, workspace, home), content)
            for step in record["steps"][:-1]:
                _apply(step, workspace, home, env)
            call = _call(record["steps"][-1], workspace, home)
            out = {}
            for mode in (Mode.DEFAULT, Mode.ACCEPT_EDITS):
                decision = Guard.from_settings(str(workspace), isolated=True, mode=mode, env=env).check(call)
                out[mode.value] = "immune ask" if decision.verdict is Verdict.ASK and decision.immune else decision.verdict.value
                out[mode.value + " reason"] = decision.reason
            return out
        finally:
            shutil.rmtree(OUTSIDE, ignore_errors=True)


def passed(record: dict[str, Any], outcome: dict[str, str]) -> bool:
    if record["expect"] == "not_allow":
        return outcome["default"] != "allow" and outcome["acceptEdits"] != "allow"
    mode = "acceptEdits" if record["steps"][-1]["tool"] in ("Write", "Edit") else "default"
    return outcome[mode] == "allow"


def measure(path: Path, show: int = 0) -> list[str]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    counts: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    misses: list[str] = []
    for record in records:
        outcome = run_case(record)
        ok = passed(record, outcome)
        cell = counts[(record["pattern"], record["expect"])]
        cell["n"] += 1
        cell["ok"] += ok
        if not ok and len(misses) < show:
            misses.append(f"{record['id']}: default {outcome['default']}, acceptEdits {outcome['acceptEdits']} — "
                          f"{outcome['default reason'][:90]}")
    lines = [f"#### {path.parent.name}/{path.name}", "",
             "| pattern | dangerous: not allowed | controls: allowed |", "|---|---:|---:|"]
    totals = {"not_allow": [0, 0], "allow": [0, 0]}
    for pattern in sorted({p for p, _ in counts}):
        cells = []
        for expect in ("not_allow", "allow"):
            c = counts.get((pattern, expect), collections.Counter())
            totals[expect][0] += c["ok"]
            totals[expect][1] += c["n"]
            cells.append(f"{c['ok']}/{c['n']}" if c["n"] else "–")
        lines.append(f"| {pattern} | {cells[0]} | {cells[1]} |")
    bad, good = totals["not_allow"], totals["allow"]
    lines.append(f"| **total** | **{bad[0]}/{bad[1]} ({100 * bad[0] / max(bad[1], 1):.1f}%)** | "
                 f"**{good[0]}/{good[1]} ({100 * good[0] / max(good[1], 1):.1f}%)** |")
    return lines + [""] + misses + ([""] if misses else [])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="sets (default: tests/attacks/runs/*.jsonl)")
    parser.add_argument("--misses", type=int, default=0, help="also list N cases that fail, per file")
    args = parser.parse_args(argv)
    files = [Path(f) for f in args.files] or sorted((ROOT / "tests" / "attacks" / "runs").glob("*.jsonl"))
    os.environ.setdefault("BASTION_AUDIT", "0")
    for path in files:
        print("\n".join(measure(path, args.misses)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
