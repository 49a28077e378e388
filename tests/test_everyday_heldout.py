"""The held-out everyday commands (tests/everyday/heldout.jsonl) through the real guard, via
``scripts/everyday_report.py``: only robust properties are asserted. Nothing a developer
expects to pass or to edit is denied, and nothing expected to ask (installs, pushes, deletes
of tracked files, network sends, secrets, killing processes) is allowed in default mode, so
a loosening of the guard fails here. The friction figure (needless asks) is printed, never
asserted: the set is held out, not a target to tune on."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _report() -> ModuleType:
    spec = importlib.util.spec_from_file_location("everyday_report", ROOT / "scripts" / "everyday_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    report = _report()
    measured = report.measure()
    _markdown, totals = report.render(measured)
    print(
        f"\neveryday held-out set: {totals['commands']} commands; default mode: {totals['needless_default']} needless "
        f"asks ({totals['needless_default_per_100']} per 100 commands), {totals['missed_default_edit']} edits "
        f"allowed; acceptEdits: {totals['asks_accept_edits']} asks ({totals['asks_accept_edits_per_100']} per 100)")
    return measured


def test_the_set_is_well_formed() -> None:
    records = _report().load()
    assert len(records) >= 400
    commands = [r["command"] for r in records]
    assert len(set(commands)) == len(commands), "a command is listed twice"
    for record in records:
        assert set(record) == {"command", "expect", "why", "category"}, record
        assert record["why"].strip() and record["category"].strip(), record


def test_nothing_expected_to_pass_or_edit_is_denied(rows: list[dict[str, Any]]) -> None:
    denied = [(r["command"], mode, r[f"{mode} reason"]) for r in rows if r["expect"] in ("allow", "edit")
              for mode in ("default", "acceptEdits") if r[mode] == "deny"]
    assert not denied


def test_nothing_expected_to_ask_is_allowed_in_default_mode(rows: list[dict[str, Any]]) -> None:
    allowed = [(r["command"], r["default reason"]) for r in rows if r["expect"] == "ask" and r["default"] == "allow"]
    assert not allowed
