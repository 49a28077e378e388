"""The tool calls in agents' own histories, for ``bastion replay``.

Each reader turns one file into :class:`Recorded` calls in the shape the client's hook
would have sent (``tool_name``, ``tool_input``, ``cwd``, ``session_id``,
``permission_mode``), so the client's adapter (``adapters.<client>.to_call``) makes the
call exactly as it does for a live hook. The formats, as the real clients write them:

* **Claude Code** — ``~/.claude/projects/<folder>/<session>.jsonl``: one JSON object per
  line; an ``assistant`` line's ``message.content`` holds ``tool_use`` blocks (``name``,
  ``input``); every line has ``cwd`` and ``sessionId``, and ``user`` lines the
  ``permissionMode`` in force.
* **Codex CLI** — ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``: ``session_meta`` and
  ``turn_context`` lines carry the ``cwd``; a ``response_item`` whose payload is a
  ``function_call`` (``name``, ``arguments`` as JSON text), a ``custom_tool_call``
  (``apply_patch`` with its patch as ``input``) or a ``local_shell_call`` (``action.command``
  as a list). Older rollouts have the items without the ``payload`` wrapper.
* **Gemini CLI** — ``~/.gemini/tmp/<project>/chats/session-*.jsonl`` (one message per line,
  ``$set`` lines updating the header; a ``gemini`` message is written again once its
  ``toolCalls`` are known) or ``session-*.json`` (one object with ``messages``); each tool
  call has ``id``, ``name`` and ``args``. The project folder is in ``<project>/.project_root``.
* **Calls** — a JSON Lines file of calls in ``bastion check``'s shape (``tool``, ``input``,
  ``cwd``, ``session_id``, ``mode``), hook payloads, audit log records, or a bare
  ``command``/``cmd`` (a shell command).

A line that is not JSON, or a call without a tool name, is counted as unreadable, never
fatal: a history file is written while the agent runs and may end half-written.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMATS = ("claude-code", "codex", "gemini", "calls")
#: What each client calls itself in a report.
TITLES = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI", "calls": "calls file"}
#: Lines read to tell a file's format when its path does not say it.
SNIFF_LINES = 20
#: Shells whose ``-c``/``-lc`` script is the command (Codex's ``shell`` tool takes argv).
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash", "/usr/bin/zsh"})


@dataclass
class Recorded:
    """One tool call found in a history file, as its client's hook payload."""

    client: str  # claude-code | codex | gemini | calls
    payload: dict[str, Any]
    file: str
    line: int  # 1-based line (the message's index in a .json file)


@dataclass
class FileResult:
    """What one file held: its calls, and how many records could not be read."""

    path: str
    format: str | None
    calls: list[Recorded] = field(default_factory=list)
    unreadable: int = 0


# --------------------------------------------------------------------------- finding files


def default_sources(env: Mapping[str, str]) -> list[Path]:
    """Where the clients keep their histories on this machine (the folders that exist)."""
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    claude = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home / ".claude"
    codex = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    candidates = [claude / "projects", codex / "sessions", codex / "archived_sessions", home / ".gemini" / "tmp"]
    return [path for path in candidates if path.is_dir()]


