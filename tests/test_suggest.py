"""Rule suggestions that keep matching: narrow, safe, and proven on the call that made them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bastion.engine import Guard
from bastion.model import ToolCall, Verdict
from bastion.policy import variants as V
from bastion.policy.rules import parse_rule
from bastion.policy.suggest import identity_length, is_too_broad, rule_for_command
from bastion.session import grant


def guard_for(project: Path, env: dict[str, str], *files: Path) -> Guard:
    return Guard.from_settings(str(project), isolated=True, settings_files=[str(f) for f in files], env=env)


def suggestions(project: Path, env: dict[str, str], command: str) -> list[str]:
    decision = guard_for(project, env).check(ToolCall("Bash", {"command": command}, cwd=str(project)))
    return decision.suggestions


# --------------------------------------------------------------------------- what is offered


@pytest.mark.parametrize(
    "command, expected",
    [
        # narrowed to the exact command: a prefix would also match `git push --force …`
        ("git push origin main", ["Bash(git push origin main)"]),
        ("git push", ["Bash(git push)"]),
        ("rm -rf build", []),  # a removal never offers "always allow" (spec 002 §12.10)
        ("curl https://example.com/x", ["Bash(curl https://example.com/x)"]),
        ("docker run ubuntu ls", ["Bash(docker run ubuntu ls)"]),
        # no destructive variant reachable: the command's identity as a prefix
        ("frobnicate --all", ["Bash(frobnicate:*)"]),
        ("npm install lodash", ["Bash(npm install:*)"]),
        ("aws s3 ls s3://bucket", ["Bash(aws s3 ls:*)"]),
        # cd, safe variables and harmless wrappers are not part of the rule
        ("cd src && frobnicate x", ["Bash(frobnicate:*)"]),
        ("NODE_ENV=test timeout 5 frobnicate x", ["Bash(frobnicate:*)"]),
        # every sub-command gets its rule (the allow layer needs all of them covered)
        ("echo hi && frobnicate", ["Bash(echo:*)", "Bash(frobnicate:*)"]),
        # literal stars and parentheses are escaped, so the rule means the words
        ("frob 'a*b' && frob2 '(x)'", ["Bash(frob:*)", "Bash(frob2:*)"]),
    ],
)
def test_suggested_rules(project, bastion_env, command, expected):
    assert suggestions(project, bastion_env, command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'print(1)'",  # inline code: no rule may describe it
        "sudo frobnicate",  # privilege
        "bash -c 'frobnicate'",  # a shell's command string
        "LD_PRELOAD=/tmp/x.so frobnicate",  # a dangerous variable: no allow rule ever covers it
        "FOO=1 frobnicate",  # an unknown variable may change what runs
        "frobnicate > /tmp/out.txt",  # writes outside the workspace: an allow rule cannot cover it
        "cd /tmp && frobnicate",  # a cd out of the workspace
        "f1 && f2 && f3 && f4 && f5 && f6",  # more than five rules would be needed
    ],
)
def test_no_suggestion_when_no_rule_can_cover_the_call_safely(project, bastion_env, command):
    assert suggestions(project, bastion_env, command) == []


@pytest.mark.parametrize(
    "argv, length",
    [
        (["frobnicate", "--all"], 1),
        (["git", "push", "origin"], 2),
        (["git", "-C", "sub", "push"], 4),
        (["npm", "run", "build"], 3),
        (["python3", "manage.py", "migrate"], 2),
        (["python3", "-m", "pytest", "-x"], 3),
        (["bash", "-e", "build.sh"], 3),
        (["npx", "prettier", "--check", "."], 2),
        (["aws", "s3", "ls"], 3),
    ],
)
def test_identity_length(argv, length):
    assert identity_length(argv) == length


@pytest.mark.parametrize(
    "argv",
    [["bash"], ["bash", "-lc", "ls"], ["python3"], ["python3", "-"], ["node", "-e", "1"], ["env", "x"], ["sudo", "ls"],
     ["xargs", "rm"], ["nohup", "x"]],
)
def test_shells_interpreters_and_wrappers_never_become_a_rule(argv):
    assert rule_for_command(argv) is None


@pytest.mark.parametrize(
    "rule, broad",
    [("Bash", True), ("Bash(bash:*)", True), ("Bash(sudo:*)", True), ("Bash(python3:*)", True), ("Bash(git:*)", True),
     ("Bash(rm:*)", True), ("Bash(git push:*)", True), ("Bash(npm test:*)", False), ("Bash(git push origin main)", False),
     ("Read", False), ("Bash(oops", True)],
)
def test_is_too_broad(rule, broad):
    assert is_too_broad(rule) is broad


# --------------------------------------------------------------------------- the variants are real


def _verdict(guard: Guard, project: Path, command: str) -> Verdict:
    return guard.check(ToolCall("Bash", {"command": command}, cwd=str(project))).verdict


def test_every_listed_destructive_command_is_not_allowed_by_bastion(project, bastion_env):
    guard = guard_for(project, bastion_env)
    listed = [*V.ALWAYS, *(c for group in V.SIBLINGS.values() for c in group)]
    allowed = [c for c in listed if _verdict(guard, project, c) is Verdict.ALLOW]
    assert allowed == []


@pytest.mark.parametrize("key", sorted(V.INSERTS))
def test_every_insert_makes_a_command_bastion_does_not_allow(project, bastion_env, key):
    guard = guard_for(project, bastion_env)
    trigger = key.split() + ["target"]
    for words in V.INSERTS[key]:
        variant = " ".join([*key.split(), words, "target"])
        assert _verdict(guard, project, variant) is not Verdict.ALLOW, variant
    assert all(v != shlex.join(trigger) for v in V.variants(trigger))


# --------------------------------------------------------------------------- saved, they keep matching


def test_always_grant_saves_match_and_not_match_and_allows_the_call_next_time(project, bastion_env, tmp_path):
    target = tmp_path / "settings.json"
    call = ToolCall("Bash", {"command": "cd src && git push origin main"}, cwd=str(project), session_id="s")
    decision = guard_for(project, bastion_env).check(call)
    assert decision.verdict is Verdict.ASK
    grant(call, decision, "always", env=bastion_env, settings_file=target)
    entry = json.loads(target.read_text())["permissions"]["allow"][0]
    assert entry["rule"] == "Bash(git push origin main)"
    assert entry["match"] == ["git push origin main"]
    assert "git push --force origin main" in entry["not_match"] or any("--force" in v for v in entry["not_match"])
    again = guard_for(project, bastion_env, target)
    assert again.policy.errors == ()
    assert again.check(call).verdict is Verdict.ALLOW
    assert again.check(ToolCall("Bash", {"command": "git push --force origin main"}, cwd=str(project))).verdict is not Verdict.ALLOW


def test_edit_suggestion_is_absolute_so_it_matches_from_the_user_settings_file(project, bastion_env, tmp_path):
    target = tmp_path / "config" / "settings.json"  # not in the project: relative rules would mean ~/src/app.py
    call = ToolCall("Edit", {"file_path": "src/app.py", "old_string": "hello", "new_string": "bye"}, cwd=str(project))
    decision = guard_for(project, bastion_env).check(call)
    assert decision.verdict is Verdict.ASK
    assert decision.suggestions == [f"Edit(/{project}/src/app.py)"]
    grant(call, decision, "always", env=bastion_env, settings_file=target)
    entry = json.loads(target.read_text())["permissions"]["allow"][0]
    assert entry["match"] == [f"/{project}/src/app.py"]
    again = guard_for(project, bastion_env, target)
    assert again.check(call).verdict is Verdict.ALLOW
    other = ToolCall("Edit", {"file_path": "src/other.py", "old_string": "a", "new_string": "b"}, cwd=str(project))
    assert again.check(other).verdict is Verdict.ASK


def test_rules_add_accepts_a_suggestion_with_its_example(project, bastion_env, tmp_path):
    from conftest import run_bastion

    rule = suggestions(project, bastion_env, "git push origin main")[0]
    target = tmp_path / "rules.json"
    proc = run_bastion("rules", "add", rule, "--file", str(target), "--example", "git push origin main", env=bastion_env)
    assert proc.returncode == 0, proc.stderr
    proc = run_bastion("rules", "test", str(target), env=bastion_env)
    assert proc.returncode == 0, proc.stdout


# --------------------------------------------------------------------------- property


_TOOLS = [
    "git push", "git fetch", "git pull", "npm install", "pip install", "curl", "wget", "rm", "rm -rf", "frobnicate",
    "docker run", "kubectl apply", "ssh host", "scp", "chmod", "terraform apply", "cargo add", "deploy-tool", "gh pr create",
]
_WORDS = st.sampled_from(["origin", "main", "-v", "--quiet", "build", "x.txt", "src", "https://example.com/a", "1", "--all"])
_COMMAND = st.builds(lambda tool, args: " ".join([tool, *args]), st.sampled_from(_TOOLS), st.lists(_WORDS, max_size=3))
_PREFIX = st.sampled_from(["", "cd src && ", "NODE_ENV=test ", "timeout 5 "])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(prefix=_PREFIX, commands=st.lists(_COMMAND, min_size=1, max_size=3), joiner=st.sampled_from([" && ", " ; ", " || "]))
def test_a_saved_suggestion_matches_its_trigger_and_nothing_destructive(project, bastion_env, tmp_path_factory, prefix, commands, joiner):
    command = prefix + joiner.join(commands)
    call = ToolCall("Bash", {"command": command}, cwd=str(project), session_id="prop")
    before = guard_for(project, bastion_env)
    decision = before.check(call)
    if decision.verdict is not Verdict.ASK or not decision.suggestions:
        return
    target = tmp_path_factory.mktemp("prop") / "settings.json"
    grant(call, decision, "always", env=bastion_env, settings_file=target)
    again = guard_for(project, bastion_env, target)
    assert again.policy.errors == ()
    assert again.check(call).verdict is Verdict.ALLOW  # it keeps matching
    rules = [parse_rule(text, "allow", source="user") for text in decision.suggestions]
    for sub in commands:
        for variant in V.variants(shlex.split(sub)):
            assert not any(rule.matches_command(variant) for rule in rules), (decision.suggestions, variant)
            variant_call = ToolCall("Bash", {"command": variant}, cwd=str(project))
            if before.check(variant_call).verdict is not Verdict.ALLOW:  # the saved rules never loosen a variant
                assert again.check(variant_call).verdict is not Verdict.ALLOW, variant


@pytest.mark.parametrize("rule", ["Bash(find:*)", "Bash(awk:*)", "Bash(ssh:*)", "Edit", "Write", "Read(~/.ssh/**)", "Edit(//**)"])
def test_open_ended_rules_are_too_broad(rule):
    from bastion.policy.suggest import is_too_broad

    assert is_too_broad(rule)


@pytest.mark.parametrize("rule", ["Bash(npm test:*)", "Edit(/src/**)", "Read(/docs/**)", "Bash(git status)"])
def test_narrow_rules_are_not_too_broad(rule):
    from bastion.policy.suggest import is_too_broad

    assert not is_too_broad(rule)
