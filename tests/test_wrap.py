"""``guarded``: a plain Python function used as an agent tool, checked before it runs."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
from pathlib import Path

import pytest

from bastion.adapters.wrap import ToolDenied, guarded


def _deny(env: dict[str, str], *rules: str) -> None:
    path = Path(env["BASTION_CONFIG_DIR"]) / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"permissions": {"deny": list(rules)}}))


def make_writer(project: Path, ran: list[str], **options):
    @guarded(tool_name="Write", cwd=str(project), **options)
    def write_file(file_path: str, content: str = "") -> str:
        """Write a file."""
        ran.append(file_path)
        return "written"

    return write_file


def test_allowed_call_runs(project: Path) -> None:
    @guarded(tool_name="Read", cwd=str(project))
    def read_file(file_path: str) -> str:
        return (project / file_path).read_text()

    assert read_file("src/app.py") == "print('hello')\n"


def test_ask_without_approver_is_denied_and_never_runs(project: Path, tmp_path: Path) -> None:
    ran: list[str] = []
    write_file = make_writer(project, ran)
    with pytest.raises(ToolDenied) as info:
        write_file(os.path.join(os.environ["HOME"], "outside.txt"), "x")  # not temp space, which is scratch
    assert ran == []
    assert "outside the workspace" in info.value.reason and "nobody can be asked" in info.value.reason
    assert info.value.decision.verdict.value == "deny"


@pytest.mark.parametrize(
    ("answer", "runs", "reason"),
    [(True, True, None), (False, False, "not approved"), (RuntimeError("no tty"), False, "approver failed")],
)
def test_approver_settles_asks(project: Path, tmp_path: Path, answer, runs: bool, reason: str | None) -> None:
    seen = []

    def approve(call, decision):
        seen.append((call.tool, decision.verdict.value))
        if isinstance(answer, Exception):
            raise answer
        return answer

    ran: list[str] = []
    write_file = make_writer(project, ran, approve=approve)
    target = os.path.join(os.environ["HOME"], "outside.txt")
    if runs:
        assert write_file(target, "x") == "written"
    else:
        with pytest.raises(ToolDenied, match=reason):
            write_file(target, "x")
    assert seen == [("Write", "ask")]
    assert ran == ([target] if runs else [])


def test_deny_never_reaches_the_approver(project: Path, bastion_env: dict[str, str]) -> None:
    _deny(bastion_env, "Write")
    asked: list[str] = []
    ran: list[str] = []
    write_file = make_writer(project, ran, approve=lambda call, d: asked.append(call.tool) or True)
    with pytest.raises(ToolDenied, match="denied by rule Write"):
        write_file("src/app.py", "x")
    assert asked == [] and ran == []


def test_async_functions_are_guarded(project: Path, bastion_env: dict[str, str]) -> None:
    _deny(bastion_env, "WebFetch(domain:evil.example)")

    @guarded(tool_name="WebFetch", cwd=str(project))
    async def fetch(url: str) -> str:
        return "fetched"

    with pytest.raises(ToolDenied):
        asyncio.run(fetch("https://evil.example/x"))


def test_signature_and_docs_are_kept(project: Path) -> None:
    write_file = make_writer(project, [])
    assert write_file.__name__ == "write_file" and write_file.__doc__ == "Write a file."
    assert list(inspect.signature(write_file).parameters) == ["file_path", "content"]


def test_arguments_map_to_the_tool_input(project: Path, bastion_env: dict[str, str]) -> None:
    _deny(bastion_env, f"Read(/{project}/src/**)")

    @guarded(tool_name="Read", cwd=str(project), to_input=lambda a: {"file_path": a["name"]})
    def open_doc(name: str) -> str:
        return "opened"

    assert open_doc("README.md") == "opened"
    with pytest.raises(ToolDenied):
        open_doc(name="src/app.py")


def test_custom_tools_use_the_function_name(project: Path, bastion_env: dict[str, str]) -> None:
    _deny(bastion_env, "transfer_money")

    @guarded(cwd=str(project))
    def transfer_money(amount: int) -> str:
        return "sent"

    with pytest.raises(ToolDenied, match="transfer_money"):
        transfer_money(100)


def test_shell_tool(project: Path) -> None:
    @guarded(tool_name="Bash", cwd=str(project))
    def run(command: str) -> str:
        return "ran"

    assert run("git status") == "ran"
    with pytest.raises(ToolDenied):
        run("rm -rf ~")
