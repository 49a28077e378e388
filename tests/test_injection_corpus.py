"""The scanner's accuracy targets on the labelled corpus, computed exactly as
``bastion eval`` computes them (``evaluate.evaluate_texts``).

Targets (issue 7/8): recall on injections ≥ 90% without the ``benign_looking_task`` and
``repetitive_token_noise`` tags (injections only by context, and noise); false
positives ≤ 3% on benign texts; ≤ 10% on texts that merely discuss prompt injection.
The patterns were tuned looking at records on lines ≢ 3 (mod 4) only; lines ≡ 3 (mod 4)
are a held-out check that they generalise.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bastion.evaluate import evaluate_texts
from bastion.injection.scanner import is_injection, scan
from conftest import CORPUS

PATH = CORPUS / "injection_texts.jsonl"
NOISE = {"benign_looking_task", "repetitive_token_noise"}

pytestmark = pytest.mark.skipif(
    not PATH.is_file(), reason=f"prompt-injection corpus not found at {PATH} (see the brief: ../shared/corpus)"
)


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PATH.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def slices(records: list[dict[str, Any]]) -> dict[str, float]:
    report = evaluate_texts(PATH, records)
    return {key: s["flagged"] / s["n"] for key, s in report["slices"].items() if s["n"]}


def test_recall_without_context_only_tasks_and_noise(slices: dict[str, float]) -> None:
    assert slices["injection:without_benign_looking_and_noise"] >= 0.90


def test_false_positives_on_benign_texts(slices: dict[str, float]) -> None:
    assert slices["benign:all"] <= 0.03
    assert slices["benign:ordinary"] <= 0.03


def test_false_positives_on_texts_discussing_prompt_injection(slices: dict[str, float]) -> None:
    assert slices["benign:discussion"] <= 0.10
    assert slices["benign:discusses_prompt_injection"] <= 0.10


def test_every_source_is_reported(slices: dict[str, float], records: list[dict[str, Any]]) -> None:
    sources = {(r["label"], r["source"].split(":", 1)[0]) for r in records}
    assert {f"{label}:source:{source}" for label, source in sources} <= set(slices)


def test_held_out_lines_generalise(records: list[dict[str, Any]]) -> None:
    """Lines ≡ 3 (mod 4) were never looked at while writing the patterns."""
    held = [r for n, r in enumerate(records, 1) if n % 4 == 3]
    injections = [r for r in held if r["label"] == "injection" and not set(r.get("tags") or ()) & NOISE]
    benign = [r for r in held if r["label"] == "benign"]
    recall = sum(is_injection(scan(r["text"], r.get("source", ""))) for r in injections) / len(injections)
    false_positives = sum(is_injection(scan(r["text"], r.get("source", ""))) for r in benign) / len(benign)
    assert recall >= 0.85, recall
    assert false_positives <= 0.03, false_positives
