"""The public face: the few names a library user needs, loaded only when used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import bastion


def test_public_names_import_and_decide(tmp_path: Path) -> None:
    from bastion import Decision, Guard, ToolCall, Verdict

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    decision = Guard.from_settings(tmp_path, isolated=True).check(
        ToolCall("Bash", {"command": "rm -rf ~"}, cwd=str(tmp_path))
    )
    assert isinstance(decision, Decision)
    assert decision.verdict is Verdict.DENY


def test_only_the_public_names_are_offered() -> None:
    assert sorted(bastion.__all__) == ["Decision", "Finding", "Guard", "Mode", "ToolCall", "Verdict"]
    for name in bastion.__all__:
        assert getattr(bastion, name) is not None
    try:
        bastion.Tier  # noqa: B018 - internal names are not offered at the top
    except AttributeError:
        pass
    else:
        raise AssertionError("bastion.Tier should be internal")


def test_importing_bastion_loads_no_engine() -> None:
    """`bastion hook` starts from the package: importing it must stay free."""
    code = "import sys, bastion; print(sorted(m for m in sys.modules if m.startswith('bastion')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['bastion']"
