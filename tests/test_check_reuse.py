"""A check does each piece of work once: the facts every layer shares are derived once
per call, a path's rows are worked out once for the two questions the file checks ask,
and the shortcuts the engine takes (its decision and trace entries made without the
frozen ``__init__``) give objects equal to the ordinary ones. Nothing is mocked: the
real providers run, wrapped to count."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bastion import Guard, ToolCall
from bastion.model import Decision, Finding, Severity, Source, Tier, TraceEntry, Verdict, trace_entry
from bastion.paths import match
from bastion.providers import ToolFacts


class _CountingFacts(ToolFacts):
    """The real facts, each derivation counted."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def _count(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    def workspace(self, ctx: Any) -> Any:
        self._count("workspace")
        return super().workspace(ctx)

    def command(self, ctx: Any) -> Any:
        self._count("command")
        return super().command(ctx)

    def parsed(self, ctx: Any) -> Any:
        self._count("parsed")
        return super().parsed(ctx)

    def analysis(self, ctx: Any) -> Any:
        self._count("analysis")
        return super().analysis(ctx)

    def path_uses(self, ctx: Any) -> Any:
        self._count("path_uses")
        return super().path_uses(ctx)


@pytest.mark.parametrize("command", ["git log -n 3", "ls -la src", "cd src && pytest -q tests/test_a.py | tail -5",
                                     "printf 'x' > x.sh && bash x.sh", "rm -rf /"])
def test_each_fact_is_derived_once_per_check(project: Path, bastion_env: dict[str, str], command: str) -> None:
    facts = _CountingFacts()
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    guard.facts = facts
    guard.check(ToolCall("Bash", {"command": command}, cwd=str(project)))
    assert facts.counts and all(count == 1 for count in facts.counts.values()), facts.counts
    facts.counts.clear()
    guard.check(ToolCall("Bash", {"command": command}, cwd=str(project)))  # a new call derives them again
    assert facts.counts.get("parsed") == 1


def test_the_engines_decision_equals_one_made_the_ordinary_way() -> None:
    trace = [trace_entry("defaults", "allow", "read-only", 3)]
    fields: dict[str, Any] = dict(
        verdict=Verdict.ASK, reason="r", layer="defaults", risk=Tier.HIGH_RISK,
        findings=[Finding("CAT001", Severity.MEDIUM, "m")], suggestions=["Bash(x:*)"], immune=True,
        source=Source.CONFIG, trace=trace, no_grant=False, facts=None,
    )
    made, ordinary = Decision.made(**fields), Decision(**fields)
    assert made == ordinary and repr(made) == repr(ordinary) and made.to_dict() == ordinary.to_dict()
    assert list(vars(made)) == [f.name for f in dataclasses.fields(Decision)]  # every field, in order
    assert made.interrupt is False and made.updated_input is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.verdict = Verdict.ALLOW  # type: ignore[misc]
    assert made.revise(verdict=Verdict.DENY).verdict is Verdict.DENY
    entry = trace[0]
    assert entry == TraceEntry("defaults", "allow", "read-only", 3) and hash(entry) == hash(TraceEntry(*vars(entry).values()))


@pytest.mark.parametrize("path", [
    "/home/u/.ssh/id_rsa", "/home/u/.aws/credentials", "/home/u/project/.env", "/home/u/project/.git/hooks/pre-commit",
    "/etc/shadow", "/private/etc/sudoers", "/root/.bashrc", "/Users/Me/.ssh/config", "/home/u/p/.github/workflows/ci.yml",
    "/home/u/p/node_modules/.bin/tsc", "/home/u/p/secrets.pem", "/home/u/p/.env.example", "/tmp/x/src/mod1",
])
def test_a_paths_rows_are_the_same_warm_or_cold_with_any_home(path: str) -> None:
    homes = ["/home/u", "", "/root", "/Users/Me"]
    match._rows_cached.cache_clear()
    match._unhomed.cache_clear()
    cold = [match.rows_for(path, home) for home in homes]  # each home after the first finds the fixed rows kept
    match._rows_cached.cache_clear()
    match._unhomed.cache_clear()
    single = []
    for home in homes:  # each worked out from nothing
        single.append(match.rows_for(path, home))
        match._rows_cached.cache_clear()
        match._unhomed.cache_clear()
    assert cold == single
    assert [match.rows_for(path, home) for home in homes] == cold  # answered from the caches


def test_the_home_decides_only_the_rows_below_it() -> None:
    key = "/home/u/.ssh/id_ed25519"
    assert match.secret_level(key, "/home/u") == 2
    assert match.credential_rows("/home/u/.config/gcloud/credentials.db", "/home/u")
    assert not match.credential_rows("/srv/u/.config/gcloud/credentials.db", "/home/u")
    assert match.rows_for("/tmp/x/src/mod1", "/home/u") == ()


def test_a_single_command_is_not_read_for_the_files_it_writes_before_running_code(
        project: Path, bastion_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    from bastion.shell.meaning import paths as paths_module

    real = paths_module.extract_paths
    seen: list[str] = []

    def counted(cmd: Any, **kwargs: Any) -> Any:
        seen.append(cmd.name)
        return real(cmd, **kwargs)

    monkeypatch.setattr(paths_module, "extract_paths", counted)
    guard = Guard.from_settings(str(project), isolated=True, env=bastion_env)
    assert guard.check(ToolCall("Bash", {"command": "ls -la src"}, cwd=str(project))).verdict is Verdict.ALLOW
    assert seen == []  # one command: what it writes runs before nothing
    decision = guard.check(ToolCall("Bash", {"command": "cp /tmp/evil.sh . && bash evil.sh"}, cwd=str(project)))
    assert decision.verdict is Verdict.ASK and "runs code" in decision.reason and "cp" in seen