def history_files(paths: list[Path]) -> list[Path]:
    """The files to read: each file given, and below each folder given every ``.jsonl``
    and the ``.json`` sessions in Gemini's ``chats`` folders, in order."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        for folder, dirs, names in os.walk(path):
            dirs.sort()
            chats = os.path.basename(folder) == "chats"
            found.extend(Path(folder) / name for name in sorted(names)
                         if name.endswith(".jsonl") or (chats and name.endswith(".json")))
    return found


def detect(path: Path) -> str | None:
    """The file's format, from its place (the clients' own folders) or its first lines."""
    parts = path.parts
    if ".claude" in parts and "projects" in parts and path.suffix == ".jsonl":
        return "claude-code"
    if path.name.startswith("rollout-") and path.suffix == ".jsonl":
        return "codex"
    if path.parent.name == "chats" and path.name.startswith("session-"):
        return "gemini"
    if path.suffix == ".json":
        data = _load_json(path)
        return "gemini" if isinstance(data, dict) and isinstance(data.get("messages"), list) else None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle):
                if number >= SNIFF_LINES:
                    break
                found = _sniff(text)
                if found:
                    return found
    except OSError:
        return None
    return None


def _sniff(text: str) -> str | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if data.get("type") in ("session_meta", "turn_context", "response_item", "event_msg") or (
            "instructions" in data and "id" in data and "timestamp" in data):
        return "codex"
    if "projectHash" in data or "$set" in data:
        return "gemini"
    if "sessionId" in data and ("message" in data or data.get("type") in ("summary", "user", "assistant")):
        return "claude-code"
    if any(isinstance(data.get(key), str) for key in ("tool", "tool_name", "command", "cmd")):
        return "calls"
    return None


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None


# --------------------------------------------------------------------------- reading


def read(path: Path, fmt: str | None = None, *, cwd: str = "") -> FileResult:
    """Every call in one file (``fmt``: one of :data:`FORMATS`, else detected); ``cwd``
    for calls whose file does not say where they ran."""
    fmt = fmt or detect(path)
    result = FileResult(str(path), fmt)
    if fmt is None:
        return result
    reader = {"claude-code": _claude_code, "codex": _codex, "gemini": _gemini, "calls": _calls}[fmt]
    reader(path, result, cwd)
    return result


def _lines(path: Path, result: FileResult) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each line; a line that is not a JSON object is unreadable."""
    try:
        handle = open(path, encoding="utf-8", errors="replace")
    except OSError:
        result.unreadable += 1
        return
    with handle:
        for number, text in enumerate(handle, 1):
            if not text.strip():
                continue
            try:
                data = json.loads(text)
            except ValueError:
                result.unreadable += 1
                continue
            if isinstance(data, dict):
                yield number, data
            else:
                result.unreadable += 1


def _add(result: FileResult, client: str, line: int, name: Any, tool_input: Any, cwd: str, session: str,
         mode: str | None = None, agent: str = "") -> None:
    if not isinstance(name, str) or not name:
        result.unreadable += 1
        return
    payload: dict[str, Any] = {"tool_name": name, "tool_input": tool_input if isinstance(tool_input, dict) else {},
                               "cwd": cwd, "session_id": session}
    if not isinstance(tool_input, dict) and tool_input is not None:
        payload["tool_input"] = {"input": tool_input}  # not an object: the check refuses it, as the hook would
    if mode:
        payload["permission_mode"] = mode
    if agent:
        payload["agent"] = agent
    result.calls.append(Recorded(client, payload, result.path, line))


def _claude_code(path: Path, result: FileResult, default_cwd: str) -> None:
    mode: str | None = None
    seen: set[str] = set()
    for number, data in _lines(path, result):
        if isinstance(data.get("permissionMode"), str):
            mode = data["permissionMode"]
        message = data.get("message")
        if data.get("type") != "assistant" or not isinstance(message, dict):
            continue
        content = message.get("content")
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            ident = block.get("id")
            if isinstance(ident, str):
                if ident in seen:
                    continue
                seen.add(ident)
            _add(result, "claude-code", number, block.get("name"), block.get("input"),
                 str(data.get("cwd") or default_cwd), str(data.get("sessionId") or ""), mode)


