"""What echo and printf print (:mod:`bastion.shell.syntax.literal`), checked against real bash.

The parser feeds this text to a shell that reads it, so it must be bash's text exactly
(or None when not modelled, never a guess)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from bastion.shell.syntax.literal import output, tee_files, xargs_items

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="bash is not installed")

CASES = [
    ("echo", "rm -rf ~"),
    ("echo", "-n", "rm -rf /"),
    ("echo", "-e", "rm -rf /\\n"),
    ("echo", "-ne", "a\\tb\\x41\\0101\\101"),
    ("echo", "-E", "a\\nb"),
    ("echo", "-en", "-e", "x\\cy", "z"),
    ("echo", "--", "-n"),
    ("echo", "-x", "a"),
    ("echo", "-"),
    ("echo",),
    ("echo", "-e", "\\u00e9\\U0001F600\\e\\q"),
    ("printf", "rm -rf ~"),
    ("printf", "%s\\n", "rm -rf /usr"),
    ("printf", "%s ", "rm", "-rf", "/"),
    ("printf", "%s %s %s\\n", "rm", "-rf", "~"),
    ("printf", "%b", "rm -rf /etc\\n"),
    ("printf", "%b|%b|%b", "\\162", "\\0162", "a\\cb"),
    ("printf", "rm -rf \\x7e\\n"),
    ("printf", "\\162\\155 -rf /\\n"),
    ("printf", "\\0162|\\\"|\\'|\\?"),
    ("printf", "--", "rm -fr /etc"),
    ("printf", "%5s|%-3s|%.2s|%c|%d|%03d|%x|%X|%o|%+d|% d|%#x", "ab", "c", "defg", "hello", "42", "7", "255",
     "255", "8", "3", "4", "16"),
    ("printf", "%d|%i|%u", "'A", "0x10", "010"),
    ("printf", "%s-%s\\n", "a", "b", "c"),
    ("printf", "x\\n", "a", "b"),
    ("printf", "%s"),
    ("printf", "%%|%s%%\\n", "a"),
    ("printf", "%*s|%.*s\\n", "4", "a", "2", "abcdef"),
    ("printf", "%s;%s\\n", "cd /", "rm -rf *"),
    ("printf", "a\\cb"),
]

#: Not modelled: the output is unknown (None), never a guess.
UNKNOWN = [
    ("printf", "%q\\n", "rm -rf ~"),
    ("printf", "%f\\n", "1.5"),
    ("printf", "%(%Y)T\\n", "-1"),
    ("printf", "%d\\n", "abc"),
    ("printf", "%z"),
    ("printf", "50%"),
    ("printf", "-x"),
    ("printf",),
    ("cat", "file.txt"),
]


def _bash(argv: tuple[str, ...]) -> str:
    assert BASH is not None
    script = f'{argv[0]} "$@"'
    done = subprocess.run([BASH, "-c", script, "_", *argv[1:]], capture_output=True, timeout=10)
    return done.stdout.decode("utf-8", "surrogateescape")


@needs_bash
@pytest.mark.parametrize("argv", CASES, ids=repr)
def test_output_is_what_bash_prints(argv: tuple[str, ...]) -> None:
    assert output(argv, exact=True) == _bash(argv)


@pytest.mark.parametrize("argv", UNKNOWN, ids=repr)
def test_unmodelled_output_is_unknown(argv: tuple[str, ...]) -> None:
    assert output(argv) is None


_TEXT = st.text(alphabet=st.sampled_from(list("ab -~/%sdbcx\\0127nte'\"") ), max_size=12)


@needs_bash
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["echo", "printf"]), st.lists(_TEXT, min_size=1, max_size=3))
def test_output_matches_bash_or_is_unknown(name: str, args: list[str]) -> None:
    argv = (name, *args)
    produced = output(argv, exact=True)
    if produced is not None and "\ufffd" not in produced:  # raw bytes above 0x7F are not compared
        assert produced == _bash(argv)


def test_echo_gives_both_readings_of_a_backslash() -> None:
    """dash's echo expands ``\\n`` without ``-e``: a shell fed the text may see either."""
    assert output(("echo", "true\\nrm -rf ~")) == "true\\nrm -rf ~\ntrue\nrm -rf ~\n"
    assert output(("echo", "-e", "a\\nb")) == "a\nb\n"
    assert output(("echo", "plain")) == "plain\n"


def test_cat_and_tee_pass_their_input_through() -> None:
    assert output(("cat",), "rm -rf ~\n") == "rm -rf ~\n"
    assert output(("cat", "-"), "x") == "x"
    assert output(("cat", "-n"), "x") is None
    assert output(("tee", "-a", "f"), "x") == "x"
    assert output(("cat",)) is None
    assert tee_files(("tee", "-a", "f", "g")) == (["f", "g"], True)
    assert tee_files(("tee", "--", "-a")) == (["-a"], False)


def test_xargs_splits_like_xargs() -> None:
    assert xargs_items("/usr /etc\n") == ["/usr", "/etc"]
    assert xargs_items("'a b' c\\ d\n") == ["a b", "c d"]
    assert xargs_items("a b\nc\n", lines=True) == ["a b", "c"]
    assert xargs_items("/\n", null=True) == ["/"]
    assert xargs_items("a,b", delimiter=",") == ["a", "b"]


@pytest.mark.parametrize(
    ("argv", "stdin", "expected"),
    [
        (("base64", "-d"), "cm0gLXJmIH4=\n", "rm -rf ~"),
        (("base64", "--decode"), "cm0gLXJmIH4", "rm -rf ~"),  # padding may be missing
        (("base32", "-d"), "OJWSALLSMYQH4===\n", "rm -rf ~"),
        (("xxd", "-r", "-p"), "726d202d7266207e\n", "rm -rf ~"),
        (("xxd", "-rp"), "726d202d7266207e", "rm -rf ~"),
        (("openssl", "enc", "-d", "-base64"), "cm0gLXJmIH4=\n", "rm -rf ~"),
        (("openssl", "base64", "-d"), "cm0gLXJmIH4=\n", "rm -rf ~"),
        (("rev",), "~ fr- mr\n", "rm -rf ~\n"),
        (("tr", "A-Za-z", "N-ZA-Mn-za-m"), "ez -es ~\n", "rm -rf ~\n"),
    ],
)
def test_decoders_decode_a_literal_input(argv: tuple[str, ...], stdin: str, expected: str) -> None:
    assert output(argv, stdin) == expected


def test_gunzip_reads_what_base64_decoded() -> None:
    import base64
    import gzip

    packed = output(("base64", "-d"), base64.b64encode(gzip.compress(b"rm -rf /")).decode())
    assert packed is not None and output(("gunzip",), packed) == "rm -rf /"


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (("base64",), "cm0gLXJmIH4="),  # encodes
        (("openssl", "base64"), "cm0gLXJmIH4="),  # encodes
        (("xxd", "-r"), "726d"),  # not plain hex
        (("base64", "-d"), "%%%not base64%%%"),
        (("tr", "[:upper:]", "[:lower:]"), "ABC"),  # classes are not modelled
        (("gunzip", "notes.gz"), "x"),  # a file, not stdin
    ],
)
def test_decoders_are_unknown_when_unsure(argv: tuple[str, ...], stdin: str) -> None:
    assert output(argv, stdin) is None
