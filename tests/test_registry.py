"""Every record of bastion's own knowledge proves itself: each ``match`` example raises
its code (with the record's verdict in default mode, and a hard block is denied in
bypass mode too), each ``not_match`` example does not — through the real ``Guard.check``
or the real scanner, as Codex's execpolicy checks a rule's examples at load. Every
long-tail catalog entry is checked through commands generated from its spec, and the
committed ``docs/rules/`` pages must be what ``scripts/rule_pages.py`` writes."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

from bastion.engine import Guard
from bastion.model import Decision, Mode, ToolCall
from bastion.registry import (
    NO_EXAMPLE,
    Record,
    catalog_examples,
    core_catalog_examples,
    core_entries_without_examples,
    records,
    unreachable_keys,
)
from conftest import throwaway_workspace

ROOT = Path(__file__).resolve().parents[1]
RECORDS = records()
BY_ID = {r.id: r for r in RECORDS}
GUARDED = [r for r in RECORDS if r.family in ("hard block", "shell", "syntax", "file")]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str], Guard]:
    root, env = throwaway_workspace(tmp_path_factory.mktemp("registry"))
    (Path(root) / "src").mkdir()
    (Path(root) / "src" / "app.py").write_text("print('hello')\n")
    (Path(root) / ".env").write_text("TOKEN=abc\n")
    return root, env, Guard.from_settings(root, isolated=True, env=env)


def call_of(example: str, root: str, env: dict[str, str], session: str = "") -> ToolCall:
    """``"Read ~/.aws/credentials"``, ``"Bash rm -rf ~"``, or a bare command (Bash)."""
    tool, _, arg = example.partition(" ")
    if tool not in ("Read", "Write", "Edit", "Grep", "Bash"):
        tool, arg = "Bash", example
    if tool != "Bash" and arg.startswith("~"):
        arg = env["HOME"] + arg[1:]
    inputs: dict[str, dict[str, Any]] = {
        "Read": {"file_path": arg},
        "Write": {"file_path": arg, "content": "x\n"},
        "Edit": {"file_path": arg, "old_string": "a", "new_string": "b"},
        "Grep": {"pattern": "x", "path": arg},
        "Bash": {"command": arg},
    }
    return ToolCall(tool=tool, input=inputs[tool], cwd=root, session_id=session)


def decide(world: Any, example: str, mode: str = "default") -> Decision:
    root, env, guard = world
    call = call_of(example, root, env)
    return guard.check(ToolCall(tool=call.tool, input=call.input, cwd=root, mode=Mode.parse(mode)))


def raised(world: Any, example: str) -> dict[str, str]:
    """Every code the guard's own parse and analysis raised for ``example`` (code → severity),
    whether or not the decision shows it: a first deny or a held immune ask ends the
    decision before later layers add their findings."""
    root, env, guard = world
    ctx = guard.context(call_of(example, root, env))
    found: dict[str, str] = {}
    parsed = ctx.parsed if ctx.call.kind.value == "shell" else None
    analysis = ctx.analysis if parsed is not None else None
    for finding in list(getattr(parsed, "findings", ())) + list(getattr(analysis, "hard_blocks", ())) + list(
            getattr(analysis, "findings", ())):
        found[finding.code] = finding.severity.value
    return found


def notes(world: Any, example: str) -> list[str]:
    """The analysis' low-severity notes (they never reach the decision on their own)."""
    root, env, guard = world
    analysis = guard.context(call_of(example, root, env)).analysis
    return [f.message for f in analysis.factors] if analysis is not None else []


def codes(decision: Decision) -> set[str]:
    return {f.code for f in decision.findings}


def _verdict(decision: Decision) -> str:
    return ("immune " if decision.immune and decision.verdict.value == "ask" else "") + decision.verdict.value


_STRICTNESS = {"allow": 0, "note": 0, "ask": 1, "immune ask": 2, "deny": 3}


def at_least(decision: Decision, verdict: str) -> bool:
    return _STRICTNESS[_verdict(decision)] >= _STRICTNESS[verdict]


