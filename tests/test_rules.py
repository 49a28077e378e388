"""Rule grammar and matching (spec 002 §12.3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bastion.model import ToolCall
from bastion.policy.rules import Rule, RuleError, normalize_command, parse_rule

BASE = "/proj"
HOME = "/home/u"


def rule(text: str, behavior: str = "allow", base: str = BASE) -> Rule:
    return parse_rule(text, behavior, source="user", origin="/x/settings.json", base_dir=base)


# --------------------------------------------------------------------------- parsing

PARSED = [
    # text, tool, content
    ("Bash", "Bash", None),
    ("Bash()", "Bash", None),
    ("Bash(*)", "Bash", None),
    ("  Bash(ls)  ", "Bash", "ls"),
    ("run_shell_command(ls -la)", "Bash", "ls -la"),
    ("exec_command(git status)", "Bash", "git status"),
    ("MultiEdit(src/**)", "Edit", "src/**"),
    ("write_file(a.txt)", "Write", "a.txt"),
    ("Read", "Read", None),
    ("Bash(echo \\(x\\))", "Bash", "echo (x)"),
    ("Bash(python -c print(1))", "Bash", "python -c print(1)"),
    ("WebFetch(domain:example.com)", "WebFetch", "domain:example.com"),
    ("mcp__github", "mcp__github", None),
    ("mcp__github__create_issue", "mcp__github__create_issue", None),
    ("mcp__github__*", "mcp__github__*", None),
    ("Task(Explore)", "Task", "Explore"),
]


@pytest.mark.parametrize("text,tool,content", PARSED)
def test_parse_forms(text: str, tool: str, content: str | None) -> None:
    r = rule(text)
    assert (r.tool, r.content) == (tool, content)
    assert r.text == text.strip()
    assert r.behavior == "allow" and r.source == "user" and r.base_dir == BASE


MALFORMED = [
    ("", "empty rule"),
    ("   ", "empty rule"),
    ("Bash(", "unbalanced"),
    ("Bash)", "unbalanced"),
    ("Bash(ls))", "unbalanced"),
    ("Bash((ls)", "unbalanced"),
    ("Bash(ls \\)", "escaped"),
    ("Bash(ls)x", "after the closing"),
    ("(ls)", "empty tool name"),
    ("Bahs", "unknown tool 'Bahs' (did you mean Bash?)"),  # a tool nobody has, near a known one
    ("Frobnicate(x)", "no content"),  # a tool bastion does not know takes no content
    ("Ba sh(ls)", "invalid tool name"),
    ("Bas*", "wildcards"),
    ("mcp__", "mcp__server"),
    ("mcp__srv__", "mcp__server"),
    ("mcp__srv(x)", "no content"),
    ("Bash(:*)", "empty prefix"),
    ("WebFetch(example.com)", "domain:HOST"),
    ("WebFetch(domain:)", "invalid domain"),
    ("WebFetch(domain:a.com/x)", "invalid domain"),
    ("TodoWrite(x)", "no content"),
]


@pytest.mark.parametrize("text,needle", MALFORMED)
def test_malformed_rules(text: str, needle: str) -> None:
    with pytest.raises(RuleError) as info:
        rule(text)
    message = str(info.value)
    assert needle in message
    assert "\n" not in message


def test_bad_behavior_is_rule_error() -> None:
    with pytest.raises(RuleError, match="behavior"):
        parse_rule("Bash", "maybe", source="user")


def test_non_string_rule_is_rule_error() -> None:
    with pytest.raises(RuleError, match="must be a string"):
        parse_rule(42, "allow", source="user")  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_parse_never_raises_anything_but_rule_error(text: str) -> None:
    try:
        r = parse_rule(text, "deny", source="user", base_dir=BASE)
    except RuleError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(r, Rule)
    # a parsed rule must also be safe to match against anything
    r.matches_command(text)
    r.matches_path("/proj/" + text.replace("\x00", ""), home=HOME)
    r.matches_url("https://" + text)


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"(Bash|Read|Edit|WebFetch|mcp__[a-z_]{0,5})(\(.{0,15}\))?", fullmatch=True))
def test_parse_structured_noise(text: str) -> None:
    try:
        parse_rule(text, "allow", source="user", base_dir=BASE)
    except RuleError:
        pass


# --------------------------------------------------------------------------- Bash

COMMANDS = [
    # rule content, command, expected
    ("npm install", "npm install", True),  # exact
    ("npm install", "npm install lodash", False),
    ("npm install", "npm  install", True),  # whitespace normalised
    ("npm   install", "npm install", True),
    ("npm test:*", "npm test", True),  # legacy prefix
    ("npm test:*", "npm test --coverage", True),
    ("npm test:*", "npm testing", False),  # boundary: end or space
    ("npm test:*", "npm", False),
    ("npm:*", "npm", True),
    ("npm:*", "npmx install", False),
    ("git * --no-verify", "git commit --no-verify", True),  # wildcard
    ("git * --no-verify", "git commit", False),
    ("git * --no-verify", "git commit --no-verify --amend", False),  # anchored
    ("git *", "git", True),  # lone trailing ` *` is optional
    ("git *", "git push origin", True),
    ("git *", "gitk", False),
    ("git * *", "git", False),  # two stars: the tail is not optional
    ("git * *", "git a b", True),
    ("* --help", "ls --help", True),
    ("* --help", "ls --help; rm", False),
    ("echo \\*", "echo *", True),  # escaped star is literal
    ("echo \\*", "echo hello", False),
    ("rm \\* *", "rm * -f", True),
    ("rm \\* *", "rm *", True),  # only unescaped stars count: the tail is still optional
    ("rm \\* *", "rm x", False),
    ("ls\\\\", "ls\\", True),  # escaped backslash
    ("cat a.txt", "cat aXtxt", False),  # regex metacharacters are literal
    ("echo a.* *", "echo a.* x", True),
    ("echo a.*:*", "echo abc", False),
    ("echo (x)", "echo (x)", True),
    ("kubectl get *:*", "kubectl get pods -A", True),  # stars inside a prefix rule
]


@pytest.mark.parametrize("content,command,expected", COMMANDS)
def test_matches_command(content: str, command: str, expected: bool) -> None:
    r = rule(f"Bash({content.replace('(', chr(92) + '(').replace(')', chr(92) + ')')})")
    assert r.matches_command(command) is expected


def test_whole_tool_bash_matches_every_command() -> None:
    assert rule("Bash").matches_command("anything at all")
    assert not rule("Read").matches_command("ls")


def test_many_stars_are_linear_time() -> None:
    r = rule("Bash(" + "a*" * 30 + "b)")
    assert not r.matches_command("a" * 5000)


def test_command_with_lone_surrogate_still_matches() -> None:
    assert rule("Bash(rm *)", "deny").matches_command("rm \ud800")


@pytest.mark.parametrize("text", ["Bash(rm \ud800*)", "Read(\udc80.txt)", "Bash(rm \ud800)"])
def test_lone_surrogates_in_rules_are_rule_errors(text: str) -> None:
    with pytest.raises(RuleError, match="UTF-8"):
        rule(text)


def test_path_matching_survives_odd_text() -> None:
    r = rule("Read(~/x/**)", "deny")
    assert r.matches_path("/home/\udcff/x/y", home="/home/\udcff")  # HOME with undecodable bytes
    assert not rule("Read(*.txt)").matches_path("/proj/\ud800", home=HOME)


def test_invalid_path_class_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="cannot compile"):
        rule("Read(file[z-a].txt)")


def test_normalize_command() -> None:
    assert normalize_command("  a \t b\n c ") == "a b c"


# --------------------------------------------------------------------------- paths

PATHS = [
    # rule text, path, expected
    ("Read(//etc/**)", "/etc/passwd", True),  # // absolute
    ("Read(//etc/**)", "/proj/etc/passwd", False),
    ("Read(//etc/passwd)", "/etc/passwd", True),
    ("Read(~/.ssh/**)", f"{HOME}/.ssh/id_rsa", True),  # ~/ home
    ("Read(~/.ssh/**)", "/proj/.ssh/id_rsa", False),
    ("Read(~)", f"{HOME}/anything", True),
    ("Edit(/src/**)", "/proj/src/a/b.py", True),  # / = base_dir
    ("Edit(/src/**)", "/src/a.py", False),
    ("Edit(./src/*.py)", "/proj/src/a.py", True),  # ./ = base_dir
    ("Edit(./src/*.py)", "/proj/src/sub/a.py", False),  # * stays in one segment
    ("Edit(src/**/*.py)", "/proj/src/a.py", True),  # ** zero segments
    ("Edit(src/**/*.py)", "/proj/src/x/y/a.py", True),
    ("Edit(src/**/*.py)", "/proj/lib/src/a.py", False),  # has a slash: anchored
    ("Edit(src/)", "/proj/src/deep/file", True),  # directory covers below
    ("Edit(src)", "/proj/src/deep/file", True),
    ("Edit(src)", "/proj/lib/src/file", True),  # bare name: any depth
    ("Edit(src)", "/proj/srcx/file", False),
    ("Read(.env)", "/proj/.env", True),
    ("Read(.env)", "/proj/app/.env", True),
    ("Read(.env)", "/elsewhere/.env", False),
    ("Read(*.key)", "/proj/certs/server.key", True),
    ("Read(file?.txt)", "/proj/file1.txt", True),
    ("Read(file?.txt)", "/proj/file12.txt", False),
    ("Read(file[0-9].txt)", "/proj/file7.txt", True),
    ("Read(file[!0-9].txt)", "/proj/file7.txt", False),
    ("Read(../shared/**)", "/shared/x", True),  # .. normalised
    ("Read(**)", "/proj/any/thing", True),
    ("Read(**)", "/other/thing", False),
    ("Read(Secret.txt)", "/proj/secret.txt", False),  # case-sensitive
    ("Write(a+b.txt)", "/proj/a+b.txt", True),  # metacharacters literal
    ("Write(a+b.txt)", "/proj/aab.txt", False),
]


@pytest.mark.parametrize("text,path,expected", PATHS)
def test_matches_path(text: str, path: str, expected: bool) -> None:
    assert rule(text).matches_path(path, home=HOME) is expected


def test_base_dir_with_glob_characters_is_literal() -> None:
    r = rule("Edit(/src/**)", base="/work/[x]*")
    assert r.matches_path("/work/[x]*/src/a", home=HOME)
    assert not r.matches_path("/work/x-anything/src/a", home=HOME)


def test_user_settings_anchor_at_home() -> None:
    r = rule("Read(/notes/**)", base=HOME)
    assert r.matches_path(f"{HOME}/notes/a.md", home=HOME)


# --------------------------------------------------------------------------- web

WEB = [
    ("WebFetch(domain:example.com)", "https://example.com/a", True),
    ("WebFetch(domain:example.com)", "https://docs.example.com/a", True),  # subdomain
    ("WebFetch(domain:example.com)", "https://badexample.com/", False),
    ("WebFetch(domain:example.com)", "https://example.com.evil.org/", False),
    ("WebFetch(domain:Example.COM)", "https://EXAMPLE.com:8443/x", True),
    ("WebFetch(domain:*.example.com)", "https://a.example.com", True),
    ("WebFetch(https://example.com/docs)", "https://example.com/docs/intro", True),  # URL prefix
    ("WebFetch(https://example.com/docs)", "https://example.com/docs", True),
    ("WebFetch(https://example.com/docs)", "https://example.com/docs-private", False),
    ("WebFetch(https://example.com)", "https://example.com.evil.org/", False),
    ("WebFetch(https://example.com/)", "HTTPS://Example.com/x", True),
    ("WebFetch(https://*.example.com/*)", "https://a.example.com/b", True),
]


@pytest.mark.parametrize("text,url,expected", WEB)
def test_web_rules(text: str, url: str, expected: bool) -> None:
    r = rule(text)
    call = ToolCall("WebFetch", {"url": url, "prompt": "x"})
    assert r.matches(call, home=HOME) is expected
    assert r.matches_url(url) is expected


def test_matches_domain() -> None:
    r = rule("WebFetch(domain:example.com)")
    assert r.matches_domain("api.example.com") and not r.matches_domain("example.org")
    assert not rule("WebFetch(https://example.com)").matches_domain("example.com")


# --------------------------------------------------------------------------- tool coverage

APPLIES = [
    # rule text, tool of the call, expected
    ("Bash", "Bash", True),
    ("Bash", "run_shell_command", True),
    ("Bash", "shell", True),
    ("Bash", "Write", False),
    ("Edit", "Edit", True),
    ("Edit", "MultiEdit", True),
    ("Edit", "Write", True),  # Edit governs every file-editing tool
    ("Edit", "write_file", True),
    ("Edit", "apply_patch", True),
    ("Write", "Edit", True),
    ("Edit", "Read", False),
    ("Read", "Read", True),
    ("Read", "read_file", True),
    ("Read", "Glob", True),  # Read governs search tools too
    ("Read", "Grep", True),
    ("Read", "LS", True),
    ("Glob", "Read", False),
    ("Glob", "list_directory", True),
    ("Grep", "Glob", False),
    ("WebFetch", "web_fetch", True),
    ("TodoWrite", "write_todos", True),
    ("mcp__github", "mcp__github__create_issue", True),
    ("mcp__github", "mcp__gitlab__create_issue", False),
    ("mcp__github", "mcp__githubx__a", False),
    ("mcp__github__create_issue", "mcp__github__create_issue", True),
    ("mcp__github__create_issue", "mcp__github__delete_repo", False),
    ("mcp__github__*", "mcp__github__delete_repo", True),
    ("mcp__github__*", "Bash", False),
]


@pytest.mark.parametrize("text,tool,expected", APPLIES)
def test_applies_to(text: str, tool: str, expected: bool) -> None:
    r = rule(text)
    call = ToolCall(tool, {})
    assert r.applies_to(call) is expected
    assert r.matches(call, home=HOME) is expected  # no content: the tool part decides


def test_matches_shell_whole_command() -> None:
    r = rule("Bash(npm test:*)")
    assert r.matches(ToolCall("Bash", {"command": "npm  test -x"}), home=HOME)
    assert r.matches(ToolCall("shell", {"command": ["npm", "test", "--ci"]}), home=HOME)
    assert not r.matches(ToolCall("Bash", {"command": "npm publish"}), home=HOME)
    assert not r.matches(ToolCall("Bash", {}), home=HOME)


def test_matches_file_call_with_resolved_path() -> None:
    r = rule("Edit(/src/**)")
    call = ToolCall("Write", {"file_path": "ignored"}, cwd="/proj")
    assert r.matches(call, home=HOME, path="/proj/src/a.py")
    assert not r.matches(call, home=HOME, path="/proj/README.md")


def test_matches_file_call_falls_back_to_call_paths() -> None:
    call = ToolCall("read_many_files", {"paths": ["src/a.py", "/etc/passwd"]}, cwd="/proj")
    assert not rule("Read(/src/**)", "allow").matches(call, home=HOME)  # allow: all paths
    assert rule("Read(/src/**)", "deny").matches(call, home=HOME)  # deny: any path
    assert rule("Read(~/x)", "deny").matches(ToolCall("Read", {"file_path": "~/x/y"}), home=HOME)
    assert not rule("Read(/src/**)", "deny").matches(ToolCall("Read", {}), home=HOME)


def test_input_content_rules() -> None:
    r = rule("Task(Explore)")
    assert r.matches(ToolCall("Task", {"subagent_type": "Explore"}), home=HOME)
    assert not r.matches(ToolCall("Task", {"subagent_type": "general"}), home=HOME)


def test_matches_example_per_kind() -> None:
    assert rule("Bash(npm test:*)").matches_example("npm test -- -x", home=HOME)
    assert rule("Edit(/src/**)").matches_example("src/a.py", home=HOME)
    assert rule("Edit(/src/**)").matches_example("/src/a.py", home=HOME)  # anchored like the rule
    assert not rule("Edit(/src/**)").matches_example("//src/a.py", home=HOME)
    assert rule("Read(~/.ssh/**)").matches_example("~/.ssh/id", home=HOME)
    assert rule("WebFetch(domain:example.com)").matches_example("a.example.com", home=HOME)
    assert rule("WebFetch(domain:example.com)").matches_example("https://example.com/", home=HOME)
    assert rule("mcp__github").matches_example("mcp__github__x", home=HOME)
    assert not rule("mcp__github").matches_example("Bash", home=HOME)


def test_display_and_equality() -> None:
    assert rule("run_shell_command(echo \\(x\\))").display == "Bash(echo \\(x\\))"
    assert rule("Bash(ls)") == rule("Bash(ls)")
    assert len({rule("Bash(ls)"), rule("Bash(ls)")}) == 1
