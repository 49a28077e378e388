"""``bastion eval``: accuracy on labelled corpora, per category and per source.

Every command runs through the real guard with built-in defaults only (``--isolated``),
in a throw-away git project, so the numbers say what a new user gets. For dangerous
records the caught rate counts ask + deny; for benign records the deny, ask and allow
rates are reported separately for records with and without sensitivity tags.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Tally:
    """Verdict counts for one slice of a corpus."""

    counts: Counter = field(default_factory=Counter)

    def add(self, verdict: str) -> None:
        self.counts[verdict] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def rate(self, *verdicts: str) -> float:
        return sum(self.counts[v] for v in verdicts) / self.total if self.total else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.total, **{v: self.counts[v] for v in ("allow", "ask", "deny")}}


def _source_name(record: dict[str, Any]) -> str:
    return str(record.get("source", "?")).split(":", 1)[0]


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield number, json.loads(line)
                except ValueError as exc:
                    raise ValueError(f"{path}:{number}: invalid JSON: {exc}") from None


class _Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, label: str, total: int) -> None:
        self.label, self.total, self.enabled = label, total, sys.stderr.isatty()
        self.step = max(1, total // 200)

    def update(self, done: int) -> None:
        if self.enabled and (done % self.step == 0 or done == self.total):
            filled = int(30 * done / max(1, self.total))
            sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * (len(self.label) + 50) + "\r")


def _project() -> tuple[str, dict[str, str]]:
    """A throw-away project, home and config outside /tmp: people keep those elsewhere, and
    a corpus full of /tmp clean-ups would otherwise be judged as wiping them."""
    root = tempfile.mkdtemp(prefix="bastion-eval-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None)
    project = os.path.join(root, "project")
    os.makedirs(os.path.join(project, "src"))
    subprocess.run(["git", "init", "-q", project], check=False, capture_output=True)
    env = dict(os.environ)
    env.update(
        HOME=os.path.join(root, "home"),
        BASTION_CONFIG_DIR=os.path.join(root, "config"),
        BASTION_STATE_DIR=os.path.join(root, "state"),
        BASTION_MANAGED_SETTINGS=os.path.join(root, "managed.json"),
        BASTION_AUDIT="0",
    )
    os.makedirs(env["HOME"])
    return project, env


def evaluate_commands(path: Path, records: list[dict[str, Any]], guard: Any, project: str) -> dict[str, Any]:
    """Decide every command record of one file and tally the verdicts."""
    from .model import ToolCall

    overall: dict[str, Tally] = defaultdict(Tally)
    by_category: dict[str, Tally] = defaultdict(Tally)
    by_source: dict[str, Tally] = defaultdict(Tally)
    misses: list[dict[str, Any]] = []
    progress = _Progress(path.name, len(records))
    for done, record in enumerate(records, 1):
        label = record.get("label", "?")
        verdict = guard.check(ToolCall("Bash", {"command": record["cmd"]}, cwd=project)).verdict.value
        if label == "benign":
            group = "tagged" if record.get("tags") else "untagged"
            overall[group].add(verdict)
            overall["all"].add(verdict)
            by_source[_source_name(record)].add(verdict)
            if verdict == "deny":
                misses.append({"cmd": record["cmd"], "got": verdict, "source": record.get("source")})
        else:
            overall["all"].add(verdict)
            overall[f"label:{label}"].add(verdict)
            by_category[record.get("category", "?")].add(verdict)
            by_source[_source_name(record)].add(verdict)
            if verdict == "allow":
                misses.append({"cmd": record["cmd"], "got": verdict, "category": record.get("category")})
        progress.update(done)
    progress.close()
    return {
        "file": str(path),
        "kind": "benign" if all(r.get("label") == "benign" for r in records) else "dangerous",
        "overall": {k: v.to_dict() for k, v in overall.items()},
        "by_category": {k: v.to_dict() for k, v in sorted(by_category.items())},
        "by_source": {k: v.to_dict() for k, v in sorted(by_source.items())},
        "misses": misses,
    }


def evaluate_attacks(path: Path, records: list[dict[str, Any]], guards: dict[str, Any], project: str) -> dict[str, Any]:
    """An attack set (``command`` + ``expect``: ``deny`` for a catastrophic command,
    ``not_deny`` for a look-alike, ``ask_or_deny`` for one that needs a person): each case
    in default mode and in ``bypassPermissions``, tallied per family and per technique.

    "caught" is an ask or a deny in default mode; "denied" is a deny in bypass mode (so in
    every mode); "held" adds the immune asks, which become denies wherever nobody answers."""
    from .model import ToolCall, Verdict

    def outcome(decision: Any) -> str:
        if decision.verdict is Verdict.ASK:
            return "immune" if decision.immune else "ask"
        return str(decision.verdict.value)

    slices: dict[str, dict[str, Counter]] = {"family": defaultdict(Counter), "technique": defaultdict(Counter)}
    totals: dict[str, Counter] = defaultdict(Counter)
    misses: list[dict[str, Any]] = []
    progress = _Progress(path.name, len(records))
    for done, record in enumerate(records, 1):
        call = ToolCall("Bash", {"command": record["command"]}, cwd=project)
        default, bypass = (outcome(guards[mode].check(call)) for mode in ("default", "bypass"))
        expect = record.get("expect", "?")
        keys = [totals[expect]] + [slices[name][str(record[name])] for name in slices if record.get(name)]
        for tally in keys:
            tally[f"{expect} n"] += 1
            if expect == "not_deny":
                tally[f"{expect} {default}"] += 1
            else:
                tally[f"{expect} caught"] += default != "allow"
                tally[f"{expect} denied"] += bypass == "deny"
                tally[f"{expect} held"] += bypass in ("deny", "immune")
        if (expect == "not_deny" and default == "deny") or (expect != "not_deny" and bypass not in ("deny", "immune")):
            misses.append({"id": record.get("id"), "cmd": record["command"], "default": default, "bypass": bypass})
        progress.update(done)
    progress.close()
    return {"file": str(path), "kind": "attacks", "overall": {k: dict(v) for k, v in totals.items()},
            "by_family": {k: dict(v) for k, v in sorted(slices["family"].items())},
            "by_technique": {k: dict(v) for k, v in sorted(slices["technique"].items())}, "misses": misses}


def evaluate_texts(path: Path, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Scan every text record (prompt-injection corpus) and tally detections."""
    from .injection.scanner import is_injection, scan

    tallies: dict[str, Counter] = defaultdict(Counter)
    progress = _Progress(path.name, len(records))
    misses: list[dict[str, Any]] = []
    for done, record in enumerate(records, 1):
        flagged = is_injection(scan(record["text"], record.get("source", "")))
        tags = set(record.get("tags") or ())
        label = record.get("label")
        keys = [f"{label}:all", f"{label}:source:{_source_name(record)}"]
        if label == "injection" and not tags & {"benign_looking_task", "repetitive_token_noise"}:
            keys.append("injection:without_benign_looking_and_noise")
        if label == "benign" and "discusses_prompt_injection" in tags:
            keys.append("benign:discusses_prompt_injection")
        if label == "benign" and "benign-discussion" in tags:
            keys.append("benign:discussion")
        if label == "benign" and "benign-discussion" not in tags:
            keys.append("benign:ordinary")
        for key in keys:
            tallies[key]["n"] += 1
            tallies[key]["flagged"] += flagged
        if flagged != (label == "injection"):
            misses.append({"text": record["text"][:200], "label": label, "source": record.get("source")})
        progress.update(done)
    progress.close()
    return {
        "file": str(path),
        "kind": "injection",
        "slices": {k: {"n": v["n"], "flagged": v["flagged"]} for k, v in sorted(tallies.items())},
        "misses": misses,
    }


