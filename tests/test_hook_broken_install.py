"""A hook whose own code cannot be loaded (a broken or half-upgraded install) still
blocks the call with one line on stderr: exit status 2, which every client reads as
"blocked" — where any other status lets Claude Code run the tool unchecked."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bastion

PACKAGE = Path(bastion.__file__).parent


@pytest.mark.parametrize("client", ["claude-code", "codex", "gemini"])
def test_a_hook_that_cannot_load_its_adapter_blocks_the_call(tmp_path: Path, client: str) -> None:
    copy = tmp_path / "site" / "bastion"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    adapter = copy / "adapters" / f"{client.replace('-', '_')}.py"
    adapter.write_text(adapter.read_text() + "\nraise ImportError('a half-upgraded install')\n")
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
                       "cwd": str(tmp_path), "session_id": "broken", "permission_mode": "default"})
    code = f"import sys; sys.path.insert(0, {str(copy.parent)!r}); from bastion.hook.client import cli; cli()"
    env = dict(os.environ, BASTION_HOOK_SERVER="0", BASTION_AUDIT="0", BASTION_STATE_DIR=str(tmp_path / "state"),
               BASTION_CONFIG_DIR=str(tmp_path / "config"))
    done = subprocess.run([sys.executable, "-I", "-B", "-c", code, "bastion", "hook", client], input=call,
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "bastion could not check this call and blocked it (internal error: ImportError: a half-upgraded install)"]
