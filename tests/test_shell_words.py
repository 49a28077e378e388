"""Word decoding: every quoting and escape form, brace expansion, look-alike letters.

The decoding table is also checked against real bash (``printf '%s\\0' WORDS`` run
with no PATH in an empty directory), so the expectations are bash's, not ours.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bastion.model import Severity
from bastion.shell.syntax.parse import parse
from bastion.shell.syntax.words import (
    decode_ansi_c,
    expand_braces,
    skeleton,
    unescape_double_quoted,
    unescape_unquoted,
    word_findings,
)


def argv_of(command: str) -> tuple[str, ...]:
    result = parse(command)
    assert not result.complex, (command, result.reason)
    assert len(result.commands) == 1, result.commands
    return result.commands[0].argv


# (words as written after "printf '%s\0' ", the argv bash passes)
DECODING = [
    ("plain", ("plain",)),
    ("'single quoted'", ("single quoted",)),
    ('"double quoted"', ("double quoted",)),
    ("a'b'c\"d\"e", ("abcde",)),
    ("back\\slash", ("backslash",)),
    ("a\\ b", ("a b",)),
    ("\\'quote\\'", ("'quote'",)),
    ('"a\\"b"', ('a"b',)),
    ('"\\$x \\`y\\` \\\\ \\q"', ("$x `y` \\ \\q",)),
    ("'no \\escapes \\n here'", ("no \\escapes \\n here",)),
    ("$'\\x41\\x42'", ("AB",)),
    ("$'\\101\\102\\7'", ("AB\x07",)),
    ("$'\\u00e9\\U0001F600'", ("é\U0001F600",)),
    ("$'a\\tb\\nc\\\\d\\'e\\\"f'", ("a\tb\nc\\d'e\"f",)),
    ("$'\\e[0m\\E'", ("\x1b[0m\x1b",)),
    ("$'\\cA\\c[\\c?\\c\\\\'", ("\x01\x1b\x7f\x1c",)),
    ("$'\\q\\z'", ("\\q\\z",)),
    ("$'\\x4'", ("\x04",)),
    ("$'\\xZZ'", ("\\xZZ",)),
    ("$'cut\\0off'", ("cut",)),
    ('$"translated"', ("translated",)),
    ("x$'\\x2d'y'z'\"w\"", ("x-yzw",)),
    ("a{b,c}d", ("abd", "acd")),
    ("{1..3}", ("1", "2", "3")),
    ("{01..03}", ("01", "02", "03")),
    ("{a..c}", ("a", "b", "c")),
    ("{1..7..3}", ("1", "4", "7")),
    ("{3..1}", ("3", "2", "1")),
    ("x{,.bak}", ("x", "x.bak")),
    ("{a,{b,c}d}", ("a", "bd", "cd")),
    ("{a,b}{1,2}", ("a1", "a2", "b1", "b2")),
    ('"{a,b}"', ("{a,b}",)),
    ("\\{a,b}", ("{a,b}",)),
    ("{a}", ("{a}",)),
    ("{}", ("{}",)),
    ("a{b,c'}'", ("a{b,c}",)),
    ("{1..a}", ("{1..a}",)),
    ("100%", ("100%",)),
    ("a=b", ("a=b",)),
    ("--flag=value", ("--flag=value",)),
    ("'' \"\"", ("", "")),
]


@pytest.mark.parametrize("words, expected", DECODING)
def test_decoding_table(words: str, expected: tuple[str, ...]) -> None:
    assert argv_of(f"printf '%s\\0' {words}")[2:] == expected


_BASH = shutil.which("bash")


def bash_argv(words: str, tmp_path) -> tuple[str, ...]:
    out = subprocess.run(
        [_BASH, "--norc", "--noprofile", "-c", f"printf '%s\\0' START {words}"],
        capture_output=True,
        env={"PATH": "/nonexistent", "HOME": str(tmp_path), "LC_ALL": "C.UTF-8"},
        cwd=tmp_path,
        timeout=10,
    )
    assert out.returncode == 0, out.stderr
    return tuple(part.decode("utf-8", "surrogateescape") for part in out.stdout.split(b"\0")[1:-1])


@pytest.mark.skipif(_BASH is None, reason="bash is not installed")
@pytest.mark.parametrize("words, expected", DECODING)
def test_decoding_table_matches_bash(words: str, expected: tuple[str, ...], tmp_path) -> None:
    if "$'cut\\0off'" in words:
        pytest.skip("bash's printf stops the whole string at the NUL differently")
    assert bash_argv(words, tmp_path) == expected


_ALPHABET = st.sampled_from(list("ab-,.{}'\"\\ $") + ["$'\\x41'", "\\ ", "{a,b}", "{1..2}", "''", '""'])


@pytest.mark.skipif(_BASH is None, reason="bash is not installed")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(_ALPHABET, min_size=1, max_size=12).map("".join))
def test_decoding_agrees_with_bash_on_random_words(tmp_path, words: str) -> None:
    """Whenever bastion calls a word literal, bash must produce exactly those words."""
    result = parse(f"printf '%s\\0' {words}")
    if result.complex or len(result.commands) != 1:
        return  # refused: nothing to compare (and nothing trusted)
    ours = result.commands[0].argv[2:]
    assert bash_argv(words, tmp_path) == ours, words


@pytest.mark.parametrize(
    "command, name",
    [
        ("\\rm -rf x", "rm"),
        ("'r'm -rf x", "rm"),
        ('r""m -rf x', "rm"),
        ("$'\\x72\\x6d' -rf x", "rm"),
        ("$'\\162\\155' -rf x", "rm"),
        ("/bin/rm -rf x", "rm"),
        ("\"/usr/bin/\"rm -rf x", "rm"),
    ],
)
def test_command_name_normalisation(command: str, name: str) -> None:
    result = parse(command)
    assert [c.name for c in result.commands] == [name]
    assert result.commands[0].args == ("-rf", "x")


@pytest.mark.parametrize(
    "command, expected",
    [
        ("ls $HOME/.ssh", "~/.ssh"),
        ('ls "$HOME/.ssh"', "~/.ssh"),
        ("ls ${HOME}/.ssh", "~/.ssh"),
        ('ls "${HOME}"/.ssh', "~/.ssh"),
        ("ls $HOME", "~"),
        ("ls ~/.ssh", "~/.ssh"),
    ],
)
def test_home_is_read_as_tilde(command: str, expected: str) -> None:
    assert argv_of(command) == ("ls", expected)


@pytest.mark.parametrize("command", ["ls ${HOME}x", "ls $HOMEDIR", "ls x$HOME", 'ls "a$HOME"'])
def test_home_elsewhere_is_an_expansion(command: str) -> None:
    assert parse(command).complex


def test_string_helpers() -> None:
    assert unescape_unquoted("a\\ b\\\nc\\") == "a bc\\"
    assert unescape_double_quoted('\\a\\$\\"') == '\\a$"'
    assert decode_ansi_c("\\u0041\\x") == "A\\x"
    assert decode_ansi_c("\\U0000D800") == "\ufffd"
    assert expand_braces("{a,b}", [True] * 5) == ["a", "b"]
    assert expand_braces("{a,b}", [False] * 5) == ["{a,b}"]


def test_brace_limit_is_too_complex() -> None:
    result = parse("echo {1..100000}")
    assert result.complex and "brace expansion" in result.reason
    result = parse("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")
    assert result.complex


@pytest.mark.parametrize(
    "word, looks_like",
    [
        ("\u0441url", "curl"),  # Cyrillic es
        ("r\u043c", "rm"),  # Cyrillic em
        ("\u0440ython", "python"),  # Cyrillic er
        ("\u03bfpen", "open"),  # Greek omicron
        ("\uff52\uff4d", "rm"),  # fullwidth
        ("\U0001d42b\U0001d426", "rm"),  # mathematical bold
        ("g\u0131t", "git"),  # dotless i
    ],
)
def test_confusable_command_names(word: str, looks_like: str) -> None:
    assert skeleton(word) == looks_like
    findings = word_findings(word, is_name=True)
    assert findings and findings[0].code == "SH025" and findings[0].severity is Severity.HIGH
    assert looks_like in findings[0].message
    result = parse(f"{word} -x")
    assert any(f.code == "SH025" for f in result.findings)


@pytest.mark.parametrize(
    "word, what",
    [
        ("r\u200bm", "invisible"),
        ("rm\u202e", "bidirectional"),
        ("r\u00a0m", "Unicode space"),
        ("r\x1bm", "control character"),
        ("r\U000e0041m", "invisible"),
    ],
)
def test_hidden_characters_in_names(word: str, what: str) -> None:
    findings = word_findings(word, is_name=True)
    assert any(what in f.message and f.severity is Severity.HIGH for f in findings), findings


@pytest.mark.parametrize("word", ["café", "日本語", "naïve", "Straße", "привет", "hello world", "tab\there"])
def test_ordinary_text_is_not_flagged_as_argument(word: str) -> None:
    assert word_findings(word, is_name=False) == []


def test_mixed_script_argument_is_flagged() -> None:
    findings = word_findings("/\u0435tc/passwd", is_name=False)  # Cyrillic ie
    assert findings and findings[0].severity is Severity.HIGH


def test_ansi_c_hidden_name_is_found_after_decoding() -> None:
    result = parse("$'r\\u200bm' -rf x")
    assert any(f.code == "SH025" for f in result.findings)
