"""A real chat-API server on 127.0.0.1 for the reviewer tests, answering from a script.

It speaks either the OpenAI chat-completions style (``POST /v1/chat/completions``) or the
Anthropic Messages style (``POST /v1/messages``), records every request (path, headers,
JSON body) and plays scripted actions in order: a text answer, a tool call, an HTTP
error, a body that is not JSON, a slow answer, or a trickled one. It runs in a thread
and is stopped by the test (``with ScriptedLLM(...) as llm`` or the fixture).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Action:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    delay: float = 0.0  # seconds before the status line
    trickle: float = 0.0  # seconds between body bytes


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def text(self) -> str:
        """Everything the model was shown (system and messages), as one string."""
        return json.dumps(self.body, ensure_ascii=False)


@dataclass
class ScriptedLLM:
    api: str  # openai | anthropic
    script: list[Action] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._lock = threading.Lock()
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with server_self._lock:
                    server_self.requests.append(Recorded(self.path, dict(self.headers.items()), body))
                    action = server_self.script.pop(0) if server_self.script else Action(500, b"script exhausted", "text/plain")
                if action.delay and server_self._stop.wait(action.delay):
                    return
                try:
                    self.send_response(action.status)
                    self.send_header("Content-Type", action.content_type)
                    self.send_header("Content-Length", str(len(action.body)))
                    self.end_headers()
                    if action.trickle:
                        for byte in action.body:
                            if server_self._stop.wait(action.trickle):
                                return
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                    else:
                        self.wfile.write(action.body)
                except OSError:
                    pass  # the client gave up: that is what some tests want

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    # -- where it listens -------------------------------------------------------------

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1" if self.api == "openai" else f"http://127.0.0.1:{self.port}"

    def env(self, **extra: str) -> dict[str, str]:
        """``BASTION_REVIEW_*`` variables pointing the reviewer here."""
        values = {
            "BASTION_REVIEW": "1",
            "BASTION_REVIEW_API": self.api,
            "BASTION_REVIEW_MODEL": "test-model",
            "BASTION_REVIEW_BASE_URL": self.base_url,
        }
        values.update(extra)
        return values

    def stop(self) -> None:
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def __enter__(self) -> ScriptedLLM:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- the script -------------------------------------------------------------------

    def _json(self, data: Any, **kw: Any) -> Action:
        return Action(body=json.dumps(data).encode(), **kw)

    def say(self, text: str, **kw: Any) -> ScriptedLLM:
        """Queue a plain text answer."""
        if self.api == "openai":
            data = {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            }
        else:
            data = {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
            }
        self.script.append(self._json(data, **kw))
        return self

    def call_tool(self, name: str, arguments: dict[str, Any] | str, *, text: str = "", **kw: Any) -> ScriptedLLM:
        """Queue an answer that calls one tool."""
        n = len(self.script)
        if self.api == "openai":
            args = arguments if isinstance(arguments, str) else json.dumps(arguments)
            message = {
                "role": "assistant",
                "content": text or None,
                "tool_calls": [{"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": args}}],
            }
            data = {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
        else:
            content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            content.append({"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": arguments})
            data = {"type": "message", "role": "assistant", "content": content, "stop_reason": "tool_use"}
        self.script.append(self._json(data, **kw))
        return self

    def fail(self, status: int, body: str = "internal error", **kw: Any) -> ScriptedLLM:
        self.script.append(Action(status, body.encode(), "text/plain", **kw))
        return self

    def raw(self, body: bytes, content_type: str = "application/json", **kw: Any) -> ScriptedLLM:
        self.script.append(Action(200, body, content_type, **kw))
        return self


@pytest.fixture(params=["openai", "anthropic"])
def llm(request: pytest.FixtureRequest):
    """A scripted server of each API style; stopped when the test ends."""
    server = ScriptedLLM(request.param)
    yield server
    server.stop()
