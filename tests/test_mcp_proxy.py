"""``bastion mcp-proxy``: a real MCP client talks to the proxy, which wraps a real server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bastion.adapters.mcp_proxy import server_name

pytest.importorskip("mcp", reason="the MCP proxy tests need the mcp SDK: pip install 'bastion-guard[mcp]'")

import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

SERVER = str(Path(__file__).with_name("mcp_echo_server.py"))


@pytest.mark.parametrize(
    ("command", "name", "expected"),
    [
        (["python", "srv/echo_server.py"], None, "echo_server"),
        (["npx", "-y", "@modelcontextprotocol/server-filesystem", "."], None, "server-filesystem"),
        (["/usr/local/bin/github-mcp-server", "stdio"], None, "github-mcp-server"),
        (["anything"], "files", "files"),
    ],
)
def test_server_name(command: list[str], name: str | None, expected: str) -> None:
    assert server_name(command, name) == expected


@pytest.mark.parametrize("bad", ["a__b", "___"])
def test_bad_server_names_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="invalid MCP server name"):
        server_name(["x"], bad)


def _texts(result) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def _proxy(name: str, server: str, env: dict[str, str], cwd: Path) -> StdioServerParameters:
    """``bastion mcp-proxy --name NAME -- python SERVER``, as a client starts it."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "bastion", "mcp-proxy", "--name", name, "--", sys.executable, server],
        env=env,
        cwd=str(cwd),
    )


async def _session_calls(env: dict[str, str], cwd: Path, calls: list[tuple[str, dict]]) -> tuple[list[str], list]:
    params = _proxy("files", SERVER, env, cwd)
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = [tool.name for tool in (await session.list_tools()).tools]
            results = [await session.call_tool(name, args) for name, args in calls]
    return tools, results


def test_proxy_forwards_allowed_calls_and_refuses_the_rest(project: Path, bastion_env: dict[str, str], tmp_path: Path) -> None:
    marker = tmp_path / "deleted.txt"
    settings = Path(bastion_env["BASTION_CONFIG_DIR"]) / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["mcp__files__echo"], "deny": ["mcp__files__delete_everything"]}}))
    env = {**bastion_env, "MCP_MARKER": str(marker)}
    tools, (echoed, denied) = anyio.run(
        _session_calls, env, project, [("echo", {"text": "hi"}), ("delete_everything", {"path": "/"})]
    )
    assert sorted(tools) == ["delete_everything", "echo"]
    assert not echoed.is_error and _texts(echoed) == "echo: hi"
    assert denied.is_error
    assert "bastion denied mcp__files__delete_everything" in _texts(denied)
    assert "mcp__files__delete_everything" in _texts(denied)
    assert not marker.exists()  # the wrapped server never saw the call
    log = [json.loads(line) for line in (Path(bastion_env["BASTION_STATE_DIR"]) / "audit.jsonl").read_text().splitlines()]
    assert [(r["tool"], r["decision"]) for r in log] == [("mcp__files__echo", "allow"), ("mcp__files__delete_everything", "deny")]


def test_unruled_calls_are_denied_because_nobody_can_be_asked(project: Path, bastion_env: dict[str, str], tmp_path: Path) -> None:
    marker = tmp_path / "deleted.txt"
    env = {**bastion_env, "MCP_MARKER": str(marker)}
    _, (result,) = anyio.run(_session_calls, env, project, [("delete_everything", {"path": "x"})])
    assert result.is_error and "nobody can be asked" in _texts(result)
    assert not marker.exists()


def test_missing_command_is_a_usage_error(bastion_env: dict[str, str]) -> None:
    from conftest import run_bastion

    done = run_bastion("mcp-proxy", env=bastion_env)
    assert done.returncode == 2 and "needs the server command" in done.stderr


POISONED_SERVER = str(Path(__file__).with_name("mcp_poisoned_server.py"))


async def _poisoned_session(env: dict[str, str], cwd: Path, errlog) -> tuple[list[str], object, list[str], object, object]:
    params = _proxy("tools", POISONED_SERVER, env, cwd)
    with anyio.fail_after(60):
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            info = await session.initialize()
            assert info.instructions is None  # the server's poisoned instructions never reach the model
            early = await session.call_tool("add", {"text": "1"})  # before any listing: screened first
            assert early.is_error and "withheld" in _texts(early)
            other_case = await session.call_tool("Add", {"text": "1"})
            assert other_case.is_error and "no tool by that name" in _texts(other_case)
            first = [tool.name for tool in (await session.list_tools()).tools]
            add = await session.call_tool("add", {"text": "1"})
            second = [tool.name for tool in (await session.list_tools()).tools]
            weather = await session.call_tool("weather", {"text": "Oslo"})
            echo = await session.call_tool("echo", {"text": "hi"})
    return first, add, second, weather, echo


def test_poisoned_and_changed_tools_are_withheld(project: Path, bastion_env: dict[str, str], tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    settings = Path(bastion_env["BASTION_CONFIG_DIR"]) / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["mcp__tools"]}}))  # even a server-wide allow
    env = {**bastion_env, "MCP_MARKER": str(marker)}
    with (tmp_path / "stderr.txt").open("w+") as errlog:
        first, add, second, weather, echo = anyio.run(_poisoned_session, env, project, errlog)
        errlog.seek(0)
        stderr = errlog.read()
    # the poisoned tool never reaches the model's tool list, and cannot be called by name;
    # the early call screened the first listing, so the client's own listing is the second,
    # where weather's description has changed: withheld from then on
    assert first == ["echo"] and second == ["echo"]
    assert add.is_error and "withheld because its description carries instructions for the model" in _texts(add)
    assert weather.is_error and "description changed after it was first listed" in _texts(weather)
    assert not marker.exists()  # neither withheld tool ran
    assert not echo.is_error and _texts(echo) == "echo: hi"
    assert "withheld MCP tool mcp__tools__add" in stderr and "withheld MCP tool mcp__tools__weather" in stderr
    assert "dropped the instructions of MCP server tools" in stderr


class _Tool:
    def __init__(self, name: str, description: str, input_schema: object = None) -> None:
        self.name, self.description, self.input_schema = name, description, input_schema


def test_screening_withholds_duplicates_and_tools_it_cannot_judge(monkeypatch: pytest.MonkeyPatch,
                                                                  bastion_env: dict[str, str]) -> None:
    from bastion.adapters.mcp_proxy import ToolGate

    gate = ToolGate("srv", "/tmp")
    kept = gate.screen([_Tool("echo", "Return the text."), _Tool("echo", "Return the text, loudly."),
                        _Tool("time", "Current time.")])
    assert [t.name for t in kept] == ["time"]
    assert "more than one tool by that name" in (gate.check("echo", {}) or "")

    import bastion.injection.tools as tools

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(tools, "judge_tool", broken)
    assert ToolGate("srv", "/tmp").screen([_Tool("add", "Adds.")]) == []  # fail closed
