"""Guard plugins from YAML and Markdown files (spec 001)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bastion.model import ToolCall
from bastion.policy.plugins import PluginGuard, load_plugins


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def bash(command: str) -> ToolCall:
    return ToolCall("Bash", {"command": command})


DOCKER_YAML = """\
id: block-docker
tool: Bash
patterns:
  - match: "\\\\bdocker\\\\b"
    verdict: ask
    reason: "Docker commands require approval"
  - match: "^make test$"
    verdict: allow
    reason: tests are fine
"""

ENV_MD = """\
---
id: protect-env
tool: Write,Edit
patterns:
  - file_match: ".env*"
    verdict: deny
    reason: "Modifying environment configuration"
---
# Protect env files

Free text below the front matter is documentation.
"""


def test_yaml_guard_evaluates_in_order(tmp_path: Path) -> None:
    write(tmp_path / "user" / "docker.yaml", DOCKER_YAML)
    guards, errors, notices = load_plugins([(tmp_path / "user", True)])
    assert errors == () and notices == ()
    (guard,) = guards
    assert isinstance(guard, PluginGuard)
    assert guard.id == "block-docker" and guard.tools == frozenset({"Bash"}) and guard.trusted
    assert guard.evaluate(bash("sudo docker run x")) == ("ask", "Docker commands require approval")
    assert guard.evaluate(bash("make test")) == ("allow", "tests are fine")
    assert guard.evaluate(bash("dockerd")) is None  # \b boundary
    assert guard.evaluate(ToolCall("run_shell_command", {"command": "docker ps"}))[0] == "ask"
    assert guard.evaluate(ToolCall("Write", {"file_path": "docker"})) is None  # other tool
    assert guard.evaluate(bash("ls; docker ps"), command="ls") is None  # one sub-command


def test_markdown_guard_file_match(tmp_path: Path) -> None:
    write(tmp_path / "g" / "env.md", ENV_MD)
    (guard,), errors, _ = load_plugins([(tmp_path / "g", True)])
    assert errors == ()
    assert guard.tools == frozenset({"Write", "Edit"})
    assert guard.evaluate(ToolCall("Write", {"file_path": "/p/.env.local"}))[0] == "deny"
    assert guard.evaluate(ToolCall("Edit", {"file_path": "/p/sub/.env"}))[0] == "deny"
    assert guard.evaluate(ToolCall("write_file", {"file_path": "/p/.env"}))[0] == "deny"  # client name
    assert guard.evaluate(ToolCall("MultiEdit", {"file_path": "/p/.env"}))[0] == "deny"
    assert guard.evaluate(ToolCall("Write", {"file_path": "/p/.env/x.txt"})) is None  # basename only
    assert guard.evaluate(ToolCall("Write", {"file_path": "/p/env"})) is None
    assert guard.evaluate(ToolCall("Read", {"file_path": "/p/.env"})) is None  # not a listed tool


def test_id_defaults_to_stem_and_tool_empty_means_all(tmp_path: Path) -> None:
    write(tmp_path / "g" / "sql.yml", "patterns:\n  - file_match: '*.sql'\n    verdict: ask\n  - match: psql\n    verdict: ask\n")
    (guard,), errors, _ = load_plugins([(tmp_path / "g", True)])
    assert errors == () and guard.id == "sql" and guard.tools == frozenset()
    assert guard.evaluate(ToolCall("Read", {"file_path": "/p/a.sql"})) == ("ask", "guard sql")
    assert guard.evaluate(bash("psql -c 'select 1'"))[0] == "ask"


def test_project_guard_replaces_user_guard_with_same_id(tmp_path: Path) -> None:
    write(tmp_path / "user" / "a.yaml", "id: shared\ntool: Bash\npatterns:\n  - match: curl\n    verdict: deny\n")
    write(tmp_path / "user" / "b.yaml", "id: other\npatterns:\n  - match: wget\n    verdict: ask\n")
    write(tmp_path / "proj" / "c.yaml", "id: shared\ntool: Bash\npatterns:\n  - match: curl\n    verdict: ask\n")
    guards, errors, notices = load_plugins([(tmp_path / "user", True), (tmp_path / "proj", True)])
    assert errors == () and notices == ()
    by_id = {g.id: g for g in guards}
    assert set(by_id) == {"shared", "other"}
    assert by_id["shared"].origin.endswith("c.yaml")
    assert by_id["shared"].evaluate(bash("curl x"))[0] == "ask"


def test_untrusted_project_guard_cannot_replace_or_allow(tmp_path: Path) -> None:
    write(tmp_path / "user" / "a.yaml", "id: shared\npatterns:\n  - match: curl\n    verdict: deny\n")
    write(
        tmp_path / "proj" / "a.yaml",
        "id: shared\npatterns:\n  - match: curl\n    verdict: allow\n  - match: scp\n    verdict: ask\n",
    )
    guards, errors, notices = load_plugins([(tmp_path / "user", True), (tmp_path / "proj", False)])
    assert errors == ()
    assert len(guards) == 2
    user, project = guards
    assert user.evaluate(bash("curl x"))[0] == "deny"
    assert not project.trusted
    assert [p.verdict for p in project.patterns] == ["ask"]  # the allow is dropped
    assert project.evaluate(bash("curl x")) is None
    assert any("ignored allow pattern 0 of guard shared" in n and "bastion trust" in n for n in notices)
    assert any("does not replace" in n for n in notices)


BROKEN = [
    ("re2.yaml", "patterns:\n  - match: '(?<=a)b'\n    verdict: ask\n", "not a valid RE2 regex"),
    ("backref.yaml", "patterns:\n  - match: '(a)\\1'\n    verdict: ask\n", "not a valid RE2 regex"),
    ("verdict.yaml", "patterns:\n  - match: a\n    verdict: maybe\n", "verdict must be allow, ask or deny"),
    ("yaml.yaml", "patterns: [\n  - match: a\n", "invalid YAML"),
    ("list.yaml", "- a\n- b\n", "must be a mapping"),
    ("nopat.yaml", "id: x\n", "'patterns' must be a non-empty list"),
    ("empty.yaml", "patterns:\n  - verdict: ask\n", "needs 'match'"),
    ("tool.yaml", "tool: Frob\npatterns:\n  - match: a\n    verdict: ask\n", "unknown tool 'Frob'"),
    ("nofront.md", "# just text\n", "no YAML front matter"),
    ("open.md", "---\nid: x\n", "not closed"),
]


@pytest.mark.parametrize("name,text,needle", BROKEN)
def test_broken_guard_is_an_error_naming_the_file(tmp_path: Path, name: str, text: str, needle: str) -> None:
    bad = write(tmp_path / "g" / name, text)
    write(tmp_path / "g" / "zz-good.yaml", "patterns:\n  - match: rm\n    verdict: deny\n")
    guards, errors, _ = load_plugins([(tmp_path / "g", True)])
    assert [g.id for g in guards] == ["zz-good"]  # the broken guard is skipped, the rest load
    (error,) = errors
    assert str(bad) in error and needle in error
    assert "\n" not in error


def test_yaml_error_has_line_and_column(tmp_path: Path) -> None:
    bad = write(tmp_path / "g" / "x.md", "---\nid: x\npatterns: [a\n---\n")
    _, (error,), _ = load_plugins([(tmp_path / "g", True)])
    assert error.startswith(f"{bad}:") and "invalid YAML" in error
    line = int(error[len(str(bad)) + 1 :].split(":")[0])
    assert line >= 3  # reported as a line of the .md file, past the front matter marker


def test_missing_directories_and_other_files_are_ignored(tmp_path: Path) -> None:
    write(tmp_path / "g" / "notes.txt", "not a guard")
    assert load_plugins([(tmp_path / "nope", True), (tmp_path / "g", True)]) == ((), (), ())


def test_yaml_is_not_imported_without_guard_files() -> None:
    code = (
        "import sys; import bastion.policy.plugins as p; from pathlib import Path;"
        "p.load_plugins([(Path('/nonexistent-guards'), True)]);"
        "print('yaml' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- through the engine


def _guard_with_plugin(project, env, text):
    from bastion.engine import Guard

    guards = project / ".bastion" / "guards"
    guards.mkdir(parents=True, exist_ok=True)
    (guards / "frob.yaml").write_text(text)
    from bastion.policy.settings import trust

    trust(str(project), env)
    return Guard.from_settings(str(project), env=env)


@pytest.mark.parametrize(
    "command, verdict",
    [
        ("frob --all", "allow"),
        ("frob a && frob b", "allow"),
        ("frob; git push --force origin main", "ask"),
        ("frob | sh", "ask"),
        ("frob > /etc/cron.d/x", "ask"),
    ],
)
def test_a_plugin_allow_must_cover_every_sub_command(project, bastion_env, command, verdict):
    from bastion.model import ToolCall

    guard = _guard_with_plugin(project, bastion_env, 'id: frob\ntool: Bash\npatterns:\n  - match: "^frob\\\\b"\n    verdict: allow\n')
    assert guard.check(ToolCall("Bash", {"command": command}, cwd=str(project))).verdict.value == verdict


def test_a_plugin_deny_sees_sub_commands(project, bastion_env):
    from bastion.model import ToolCall

    guard = _guard_with_plugin(project, bastion_env, 'id: nodocker\ntool: Bash\npatterns:\n  - match: "^docker\\\\s+run"\n    verdict: deny\n    reason: no containers\n')
    decision = guard.check(ToolCall("Bash", {"command": "cd src && docker run -it alpine"}, cwd=str(project)))
    assert decision.verdict.value == "deny" and "no containers" in decision.reason
