"""The shell parser's cheaper paths give what the plain definitions give.

Each fast path of the parser and its validators (which validators a text runs, escapes
and ``#`` outside quotes, comments found at each ``#``, the look-alike skeleton, the
hidden-character classes, a long concatenated word, a program's imports) is compared
here with the straightforward reading it replaced, on hand-written cases and on
generated ones (seeded, so every run checks the same texts).
"""

from __future__ import annotations

import random
import re
import unicodedata

import pytest

from bastion.shell.syntax.carried import module_files
from bastion.shell.syntax.parse import _parser, parse
from bastion.shell.syntax.validators import VALIDATORS, _chosen
from bastion.shell.syntax.validators._escapes import unquoted_escape
from bastion.shell.syntax.validators.sh019_inword_hash import _inner_hash
from bastion.shell.syntax.words import CONFUSABLES, _class_re, _confusable_table, char_class, skeleton

_ALPHABET = ["a", "b", "'", '"', "\\", "#", "$", ";", " ", "|", "&", "<", ">", "(", ")", "\t", "\n", "=", "é", "\x01"]


def _generated(count: int, seed: int, longest: int = 14) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(_ALPHABET) for _ in range(rnd.randint(0, longest))) for _ in range(count)]


_TEXTS = [
    "git status", "ls -la\tsrc", "a\nb", "echo $(date)", "echo `id`", "cat <(ls)", "x=$[1+2]", "IFS=: read a",
    "cat /proc/1/environ", "ls ~[fn]", "echo $'\\x41'", "cat <<EOF\nx\nEOF", "printf 'a\x07b'", "echo café",
    "rm -rf\u00a0/tmp/x", "ls *(e:'rm':)", "echo a#b", "\x7f", "tab\there", "",
]


def _chosen_by_definition(source: str) -> list[int]:
    """The registry's rule as written: a trigger occurs, or it always runs, or a
    non-ASCII text runs it."""
    return [index for index, entry in enumerate(VALIDATORS)
            if entry.trigger is None or any(t in source for t in entry.trigger)
            or (entry.on_non_ascii and not source.isascii())]


def test_validators_chosen_as_the_registry_says() -> None:
    for source in _TEXTS + _generated(3000, seed=1):
        assert _chosen(source) == _chosen_by_definition(source), source


_QUOTED_OR_ESCAPED = re.compile(r"""(?s)'[^']*'?|"(?:[^"\\]+|\\.?)*"?|\\(.)""")
_QUOTED_OR_HASH = re.compile(r"""'[^']*'?|"[^"]*"?|(?<=[^\\$])#""")


def _escape_by_scan(raw: str, chars: str | frozenset[str]) -> str | None:
    """The first escape outside quotes with its character in ``chars``, span by span."""
    for match in _QUOTED_OR_ESCAPED.finditer(raw):
        if match.group(1) is not None and match.group(1) in chars:
            return match.group()
    return None


def test_unquoted_escape_as_a_scan_of_spans_gives() -> None:
    for raw in ["notes\\;rm", "'a\\;b'", '"a\\"\\;"', "\\\\;", "a\\", "\\'x\\;'", "\\ x", "'\\' \\|",
                *_generated(4000, seed=2)]:
        for chars in (frozenset(";|&<>"), " \t"):
            assert unquoted_escape(raw, chars) == _escape_by_scan(raw, chars), raw


def test_inner_hash_as_a_scan_of_spans_gives() -> None:
    for raw in ["a#b", "#a", "$#", "\\#", "'a#b'", "'a'#b", '"a"#', "'a#", "x'#'y#", *_generated(4000, seed=3)]:
        assert _inner_hash(raw) == any(m.group() == "#" for m in _QUOTED_OR_HASH.finditer(raw)), raw


@pytest.mark.parametrize("text", ["раураl", "ﬁle", "Ａｂｃ", "ｃurl", "café ☕", "".join(CONFUSABLES) + "abc",
                                  "print('ο')\n" * 50, "e\u0301", "x\u200by"])
def test_skeleton_is_the_translated_normal_form(text: str) -> None:
    assert skeleton(text) == unicodedata.normalize("NFKC", text).translate(_confusable_table())


