"""bastion's stand-ins for standard-library helpers that would import ``re`` give the
standard library's answers: ``shlex.quote``/``shlex.join`` (``shell.syntax.quoting``),
``fnmatch.fnmatchcase`` (``shell.syntax.wildcards``), ``re.escape`` (``re_escape``)."""

from __future__ import annotations

import fnmatch
import re
import shlex
import subprocess
import sys

import pytest

from bastion.re_escape import escape
from bastion.shell.syntax.quoting import join, quote
from bastion.shell.syntax.wildcards import fnmatchcase

#: Words a command line carries: empty, safe, quotes of both kinds, blanks and control
#: characters, every punctuation mark, shell syntax, non-ASCII letters and digits (``\w``
#: is ASCII-only for ``shlex``), surrogates, emoji.
WORDS = [
    "", "a", "git", "status", "-la", "--x=1", "a b", " ", "'", "''", '"', "it's", 'say "hi"', "a'b\"c", "\\", "\\'",
    "$HOME", "${x}", "`id`", "$(id)", "a;b", "a|b", "a&&b", "a>b", "<in", "~", "~/x", "*.py", "[ab]", "?", "!",
    "#c", "a\nb", "\t", "\x00", "\x7f", "é", "café", "naïve", "日本", "١٢٣", "Ⅻ", "ß", "\u200b", "\U0001f600",
    "\ud800", "@%+=:,./-", "_", "x_y", "A-Z", "a/b/c.txt", "==", "100%", "a,b", "+", "%", "@", ":",
    *(chr(c) for c in range(0, 0x250)),
]


@pytest.mark.parametrize("word", WORDS)
def test_quote_is_shlex_quote(word: str) -> None:
    assert quote(word) == shlex.quote(word)


def test_join_is_shlex_join() -> None:
    for start in range(0, len(WORDS), 7):
        words = WORDS[start:start + 9]
        assert join(words) == shlex.join(words)
        assert join(iter(words)) == shlex.join(iter(words))
    assert join([]) == shlex.join([]) == ""


def test_quote_refuses_what_shlex_refuses() -> None:
    with pytest.raises(TypeError):
        shlex.quote(b"a b")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        quote(b"a b")  # type: ignore[arg-type]


#: Patterns: literal (no wildcard), ``*`` only (the shortcut), and those left to fnmatch.
PATTERNS = [
    "", "a", "abc", "test_x.py", "/tmp/a", ".", "a.b", "a\\b", "a]b", "a-b", "a^b", "a$", "(a)", "a+", "{a,b}",
    "*", "**", "***", "*.py", "test_*.py", "*_test.py", "*test*", "a*", "*a", "a*a", "a*a*a", "ab*ab", "*ab*ab*",
    "/tmp/*", "/tmp/*/x", "*/", "a*b*c*d", "*.*", "\n*", "*\n", "é*", "*日本*", "a\\*",
    "?", "a?c", "[ab]", "[!a]*", "[]]", "[", "a[", "[a-", "*[0-9]", "test_?.py", "[^a]b",
]
NAMES = [
    "", "a", "b", "aa", "aaa", "abc", "abab", "ababab", "ab", "ba", "test_x.py", "test_.py", "x_test.py", "_test.py",
    "test_a_test.py", "test.py", "a.py", ".py", "py", "/tmp/a", "/tmp/", "/tmp/a/x", "/tmp/a/b/x", "/tmpx",
    "a.b", "ab", "a\\b", "a]b", "a-b", "a^b", "a$", "(a)", "a+", "{a,b}", "adcbd", "abcd", "axbxcxd", "a\nb",
    "\n", "x\n", "\nx", "é", "éé", "日本", "x日本y", "a*", "a\\x", "?", "]", "[", "a[", "[a-", "x9", "test_1.py",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_fnmatchcase_is_fnmatchs(pattern: str) -> None:
    for name in NAMES + PATTERNS:
        assert fnmatchcase(name, pattern) is fnmatch.fnmatchcase(name, pattern), (name, pattern)


def test_fnmatchcase_is_fnmatchs_on_many_short_strings() -> None:
    """Every pattern of up to five of ``a``, ``b``, ``/``, ``*`` against every name of up
    to five of ``a``, ``b``, ``/``: where a greedy or an overlapping match would go wrong."""
    import itertools

    names = ["".join(p) for n in range(6) for p in itertools.product("ab/", repeat=n)]
    for n in range(6):
        for pattern in map("".join, itertools.product("ab/*", repeat=n)):
            for name in names:
                assert fnmatchcase(name, pattern) is fnmatch.fnmatchcase(name, pattern), (name, pattern)


def test_fnmatchcase_without_class_or_question_mark_needs_no_fnmatch() -> None:
    """The shortcut answers ``*``-only and literal patterns by string tests alone."""
    code = ("import sys\nfrom bastion.shell.syntax.wildcards import fnmatchcase\n"
            "print([fnmatchcase('test_1.py', 'test_*.py'), fnmatchcase('a.txt', '*_test.py'), fnmatchcase('x', 'x'), "
            "fnmatchcase('/tmp/a/b', '/tmp/*'), 'fnmatch' in sys.modules])")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[True, False, True, True, False]"


@pytest.mark.parametrize("text", [*WORDS, "".join(WORDS), "".join(chr(c) for c in range(0x3000)), "a-b", "x.y*z"])
def test_escape_is_re_escape(text: str) -> None:
    assert escape(text) == re.escape(text)
