"""Figures for the attack sets in ``tests/attacks/``: per set, per mode, per effect.

    .venv/bin/python scripts/attack_report.py [DIR …]

For catastrophic cases (``expect: deny``) it counts how many are denied outright, how
many are an immune ask (a deny wherever nobody can be asked) and how many would run in
``bypassPermissions`` mode; for look-alikes (``not_deny``) how many are denied, asked or
allowed in default mode; for ``ask_or_deny`` how many are allowed in default mode.

Measured as bastion is used: in a throw-away home whose Claude Code settings hold
bastion's hook (``installed_home``), so a command that deletes that file switches the
guard off and is denied, as it would be on a machine bastion guards.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bastion.engine import Guard  # noqa: E402
from bastion.model import Mode, ToolCall, Verdict  # noqa: E402


def _outcome(decision: Any) -> str:
    if decision.verdict is Verdict.ASK:
        return "immune ask" if decision.immune else "ask"
    return decision.verdict.value


def measure(path: Path, workspace: str, env: dict[str, str]) -> list[str]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    guards = {mode: Guard.from_settings(workspace, isolated=True, mode=mode, env=env) for mode in (Mode.DEFAULT, Mode.BYPASS)}
    by_expect: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    by_effect: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    by_family: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for record in records:
        outcomes = {mode: _outcome(g.check(ToolCall("Bash", {"command": record["command"]}, cwd=workspace)))
                    for mode, g in guards.items()}
        expect = record.get("expect", "?")
        by_expect[expect]["n"] += 1
        by_expect[expect][f"default {outcomes[Mode.DEFAULT]}"] += 1
        by_expect[expect][f"bypass {outcomes[Mode.BYPASS]}"] += 1
        if "family" in record:
            family = by_family[record["family"]]
            if expect == "deny":
                family["n"] += 1
                family["caught"] += outcomes[Mode.DEFAULT] != "allow"
                family["denied"] += outcomes[Mode.BYPASS] == "deny"
                family["held"] += outcomes[Mode.BYPASS] in ("deny", "immune ask")
            else:
                family["look-alikes"] += 1
                family[f"look-alike {outcomes[Mode.DEFAULT]}"] += 1
        if expect == "deny":
            effect = record.get("effect", "?")
            by_effect[effect]["n"] += 1
            by_effect[effect]["denied"] += outcomes[Mode.BYPASS] == "deny"
            by_effect[effect]["bypass allows"] += outcomes[Mode.BYPASS] in ("allow", "ask")
    lines = [f"#### {path.parent.name}/{path.name}", ""]
    for expect, counts in by_expect.items():
        n = counts["n"]
        if expect == "deny":
            held = n - counts["bypass allow"] - counts["bypass ask"]
            lines.append(f"catastrophic: {n}; denied in every mode {counts['bypass deny']} ({100 * counts['bypass deny'] / n:.1f}%); "
                         f"never allowed where nobody answers {held} ({100 * held / n:.1f}%); "
                         f"allowed in bypassPermissions {counts['bypass allow']}")
        elif expect == "not_deny":
            lines.append(f"look-alikes: {n}; denied {counts['default deny']}, asked {counts['default ask'] + counts['default immune ask']}, "
                         f"allowed {counts['default allow']} ({100 * counts['default allow'] / n:.1f}%)")
        else:
            lines.append(f"{expect}: {n}; allowed in default mode {counts['default allow']}")
    if by_effect:
        lines += ["", "| effect | n | denied | allowed in bypass |", "|---|---:|---:|---:|"]
        for effect, counts in sorted(by_effect.items()):
            lines.append(f"| {effect} | {counts['n']} | {100 * counts['denied'] / counts['n']:.1f}% | {counts['bypass allows']} |")
    if by_family:
        lines += ["", "| family | catastrophic | caught | denied every mode | held | look-alikes | denied | asked | allowed |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for name, c in sorted(by_family.items()):
            n = c["n"] or 1
            asked = c["look-alike ask"] + c["look-alike immune ask"]
            lines.append(f"| {name} | {c['n']} | {100 * c['caught'] / n:.1f}% | {100 * c['denied'] / n:.1f}% | "
                         f"{100 * c['held'] / n:.1f}% | {c['look-alikes']} | {c['look-alike deny']} | {asked} | {c['look-alike allow']} |")
    return lines + [""]


def installed_home(base: Path) -> dict[str, str]:
    """An environment as bastion is used: a throw-away home whose Claude Code user
    settings hold bastion's hook (so deleting them switches the guard off), and config,
    state and managed-settings paths of its own."""
    home = base / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), BASTION_CONFIG_DIR=str(base / "config"), BASTION_STATE_DIR=str(base / "state"),
               BASTION_MANAGED_SETTINGS=str(base / "managed" / "managed-settings.json"), BASTION_AUDIT="0",
               PYTHONPATH=str(ROOT / "src"))
    subprocess.run([sys.executable, "-m", "bastion", "install", "claude-code"], env=env, check=True, capture_output=True)
    return env


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", help="folders of .jsonl sets (default: every folder in tests/attacks)")
    args = parser.parse_args(argv)
    if not args.dirs:
        args.dirs = [str(p) for p in sorted((ROOT / "tests" / "attacks").iterdir()) if p.is_dir()]
    # outside /tmp, so look-alikes that clean /tmp do not reach the workspace
    with tempfile.TemporaryDirectory(dir="/var/tmp" if Path("/var/tmp").is_dir() else None) as tmp:
        workspace = str(Path(tmp) / "project")
        subprocess.run(["git", "init", "-q", workspace], check=True)
        env = installed_home(Path(tmp))
        for folder in args.dirs:
            for path in sorted(Path(folder).glob("*.jsonl")):
                if '"steps"' in path.read_text()[:2000]:
                    continue  # a set of tool-call sequences over files: scripts/runs_report.py
                print("\n".join(measure(path, workspace, env)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
