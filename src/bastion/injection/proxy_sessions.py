"""Which agent session an MCP proxy's results taint, and the per-workspace record
hooks read when they cannot tell.

A client starts ``bastion mcp-proxy`` as a child process; the hooks it runs learn the
session id from each payload, the proxy does not. So the proxy takes it from its
environment — ``BASTION_SESSION_ID`` (set it in the client's MCP server entry), else
``CLAUDE_CODE_SESSION_ID`` (Claude Code gives it to stdio MCP servers since 2.1.154; on
``--resume`` it may differ from the hooks' id) — and records there as a hook would.

Whatever the environment says, every proxy also keeps its results' taint in one
per-user file, ``mcp-proxies.json`` in bastion's state folder: for each running proxy
its process id, its workspace (the folder the client started it in) and its events. The
``taint`` layer applies the events of every proxy that is still running and whose
workspace holds the call's folder, whatever the call's session. Two agent sessions in
one workspace therefore share an MCP proxy's taint: over-tainting, never under. A proxy
removes its entry when it exits; entries of proxies that died are ignored and pruned.
"""

from __future__ import annotations

import os
import time

from .taint import MAX_EVENTS, PROXIES_FILE, TaintEvent, alive, proxies_of, proxies_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["SESSION_VARIABLES", "PROXIES_FILE", "session_id_from", "register", "record", "unregister"]

#: Environment variables naming the agent session, first found wins.
SESSION_VARIABLES = ("BASTION_SESSION_ID", "CLAUDE_CODE_SESSION_ID")


def session_id_from(env: Mapping[str, str]) -> str:
    """The agent session a proxy belongs to, from its environment ("" when unknown)."""
    return next((value for name in SESSION_VARIABLES if (value := env.get(name, "").strip())), "")


def register(workspace: str, env: Mapping[str, str] | None = None, *, session: str = "", pid: int | None = None) -> None:
    """Enter this proxy (``pid``, default ours) for ``workspace``; dead proxies are pruned."""
    from .. import state

    me = str(pid if pid is not None else os.getpid())

    def change(data: Any) -> Any:
        proxies = {k: v for k, v in proxies_of(data).items() if alive(int(k))}
        proxies[me] = {"workspace": os.path.realpath(workspace), "session": session, "started": time.time(),
                       "events": []}
        return {"proxies": proxies}

    state.update_json(proxies_path(env), change, {})


def record(event: TaintEvent, env: Mapping[str, str] | None = None, *, workspace: str = ".",
           pid: int | None = None) -> None:
    """Add ``event`` to this proxy's entry (entered for ``workspace`` if it is not yet)."""
    from .. import state

    me = str(pid if pid is not None else os.getpid())

    def change(data: Any) -> Any:
        proxies = proxies_of(data)
        entry = proxies.setdefault(me, {"workspace": os.path.realpath(workspace), "session": "", "started": time.time()})
        events = [e for e in entry.get("events", []) if TaintEvent.from_dict(e) is not None]
        if not any(e["kind"] == event.kind and e["what"] == event.what for e in events) and len(events) < MAX_EVENTS:
            events.append(event.to_dict())
        entry["events"] = events
        return {"proxies": proxies}

    state.update_json(proxies_path(env), change, {})


def unregister(env: Mapping[str, str] | None = None, *, pid: int | None = None) -> None:
    """Remove this proxy's entry (it is exiting: its client session is over)."""
    from .. import state

    me = str(pid if pid is not None else os.getpid())
    state.update_json(proxies_path(env), lambda data: {"proxies": {k: v for k, v in proxies_of(data).items() if k != me}}, {})
