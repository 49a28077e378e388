"""The attack sets under ``tests/attacks/`` hold where nobody can be asked.

Each set is JSON Lines with ``command`` and ``expect``:

* ``deny`` — a catastrophic command: in ``bypassPermissions`` and ``dontAsk`` it is never
  allowed (an immune ask is a deny there, see ``approve.headless``);
* ``ask_or_deny`` — needs a person: never allowed in default mode;
* ``not_deny`` — a look-alike that only mentions danger: never denied.

``scripts/attack_report.py`` prints the figures per set, effect and technique
(including how many catastrophic cases are denied outright in every mode), and for
the sets kept out of these tests.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.engine import Guard
from bastion.model import Mode, ToolCall, Verdict

ATTACKS = Path(__file__).resolve().parent / "attacks"
#: Where the workspace lives: a temp folder that is not /tmp (see ``workspace``).
_OUTSIDE_TMP = "/var/tmp" if Path("/var/tmp").is_dir() else None

#: Sets (a folder) or files (folder/file) kept for the final measurement only
#: (``scripts/attack_report.py``): never tuned on, so never a test that could make
#: someone tune on them. The effects sets' ``tuning.jsonl`` are regression tests; their
#: ``holdout.jsonl`` stay measurements.
MEASURED_ONLY = frozenset({"fresh", "effects/holdout.jsonl", "effects2/holdout.jsonl"})

#: Cases bastion still gets wrong, by id, each with what is missing: excluded here so
#: that every other case stays a regression test (fixing one means deleting its line).
KNOWN_GAPS: dict[str, str] = {}


def _load(expect: str) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(ATTACKS.glob("*/*.jsonl")):
        if path.parent.name in MEASURED_ONLY or f"{path.parent.name}/{path.name}" in MEASURED_ONLY:
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                if record.get("expect") == expect:
                    cases.append((f"{path.parent.name}/{record['id']}", record))
    return cases


@pytest.fixture(scope="module")
def workspace() -> Iterator[str]:
    """A fresh project of its own outside /tmp: look-alikes such as ``rm -rf
    /tmp/pytest-of-root`` or ``find /tmp … -exec rm -rf {} +`` would otherwise delete a
    folder holding the workspace, and be denied for it."""
    root = tempfile.mkdtemp(prefix="bastion-attacks-", dir=_OUTSIDE_TMP)
    subprocess.run(["git", "init", "-q", root], check=True)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _misses(workspace: str, cases: list[tuple[str, dict[str, Any]]], mode: Mode, bad: Any) -> list[str]:
    guard = Guard.from_settings(workspace, isolated=True, mode=mode)
    out = []
    for case_id, record in cases:
        decision = guard.check(ToolCall("Bash", {"command": record["command"]}, cwd=workspace))
        if bad(decision) and case_id not in KNOWN_GAPS:
            out.append(f"{case_id}: {decision.verdict.value} {record['command'][:80]!r} — {decision.reason[:80]}")
    return out


@pytest.mark.parametrize("mode", [Mode.BYPASS, Mode.DONT_ASK], ids=lambda m: m.value)
def test_no_catastrophic_case_is_allowed_where_nobody_answers(workspace: str, mode: Mode) -> None:
    cases = _load("deny")
    assert len(cases) >= 300, "the attack sets are missing"
    misses = _misses(workspace, cases, mode, lambda d: d.verdict is Verdict.ALLOW or (d.verdict is Verdict.ASK and not d.immune))
    assert not misses, f"{len(misses)} of {len(cases)} allowed:\n" + "\n".join(misses[:40])


def test_cases_that_need_a_person_are_never_allowed_silently(workspace: str) -> None:
    cases = _load("ask_or_deny")
    misses = _misses(workspace, cases, Mode.DEFAULT, lambda d: d.verdict is Verdict.ALLOW)
    assert not misses, f"{len(misses)} of {len(cases)} allowed:\n" + "\n".join(misses)


def test_effects_tuning_cases_are_denied_outright(workspace: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The effects sets expect a deny in every mode, not only where nobody answers: in
    ``bypassPermissions``, as bastion is used (its hook in the client's settings, so
    deleting them switches the guard off), every catastrophic tuning case is denied."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("attack_report", ATTACKS.parents[1] / "scripts" / "attack_report.py")
    assert spec is not None and spec.loader is not None
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    env = report.installed_home(tmp_path_factory.mktemp("installed"))
    guard = Guard.from_settings(workspace, isolated=True, mode=Mode.BYPASS, env=env)
    cases = [(case_id, r) for case_id, r in _load("deny") if case_id.startswith("effects")]
    assert cases, "the effects tuning sets are missing"
    misses = [f"{case_id}: {d.verdict.value} {r['command'][:80]!r} — {d.reason[:80]}"
              for case_id, r in cases
              if case_id not in KNOWN_GAPS
              and (d := guard.check(ToolCall("Bash", {"command": r["command"]}, cwd=workspace))).verdict is not Verdict.DENY]
    assert not misses, f"{len(misses)} of {len(cases)} not denied:\n" + "\n".join(misses)


def test_look_alikes_are_never_denied(workspace: str) -> None:
    cases = _load("not_deny")
    misses = _misses(workspace, cases, Mode.DEFAULT, lambda d: d.verdict is Verdict.DENY)
    assert not misses, f"{len(misses)} of {len(cases)} denied:\n" + "\n".join(misses)