def _codex(path: Path, result: FileResult, default_cwd: str) -> None:
    cwd, session = default_cwd, ""
    for number, data in _lines(path, result):
        kind = data.get("type")
        payload = data.get("payload")
        item: dict[str, Any] = payload if isinstance(payload, dict) else data
        if kind in ("session_meta", "turn_context") or (number == 1 and "instructions" in data):
            cwd = str(item.get("cwd") or cwd)
            session = str(item.get("id") or item.get("session_id") or session)
            continue
        if kind not in ("response_item", None, "function_call", "custom_tool_call", "local_shell_call"):
            continue
        call = item.get("type")
        if call == "function_call":
            try:
                args = json.loads(item.get("arguments") or "{}")
            except (TypeError, ValueError):
                result.unreadable += 1
                continue
            if isinstance(args, dict) and isinstance(args.get("command"), list):
                args = {**args, "command": _script(args["command"])}
            _add(result, "codex", number, item.get("name"), args, cwd, session)
        elif call == "custom_tool_call":
            _add(result, "codex", number, item.get("name"), {"input": item.get("input")}, cwd, session)
        elif call == "local_shell_call":
            found = item.get("action")
            action: dict[str, Any] = found if isinstance(found, dict) else {}
            argv = action.get("command")
            shell: dict[str, Any] = {"command": _script(argv) if isinstance(argv, list) else argv}
            if isinstance(action.get("working_directory"), str):
                shell["workdir"] = action["working_directory"]
            _add(result, "codex", number, "local_shell", shell, cwd, session)


def _script(argv: list[Any]) -> str:
    """The shell command an argv runs: ``bash -lc SCRIPT`` is SCRIPT, anything else its words."""
    words = [str(word) for word in argv]
    if len(words) == 3 and words[0] in _SHELLS and words[1] in ("-c", "-lc", "-cl"):
        return words[2]
    return shlex.join(words)


def _gemini(path: Path, result: FileResult, default_cwd: str) -> None:
    cwd = _gemini_project(path) or default_cwd
    seen: set[str] = set()
    session = ""

    def messages_of(data: dict[str, Any]) -> list[Any]:
        update = data.get("$set")
        nested: dict[str, Any] = update if isinstance(update, dict) else data
        found = nested.get("messages")
        return found if isinstance(found, list) else [data] if "toolCalls" in data else []

    if path.suffix == ".json":
        data = _load_json(path)
        if not isinstance(data, dict):
            result.unreadable += 1
            return
        session = str(data.get("sessionId") or "")
        records: list[tuple[int, Any]] = list(enumerate(messages_of(data), 1))
    else:
        records = []
        for number, data in _lines(path, result):
            session = session or str(data.get("sessionId") or "")
            records.extend((number, message) for message in messages_of(data))
    for number, message in records:
        calls = message.get("toolCalls") if isinstance(message, dict) else None
        for call in calls if isinstance(calls, list) else ():
            if not isinstance(call, dict):
                result.unreadable += 1
                continue
            ident = call.get("id")
            if isinstance(ident, str):
                if ident in seen:
                    continue
                seen.add(ident)
            _add(result, "gemini", number, call.get("name"), call.get("args"), cwd, session)


def _gemini_project(path: Path) -> str:
    """The project folder of a Gemini chat: ``<project tmp>/.project_root``."""
    try:
        return (path.parent.parent / ".project_root").read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _calls(path: Path, result: FileResult, default_cwd: str) -> None:
    for number, data in _lines(path, result):
        tool = data.get("tool") if isinstance(data.get("tool"), str) else data.get("tool_name")
        tool_input = data.get("input") if "input" in data else data.get("tool_input")
        if not isinstance(tool, str):
            command = data.get("command") if isinstance(data.get("command"), str) else data.get("cmd")
            tool, tool_input = ("Bash", {"command": command}) if isinstance(command, str) else (None, None)
        mode = data.get("mode") or data.get("permission_mode")
        session = data.get("session_id") or data.get("session") or ""
        where = data.get("cwd")
        agent = data.get("agent")
        _add(result, "calls", number, tool, tool_input, where if isinstance(where, str) and where else default_cwd,
             str(session), mode if isinstance(mode, str) else None, agent if isinstance(agent, str) else "")
