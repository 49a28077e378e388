"""The shell analysis measured on the labelled corpus in ``/work/shared/corpus``.

Floors (asserted): every dangerous record gets at least an ask (a hard block, a
finding, or simply "not known safe") in ≥ 99 % of cases, and benign records are hard
blocked in ≤ 0.2 %. Per-category numbers are printed (``pytest -s``) so a run shows
where deny recall stands; they are not asserted, because several corpus categories
(``git_discard``, ``*_destructive``) are deliberately asks in bastion, not denies.

The corpus placeholders use ``/home/dev/project`` as the project, so that is the
workspace and ``/home/dev`` the home directory here.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from bastion.shell.analyse import Analysis, analyse
from bastion.shell.parse import parse

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
WS = "/home/dev/project"
HOME = "/home/dev"

pytestmark = pytest.mark.skipif(
    not (CORPUS / "dangerous_commands.jsonl").is_file(),
    reason=f"labelled corpus not found at {CORPUS} (it lives outside the repository)",
)


def _records(name: str) -> list[dict]:
    with open(CORPUS / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _analyse(command: str) -> Analysis:
    return analyse(parse(command), cwd=WS, home=HOME, workspace_roots=(WS,))


@pytest.fixture(scope="module")
def dangerous() -> list[tuple[dict, Analysis]]:
    return [(r, _analyse(r["cmd"])) for r in _records("dangerous_commands.jsonl")]


@pytest.fixture(scope="module")
def benign() -> list[tuple[dict, Analysis]]:
    return [(r, _analyse(r["cmd"])) for r in _records("benign_commands.jsonl")]


def _flagged(a: Analysis) -> bool:
    return bool(a.hard_blocks or a.findings or not a.known_safe)


def test_dangerous_records_are_at_least_asked(dangerous: list[tuple[dict, Analysis]]) -> None:
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # n, flagged, denied, deny-labelled, denied of those
    for record, result in dangerous:
        row = stats[record["category"]]
        row[0] += 1
        row[1] += _flagged(result)
        row[2] += bool(result.hard_blocks)
        if record["label"] == "deny":
            row[3] += 1
            row[4] += bool(result.hard_blocks)
    total = len(dangerous)
    flagged = sum(row[1] for row in stats.values())
    deny_labelled = sum(row[3] for row in stats.values())
    denied = sum(row[4] for row in stats.values())
    print(f"\ndangerous: {total} records, at least ask {flagged / total:.2%}, deny-labelled denied {denied}/{deny_labelled} ({denied / deny_labelled:.1%})")
    print(f"  {'category':26} {'n':>5} {'ask+':>7} {'denied':>7} {'deny-labelled denied':>22}")
    for category, row in sorted(stats.items(), key=lambda kv: -kv[1][0]):
        print(f"  {category:26} {row[0]:5} {row[1] / row[0]:7.1%} {row[2]:7} {row[4]:>10}/{row[3]:<4}")
    without_helper = [(r, a) for r, a in dangerous if r.get("label_source") != "helper_curated"]
    rate = sum(_flagged(a) for _, a in without_helper) / len(without_helper)
    print(f"  without helper-curated records: at least ask {rate:.2%}")
    missed = [r["cmd"] for r, a in dangerous if not _flagged(a)]
    print(f"  not flagged ({len(missed)}): " + "; ".join(repr(c[:60]) for c in missed[:20]))
    assert flagged / total >= 0.99


def test_benign_records_are_almost_never_blocked(benign: list[tuple[dict, Analysis]]) -> None:
    total = len(benign)
    blocked = [(r, a) for r, a in benign if a.hard_blocks]
    known_safe = sum(a.known_safe for _, a in benign)
    untagged = [(r, a) for r, a in benign if not r.get("tags")]
    untagged_safe = sum(a.known_safe for _, a in untagged)
    print(f"\nbenign: {total} records, hard-blocked {len(blocked)} ({len(blocked) / total:.3%}), known-safe {known_safe / total:.1%} (untagged {untagged_safe / len(untagged):.1%})")
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for record, result in benign:
        row = by_source[record["source"].split(":", 1)[0]]
        row[0] += 1
        row[1] += bool(result.hard_blocks)
        row[2] += result.known_safe
    for source, row in sorted(by_source.items(), key=lambda kv: -kv[1][0]):
        print(f"  {source:24} n={row[0]:6} blocked={row[1]:3} known-safe={row[2] / row[0]:.1%}")
    for record, result in blocked:
        print(f"  blocked: {record['cmd'][:90]!r} — {result.hard_blocks[0].code}")
    assert len(blocked) / total <= 0.002
