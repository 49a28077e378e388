"""``bastion VERB`` builds only its own verb's parser: the table of which module adds
which verb must name every verb of the full parser, and each verb's own parser must
read its arguments as the full one does."""

from __future__ import annotations

import argparse

import pytest

from bastion.cli.app import _adders, build_parser


def _verbs(parser: argparse.ArgumentParser) -> list[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def test_the_table_names_every_verb_once() -> None:
    listed = [verb for _add, verbs in _adders() for verb in verbs]
    assert sorted(listed) == sorted(_verbs(build_parser())) and len(set(listed)) == len(listed)


@pytest.mark.parametrize("verb", [verb for _add, verbs in _adders() for verb in verbs])
def test_a_verb_alone_has_the_same_options(verb: str) -> None:
    def options(parser: argparse.ArgumentParser) -> list[tuple[str, ...]]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return sorted(tuple(a.option_strings) or (a.dest,) for a in sub.choices[verb]._actions)

    alone = build_parser(verb)
    assert verb in _verbs(alone)
    assert options(alone) == options(build_parser())


def test_help_and_unknown_verbs_get_every_verb() -> None:
    assert _verbs(build_parser("--help")) == _verbs(build_parser("chek")) == _verbs(build_parser())
