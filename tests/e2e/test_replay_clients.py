"""``bastion replay`` on the histories the real clients wrote in a guarded session.

Each client runs the scripted session of ``test_clients`` (``ls``, ``rm -rf victim``,
``curl … | sh``, then ``cat README.md``) with bastion as its hook; then ``bastion replay``
reads the transcript the client itself wrote — Claude Code's under ``~/.claude/projects``,
Codex's rollout under ``~/.codex/sessions``, Gemini CLI's chat under ``~/.gemini/tmp`` —
and must find every call and decide each as the live hook did (the audit log says what
that was). A client that is not installed is skipped.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import Workspace
from .test_clients import PIPE_TO_SHELL, RUNNERS, session_script

#: Where each client keeps its history, below its home.
HISTORY = {"claude-code": ".claude/projects", "codex": ".codex/sessions", "gemini": ".gemini/tmp"}


@pytest.mark.parametrize("client", sorted(RUNNERS))
def test_replay_reads_what_the_client_wrote_and_decides_as_the_hook_did(client: str, workspace: Workspace) -> None:
    commands = [*session_script(workspace), "cat README.md"]
    run = RUNNERS[client](workspace, commands)
    assert run.returncode == 0, run.explain()
    history = workspace.home / HISTORY[client]
    assert history.is_dir(), f"{client} wrote no history under {history}"

    done = workspace.bastion("replay", "--json", str(history))
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["clients"] == {client: len(commands)}, report
    assert report["unreadable_records"] == 0 and report["skipped_files"] == [], report

    # every deny is listed whole, with the file and line it came from
    denied = {d["call"] for d in report["denies"]}
    assert PIPE_TO_SHELL in denied, report
    for deny in report["denies"]:
        assert deny["file"].startswith(str(history)) and deny["line"] > 0 and deny["reason"]

    # what the live hook decided for each command (the audit log) is what replay says
    live = {(r["input"].get("command") or r["input"].get("cmd")): r["decision"] for r in workspace.audit()}
    replayed = {d["call"]: "deny" for d in report["denies"]}
    for group in report["asks"]:
        for example in group["examples"]:
            replayed[example["call"]] = "ask"
    assert report["verdicts"]["allow"] == sum(1 for c in commands if live.get(c) == "allow"), (report, live)
    for command, verdict in replayed.items():
        if verdict == "ask" and live.get(command) == "deny":  # the client cannot show bastion's question
            assert report["asks_refused_by_the_client"] >= 1, report
        else:
            assert live.get(command) == verdict, (command, report, live)

    text = workspace.bastion("replay", str(history)).stdout
    assert f"{len(commands)} tool calls" in text and "Denies (all" in text and PIPE_TO_SHELL in text
