"""The plain-command path must give exactly what the tree-sitter path gives.

``bastion.shell.syntax.plain`` splits plain commands and pipelines without building a syntax
tree. These tests parse every such text twice, once on each path, and compare the
whole result: commands (argv, pipeline positions, wrappers, origin …), findings, and
whether the text is too complex.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

import bastion.shell.syntax.parse as parse_module
from bastion.shell.syntax.parse import parse
from bastion.shell.syntax.plain import plain_stages
from conftest import CORPUS


def _tree_sitter_parse(command: str, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as patched:
        patched.setattr(parse_module, "plain_stages", lambda source: None)
        return parse(command)


def _shape(result) -> tuple:
    return (type(result).__name__, result.commands, result.findings, getattr(result, "reason", None))


def _assert_same(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert plain_stages(command) is not None, command
    assert _shape(parse(command)) == _shape(_tree_sitter_parse(command, monkeypatch)), command


@pytest.mark.parametrize(
    "command",
    [
        "git status",
        "pytest -q",
        "ls -la",
        "cat src/app.py | grep -n TODO | sort | uniq -c | head -20",
        "  ls   -la  ",
        "echo ls | sh",
        "echo rm -rf / | bash",
        "bash -c ls",
        "sudo rm -rf /",
        "env PATH=/tmp/x ls",
        "xargs rm -rf",
        "find . -name x -delete",
        "cd /tmp",
        "git -c core.pager=less log",
        "timeout 5 nohup python3 -m http.server",
        "zmodload zsh/net/tcp",
        "python3 - x",
        "a|b|c",
    ],
)
def test_plain_commands_match_tree_sitter(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _assert_same(command, monkeypatch)


@pytest.mark.parametrize(
    "command",
    [
        "a && b",
        "a || b",
        "a; b",
        "a & b",
        "a |& b",
        "echo 'x'",
        'echo "x"',
        "echo $HOME",
        "echo `id`",
        "ls *.py",
        "ls ~",
        "echo {a,b}",
        "ls # note",
        "a > out",
        "a\tb",
        "a\nb",
        "a\\ b",
        "FOO=1 make",
        "export A=1",
        "if true",
        "time make",
        "declare x",
        "unset x",
        "- x",
        "a+b c",
        "x@y",
        ":x",
        "a == b",
        "ls é",
        "",
        "   ",
        "| a",
        "a |",
    ],
)
def test_everything_else_takes_the_tree_sitter_path(command: str) -> None:
    assert plain_stages(command) is None


def test_plain_stages_splits_stages_and_words() -> None:
    assert plain_stages(" cat a.py |grep -n x|  head -20 ") == [
        ("cat a.py", ["cat", "a.py"]),
        ("grep -n x", ["grep", "-n", "x"]),
        ("head -20", ["head", "-20"]),
    ]


_RESERVED_AND_TRICKY = [
    "if", "then", "fi", "for", "in", "do", "done", "while", "until", "time", "coproc", "function", "select",
    "case", "esac", "declare", "export", "local", "readonly", "typeset", "unset", "unsetenv", "echo", "sh",
    "bash", "eval", "exec", "sudo", "env", "xargs", "find", "-exec", "cd", "pushd", "popd", "source", ".",
    "-c", "rm", "-rf", "/", "git", "core.pager=less", "a=b", "x=", "=x", "-", "--", "-20", "10", "0x1f",
    "nohup", "timeout", "command", "builtin", "zmodload", "mapfile", "python", "..", "foo@bar", "@", "+x",
    ":", ",", "==", "=", "a+=b",
]
_word = st.one_of(
    st.sampled_from(_RESERVED_AND_TRICKY),
    st.text(alphabet="abcXYZ019_./:,@+=-", min_size=1, max_size=6),
)
_stage = st.lists(_word, min_size=1, max_size=4).flatmap(
    lambda words: st.lists(st.sampled_from([" ", "  "]), min_size=len(words) - 1, max_size=len(words) - 1).map(
        lambda blanks: "".join(w + b for w, b in zip(words, blanks + [""], strict=True))
    )
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_stage, min_size=1, max_size=5), st.sampled_from(["|", " | ", " |", "| "]),
       st.sampled_from(["", " "]))
def test_generated_plain_text_matches_tree_sitter(stages: list[str], pipe: str, pad: str) -> None:
    command = pad + pipe.join(stages) + pad
    if plain_stages(command) is None:
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        _assert_same(command, monkeypatch)


def test_every_plain_corpus_command_matches_tree_sitter(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [CORPUS / "benign_commands.jsonl", CORPUS / "dangerous_commands.jsonl"]
    if not all(path.is_file() for path in files):
        pytest.skip(f"shell corpus not found in {CORPUS} (see the brief: ../shared/corpus)")
    checked = 0
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            command = json.loads(line)["cmd"]
            if plain_stages(command) is None:
                continue
            checked += 1
            assert _shape(parse(command)) == _shape(_tree_sitter_parse(command, monkeypatch)), command
    assert checked > 10_000  # most commands agents run are plain