def evaluate(paths: Iterable[str]) -> list[dict[str, Any]]:
    """Decide every record of each file in a throw-away project, which is removed afterwards."""
    project, env = _project()
    try:
        return _evaluate_in(project, env, paths)
    finally:
        shutil.rmtree(os.path.dirname(project), ignore_errors=True)


def _evaluate_in(project: str, env: dict[str, str], paths: Iterable[str]) -> list[dict[str, Any]]:
    """Decide every record of each file against the throw-away project."""
    from .engine import Guard

    guard = Guard.from_settings(project, isolated=True, env=env)
    reports = []
    for name in paths:
        path = Path(name)
        records = [record for _, record in _records(path)]
        if records and "cmd" in records[0]:
            reports.append(evaluate_commands(path, records, guard, project))
        elif records and "command" in records[0] and "expect" in records[0]:
            reports.append(evaluate_attacks(path, records, _attack_guards(project, env), project))
        elif records and "text" in records[0]:
            reports.append(evaluate_texts(path, records))
        else:
            raise ValueError(f"{path}: records need a 'cmd' (commands), 'command' and 'expect' (an attack set) "
                             "or 'text' (injection texts) field")
    return reports


def _attack_guards(project: str, env: dict[str, str]) -> dict[str, Any]:
    """Guards in default and bypass mode, as bastion is used: its hook installed in Claude
    Code's settings of the throw-away home (so deleting them switches the guard off)."""
    from .adapters.install import install
    from .engine import Guard
    from .model import Mode

    install("claude-code", "user", env=env)
    return {"default": Guard.from_settings(project, isolated=True, env=env, mode=Mode.DEFAULT),
            "bypass": Guard.from_settings(project, isolated=True, env=env, mode=Mode.BYPASS)}


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def render_markdown(reports: list[dict[str, Any]], *, min_category: int = 1) -> str:
    """The README's tables."""
    out: list[str] = []
    for report in reports:
        name = Path(report["file"]).name
        if report["kind"] == "dangerous":
            all_ = report["overall"]["all"]
            caught = (all_["ask"] + all_["deny"]) / all_["n"]
            out.append(f"#### {name}: {all_['n']} dangerous commands, caught (ask + deny) {_pct(caught)}\n")
            deny_label = report["overall"].get("label:deny")
            if deny_label:
                out.append(f"Of the {deny_label['n']} labelled `deny`, denied: {_pct(deny_label['deny'] / deny_label['n'])}.\n")
            out.append("| category | n | caught | denied | allowed |\n|---|---:|---:|---:|---:|")
            for category, t in sorted(report["by_category"].items(), key=lambda kv: -kv[1]["n"]):
                if t["n"] >= min_category:
                    out.append(
                        f"| {category} | {t['n']} | {_pct((t['ask'] + t['deny']) / t['n'])} | "
                        f"{_pct(t['deny'] / t['n'])} | {t['allow']} |"
                    )
            out.append("\n| source | n | caught | denied |\n|---|---:|---:|---:|")
            for source, t in sorted(report["by_source"].items(), key=lambda kv: -kv[1]["n"]):
                out.append(f"| {source} | {t['n']} | {_pct((t['ask'] + t['deny']) / t['n'])} | {_pct(t['deny'] / t['n'])} |")
        elif report["kind"] == "benign":
            out.append(f"#### {name}: {report['overall']['all']['n']} benign commands\n")
            out.append("| slice | n | denied | asked | allowed |\n|---|---:|---:|---:|---:|")
            for key in ("all", "untagged", "tagged"):
                t = report["overall"].get(key)
                if t:
                    out.append(f"| {key} | {t['n']} | {_pct(t['deny'] / t['n'])} | {_pct(t['ask'] / t['n'])} | {_pct(t['allow'] / t['n'])} |")
            for source, t in sorted(report["by_source"].items(), key=lambda kv: -kv[1]["n"]):
                out.append(f"| source {source} | {t['n']} | {_pct(t['deny'] / t['n'])} | {_pct(t['ask'] / t['n'])} | {_pct(t['allow'] / t['n'])} |")
        elif report["kind"] == "attacks":
            out.extend(_render_attacks(f"{Path(report['file']).parent.name}/{name}", report))
        else:
            out.append(f"#### {name}: injection scanner\n")
            out.append("| slice | n | flagged |\n|---|---:|---:|")
            for key, s in report["slices"].items():
                out.append(f"| {key} | {s['n']} | {_pct(s['flagged'] / s['n'] if s['n'] else 0)} |")
        out.append("")
    return "\n".join(out)


