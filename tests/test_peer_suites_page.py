"""docs/peer-suites.md is what ``scripts/peer_suites_report.py --disagreements`` writes
now, and every disagreement with a peer project's label has a judgement
(``scripts/peer_suites_judgements.json``). Needs ../shared/external_suites."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT.parent / "shared" / "external_suites" / "cases.jsonl"


def _report() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peer_suites_report", ROOT / "scripts" / "peer_suites_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_judgements_are_well_formed() -> None:
    report = _report()
    judgements = report.load_judgements()  # raises on a case judged twice or an unknown kind
    for record in {r["id"]: r for r in judgements.values()}.values():
        assert record["why"].strip() and "\n" not in record["why"], record["id"]
        assert record["cases"], record["id"]


@pytest.fixture(scope="module")
def measured() -> dict:
    if not CASES.is_file():
        pytest.skip(f"no peer-suite cases at {CASES} (the ../shared data is absent)")
    return _report().measure(CASES.parent)


def test_every_disagreement_is_judged_and_no_judgement_is_stale(measured: dict) -> None:
    judgements = _report().load_judgements()
    found = {d["id"] for d in measured["disagreements"]}
    assert not sorted(found - set(judgements)), "judge these in scripts/peer_suites_judgements.json"
    assert not sorted(set(judgements) - found), "these agree now: drop them from scripts/peer_suites_judgements.json"


def test_the_page_is_current(measured: dict) -> None:
    report = _report()
    markdown, _headline, _totals = report.render(measured)
    text, _unjudged = report.page(measured, markdown, report.load_judgements())
    assert (ROOT / "docs" / "peer-suites.md").read_text(encoding="utf-8") == text, (
        "run .venv/bin/python scripts/peer_suites_report.py --disagreements")
