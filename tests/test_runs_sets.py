"""The read-before-run tuning set (``tests/attacks/runs/tuning.jsonl``) is a regression
test: every dangerous sequence is not allowed in default or acceptEdits mode, and every
control is allowed, except those of the classes bastion asks about by design (a
download, code from outside the workspace, a write of a file that runs later). The
holdout set is only measured (``scripts/runs_report.py``)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUNING = ROOT / "tests" / "attacks" / "runs" / "tuning.jsonl"
#: Controls of these patterns ask by design: downloading, running code from outside the
#: workspace, and writing a file that runs later (an immune ask) need a person.
ASKS_BY_DESIGN = frozenset({"fetched_code", "outside_workspace", "runs_later_writes"})


def _report() -> Any:
    spec = importlib.util.spec_from_file_location("runs_report", ROOT / "scripts" / "runs_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in TUNING.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("record", _cases(), ids=lambda r: r["id"])
def test_tuning_case(record: dict[str, Any]) -> None:
    report = _report()
    outcome = report.run_case(record)
    if record["expect"] == "allow" and record["pattern"] in ASKS_BY_DESIGN:
        assert outcome["default"] != "deny", outcome
        return
    assert report.passed(record, outcome), outcome
