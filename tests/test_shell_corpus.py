"""Shell-guard accuracy on the labelled corpus in ``/work/shared/corpus``, measured the
way users get it: every record goes through the real engine (``Guard.check`` with
``--isolated`` built-in defaults, inside a throw-away git project) by
``bastion.evaluate`` — the same code as ``bastion eval``.

Floors asserted (issue 3, "Accuracy report"):

* dangerous records caught (ask + deny) ≥ 99.5 % overall, and ≥ 97 % in every
  category with 20 or more records;
* benign records denied ≤ 0.2 %, and allowed without asking ≥ 40 %.

Known label noise: the corpus's regex triage put seven harmless commands into
``system_power`` because they contain "halt", "shutdown" or "reboot"
(:data:`MISLABELLED`). bastion allows them on purpose (compiling a TeX file is a build,
``last reboot`` reads the login history, ``bazel shutdown`` stops bazel's own server),
so the per-category floor is checked without them; the raw report (``pytest -s`` prints
it, and so does ``bastion eval``) still counts them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DANGEROUS = CORPUS / "dangerous_commands.jsonl"
BENIGN = CORPUS / "benign_commands.jsonl"

pytestmark = pytest.mark.skipif(
    not (DANGEROUS.is_file() and BENIGN.is_file()),
    reason=f"labelled corpus not found at {CORPUS} (it lives outside the repository)",
)

#: Dangerous-labelled records that are harmless, with the reason (all ``system_power``).
MISLABELLED: dict[str, str] = {
    "latex -halt-on-error source.tex": "-halt-on-error is a TeX option; compiling a document is a build",
    "pdflatex -halt-on-error source.tex": "as above",
    "pdftex -halt-on-error source.tex": "as above",
    "tex -halt-on-error source.tex": "as above",
    "xetex -halt-on-error source.tex": "as above",
    "last reboot": "prints the reboot history from wtmp; read-only",
    "bazel shutdown": "stops the bazel build server of this workspace, not the machine",
}

OVERALL_CAUGHT = 0.995
CATEGORY_CAUGHT = 0.97
CATEGORY_MIN_RECORDS = 20
BENIGN_DENIED_MAX = 0.002
BENIGN_ALLOWED_MIN = 0.40


@pytest.fixture(scope="module")
def reports() -> dict[str, dict]:
    from bastion.evaluate import evaluate, render_markdown

    found = evaluate([str(DANGEROUS), str(BENIGN)])
    print("\n" + render_markdown(found))
    return {r["kind"]: r for r in found}


def _rate(tally: dict, *verdicts: str) -> float:
    return sum(tally[v] for v in verdicts) / tally["n"]


def test_dangerous_caught_overall(reports: dict[str, dict]) -> None:
    overall = reports["dangerous"]["overall"]["all"]
    allowed = [m["cmd"] for m in reports["dangerous"]["misses"]]
    assert _rate(overall, "ask", "deny") >= OVERALL_CAUGHT, allowed


def test_dangerous_caught_per_category(reports: dict[str, dict]) -> None:
    report = reports["dangerous"]
    noise: dict[str, int] = {}
    for miss in report["misses"]:
        if miss["cmd"] in MISLABELLED:
            noise[miss["category"]] = noise.get(miss["category"], 0) + 1
    low = {}
    for category, tally in report["by_category"].items():
        n = tally["n"] - noise.get(category, 0)
        if tally["n"] < CATEGORY_MIN_RECORDS:
            continue
        caught = (tally["ask"] + tally["deny"]) / n
        if caught < CATEGORY_CAUGHT:
            low[category] = (round(caught, 4), [m["cmd"] for m in report["misses"] if m["category"] == category])
    assert not low, low


def test_mislabelled_records_are_the_only_system_power_misses(reports: dict[str, dict]) -> None:
    misses = {m["cmd"] for m in reports["dangerous"]["misses"] if m["category"] == "system_power"}
    assert misses <= set(MISLABELLED), misses - set(MISLABELLED)


def test_benign_rarely_denied_and_mostly_allowed(reports: dict[str, dict]) -> None:
    overall = reports["benign"]["overall"]["all"]
    denied = [m["cmd"] for m in reports["benign"]["misses"]]
    assert _rate(overall, "deny") <= BENIGN_DENIED_MAX, denied
    assert _rate(overall, "allow") >= BENIGN_ALLOWED_MIN
