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
``scripts/readme_tables.py``. ``--disagreements`` also writes ``docs/peer-suites.md``: how
the figure is computed, the tables, and every case where bastion and the label differ, each
with its one-line justification from ``scripts/peer_suites_judgements.json`` (a case with
none is shown as not judged; ``tests/test_peer_suites_page.py`` fails on it and on a stale
page). Exits 0 with a message when DIR is absent.
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
PAGE = ROOT / "docs" / "peer-suites.md"
JUDGEMENTS = ROOT / "scripts" / "peer_suites_judgements.json"


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
    disagreements: list[dict[str, str]] = []
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
            decision = guards[key].check(ToolCall("Bash", {"command": case["command"]}, cwd=project))
            verdict = decision.verdict.value
            if verdict not in AGREES[case["expect"]]:
                reason = decision.reason.replace(project, "<project>").replace(env["HOME"], "~").replace(root, "<tmp>")
                disagreements.append({k: case[k] for k in ("id", "suite", "project", "command", "expect")}
                                     | {"verdict": verdict, "layer": decision.layer, "reason": reason})
            row = f"{case['suite']}|{case['project']}"
            tallies[row]["n"] += 1
            tallies[row][f"{case['expect']} n"] += 1
            tallies[row][f"{case['expect']} agree"] += verdict in AGREES[case["expect"]]
            tallies[row][f"{case['expect']} {verdict}"] += 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"tallies": {k: dict(v) for k, v in tallies.items()}, "disagreements": disagreements}


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


#: What a judgement's ``kind`` says about who is right, in the order the page lists them.
KINDS = {
    "label": "the label is debatable: the command does not do what the label fears",
    "policy": "a policy choice: bastion's answer is defensible, and the peer chose otherwise",
    "rules": "how rules combine: bastion follows Claude Code's rule semantics",
    "stricter": "bastion is stricter than needed: a known limit, safe but a needless question",
}

INTRO = """# Peer test suites

Other agent projects test their own command guards: Continue, Cline, Zed, Codex, Roo Code,
OpenHands and Gemini CLI. `../shared/external_suites/cases.jsonl` holds the shell commands
from those tests, each with the label its test meant. This page compares bastion's decision
with each label and justifies every case where they differ. See also the
[measured results](results.md#peer-test-suites).

## How the figure is computed

- **Cases.** POSIX commands only; the 52 Windows-only cases are left out. A case is
  *inherent* when its test used the project's built-in behaviour, *rule_context* when the
  test configured its own allow, ask and deny rules (they run as bastion rules).
- **The guard.** Every command runs through the real guard (`Guard.check`) with built-in
  defaults (`isolated=True`), in the mode its test used (Cline's in `plan`), in a
  throw-away git project under /var/tmp that holds no other files: a script or
  `package.json` a command names does not exist there.
- **Agreement.** A label agrees when bastion answers: `allow` → allowed; `not_allow` →
  asked or denied; `not_deny` → allowed or asked.
- **The headline** is the agreement over the inherent cases (the main set); the cases with
  the test's own rules are a table of their own.
- **Justifications** live in `scripts/peer_suites_judgements.json`: one record per reason
  (its kind, a one-line why, the case ids it covers). Regenerate this page with
  `.venv/bin/python scripts/peer_suites_report.py --disagreements`;
  `tests/test_peer_suites_page.py` fails when the page is stale or a disagreement has no
  judgement.

Kinds of judgement:

""" + "\n".join(f"- **{kind}**: {what}." for kind, what in KINDS.items()) + "\n"


def load_judgements(path: Path = JUDGEMENTS) -> dict[str, dict[str, Any]]:
    """Case id → its judgement record; a case judged twice or an unknown kind is an error."""
    by_case: dict[str, dict[str, Any]] = {}
    for position, record in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        record["position"] = position  # the page lists reasons in the file's order
        if record["kind"] not in KINDS:
            raise ValueError(f"judgement {record['id']}: unknown kind {record['kind']!r}")
        for case in record["cases"]:
            if case in by_case:
                raise ValueError(f"case {case} is judged by {by_case[case]['id']} and {record['id']}")
            by_case[case] = record
    return by_case


def _in_cell(text: str) -> str:
    """Text inside a table cell: newlines shown as ⏎, pipes escaped."""
    return text.replace("\n", " ⏎ ").replace("|", "\\|")


def _code(text: str) -> str:
    text = _in_cell(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def page(data: dict[str, Any], markdown: str, judgements: dict[str, dict[str, Any]]) -> tuple[str, list[str]]:
    """The whole docs page, and the ids of disagreements that have no judgement."""
    tables = markdown.replace("##### ", "### ")
    lines = [INTRO, "## Agreement per suite", "", tables, "", "## Every disagreement", ""]
    unjudged: list[str] = []

    def key(d: dict[str, str]) -> tuple[int, int, str]:  # by kind, then reason, then case
        record = judgements.get(d["id"])
        return (list(KINDS).index(record["kind"]), record["position"], d["id"]) if record else (-1, -1, d["id"])

    for suite in SUITES:
        rows = [d for d in data["disagreements"] if d["suite"] == suite]
        if not rows:
            continue
        lines += [f"### {SUITES[suite].capitalize()}: {len(rows)} disagreements", "",
                  "| case | command | label | bastion | kind | why |", "|---|---|---|---|---|---|"]
        for d in sorted(rows, key=key):
            record = judgements.get(d["id"])
            if record is None:
                unjudged.append(d["id"])
            kind, why = (record["kind"], _in_cell(record["why"])) if record else ("**not judged**", "–")
            said = f"{VERBS[d['verdict']]} (`{d['layer']}`)"  # the layer, not its wording: the page stays stable
            lines.append(f"| {d['id']} | {_code(d['command'])} | `{d['expect']}` | {said} | {kind} | {why} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n", unjudged


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "external_suites"))
    parser.add_argument("--json", action="store_true", help="markdown, headline rows and totals as one JSON object")
    parser.add_argument("--disagreements", action="store_true", help=f"also write {PAGE.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "cases.jsonl").is_file():
        print(f"skipped: no peer-suite cases at {folder / 'cases.jsonl'} (the ../shared data is absent)", file=sys.stderr)
        return SKIPPED
    data = measure(folder)
    markdown, headline, totals = render(data)
    if args.disagreements:
        text, unjudged = page(data, markdown, load_judgements())
        PAGE.write_text(text, encoding="utf-8")
        stale = sorted(set(load_judgements()) - {d["id"] for d in data["disagreements"]})
        for what, ids in (("not judged", unjudged), ("judged but agreeing now (drop them)", stale)):
            if ids:
                print(f"{PAGE.name}: {len(ids)} {what}: {', '.join(ids)}", file=sys.stderr)
    print(json.dumps({"markdown": markdown, "headline": headline, "totals": totals}) if args.json else markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