# --------------------------------------------------------------------------- records


def test_every_record_has_an_example_or_says_why_not() -> None:
    missing = {r.id for r in RECORDS if not r.match}
    assert missing == set(NO_EXAMPLE), missing ^ set(NO_EXAMPLE)
    assert all(r.title and r.why for r in RECORDS), [r.id for r in RECORDS if not (r.title and r.why)]
    for r in RECORDS:
        assert r.id not in NO_EXAMPLE or not r.not_match, r.id


def test_ids_are_unique_and_every_raised_code_has_a_record() -> None:
    assert len(BY_ID) == len(RECORDS)
    import re

    raised_codes: set[str] = set()
    for path in (ROOT / "src" / "bastion").rglob("*.py"):
        raised_codes |= set(re.findall(r"\"((?:HB|CAT|FS|SH|INJ|TAINT)\d{3})\"", path.read_text()))
    assert raised_codes <= set(BY_ID), sorted(raised_codes - set(BY_ID))


def _cases(kind: str) -> list[Any]:
    return [pytest.param(r, ex, id=f"{r.id}-{i}") for r in GUARDED for i, ex in enumerate(getattr(r, kind))]


def _expected(record: Record, severity: str) -> str:
    """The verdict a raised code leads to: the record's, or for a validator (whose findings
    carry their own severity) ask unless the finding is low."""
    if record.family == "syntax":
        return "note" if severity == "low" else "ask"
    return record.verdict


@pytest.mark.parametrize(("record", "example"), _cases("match"))
def test_match_example_raises_its_code(world: Any, record: Record, example: str) -> None:
    """The code is in the decision with the record's verdict; or the guard raised it and
    the decision is stricter still (a deny or an immune ask from an earlier layer won)."""
    decision = decide(world, example)
    if record.verdict == "note":  # recorded in the analysis; the decision is not held up by it
        assert any(n.startswith(record.title) for n in notes(world, example)), notes(world, example)
        assert decision.verdict.value != "deny"
        return
    found = raised(world, example) if record.family != "file" else {}
    if record.id in codes(decision):
        expected = _expected(record, found.get(record.id, ""))
        if expected == "ask":
            assert decision.verdict.value == "ask", decision.reason
        elif expected != "note":
            assert _verdict(decision) == expected, decision.reason
    else:
        assert record.id in found, (decision.verdict, decision.reason, codes(decision), found)
        assert at_least(decision, _expected(record, found[record.id])), decision.reason
    if record.verdict == "deny":
        assert decide(world, example, "bypassPermissions").verdict.value == "deny"


def test_every_record_shows_its_code_in_a_decision(world: Any) -> None:
    """At least one match example of every guarded record carries the code in the decision
    itself (not only masked by a stronger verdict). Validators are left out: their one
    ``EXAMPLE`` is often a hard block as well (``echo $(rm -rf ~)``) and some findings are
    low notes; ``tests/test_shell_validators.py`` runs each validator on it directly."""
    hidden = []
    for record in GUARDED:
        if record.verdict == "note" or not record.match or record.family == "syntax":
            continue
        if not any(record.id in codes(decide(world, ex)) for ex in record.match):
            hidden.append(record.id)
    assert not hidden, hidden


@pytest.mark.parametrize(("record", "example"), _cases("not_match"))
def test_not_match_example_does_not_raise_its_code(world: Any, record: Record, example: str) -> None:
    decision = decide(world, example)
    assert record.id not in codes(decision), decision.reason
    if record.family != "file":
        assert record.id not in raised(world, example)
    if record.verdict == "note":
        assert not any(n.startswith(record.title) for n in notes(world, example))


# --------------------------------------------------------------------------- landing (FS007, FS008)


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from test_copy_plants import build_scene

    root, env = build_scene(tmp_path_factory.mktemp("registry-scene"))
    return str(root), env, Guard.from_settings(str(root), isolated=True, env=env)


LANDING = [r for r in RECORDS if r.family == "landing"]


