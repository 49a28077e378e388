"""The MCP proxy's connection to the server it wraps, started before the SDK is imported.

Importing the ``mcp`` SDK takes most of a second, and so does starting a Python MCP
server (which imports it too). Started one after the other, the proxy answers the
client's ``initialize`` in their sum; so :func:`start` launches the wrapped server first,
with plain ``subprocess`` (stdin and stdout piped, stderr shared with the proxy's, in a
process group of its own), and :func:`connect` speaks MCP to it once the SDK is loaded,
through the SDK's own line-delimited stdio transport given the pipes. On the way out the
server gets what the SDK's client gives it: stdin closed, a grace period, then the
whole process group is terminated and, if need be, killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

#: Seconds the server may take to exit once its stdin is closed, and after SIGTERM.
GRACE = 2.0


def start(command: Sequence[str]) -> subprocess.Popen[bytes]:
    """Launch the wrapped server now (``OSError`` when it cannot start)."""
    return subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Close the server's stdin, wait, then terminate and kill its process group."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    for sent in (None, signal.SIGTERM, signal.SIGKILL):
        if sent is not None:
            try:
                os.killpg(process.pid, sent)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            process.wait(GRACE)
            break
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(process.pid, signal.SIGKILL)  # children it left behind in its group
    except (ProcessLookupError, PermissionError):
        pass


class _Requests:
    """The server's stdin for the transport's writer: once the server is gone, what is
    written is dropped (its stdout ends too, so the session sees the connection close)."""

    def __init__(self, file: Any) -> None:
        self.file = file
        self.broken = False

    async def write(self, text: str) -> None:
        if not self.broken:
            try:
                await self.file.write(text)
            except (OSError, ValueError):
                self.broken = True

    async def flush(self) -> None:
        if not self.broken:
            try:
                await self.file.flush()
            except (OSError, ValueError):
                self.broken = True


@asynccontextmanager
async def connect(process: subprocess.Popen[bytes]) -> AsyncIterator[tuple[Any, Any]]:
    """``(read, write)`` streams of MCP messages to and from the started server."""
    import io

    import anyio
    from mcp.server.stdio import stdio_server

    assert process.stdin is not None and process.stdout is not None
    replies = anyio.wrap_file(io.TextIOWrapper(process.stdout, encoding="utf-8", errors="replace"))
    requests = _Requests(anyio.wrap_file(io.TextIOWrapper(process.stdin, encoding="utf-8", write_through=True)))
    try:
        # the transport is symmetric; it only calls write and flush on its output
        async with stdio_server(stdin=replies, stdout=requests) as streams:  # type: ignore[arg-type]
            try:
                yield streams
            finally:
                stop(process)  # its stdout ends: the transport's reader finishes
    finally:
        stop(process)
