"""The catastrophic-effects table (bastion.catastrophic): every ``match`` example is
denied in default, bypassPermissions and dontAsk modes by a finding of its own effect;
no ``not_match`` example is denied. The table's shape is checked too (every hard-block
code belongs to exactly one effect), and the engine's safety net: a catastrophic
finding from any layer, with any verdict, ends as an immune deny naming the effect."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.catastrophic import EFFECTS, Effect, catastrophic_codes, effect_of
from bastion.engine import Guard
from bastion.model import Finding, LayerResult, Mode, Severity, ToolCall, Verdict
from bastion.shell.catalog.intents import CODES
from conftest import throwaway_workspace

MODES = (Mode.DEFAULT, Mode.BYPASS, Mode.DONT_ASK)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str]]:
    """A throwaway git repository and an environment whose HOME is a throwaway folder."""
    return throwaway_workspace(tmp_path_factory.mktemp("catastrophic"))


@pytest.fixture(scope="module")
def guards(workspace: tuple[str, dict[str, str]]) -> dict[Mode, Guard]:
    root, env = workspace
    return {mode: Guard.from_settings(root, isolated=True, mode=mode, env=env) for mode in MODES}


def _check(guard: Guard, root: str, command: str):  # noqa: ANN202 - a Decision
    return guard.check(ToolCall("Bash", {"command": command}, cwd=root))


def _examples(field: str) -> list[object]:
    return [pytest.param(effect, example, id=f"{effect.id}:{example}") for effect in EFFECTS for example in getattr(effect, field)]


# --------------------------------------------------------------------------- the examples


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(("effect", "command"), _examples("match"))
def test_match_is_denied_in_every_mode(effect: Effect, command: str, mode: Mode, guards, workspace) -> None:
    decision = _check(guards[mode], workspace[0], command)
    assert decision.verdict is Verdict.DENY, (command, decision.reason)
    assert decision.immune, decision.reason
    assert {f.code for f in decision.findings} & set(effect.codes), (effect.id, decision.findings)


@pytest.mark.parametrize("mode", (Mode.DEFAULT, Mode.BYPASS), ids=lambda m: m.value)
@pytest.mark.parametrize(("effect", "command"), _examples("not_match"))
def test_not_match_is_not_denied(effect: Effect, command: str, mode: Mode, guards, workspace) -> None:
    decision = _check(guards[mode], workspace[0], command)
    assert decision.verdict is not Verdict.DENY, (command, decision.reason)


# --------------------------------------------------------------------------- the table


def test_table_is_small_and_each_row_has_examples() -> None:
    ids = [effect.id for effect in EFFECTS]
    assert len(ids) == len(set(ids))
    for effect in EFFECTS:
        assert effect.title and effect.why and effect.codes, effect.id
        assert len(effect.match) >= 3 and len(effect.not_match) >= 2, effect.id


def test_each_code_belongs_to_one_effect_and_every_hard_block_to_one() -> None:
    codes = [code for effect in EFFECTS for code in effect.codes]
    assert len(codes) == len(set(codes))
    assert catastrophic_codes() == frozenset(codes)
    hard = {code for code, info in CODES.items() if info.hard}
    assert hard <= catastrophic_codes(), hard - catastrophic_codes()
    for code in codes:
        assert code in CODES or code.startswith("FS"), code  # FS001: the files layer's removal targets
        assert effect_of(code) is not None and code in effect_of(code).codes
    assert effect_of("CAT010") is None


# --------------------------------------------------------------------------- the safety net


class _AllowFirst:
    """A library user's layer that answers before the hard blocks (and gets it wrong)."""

    name = "allow_first"

    def __init__(self, verdict: Verdict, findings: list[Finding] | None = None) -> None:
        self.verdict = verdict
        self.findings = findings or []

    def check(self, call: ToolCall, ctx: object) -> LayerResult:
        return LayerResult(self.verdict, "the custom layer says so", findings=list(self.findings))


def _guard_with(layer: _AllowFirst, workspace: tuple[str, dict[str, str]], mode: Mode = Mode.BYPASS) -> Guard:
    root, env = workspace
    guard = Guard.from_settings(root, isolated=True, mode=mode, env=env)
    guard.insert_layer(layer, before="validate")
    return guard


def test_a_layer_that_allows_before_the_hard_blocks_cannot_let_a_disk_wipe_through(workspace) -> None:
    guard = _guard_with(_AllowFirst(Verdict.ALLOW), workspace)
    decision = _check(guard, workspace[0], "dd if=/dev/zero of=/dev/sda bs=1M")
    assert decision.verdict is Verdict.DENY and decision.immune and decision.no_grant
    assert decision.layer == "catastrophic"
    assert "destroys a disk or partition" in decision.reason
    assert any(f.code == "HB003" for f in decision.findings)
    assert decision.trace[-1].layer == "catastrophic"
    # and an ordinary command is still the custom layer's to allow
    assert _check(guard, workspace[0], "git status").verdict is Verdict.ALLOW


@pytest.mark.parametrize("verdict", (Verdict.ALLOW, Verdict.ASK), ids=lambda v: v.value)
def test_a_catastrophic_finding_from_any_layer_is_an_immune_deny(verdict: Verdict, workspace) -> None:
    hit = Finding("HB017", Severity.CRITICAL, "grants root: chmod u+s /tmp/b")
    guard = _guard_with(_AllowFirst(verdict, [hit]), workspace, mode=Mode.DEFAULT)
    decision = guard.check(ToolCall("Write", {"file_path": str(Path(workspace[0]) / "notes.md"), "content": "x"}, cwd=workspace[0]))
    assert decision.verdict is Verdict.DENY and decision.immune
    assert "grants root" in decision.reason and decision.suggestions == []


def test_ordinary_findings_leave_the_decision_alone(workspace) -> None:
    note = Finding("CAT010", Severity.MEDIUM, "deletes files")
    guard = _guard_with(_AllowFirst(Verdict.ASK, [note]), workspace, mode=Mode.DEFAULT)
    decision = guard.check(ToolCall("Bash", {"command": "rm notes.md"}, cwd=workspace[0]))
    assert decision.verdict is Verdict.ASK and decision.layer == "allow_first"


def test_a_copy_made_by_an_earlier_call_is_still_a_shell(tmp_path: Path, guards, workspace) -> None:
    """``cp /bin/sh /tmp/x`` in one call, ``chmod u+s /tmp/x`` in the next: the file on
    disk is a byte-for-byte copy of an installed shell."""
    shell = next((p for p in ("/bin/sh", "/usr/bin/sh", "/bin/bash") if os.path.isfile(p)), None)
    if shell is None:
        pytest.skip("no shell binary to copy on this machine")
    copy = tmp_path / "innocent"
    copy.write_bytes(Path(os.path.realpath(shell)).read_bytes())
    for mode in MODES:
        decision = _check(guards[mode], workspace[0], f"chmod u+s {copy}")
        assert decision.verdict is Verdict.DENY and any(f.code == "HB017" for f in decision.findings), decision.reason
    plain = tmp_path / "tool"
    plain.write_bytes(b"\x7fELF not a shell")
    assert _check(guards[Mode.DEFAULT], workspace[0], f"chmod u+s {plain}").verdict is Verdict.ASK


def test_a_call_without_a_command_is_untouched(workspace, guards) -> None:
    decision = guards[Mode.BYPASS].check(ToolCall("Read", {"file_path": str(Path(workspace[0]) / "README.md")}, cwd=workspace[0]))
    assert decision.verdict is Verdict.ALLOW and decision.layer != "catastrophic"
