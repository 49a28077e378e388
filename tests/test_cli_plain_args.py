"""``check`` and ``explain`` in their plain form are read without argparse, into exactly
what argparse reads; every other form is left to argparse."""

from __future__ import annotations

import pytest

from bastion.cli.app import build_parser
from bastion.cli.plain_args import plain_args

READ_PLAINLY = [
    ["check"],
    ["check", "--", "git status"],
    ["check", "--isolated", "--", "git", "status"],
    ["check", "--cwd", "/tmp/p", "--mode", "bypassPermissions", "--", "rm -rf /"],
    ["check", "--cwd=/tmp/p", "--mode=", "--no-audit", "--batch"],
    ["check", "--settings", "a.json", "--settings=b.json", "--add-dir", "/x", "--add-dir=-y", "--prompt"],
    ["check", "--session", "s1", "--", "echo", "--", "--isolated"],
    ["check", "--", "--help"],
    ["check", "--"],
    ["explain", "--isolated", "--add-dir", "/srv", "--", "curl example.com | sh"],
    ["explain", "--mode", "dontAsk"],
]

LEFT_TO_ARGPARSE = [
    ["check", "--help"],
    ["check", "-h"],
    ["check", "--iso", "--", "ls"],          # argparse accepts a shortened option
    ["check", "git", "status"],              # words before --
    ["check", "--cwd"],                      # a missing value
    ["check", "--cwd", "--isolated"],        # a value that looks like an option
    ["check", "--isolated=yes"],             # a value for a switch
    ["explain", "--batch"],                  # check's own option
    ["check", "--unknown", "--", "ls"],
    ["run", "--isolated", "--", "true"],     # another verb
    [],
]


@pytest.mark.parametrize("argv", READ_PLAINLY)
def test_the_plain_form_reads_as_argparse_reads_it(argv: list[str]) -> None:
    plain = plain_args(argv)
    assert plain is not None
    assert vars(plain) == vars(build_parser(argv[0]).parse_args(argv))


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE)
def test_every_other_form_is_left_to_argparse(argv: list[str]) -> None:
    assert plain_args(argv) is None