@pytest.mark.parametrize("text", ["plain", "café", "a\u200bb", "a\u202eb", "a\u00a0b", "a\x07b", "\u2066x\u3000\x01",
                                  "ok" * 500 + "\ufe0f"])
def test_char_class_reports_each_class_found(text: str) -> None:
    expected = {name: m.group() for name in ("invisible", "bidi", "space", "control")
                if (m := _class_re(name).search(text))}
    assert char_class(text) == expected


_SCRIPTS = [
    "ls # it's fine\nrm -rf ~", "echo \"#\" x#y $(echo a # c\n)", "f() { # c\n :; }", "a <<E\n#x\nE\n#y",
    "case a in #x\n a) ;; esac", "echo $# ${#a} \\#x", "`echo #x`", "echo #a\\\n#b", "[[ a ]] #c", "#!/bin/sh\n# one\n",
]


@pytest.mark.parametrize("script", _SCRIPTS)
def test_every_comment_starts_at_a_hash(script: str) -> None:
    """What the glued-comment check and SH022 rely on: a comment is the leaf at its ``#``."""
    data = script.encode() + b"\n"
    root = _parser().parse(data).root_node
    walked, stack = set(), [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            walked.add(node.start_byte)
        stack.extend(node.named_children)
    at_hashes = {at for at, ch in enumerate(script) if ch == "#"
                 if (n := root.named_descendant_for_byte_range(at, at + 1)) is not None
                 and n.type == "comment" and n.start_byte == at}
    assert at_hashes == walked


@pytest.mark.parametrize(("command", "argv", "codes", "reason"), [
    ('echo x$"y"{1,2}', ("echo", "xy1", "xy2"), {"SH016"}, ""),
    ("echo a$'b'{c,d}e", ("echo", "abce", "abde"), {"SH016"}, ""),
    ("echo '{a,b}'{c,d}", ("echo", "{a,b}c", "{a,b}d"), {"SH016"}, ""),
    ("rm x\\\n#y", ("rm", "x"), set(), "comment glued to a word by a line continuation"),
    ("ls # it's fine\nrm -rf ~", ("ls",), {"SH007", "SH022"}, ""),
    ("ls  # it's the last line", ("ls",), set(), ""),
    ("echo a#b 'c#d' \\#e", ("echo", "a#b", "c#d", "#e"), {"SH019"}, ""),
    ("cat notes\\;rm -rf ~", ("cat", "notes;rm", "-rf", "~"), {"SH005", "SH021"}, ""),
    ("ls '*(e:x:)'", ("ls", "*(e:x:)"), set(), ""),
])
def test_parse_results_through_the_fast_paths(command: str, argv: tuple[str, ...], codes: set[str],
                                              reason: str) -> None:
    result = parse(command)
    assert result.commands[0].argv == argv
    assert {f.code for f in result.findings} == codes
    assert getattr(result, "reason", "") == reason


def test_glob_qualifier_message_names_the_qualifier() -> None:
    found = [f.message for f in parse("ls *(e:'rm -rf ~':)").findings if f.code == "SH024"]
    assert found == ["zsh glob qualifier '(e:' runs code while matching"]


def test_long_word_with_many_quotes_decodes_to_its_text() -> None:
    """``python3 -c '<program>'`` as :mod:`.carried` writes it: one word of many pieces."""
    program = "print('a', 'b')\n" * 300
    quoted = "'" + program.replace("'", "'\"'\"'") + "'"
    assert parse(f"python3 -c {quoted}").commands[0].argv == ("python3", "-c", program)


def test_imports_found_at_every_statement_start() -> None:
    program = "import os\nfrom a.b import c; import d, e.f\n  import g\nx = 'import h'"
    names = [path.split("/")[1].split(".")[0] for path in module_files(("python3", "-c", program), [])][::2]
    assert names == ["os", "a", "d", "e", "g"]
    assert module_files(("python3", "-c", ";import os"), [("PYTHONPATH", "/tmp/m")]) == [
        "/tmp/m/os.py", "/tmp/m/os/__init__.py", "./os.py", "./os/__init__.py"]