@pytest.mark.parametrize(("record", "example"),
                         [pytest.param(r, ex, id=f"{r.id}-{i}") for r in LANDING for i, ex in enumerate(r.match)])
def test_landing_match_example_raises_its_code(scene: Any, record: Record, example: str) -> None:
    """The code is in the decision; or an earlier layer (a network ask, a deny) decided,
    at least as strictly, before the landing was judged."""
    decision = decide(scene, example)
    if record.id in codes(decision):
        assert _verdict(decision) == record.verdict or decision.verdict.value == "deny", decision.reason
    else:
        assert decision.layer != "path_boundary" and at_least(decision, record.verdict), (decision.layer, decision.reason)


def test_every_landing_record_shows_its_code(scene: Any) -> None:
    for record in LANDING:
        assert any(record.id in codes(decide(scene, ex)) for ex in record.match), record.id


@pytest.mark.parametrize("example", sorted({ex for r in LANDING for ex in r.not_match}))
def test_landing_not_match_example_raises_neither_code(scene: Any, example: str) -> None:
    assert not codes(decide(scene, example)) & {"FS007", "FS008"}


# --------------------------------------------------------------------------- injection texts and tools


def _scan_kinds(record: Record, text: str) -> set[str]:
    if record.family == "tool":
        from bastion.injection.tools import judge_tool

        return {f.kind for f in judge_tool("t", text)}
    from bastion.injection.scanner import scan

    return {f.kind for f in scan(text)}


def _kind_of(record: Record) -> str:
    from bastion.injection.kinds import RECORDS as KINDS
    from bastion.injection.tools import TOOL_RECORDS

    return next(k.kind for k in KINDS + TOOL_RECORDS if k.code == record.id)


SCANNED = [r for r in RECORDS if r.family in ("injection", "tool") and r.match]


@pytest.mark.parametrize(("record", "text"),
                         [pytest.param(r, t, id=f"{r.id}-{i}") for r in SCANNED for i, t in enumerate(r.match)])
def test_injection_match_text_is_reported(record: Record, text: str) -> None:
    assert _kind_of(record) in _scan_kinds(record, text)


@pytest.mark.parametrize(("record", "text"),
                         [pytest.param(r, t, id=f"{r.id}-{i}") for r in SCANNED for i, t in enumerate(r.not_match)])
def test_injection_not_match_text_is_not_reported(record: Record, text: str) -> None:
    assert _kind_of(record) not in _scan_kinds(record, text)


# --------------------------------------------------------------------------- taint (two calls)

_SESSIONS = itertools.count()


def _after(world: Any, earlier: str, result: str, later: str) -> Decision:
    from bastion.adapters.results import scan_tool_result

    root, env, guard = world
    session = f"registry-{next(_SESSIONS)}"
    scan_tool_result(call_of(earlier, root, env, session), result, env)
    return guard.check(call_of(later, root, env, session))


TAINT = [r for r in RECORDS if r.family == "taint" and r.match]


@pytest.mark.parametrize(("record", "example"),
                         [pytest.param(r, ex, id=f"{r.id}-{i}") for r in TAINT for i, ex in enumerate(r.match)])
def test_taint_match_example_raises_its_code(world: Any, record: Record, example: tuple[str, str, str]) -> None:
    decision = _after(world, *example)
    assert record.id in codes(decision), decision.reason
    assert _verdict(decision) == record.verdict


@pytest.mark.parametrize(("record", "example"),
                         [pytest.param(r, ex, id=f"{r.id}-{i}") for r in TAINT for i, ex in enumerate(r.not_match)])
def test_taint_not_match_example_does_not_raise_it(world: Any, record: Record, example: tuple[str, str, str]) -> None:
    assert record.id not in codes(_after(world, *example))


# --------------------------------------------------------------------------- long-tail catalog


