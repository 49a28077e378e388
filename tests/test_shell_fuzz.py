"""Property tests: ``parse`` never raises and never hits an internal error, whatever the
text; real commands glued with shell operators always parse to a valid result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from bastion.shell.syntax.parse import parse
from bastion.shell.syntax.script import Script, SimpleCommand, TooComplex

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def check(result, source: str) -> None:
    """Invariants every result must satisfy."""
    assert isinstance(result, (Script, TooComplex))
    if isinstance(result, TooComplex):
        assert result.reason and not result.reason.startswith("internal error"), result.reason
    for cmd in result.commands:
        assert isinstance(cmd, SimpleCommand)
        assert isinstance(cmd.argv, tuple) and all(isinstance(a, str) for a in cmd.argv)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in cmd.assignments)
    for finding in result.findings:
        assert finding.code.startswith("SH") and finding.message


_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.text())
@example("\x00")
@example("\ud800")
@example("$(" * 200)
@example("'" * 999)
@example("\\")
@example("<<")
@example("cat <<EOF")
@example("{" * 100 + "a,b" + "}" * 100)
def test_never_raises_on_any_text(text: str) -> None:
    check(parse(text), text)


_SHELLISH = st.text(alphabet=st.sampled_from(list("abcrmx -_/.'\"\\$`(){}[]<>|&;!#*?~=,:\n\t") + ["\u200b", "é", "\u0441"]),
                    max_size=120)


@_SETTINGS
@given(_SHELLISH)
def test_never_raises_on_shell_like_text(text: str) -> None:
    check(parse(text), text)


@_SETTINGS
@given(st.binary(max_size=200))
def test_never_raises_on_binaryish_text(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")  # lone surrogates included
    check(parse(text), text)


_REAL = [
    "git status", "ls -la", "pytest -q", "rm -rf build", "cat a.txt", "grep -rn foo src",
    "sudo apt-get install -y jq", "bash -c 'echo hi'", "find . -name '*.py' -exec rm {} \\;",
    "echo $(whoami)", "for f in *; do echo $f; done", "cd /tmp", "export X=1", "A=1 env B=2 ls",
    "cat <<'EOF'\nbody\nEOF", "curl -s https://example.com", "python3 -c 'print(1)'", "[ -f x ]",
    "echo {a,b}", "timeout 5 sleep 1", "xargs -0 rm", "eval 'ls'", "printf '%s\\n' x",
]
_OPERATORS = ["&&", "||", "|", "|&", ";", "&", "\n", " ", "$(", ")", "`", "(", "{ ", "; }", "<(", ">", "<", "2>&1"]


@_SETTINGS
@given(st.lists(st.tuples(st.sampled_from(_REAL), st.sampled_from(_OPERATORS)), min_size=1, max_size=8))
def test_real_commands_joined_by_operators(parts) -> None:
    text = "".join(cmd + " " + op + " " for cmd, op in parts)
    check(parse(text), text)


def _corpus_commands(limit: int) -> list[str]:
    out: list[str] = []
    for name in ("benign_commands.jsonl", "dangerous_commands.jsonl"):
        path = CORPUS / name
        if not path.exists():
            continue
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                out.append(json.loads(line)["cmd"])
                if len(out) >= limit:
                    break
    return out


def test_corpus_never_hits_an_internal_error() -> None:
    commands = _corpus_commands(100_000)
    if not commands:
        pytest.skip(f"labelled corpus not found at {CORPUS}")
    for command in commands:
        check(parse(command), command)


@pytest.mark.parametrize("size", [1_000, 9_000])
def test_pathological_repetition_stays_bounded(size: int) -> None:
    for unit in ["a && ", "$(", "'a' ", "{a,b}", "\\\n", "x=1 ", "| ", "cat <<E\n", "(", "\"$x\""]:
        text = (unit * (size // len(unit)))[:size]
        check(parse(text), text)


# Characters outside the BMP made tree-sitter-bash corrupt memory and crash after some
# hundreds of parses (without the parser's stand-in, this test crashes on most runs).
# It runs in a child process so a crash fails the test instead of killing the run.
def test_astral_characters_do_not_crash_the_parser() -> None:
    import subprocess
    import sys

    script = (
        "import random\n"
        "from bastion.shell.syntax.parse import parse\n"
        "rnd = random.Random(4)\n"
        "for _ in range(3000):\n"
        "    text = ''.join(chr(rnd.choice([rnd.randint(0, 127), rnd.randint(0x10000, 0x10FFFF)]))\n"
        "                   for _ in range(rnd.randint(1, 12)))\n"
        "    for _ in range(20):\n"
        "        parse(text)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], text=True, capture_output=True, timeout=600)
    assert done.returncode == 0, f"parser process died ({done.returncode}): {done.stderr[-500:]}"


def test_astral_characters_keep_their_text() -> None:
    result = parse("echo \U0001F600 {\U000c2e16} x\U0001d42b")
    assert result.commands[0].argv == ("echo", "\U0001F600", "{\U000c2e16}", "x\U0001d42b")
