"""How often bastion's decision agrees with the labels in other agent projects' own tests.

    .venv/bin/python scripts/peer_suites_report.py [--json] [DIR]

DIR (default ``../shared/external_suites``) holds ``cases.jsonl``: shell commands from the
test suites of Continue, Cline, Zed, Codex, Roo Code, OpenHands and Gemini CLI, each with the
label its source meant (``expect``: ``allow``; ``not_allow`` = ask or deny; ``not_deny`` = allow
or ask) and a ``context`` (the mode the test ran in, and for ``rule_context`` cases the rules
it configured, already written as bastion rules). POSIX cases only: the Windows-only ones
are left out. Every command runs through the real guard with built-in defaults (plus the
test's own rules for ``rule_context`` cases) in a throw-away git project under /var/tmp.
Prints Markdown, or with ``--json`` ``{"markdown", "headline", "totals"}`` for
``scripts/readme_tables.py``. Exits 0 with a message when DIR is absent.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

SKIPPED = 0  # exit status when the data is absent: nothing to measure is not a failure
AGREES = {"allow": {"allow"}, "not_allow": {"ask", "deny"}, "not_deny": {"allow", "ask"}}
VERBS = {"allow": "allowed", "ask": "asked", "deny": "denied"}
SUITES = {"inherent": "built-in defaults", "rule_context": "with the test's own rules"}


def _load(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def measure(folder: Path) -> dict[str, Any]:
    """Decide every POSIX case under its test's mode (and rules); tally agreement per project."""
    from bastion.engine import Guard
    from bastion.evaluate import _project  # the same throw-away project, home and config as `bastion eval`
    from bastion.model import ToolCall

    cases = [c for c in _load(folder / "cases.jsonl") if c.get("platform") == "posix"]
    project, env = _project()
    root = os.path.dirname(project)
    guards: dict[str, Any] = {}
    tallies: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    try:
        for case in cases:
            context = case.get("context") or {}
            key = json.dumps(context, sort_keys=True)
            if key not in guards:
                files = []
                if "permissions" in context:
                    files.append(os.path.join(root, f"rules-{len(guards)}.json"))
                    with open(files[0], "w", encoding="utf-8") as handle:
                        json.dump({"permissions": context["permissions"]}, handle)
                guards[key] = Guard.from_settings(project, isolated=True, env=env, mode=context.get("mode"), settings_files=files)
            verdict = guards[key].check(ToolCall("Bash", {"command": case["command"]}, cwd=project)).verdict.value
            row = f"{case['suite']}|{case['project']}"
            tallies[row]["n"] += 1
            tallies[row][f"{case['expect']} n"] += 1
            tallies[row][f"{case['expect']} agree"] += verdict in AGREES[case["expect"]]
            tallies[row][f"{case['expect']} {verdict}"] += 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"tallies": {k: dict(v) for k, v in tallies.items()}}


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def _cell(c: collections.Counter[str], expect: str) -> str:
    n = c[f"{expect} n"]
    return f"{c[f'{expect} agree']}/{n} ({_pct(c[f'{expect} agree'], n)})" if n else "–"


def render(data: dict[str, Any]) -> tuple[str, list[str], dict[str, dict[str, int]]]:
    """One table per suite (defaults, the test's own rules), the README's headline row, totals."""
    by_suite: dict[str, dict[str, collections.Counter[str]]] = collections.defaultdict(dict)
    for row, counts in data["tallies"].items():
        suite, project = row.split("|", 1)
        by_suite[suite][project] = collections.Counter(counts)
    lines: list[str] = []
    totals: dict[str, dict[str, int]] = {}
    for suite in [s for s in SUITES if s in by_suite]:
        projects = by_suite[suite]
        total: collections.Counter[str] = sum(projects.values(), collections.Counter())
        agree = sum(total[f"{e} agree"] for e in AGREES)
        totals[suite] = {"n": total["n"], "agree": agree, **{e: total[f"{e} agree"] for e in AGREES},
                         **{f"{e} n": total[f"{e} n"] for e in AGREES}}
        lines += [
            f"##### {total['n']} POSIX cases, {SUITES[suite]}: bastion agrees on {agree} ({_pct(agree, total['n'])})",
            "",
            "| project | cases | agrees | `allow` allowed | `not_allow` asked or denied | `not_deny` allowed or asked |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for project, c in sorted(projects.items(), key=lambda kv: -kv[1]["n"]) + [("**all**", total)]:
            hits = sum(c[f"{e} agree"] for e in AGREES)
            lines.append(f"| {project} | {c['n']} | {_pct(hits, c['n'])} | {_cell(c, 'allow')} | "
                         f"{_cell(c, 'not_allow')} | {_cell(c, 'not_deny')} |")
        misses = {e: {v: total[f"{e} {v}"] for v in ("allow", "ask", "deny") if v not in AGREES[e] and total[f"{e} {v}"]}
                  for e in AGREES}
        said = "; ".join(f"`{e}` cases bastion " + ", ".join(f"{VERBS[v]} {n}" for v, n in m.items())
                         for e, m in misses.items() if m)
        lines += ["", f"Disagreements: {said or 'none'}.", ""]
    inherent = totals.get("inherent")
    headline = []
    if inherent:
        headline.append(
            f"| peer test suites: {inherent['n']} labelled commands from {len(by_suite['inherent'])} agent projects' tests, "
            f"built-in defaults: agree with the test's label | "
            f"{_pct(inherent['agree'], inherent['n'])} (of those not to allow: asked or denied "
            f"{_pct(inherent['not_allow'], inherent['not_allow n'])}) |"
        )
    return "\n".join(lines).rstrip(), headline, totals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "external_suites"))
    parser.add_argument("--json", action="store_true", help="markdown, headline rows and totals as one JSON object")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "cases.jsonl").is_file():
        print(f"skipped: no peer-suite cases at {folder / 'cases.jsonl'} (the ../shared data is absent)", file=sys.stderr)
        return SKIPPED
    markdown, headline, totals = render(measure(folder))
    print(json.dumps({"markdown": markdown, "headline": headline, "totals": totals}) if args.json else markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
