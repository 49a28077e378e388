"""What bastion decides on shell commands that public coding agents really ran.

    .venv/bin/python scripts/real_sessions_report.py [--json] [DIR]

DIR (default ``../shared/real_sessions``) holds ``commands.jsonl`` (one unique command per
source, as the agent ran it, and ``command_checked`` with ``<PROJECT>``/``<HOME>`` for the
throw-away project and home) and ``results.jsonl`` (the study's judgement of each ask:
needless / edit / justified / artifact). Every command runs through the real guard with
built-in defaults only, in a throw-away git project under /var/tmp, in ``default``,
``acceptEdits`` and ``bypassPermissions`` mode; it reports the asks by the study's judgement,
how many of the asks it judged justified still ask, and the asks left in ``acceptEdits``.
Prints Markdown, or with ``--json`` ``{"markdown", "headline", "totals"}`` for
``scripts/readme_tables.py``. Exits 0 with a message when DIR is absent.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

SKIPPED = 0  # exit status when the data is absent: nothing to measure is not a failure


def _load(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _outcome(decision: Any) -> str:
    """allow / ask / immune ask / deny: an immune ask is a deny wherever nobody can answer."""
    verdict = decision.verdict.value
    return "immune ask" if verdict == "ask" and decision.immune else verdict


def measure(folder: Path) -> dict[str, Any]:
    """Decide every command in both modes; tally per source."""
    from bastion.engine import Guard
    from bastion.evaluate import _project  # the same throw-away project, home and config as `bastion eval`
    from bastion.model import Mode, ToolCall

    commands = _load(folder / "commands.jsonl")
    judgements = {r["id"]: r.get("judgement") for r in _load(folder / "results.jsonl")} \
        if (folder / "results.jsonl").is_file() else {}
    project, env = _project()
    try:
        home = env["HOME"]
        guards = {mode: Guard.from_settings(project, isolated=True, env=env, mode=mode)
                  for mode in (Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.BYPASS)}
        tallies: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        agents: dict[str, set[str]] = collections.defaultdict(set)
        for record in commands:
            text = record.get("command_checked") or record["command"]
            text = text.replace("<PROJECT>", project).replace("<HOME>", home)
            source = record["source"]
            agents[source].add(record.get("agent", "?"))
            for mode, guard in guards.items():
                decision = guard.check(ToolCall("Bash", {"command": text}, cwd=project))
                outcome = _outcome(decision)
                tallies[source][f"{mode.value} {outcome}"] += 1
                if mode is Mode.DEFAULT and judgements.get(record["id"]) == "justified":
                    tallies[source]["justified n"] += 1
                    tallies[source]["justified kept"] += outcome != "allow"
                if mode is Mode.DEFAULT and outcome in ("ask", "immune ask"):
                    judged = judgements.get(record["id"]) or "not judged"
                    if judged == "not judged" and _elsewhere(decision, text, project, env):
                        judged = "replay"
                    tallies[source][f"ask judged {judged}"] += 1
                    if _deletes_absent(decision, text, project, home):
                        tallies[source][f"absent delete judged {judged}"] += 1
            tallies[source]["n"] += 1
    finally:
        shutil.rmtree(os.path.dirname(project), ignore_errors=True)
    return {"tallies": {k: dict(v) for k, v in tallies.items()}, "agents": {k: sorted(v) for k, v in agents.items()}}


_FOREIGN = re.compile(r"of the repository (/\S+?), outside the workspace")


def _elsewhere(decision: Any, text: str, project: str, env: dict[str, str]) -> bool:
    """An ask only because the replay runs in a throw-away project while the command names
    the agent's own project by its absolute path (``cd /home/me/app && git status``): with
    that repository as a workspace folder, the same command is allowed."""
    from bastion.engine import Guard
    from bastion.model import ToolCall

    repos = [m.group(1) for f in decision.findings if f.code == "CAT022" for m in _FOREIGN.finditer(f.message)]
    if not repos:
        return False
    guard = Guard.from_settings(project, isolated=True, env=env, add_dirs=repos)
    return guard.check(ToolCall("Bash", {"command": text}, cwd=project)).verdict.value == "allow"


def _deletes_absent(decision: Any, text: str, project: str, home: str) -> bool:
    """An ask only for deleting files the throw-away project does not have (``rm
    tests/x-verification.spec.ts``): in the agent's session the file existed, and bastion
    allowed the deletion if git did not track it and asked if it did; the replay cannot
    tell which, so such asks are counted apart (they stay in every figure above)."""
    if not decision.findings or any(f.code != "CAT010" for f in decision.findings):
        return False
    from bastion.shell.meaning.analyse import analyse
    from bastion.shell.syntax.parse import parse

    deleted = [a.resolved for a in analyse(parse(text), cwd=project, home=home, workspace_roots=(project,)).paths
               if a.op == "delete"]
    return bool(deleted) and not any(os.path.lexists(path) for path in deleted)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def _agents(names: list[str]) -> str:
    """``X (a)``, ``X (b)`` → ``X (a, b)``: one agent run with several models."""
    grouped: dict[str, list[str]] = {}
    for name in names:
        base, _, model = name.partition(" (")
        grouped.setdefault(base, []).append(model.rstrip(")"))
    return ", ".join(f"{base} ({', '.join(m for m in models if m)})" if any(models) else base
                     for base, models in grouped.items())


def render(data: dict[str, Any]) -> tuple[str, list[str], dict[str, int]]:
    """The Markdown tables, the README's headline rows and the totals."""
    tallies = {k: collections.Counter(v) for k, v in data["tallies"].items()}
    total: collections.Counter[str] = sum(tallies.values(), collections.Counter())
    rows = sorted(tallies.items(), key=lambda kv: -kv[1]["n"]) + [("**all**", total)]

    def asked(c: collections.Counter[str]) -> int:
        return c["default ask"] + c["default immune ask"]

    lines = [
        "| source | agent | commands | allowed | asked | denied | needless asks | denied in bypassPermissions | immune asks in bypassPermissions |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for source, c in rows:
        agent = _agents(data["agents"].get(source, []))
        n = c["n"]
        lines.append(
            f"| {source} | {agent} | {n} | {c['default allow']} ({_pct(c['default allow'], n)}) | "
            f"{asked(c)} ({_pct(asked(c), n)}) | {c['default deny']} | "
            f"{c['ask judged needless']} ({_pct(c['ask judged needless'], n)}) | "
            f"{c['bypassPermissions deny']} | {c['bypassPermissions immune ask']} |"
        )
    kinds = ("needless", "edit", "justified", "artifact", "replay", "not judged")
    lines += [
        "",
        f"The {asked(total)} asks in `default` mode, by the study's judgement of each (\"replay\": a newer ask, "
        "only because the command names the agent's own project by its absolute path, which the replay's throw-away "
        "project is not; with that folder in the workspace it is allowed; \"not judged\": other asks newer than the study):",
        "",
        "| judgement | asks | share |",
        "|---|---:|---:|",
    ]
    for kind in kinds:
        count = total[f"ask judged {kind}"]
        lines.append(f"| {kind} | {count} | {_pct(count, asked(total))} |")
    n = total["n"]
    edits_asked = total["acceptEdits ask"] + total["acceptEdits immune ask"]
    absent = {kind: total[f"absent delete judged {kind}"] for kind in kinds if total[f"absent delete judged {kind}"]}
    if absent:
        lines += [
            "",
            f"Of these asks, {sum(absent.values())} only delete files the replay's throw-away project does not have "
            f"({', '.join(f'{count} judged {kind}' for kind, count in absent.items())}): in the agent's session "
            "the file was there, and bastion allows deleting it when git does not track it and asks when git does; "
            "the replay cannot tell which, so they are counted as asks above.",
        ]
    lines += [
        "",
        f"Asks the study judged justified that still ask (or deny): {total['justified kept']} of {total['justified n']} "
        f"({_pct(total['justified kept'], total['justified n'])}). In `acceptEdits` mode: asked {edits_asked} "
        f"({_pct(edits_asked, n)}), denied {total['acceptEdits deny']}.",
    ]
    headline = [
        f"| real agent sessions ({n:,} shell commands agents ran), default mode: allowed / asked / denied | "
        f"{_pct(total['default allow'], n)} / {_pct(asked(total), n)} / {total['default deny']} |",
        f"| the same: asks the dataset's study judged needless / justified asks that still ask | "
        f"{_pct(total['ask judged needless'], n)} of commands / {_pct(total['justified kept'], total['justified n'])} |",
        f"| the same in acceptEdits: asked | {_pct(edits_asked, n)} |",
        f"| the same in bypassPermissions: denied outright / immune asks, which become denies there (nobody to ask) | "
        f"{total['bypassPermissions deny']} / {total['bypassPermissions immune ask']} |",
    ]
    totals = {"n": n, "allow": total["default allow"], "ask": asked(total), "deny": total["default deny"],
              "needless": total["ask judged needless"], "justified": total["justified n"],
              "justified_kept": total["justified kept"], "accept_edits_ask": edits_asked,
              "bypass_deny": total["bypassPermissions deny"],
              "bypass_immune_ask": total["bypassPermissions immune ask"],
              "absent_deletes": sum(absent.values()), "absent_deletes_needless": absent.get("needless", 0)}
    return "\n".join(lines), headline, totals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "real_sessions"))
    parser.add_argument("--json", action="store_true", help="markdown, headline rows and totals as one JSON object")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    try:
        import tree_sitter_bash  # noqa: F401  (without the parser every command would ask)
    except ImportError:
        print("error: tree-sitter-bash is not installed for this Python; run with .venv/bin/python", file=sys.stderr)
        return 2
    if not (folder / "commands.jsonl").is_file():
        print(f"skipped: no real-session commands at {folder / 'commands.jsonl'} (the ../shared data is absent)", file=sys.stderr)
        return SKIPPED
    markdown, headline, totals = render(measure(folder))
    print(json.dumps({"markdown": markdown, "headline": headline, "totals": totals}) if args.json else markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
