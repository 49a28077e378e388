"""Registries that name their entries as ``"module:function"`` and import them on first
use (so a fresh decision imports only what it runs): every name must resolve."""

from __future__ import annotations

from bastion.shell.meaning.semantics import DISPATCH, checker_of

#: Helpers ``classify`` names outside the table.
_HELPERS = ("tools:check_cli", "admin:check_sql_keyword", "code:run_file", "fill:fills_disk", "admin:is_http_delete")


def test_every_checker_name_resolves_to_a_function() -> None:
    for spec in sorted(set(DISPATCH.values()) | set(_HELPERS)):
        assert callable(checker_of(spec)), spec


def test_a_checker_is_imported_once() -> None:
    assert checker_of("git:check_git") is checker_of("git:check_git")
