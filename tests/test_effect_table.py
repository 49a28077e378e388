"""The effect × target table (``shell.meaning.verdicts``): every cell's examples through
the real guard. A ``match`` command raises the cell's finding; a ``not_match`` command,
its everyday neighbour, does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.model import ToolCall
from bastion.shell.catalog.intents import CODES
from bastion.shell.meaning.verdicts import TABLE, cell, target_of
from conftest import guard_with_settings, throwaway_workspace


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root, env = throwaway_workspace(tmp_path_factory.mktemp("effects"))
    guard = guard_with_settings(Path(root), env)

    def codes(command: str) -> set[str]:
        decision = guard.check(ToolCall("Bash", {"command": command}, cwd=root))  # type: ignore[attr-defined]
        return {f.code for f in decision.findings}

    return codes


def test_every_cell_names_a_known_code_once() -> None:
    pairs = [(c.effect, c.target) for c in TABLE]
    assert len(pairs) == len(set(pairs))
    for c in TABLE:
        assert c.code in CODES, c
        assert c.why and c.match, c
        assert cell(c.effect, c.target) == c.code


def test_a_pair_outside_the_table_is_an_error() -> None:
    with pytest.raises(KeyError):
        cell("delete", "nowhere")


@pytest.mark.parametrize(("code", "command"), [(c.code, m) for c in TABLE for m in c.match])
def test_match_raises_the_cell(checker, code: str, command: str) -> None:  # type: ignore[no-untyped-def]
    assert code in checker(command)


@pytest.mark.parametrize(("code", "command"), [(c.code, m) for c in TABLE for m in c.not_match])
def test_not_match_does_not(checker, code: str, command: str) -> None:  # type: ignore[no-untyped-def]
    assert code not in checker(command)


def test_targets_come_from_the_path_table() -> None:
    home, roots = "/home/u", ("/home/u/project",)
    assert target_of("delete_tree", "/usr", home, roots, inside=False) == "critical"
    assert target_of("delete_tree", "/home/u", home, roots, inside=False) == "critical"
    assert target_of("delete_tree", "/home/u/project/build", home, roots, inside=True) == "workspace"
    assert target_of("delete", "/usr", home, roots, inside=False) == "outside"
    assert target_of("write", "/home/u/.ssh/authorized_keys", home, roots, inside=False) == "backdoor"
    assert target_of("write", "/home/u/.bashrc", home, roots, inside=False) == "startup"
    assert target_of("write", "/dev/sda", home, roots, inside=False) == "block_device"
    assert target_of("read", "/home/u/.ssh/id_rsa", home, roots, inside=False) == "secret_high"
    assert target_of("read", "/home/u/project/README.md", home, roots, inside=True) == "workspace"