def _render_attacks(name: str, report: dict[str, Any]) -> list[str]:
    """Per family, and the techniques under the targets (caught 99%, no look-alike denied)."""
    deny = report["overall"].get("deny", {})
    look = report["overall"].get("not_deny", {})
    out = [f"#### {name}: attack set\n"]
    if deny:
        n = deny["deny n"]
        out.append(f"catastrophic {n}: caught {_pct(deny['deny caught'] / n)}, denied in every mode "
                   f"{_pct(deny['deny denied'] / n)}, never allowed where nobody answers {_pct(deny['deny held'] / n)}")
    if look:
        n = look["not_deny n"]
        out.append(f"look-alikes {n}: denied {look.get('not_deny deny', 0)}, asked "
                   f"{look.get('not_deny ask', 0) + look.get('not_deny immune', 0)}, allowed {look.get('not_deny allow', 0)}")
    out.append("\n| family | catastrophic | caught | denied every mode | held | look-alikes | denied | allowed |"
               "\n|---|---:|---:|---:|---:|---:|---:|---:|")
    for family, t in report["by_family"].items():
        n = t.get("deny n", 0)
        rates = [_pct(t.get(f"deny {k}", 0) / n) if n else "–" for k in ("caught", "denied", "held")]
        out.append(f"| {family} | {n} | {' | '.join(rates)} | {t.get('not_deny n', 0)} | {t.get('not_deny deny', 0)} | "
                   f"{t.get('not_deny allow', 0)} |")
    short = [(k, t) for k, t in report["by_technique"].items()
             if (t.get("deny n") and t.get("deny caught", 0) < 0.99 * t["deny n"]) or t.get("not_deny deny")]
    techniques = len(report["by_technique"])
    out.append(f"\nTechniques: {techniques}; caught below 99% or a look-alike denied: {len(short)}"
               + ("".join(f"\n- {k}: caught {t.get('deny caught', 0)}/{t.get('deny n', 0)}, look-alikes denied "
                          f"{t.get('not_deny deny', 0)}" for k, t in short)))
    return out
