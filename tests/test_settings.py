"""Settings sources, merging, trust and broken files, on real temporary directories."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bastion.model import Mode
from bastion.policy.settings import (
    Policy,
    find_project_root,
    is_trusted,
    load_policy,
    test_rules_file,
    trust,
    trusted_roots,
    untrust,
)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        "HOME": str(home),
        "BASTION_CONFIG_DIR": str(tmp_path / "config"),
        "BASTION_STATE_DIR": str(tmp_path / "state"),
        "BASTION_MANAGED_SETTINGS": str(tmp_path / "managed" / "managed-settings.json"),
    }


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src" / "deep").mkdir(parents=True)
    return project


def put(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return path


def managed(env: dict[str, str]) -> Path:
    return Path(env["BASTION_MANAGED_SETTINGS"])


def user(env: dict[str, str]) -> Path:
    return Path(env["BASTION_CONFIG_DIR"]) / "settings.json"


def perms(**lists: Any) -> dict[str, Any]:
    return {"permissions": lists}


def texts(policy: Policy, behavior: str) -> list[str]:
    return [rule.text for rule in policy.rules_for(behavior)]


def load(root: Path, env: dict[str, str], **kw: Any) -> Policy:
    return load_policy(str(root / "src" / "deep"), env=env, **kw)


# --------------------------------------------------------------------------- sources and merging


def test_no_files_gives_an_empty_policy(root: Path, env: dict[str, str]) -> None:
    policy = load(root, env)
    assert policy.rules == () and policy.errors == () and policy.notices == ()
    assert policy.default_mode is None and policy.sections == {} and policy.files == ()
    assert policy.project_root == str(root)


def test_sources_priority_and_merging(root: Path, env: dict[str, str], tmp_path: Path) -> None:
    trust(root, env)
    put(managed(env), perms(deny=["Bash(rm -rf:*)"]))
    put(user(env), {
        **perms(allow=["Bash(npm test:*)"], defaultMode="plan", additionalDirectories=["~/shared"]),
        "sandbox": {"network": {"allow": ["pypi.org"]}, "timeout": 10},
        "audit": {"enabled": True},
    })
    put(root / ".bastion" / "settings.json", {
        **perms(ask=["Bash(git push:*)"], defaultMode="acceptEdits", additionalDirectories=["../lib"]),
        "sandbox": {"timeout": 20, "network": {"deny": ["evil.org"]}},
    })
    put(root / ".bastion" / "settings.local.json", perms(allow=["Read"], additionalDirectories=["../lib"]))
    flags = put(tmp_path / "flags.json", {**perms(deny=["WebFetch"]), "sandbox": {"timeout": 30}})

    policy = load(root, env, extra_files=[str(flags)])
    assert policy.errors == ()
    assert [(r.behavior, r.text, r.source) for r in policy.rules] == [
        ("deny", "Bash(rm -rf:*)", "managed"),
        ("allow", "Bash(npm test:*)", "user"),
        ("ask", "Bash(git push:*)", "project"),
        ("allow", "Read", "local"),
        ("deny", "WebFetch", "flags"),
    ]
    assert texts(policy, "deny") == ["Bash(rm -rf:*)", "WebFetch"]
    assert policy.default_mode is Mode.ACCEPT_EDITS  # project beats user
    assert policy.additional_directories == (f"{env['HOME']}/shared", str(root.parent / "lib"))  # union, deduplicated
    assert policy.sections["sandbox"] == {"network": {"allow": ["pypi.org"], "deny": ["evil.org"]}, "timeout": 30}
    assert policy.section("audit") == {"enabled": True} and policy.section("review") == {}
    assert policy.files == (str(managed(env)), str(user(env)), str(root / ".bastion" / "settings.json"),
                            str(root / ".bastion" / "settings.local.json"), str(flags))
    assert policy.rules[0].origin == str(managed(env))


SCALAR_CASES = [
    # which files set defaultMode → expected
    ({"user": "plan"}, Mode.PLAN),
    ({"user": "plan", "project": "acceptEdits"}, Mode.ACCEPT_EDITS),
    ({"user": "plan", "project": "acceptEdits", "local": "default"}, Mode.DEFAULT),
    ({"project": "acceptEdits", "local": "default", "flags": "dontAsk"}, Mode.DONT_ASK),
    ({"user": "plan", "flags": "dontAsk", "managed": "default"}, Mode.DEFAULT),  # managed wins
    ({"managed": "plan", "local": "bypassPermissions"}, Mode.PLAN),
]


@pytest.mark.parametrize("modes,expected", SCALAR_CASES)
def test_default_mode_precedence(root: Path, env: dict[str, str], tmp_path: Path, modes: dict[str, str], expected: Mode) -> None:
    trust(root, env)
    paths = {
        "managed": managed(env),
        "user": user(env),
        "project": root / ".bastion" / "settings.json",
        "local": root / ".bastion" / "settings.local.json",
        "flags": tmp_path / "flags.json",
    }
    for source, mode in modes.items():
        put(paths[source], perms(defaultMode=mode))
    extra = [str(paths["flags"])] if "flags" in modes else []
    assert load(root, env, extra_files=extra).default_mode is expected


def test_later_flag_file_wins(root: Path, env: dict[str, str], tmp_path: Path) -> None:
    a = put(tmp_path / "a.json", perms(defaultMode="plan"))
    b = put(tmp_path / "b.json", perms(defaultMode="dontAsk"))
    assert load(root, env, extra_files=[str(a), str(b)]).default_mode is Mode.DONT_ASK


def test_flag_file_is_trusted_even_when_it_is_a_project_file(root: Path, env: dict[str, str]) -> None:
    path = put(root / ".bastion" / "settings.json", perms(allow=["Read"]))
    assert texts(load(root, env), "allow") == []  # untrusted project file
    policy = load(root, env, extra_files=[str(path)])  # the user named it explicitly
    assert [(r.text, r.source) for r in policy.rules_for("allow")] == [("Read", "flags")]


def test_missing_flag_file_is_an_error(root: Path, env: dict[str, str], tmp_path: Path) -> None:
    policy = load(root, env, extra_files=[str(tmp_path / "nope.json")])
    assert policy.errors == (f"{tmp_path / 'nope.json'}: settings file not found",)


def test_path_rules_are_anchored_where_the_file_belongs(root: Path, env: dict[str, str]) -> None:
    trust(root, env)
    put(user(env), perms(deny=["Read(/notes/**)"]))
    put(root / ".bastion" / "settings.json", perms(deny=["Edit(/src/**)"]))
    policy = load(root, env)
    user_rule, project_rule = policy.rules_for("deny")
    assert user_rule.base_dir == env["HOME"] and project_rule.base_dir == str(root)
    assert user_rule.matches_path(f"{env['HOME']}/notes/x", home=env["HOME"])
    assert project_rule.matches_path(str(root / "src" / "a.py"), home=env["HOME"])


# --------------------------------------------------------------------------- project root


def test_find_project_root(tmp_path: Path, env: dict[str, str]) -> None:
    outer = tmp_path / "outer"
    (outer / ".git").mkdir(parents=True)
    (outer / "inner" / ".bastion").mkdir(parents=True)
    (outer / "inner" / "a" / "b").mkdir(parents=True)
    assert find_project_root(str(outer / "inner" / "a" / "b"), env=env) == str(outer / "inner")
    assert find_project_root(str(outer / "x"), env=env) == str(outer)
    bare = tmp_path / "bare" / "dir"
    bare.mkdir(parents=True)
    assert find_project_root(str(bare), env=env) == str(bare)


def test_claude_folder_in_home_is_not_a_project_marker(tmp_path: Path, env: dict[str, str]) -> None:
    home = Path(env["HOME"])
    (home / ".claude").mkdir()
    work = home / "scratch"
    work.mkdir()
    assert find_project_root(str(work), env=env) == str(work)


# --------------------------------------------------------------------------- Claude Code import


def claude_files(root: Path, env: dict[str, str]) -> None:
    put(Path(env["HOME"]) / ".claude" / "settings.json", {
        **perms(allow=["Bash(ls:*)"], deny=["Read(~/.ssh/**)"]), "model": "whatever", "env": {"X": "1"},
    })
    put(root / ".claude" / "settings.json", perms(ask=["Bash(git push:*)"]))
    put(root / ".claude" / "settings.local.json", perms(deny=["Bash(curl:*)"]))


def test_claude_code_permissions_are_imported(root: Path, env: dict[str, str]) -> None:
    claude_files(root, env)
    policy = load(root, env)
    assert [(r.text, r.source) for r in policy.rules] == [
        ("Bash(ls:*)", "claude_user"),
        ("Read(~/.ssh/**)", "claude_user"),
        ("Bash(git push:*)", "claude_project"),
        ("Bash(curl:*)", "claude_local"),
    ]
    assert policy.errors == () and policy.notices == ()  # Claude's other keys are not ours to judge


def test_claude_rule_objects_are_not_accepted(root: Path, env: dict[str, str]) -> None:
    path = put(Path(env["HOME"]) / ".claude" / "settings.json", perms(deny=[{"rule": "Bash(rm:*)"}]))
    policy = load(root, env)
    assert policy.rules == ()
    assert len(policy.errors) == 1 and str(path) in policy.errors[0] and "expected a rule string" in policy.errors[0]


@pytest.mark.parametrize("how", ["user", "managed", "env", "env-false"])
def test_claude_import_can_be_switched_off(root: Path, env: dict[str, str], how: str) -> None:
    claude_files(root, env)
    if how == "user":
        put(user(env), {"importClaudeCodeSettings": False})
    elif how == "managed":
        put(managed(env), {"importClaudeCodeSettings": False})
    else:
        env["BASTION_IMPORT_CLAUDE_SETTINGS"] = "0" if how == "env" else "false"
    policy = load(root, env)
    assert policy.rules == ()
    assert not any(".claude" in f for f in policy.files)


def test_import_switch_in_project_file_is_not_honoured(root: Path, env: dict[str, str]) -> None:
    trust(root, env)
    claude_files(root, env)
    put(root / ".bastion" / "settings.json", {"importClaudeCodeSettings": False})
    policy = load(root, env)
    assert len(policy.rules) == 4
    assert any("importClaudeCodeSettings is honoured only in managed and user settings" in n for n in policy.notices)


def test_home_as_project_root_reads_claude_user_file_once(env: dict[str, str]) -> None:
    home = Path(env["HOME"])
    (home / ".git").mkdir()
    put(home / ".claude" / "settings.json", perms(allow=["Read"]))
    policy = load_policy(str(home), env=env)
    assert [(r.text, r.source) for r in policy.rules] == [("Read", "claude_user")]
    assert policy.notices == ()


# --------------------------------------------------------------------------- isolated


def test_isolated_uses_only_flag_files(root: Path, env: dict[str, str], tmp_path: Path) -> None:
    trust(root, env)
    put(managed(env), perms(deny=["Bash"]))
    put(user(env), perms(allow=["Read"]))
    put(root / ".bastion" / "settings.json", perms(deny=["Write"]))
    put(root / ".bastion" / "settings.local.json", perms(deny=["Edit"]))
    put(Path(env["HOME"]) / ".claude" / "settings.json", perms(deny=["WebFetch"]))
    put(Path(env["BASTION_CONFIG_DIR"]) / "guards" / "g.yaml", "patterns:\n  - match: x\n    verdict: deny\n")
    flags = put(tmp_path / "eval.json", perms(ask=["Bash(git push:*)"]))
    policy = load(root, env, isolated=True, extra_files=[str(flags)])
    assert [(r.text, r.source) for r in policy.rules] == [("Bash(git push:*)", "flags")]
    assert policy.files == (str(flags),) and policy.plugins == ()
    assert load(root, env, isolated=True).rules == ()


# --------------------------------------------------------------------------- trust


def untrusted_project(root: Path) -> Path:
    return put(root / ".bastion" / "settings.json", {
        **perms(
            allow=["Bash(x)", "Edit"],
            deny=["Bash(rm:*)"],
            ask=["Bash(git push:*)"],
            defaultMode="bypassPermissions",
            additionalDirectories=["/"],
        ),
        "sandbox": {"enabled": False},
        "hooks": {"PreToolUse": []},
    })


def test_untrusted_project_can_only_tighten(root: Path, env: dict[str, str]) -> None:
    path = untrusted_project(root)
    put(root / ".claude" / "settings.local.json", perms(allow=["Bash"]))
    policy = load(root, env)
    assert not policy.trusted
    assert texts(policy, "allow") == []
    assert texts(policy, "deny") == ["Bash(rm:*)"] and texts(policy, "ask") == ["Bash(git push:*)"]
    assert policy.default_mode is None and policy.additional_directories == () and policy.sections == {}
    assert (
        f"ignored allow rule Bash(x) from untrusted project file {path} (run 'bastion trust' to accept it)"
        in policy.notices
    )
    joined = "\n".join(policy.notices)
    assert "ignored allow rule Edit" in joined and "ignored defaultMode bypassPermissions" in joined
    assert "ignored additional directory /" in joined
    assert "ignored 'sandbox' settings" in joined and "ignored 'hooks' settings" in joined
    assert f"ignored allow rule Bash from untrusted project file {root / '.claude' / 'settings.local.json'}" in joined
    assert policy.errors == ()


def test_trust_applies_project_settings_and_untrust_reverts(root: Path, env: dict[str, str]) -> None:
    untrusted_project(root)
    assert not is_trusted(root, env)
    trust(root, env)
    assert is_trusted(root, env) and trusted_roots(env) == [os.path.realpath(root)]
    policy = load(root, env)
    assert policy.trusted
    assert texts(policy, "allow") == ["Bash(x)", "Edit"]
    assert policy.default_mode is Mode.BYPASS
    assert policy.additional_directories == ("/",)
    assert policy.sections == {"sandbox": {"enabled": False}, "hooks": {"PreToolUse": []}}
    assert policy.notices == ()
    untrust(root, env)
    assert not is_trusted(root, env)
    assert texts(load(root, env), "allow") == []


def test_trust_follows_symlinks_and_is_per_root(root: Path, env: dict[str, str], tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(root)
    trust(link, env)
    assert is_trusted(root, env)
    assert not is_trusted(root / "src", env)  # a sub-folder is not the trusted root
    trust(tmp_path / "other", env)
    assert len(trusted_roots(env)) == 2  # trusting one root keeps the other


def test_user_and_flag_files_are_always_trusted(root: Path, env: dict[str, str], tmp_path: Path) -> None:
    put(user(env), perms(allow=["Read"], defaultMode="plan"))
    flags = put(tmp_path / "f.json", perms(allow=["Glob"]))
    policy = load(root, env, extra_files=[str(flags)])
    assert texts(policy, "allow") == ["Read", "Glob"] and policy.default_mode is Mode.PLAN


# --------------------------------------------------------------------------- managed-only rules


def test_allow_managed_permission_rules_only(root: Path, env: dict[str, str]) -> None:
    trust(root, env)
    put(managed(env), {**perms(deny=["Bash(curl:*)"], allow=["Read"]), "allowManagedPermissionRulesOnly": True})
    put(user(env), perms(allow=["Bash"], deny=["Write"]))
    put(root / ".bastion" / "settings.json", perms(allow=["Edit"]))
    put(root / ".bastion" / "guards" / "g.yaml", "patterns:\n  - match: x\n    verdict: allow\n  - match: y\n    verdict: deny\n")
    policy = load(root, env)
    assert [(r.text, r.source) for r in policy.rules] == [("Read", "managed"), ("Bash(curl:*)", "managed")]
    assert policy.managed_rules_only
    assert any(f"ignored 2 permission rule(s) from {user(env)}" in n for n in policy.notices)
    assert any("allowManagedPermissionRulesOnly" in n and "settings.json" in n for n in policy.notices)
    (guard,) = policy.plugins
    assert [p.verdict for p in guard.patterns] == ["deny"]


def test_managed_only_flag_outside_managed_is_a_notice(root: Path, env: dict[str, str]) -> None:
    put(user(env), {**perms(allow=["Read"]), "allowManagedPermissionRulesOnly": True})
    policy = load(root, env)
    assert texts(policy, "allow") == ["Read"] and not policy.managed_rules_only
    assert any("honoured only in managed settings" in n for n in policy.notices)


# --------------------------------------------------------------------------- broken files


BROKEN_JSON = '{\n  "permissions": {\n    "allow": ["Read"]\n    "deny": ["Bash(rm:*)"]\n  }\n}\n'


def test_broken_json_is_one_line_error_with_position(root: Path, env: dict[str, str]) -> None:
    path = put(root / ".bastion" / "settings.json", BROKEN_JSON)
    trust(root, env)
    policy = load(root, env)
    (error,) = policy.errors
    assert error.startswith(f"{path}:4:5: invalid JSON: Expecting ',' delimiter")
    assert "\n" not in error
    assert texts(policy, "allow") == []


LENIENT = """{
  // project policy
  "permissions": {
    "allow": ["Bash", "Read",],   /* far too broad */
    "deny": ["Bash(rm -rf:*)", "Read(./.env)",],
    "ask": [{"rule": "Bash(git push:*)", "match": ["git push origin main"]},],
    "defaultMode": "bypassPermissions",
  },
  "sandbox": {"enabled": false},
  "url": "http://example.com/*not a comment*/ // nor this",
}
"""


def test_lenient_salvage_keeps_only_deny_and_ask(root: Path, env: dict[str, str]) -> None:
    trust(root, env)
    path = put(root / ".bastion" / "settings.json", LENIENT)
    policy = load(root, env)
    (error,) = policy.errors
    assert error.startswith(f"{path}:") and "invalid JSON" in error and "only its deny and ask rules" in error
    assert texts(policy, "deny") == ["Bash(rm -rf:*)", "Read(./.env)"]
    assert texts(policy, "ask") == ["Bash(git push:*)"]
    assert texts(policy, "allow") == [] and policy.default_mode is None and policy.sections == {}


def test_hopeless_json_is_ignored(root: Path, env: dict[str, str]) -> None:
    path = put(user(env), '{"permissions": {"allow": ["Bash"')
    policy = load(root, env)
    assert policy.rules == ()
    (error,) = policy.errors
    assert error.startswith(f"{path}:1:") and error.endswith("the file is ignored")
    assert policy.files == (str(path),)


WRONG_TYPES = [
    ({"permissions": []}, "permissions must be an object"),
    ({"permissions": {"allow": "Bash"}}, "permissions.allow must be a list of rules, not str"),
    ({"permissions": {"deny": [42]}}, "permissions.deny[0]: expected a rule string"),
    ({"permissions": {"defaultMode": "yolo"}}, "unknown permission mode 'yolo'"),
    ({"permissions": {"defaultMode": 1}}, "permissions.defaultMode must be a string"),
    ({"permissions": {"additionalDirectories": "/x"}}, "must be a list of directory names"),
    ({"sandbox": []}, "sandbox must be an object, not list"),
    ({"importClaudeCodeSettings": "no"}, "importClaudeCodeSettings must be true or false"),
    ([1, 2], "settings must be a JSON object"),
    ({"permissions": {"ask": [{"match": ["x"]}]}}, "a rule object needs a 'rule' string"),
    ({"permissions": {"ask": [{"rule": "Bash(x)", "match": [1]}]}}, "'match' must be a list of strings"),
]


@pytest.mark.parametrize("data,needle", WRONG_TYPES)
def test_wrong_types_are_errors_naming_the_file(root: Path, env: dict[str, str], data: Any, needle: str) -> None:
    path = put(user(env), data)
    policy = load(root, env)
    assert len(policy.errors) == 1, policy.errors
    assert policy.errors[0].startswith(str(path)) and needle in policy.errors[0]
    assert "\n" not in policy.errors[0]


def test_wrong_type_error_points_at_the_key(root: Path, env: dict[str, str]) -> None:
    path = put(user(env), '{\n  "permissions": {\n      "allow": "Bash"\n  }\n}')
    (error,) = load(root, env).errors
    assert error.startswith(f"{path}:3:7: permissions.allow")


def test_malformed_rule_drops_only_that_rule(root: Path, env: dict[str, str]) -> None:
    path = put(user(env), '{"permissions": {\n "deny": ["Bash(rm:*)",\n   "Bash(oops", "Frob", "Read(~/.ssh/**)"]}}')
    policy = load(root, env)
    assert texts(policy, "deny") == ["Bash(rm:*)", "Read(~/.ssh/**)"]
    first, second = policy.errors
    assert first.startswith(f"{path}:3:4: permissions.deny[1]: invalid rule 'Bash(oops'") and "rule ignored" in first
    assert "permissions.deny[2]" in second and "unknown tool 'Frob'" in second


def test_unknown_keys_are_notices(root: Path, env: dict[str, str]) -> None:
    path = put(user(env), {"$schema": "x", "colour": "blue", "permissions": {"alow": ["Bash"]}})
    policy = load(root, env)
    assert policy.errors == ()
    assert f"{path}: unknown setting 'colour' ignored" in policy.notices
    assert f"{path}: unknown key permissions.alow ignored" in policy.notices
    assert len(policy.notices) == 2


def test_unreadable_file_is_an_error(root: Path, env: dict[str, str]) -> None:
    user(env).mkdir(parents=True)  # a directory where the file should be
    policy = load(root, env)
    (error,) = policy.errors
    assert error.startswith(f"{user(env)}: cannot read settings")


def test_fifo_settings_file_does_not_block(root: Path, env: dict[str, str]) -> None:
    fifo = root / ".bastion" / "settings.json"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    (guards := root / ".bastion" / "guards").mkdir()
    os.mkfifo(guards / "g.yaml")
    policy = load(root, env)
    assert policy.errors == (f"{fifo}: cannot read settings: not a regular file",)
    assert policy.plugins == ()


def test_oversized_settings_file_keeps_only_its_deny_rules(root: Path, env: dict[str, str]) -> None:
    path = put(user(env), '{"permissions": {"deny": ["Bash"], "allow": ["Read"]}, "pad": "' + "x" * (1 << 20) + '"}')
    policy = load(root, env)
    (error,) = policy.errors
    assert error.startswith(f"{path}: larger than 1048576 bytes")
    assert texts(policy, "deny") == ["Bash"] and texts(policy, "allow") == []


def test_empty_file_is_fine(root: Path, env: dict[str, str]) -> None:
    put(user(env), "  \n")
    assert load(root, env).errors == ()


# --------------------------------------------------------------------------- self-testing rules


def test_self_testing_rules_pass(root: Path, env: dict[str, str]) -> None:
    trust(root, env)
    put(root / ".bastion" / "settings.json", perms(
        allow=[
            {"rule": "Bash(npm test:*)", "match": ["npm test -- -x", "npm test"], "not_match": ["npm publish", "npm testing"]},
            {"rule": "Edit(/src/**)", "match": ["src/a.py", "/src/b/c.py"], "not_match": ["//src/a.py", "README.md"]},
            {"rule": "WebFetch(domain:example.com)", "match": ["docs.example.com", "https://example.com/x"]},
            {"rule": "mcp__github", "match": ["mcp__github__create_issue"], "not_match": ["mcp__gitlab__x"]},
        ],
    ))
    policy = load(root, env)
    assert policy.errors == ()
    assert texts(policy, "allow") == ["Bash(npm test:*)", "Edit(/src/**)", "WebFetch(domain:example.com)", "mcp__github"]


def test_failing_examples_drop_allow_but_keep_deny(root: Path, env: dict[str, str]) -> None:
    path = put(user(env), perms(
        allow=[{"rule": "Bash(npm test:*)", "match": ["npm test"], "not_match": ["npm test --watch"]}],
        deny=[{"rule": "Bash(rm -rf:*)", "match": ["rm -r -f /"]}],
    ))
    policy = load(root, env)
    assert texts(policy, "allow") == [] and texts(policy, "deny") == ["Bash(rm -rf:*)"]
    allow_error, deny_error = policy.errors
    assert allow_error.startswith(str(path)) and "rule Bash(npm test:*)" in allow_error
    assert "example 'npm test --watch' should not match but does; the allow rule is dropped" in allow_error
    assert "example 'rm -r -f /' should match but does not; the deny rule is kept" in deny_error


def test_path_examples_resolve_like_the_rule(root: Path, env: dict[str, str]) -> None:
    # user settings are anchored at home: "/.aws/x" there means ~/.aws/x, "//.aws/x" is absolute
    put(user(env), perms(deny=[
        {"rule": "Read(~/.aws/**)", "match": ["~/.aws/credentials", "/.aws/x"], "not_match": ["//.aws/x", ".aws/y/.."]},
    ]))
    policy = load(root, env)
    assert policy.errors == () and texts(policy, "deny") == ["Read(~/.aws/**)"]


def test_rules_file_self_test(tmp_path: Path, env: dict[str, str]) -> None:
    good = put(tmp_path / "good.json", perms(allow=[{"rule": "Bash(ls:*)", "match": ["ls -la"]}]))
    ok, lines = test_rules_file(str(good), env=env)
    assert ok and lines == [f"ok: 1 rule(s) in {good}"]
    bad = put(tmp_path / "bad.json", perms(allow=[{"rule": "Bash(ls:*)", "match": ["lsof"]}]))
    ok, lines = test_rules_file(str(bad), env=env)
    assert not ok and len(lines) == 1 and "example 'lsof' should match but does not" in lines[0]


# --------------------------------------------------------------------------- plugins wired in


def test_plugins_from_user_and_project(root: Path, env: dict[str, str]) -> None:
    put(Path(env["BASTION_CONFIG_DIR"]) / "guards" / "docker.yaml", "patterns:\n  - match: docker\n    verdict: ask\n")
    put(root / ".bastion" / "guards" / "p.yaml", "patterns:\n  - match: make\n    verdict: allow\n  - match: rsync\n    verdict: deny\n")
    put(root / ".bastion" / "guards" / "broken.yaml", "patterns:\n  - match: '(?<=x)'\n    verdict: ask\n")
    policy = load(root, env)
    assert [g.id for g in policy.plugins] == ["docker", "p"]
    user_guard, project_guard = policy.plugins
    assert user_guard.trusted and not project_guard.trusted
    assert [p.verdict for p in project_guard.patterns] == ["deny"]
    assert any("broken.yaml" in e and "RE2" in e for e in policy.errors)
    assert any("ignored allow pattern 0 of guard p" in n for n in policy.notices)
    trust(root, env)
    assert [p.verdict for p in load(root, env).plugins[1].patterns] == ["allow", "deny"]


def test_a_truncated_file_keeps_its_deny_and_ask_rules(tmp_path):
    """A cut-off write (no closing braces) must not lose the deny rules: that would loosen."""
    from bastion.policy.settings import load_policy

    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "BASTION_CONFIG_DIR": str(tmp_path / "cfg"), "BASTION_STATE_DIR": str(tmp_path / "st"),
           "BASTION_MANAGED_SETTINGS": str(tmp_path / "m.json")}
    flag = tmp_path / "cut.json"
    flag.write_text('{"permissions": {"allow": ["Bash"], "deny": ["Bash(git push:*)"], "ask": ["Bash(npm publish:*)"]')
    policy = load_policy(str(tmp_path), isolated=True, extra_files=[str(flag)], env=env)
    texts = {(r.behavior, r.text) for r in policy.rules}
    assert ("deny", "Bash(git push:*)") in texts and ("ask", "Bash(npm publish:*)") in texts
    assert not any(b == "allow" for b, _ in texts)
    assert any(str(flag) in e for e in policy.errors)


def test_files_protections_add_up_and_an_untrusted_project_can_only_add(tmp_path):
    import json

    from bastion.policy.settings import load_policy

    home = tmp_path / "home"
    (home).mkdir()
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "settings.json").write_text(json.dumps({"files": {"protected": [".husky"]}}))
    project = tmp_path / "proj"
    (project / ".bastion").mkdir(parents=True)
    (project / ".bastion" / "settings.json").write_text(json.dumps({"files": {"protected": ["deploy"]}}))
    env = {"HOME": str(home), "BASTION_CONFIG_DIR": str(cfg), "BASTION_STATE_DIR": str(tmp_path / "st"),
           "BASTION_MANAGED_SETTINGS": str(tmp_path / "m.json")}
    policy = load_policy(str(project), env=env)
    assert not policy.trusted
    assert set(policy.section("files")["protected"]) == {".husky", "deploy"}
