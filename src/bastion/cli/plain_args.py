"""``bastion check`` and ``bastion explain`` in their plain form, read without argparse.

Scripts and hooks run ``bastion check [--option VALUE …] [-- COMMAND …]`` on every call,
and argparse (with the ``gettext`` and ``locale`` it loads, and the parser it builds) costs
that process several milliseconds before the decision starts. The plain form — each word
before ``--`` an exact option of the verb's flag tables (``common.DECISION_FLAGS``,
``check.CHECK_FLAGS``), with its value after it or after ``=`` — is read here into the
same names and values argparse gives. Everything else (``--help``, a short or shortened
option, a word before ``--``, a value that looks like an option, a missing value) is
left to argparse, which explains it or reports the error.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import SimpleNamespace


def plain_args(argv: Sequence[str]) -> SimpleNamespace | None:
    """The parsed ``check``/``explain`` arguments, or ``None`` to let argparse read them."""
    if not argv or argv[0] not in ("check", "explain"):
        return None
    from .common import DECISION_FLAGS

    flags = DECISION_FLAGS
    if argv[0] == "check":
        from .check import CHECK_FLAGS

        flags = flags + CHECK_FLAGS
    by_option = {row[0]: row for row in flags}
    values = {_dest(row[0]): row[2] for row in flags}
    values["command"] = []
    words = list(argv[1:])
    at = 0
    while at < len(words):
        word = words[at]
        if word == "--":
            values["command"] = words[at + 1:]
            break
        option, equals, value = word.partition("=")
        row = by_option.get(option)
        if row is None:
            return None
        action = row[1]
        if action == "store_true":
            if equals:
                return None
            values[_dest(option)] = True
        else:
            if not equals:
                if at + 1 == len(words) or words[at + 1].startswith("-"):
                    return None
                at += 1
                value = words[at]
            values[_dest(option)] = [*(values[_dest(option)] or ()), value] if action == "append" else value
        at += 1
    import sys

    namespace: type[SimpleNamespace] = type(sys.implementation)  # type: ignore[assignment]  # what types.SimpleNamespace is
    return namespace(verb=argv[0], **values)


def _dest(option: str) -> str:
    """The attribute argparse names an option's value: ``--add-dir`` -> ``add_dir``."""
    return option[2:].replace("-", "_")
