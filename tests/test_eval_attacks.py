"""``bastion eval`` on an attack set (``command`` + ``expect``): per family and technique,
caught in default mode, denied in bypass mode, look-alikes never denied."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bastion.evaluate import evaluate, render_markdown


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_an_attack_set_is_tallied_per_family_and_technique(tmp_path: Path) -> None:
    cases = _write(tmp_path / "set.jsonl", [
        {"id": "a", "family": "inline", "technique": "python rmtree", "expect": "deny",
         "command": "python3 -c \"import shutil; shutil.rmtree('/usr')\""},
        {"id": "b", "family": "inline", "technique": "python print", "expect": "not_deny",
         "command": "python3 -c \"print('rm -rf /')\""},
        {"id": "c", "family": "plain", "technique": "ls", "expect": "deny", "command": "ls"},
    ])
    [report] = evaluate([str(cases)])
    assert report["kind"] == "attacks"
    inline, plain = report["by_family"]["inline"], report["by_family"]["plain"]
    assert inline["deny denied"] == 1 and inline["not_deny allow"] == 1
    assert plain["deny caught"] == 0 and plain["deny held"] == 0
    assert [m["id"] for m in report["misses"]] == ["c"]
    text = render_markdown([report])
    assert "caught below 99% or a look-alike denied: 1" in text and "- ls" in text


def test_the_command_line_reads_attack_sets(tmp_path: Path) -> None:
    cases = _write(tmp_path / "set.jsonl", [{"id": "a", "family": "f", "technique": "t", "expect": "deny",
                                               "command": "rm -rf ~"}])
    out = subprocess.run([sys.executable, "-m", "bastion", "eval", str(cases)], capture_output=True, text=True, check=True)
    assert "denied in every mode 100.0%" in out.stdout