def test_every_catalog_entry_is_checked_through_its_examples(world: Any) -> None:
    """One test over all 1,200-odd entries (a parameter each would dwarf the suite's
    collection); every failure is listed."""
    from bastion.shell.catalog.catalog_cli import table
    from bastion.shell.catalog.intents import CODES

    root, _env, guard = world
    failures, count = [], 0
    for tool in table():
        examples = catalog_examples(tool)
        if not examples:
            failures.append(f"{tool}: no example")
        for ex in examples:
            count += 1
            decision = guard.check(ToolCall(tool="Bash", input={"command": ex.command}, cwd=root))
            verdict, found = decision.verdict.value, codes(decision)
            if ex.expect == "allow":
                ok = verdict == "allow"
            elif ex.expect == "not deny":
                ok = verdict != "deny"
            elif ex.expect == "ask":
                ok = verdict == "ask"
            else:
                info = CODES[ex.expect]
                raised = ex.expect in found or (info.severity.value == "low" and verdict != "deny")
                ok = raised and (info.severity.value == "low" or verdict == ("deny" if info.hard else "ask"))
            if not ok:
                failures.append(f"{ex.command!r} (spec {ex.value}): {verdict} {sorted(found)}")
    assert count >= len(table())
    assert not failures, "\n".join(failures)


def _meets(decision: Decision, expect: str) -> bool:
    """Whether ``decision`` is what an example's ``expect`` asks for (see
    ``shell.catalog.catalog_examples``)."""
    from bastion.shell.catalog.intents import CODES

    verdict = decision.verdict.value
    if expect in ("allow", "ask", "deny"):
        return verdict == expect
    if expect == "not deny":
        return verdict != "deny"
    if expect == "not allow":
        return verdict != "allow"
    info = CODES[expect]
    if info.severity.value == "low":
        return verdict != "deny"
    return expect in codes(decision) and verdict == ("deny" if info.hard else "ask")


def test_every_core_catalog_entry_has_an_example() -> None:
    missing, stale = core_entries_without_examples()
    assert not missing, f"core catalog entries without an example in catalog_examples.py: {missing}"
    assert not stale, f"examples for entries the core tables no longer hold: {stale}"


def test_every_core_catalog_example_is_answered_as_it_says(world: Any) -> None:
    """Every example of every core catalog entry through ``Guard.check`` (one test: a
    parameter each would dwarf the suite's collection). An example of a known gap must
    still fail, so that closing the gap shows here."""
    root, _env, guard = world
    failures, closed = [], []
    examples = core_catalog_examples()
    for ex in examples:
        decision = guard.check(ToolCall(tool="Bash", input={"command": ex.command}, cwd=root))
        ok = _meets(decision, ex.expect)
        if ex.gap and ok:
            closed.append(f"{ex.table}[{ex.entry!r}]: {ex.command!r} now answers {ex.expect} (drop it from GAPS)")
        elif not ex.gap and not ok:
            failures.append(f"{ex.table}[{ex.entry!r}]: {ex.command!r} expects {ex.expect}, "
                            f"got {decision.verdict.value} {sorted(codes(decision))}")
    assert len(examples) > 1000
    assert not failures and not closed, "\n".join(failures + closed)


def test_every_sub_command_key_is_reachable() -> None:
    """Each key of a core tool or a long-tail spec, typed as it reads, is looked up as
    itself: a key with option words (``pyenv install --list``) is matched on them too."""
    assert unreachable_keys() == []


# --------------------------------------------------------------------------- pages


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("rule_pages", ROOT / "scripts" / "rule_pages.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_pages"] = module
    spec.loader.exec_module(module)
    return module


def test_committed_rule_pages_are_up_to_date() -> None:
    pages = _generator().pages()
    folder = ROOT / "docs" / "rules"
    stale = [name for name, text in pages.items() if not (folder / name).is_file() or (folder / name).read_text() != text]
    extra = sorted(p.name for p in folder.glob("*.md") if p.name not in pages)
    assert not stale and not extra, f"run scripts/rule_pages.py (stale: {stale[:5]}, extra: {extra[:5]})"
    assert len(pages) == len(RECORDS) + 3  # one page per record, the index, the catalog and the effect table
