"""Scripted model servers for the end-to-end tests: one per wire API, stdlib only.

Each server listens on 127.0.0.1 on a free port, in a daemon thread, and answers the
real CLI's streaming requests with a script of tool calls: request *n* that carries *n*
tool results gets tool call *n + 1*; when the script is used up it answers with text.
Every request body is kept, so a test can read what the CLI sent back to the model
(the tool results: command output, or bastion's reason for a denial).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ScriptedCall:
    """One tool call the fake model makes: the tool name and its arguments.

    ``freeform`` marks a call of a free-form ("custom") Responses tool, such as Codex's
    ``apply_patch``: its input is the plain text ``args["input"]``, not JSON arguments."""

    name: str
    args: dict[str, Any]
    freeform: bool = False


@dataclass
class FakeModel:
    """Shared state: the script, and every request the CLI made."""

    script: list[ScriptedCall]
    final_text: str = "All done."
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, method: str, path: str, body: Any) -> None:
        with self.lock:
            self.requests.append((method, path, body))

    def bodies(self) -> list[Any]:
        with self.lock:
            return [body for _, _, body in self.requests if body is not None]

    def next_call(self, results_seen: int) -> ScriptedCall | None:
        return self.script[results_seen] if results_seen < len(self.script) else None


def _sse(events: Iterable[tuple[str | None, dict[str, Any]]]) -> bytes:
    chunks = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        chunks.append(f"{head}data: {json.dumps(data)}\n\n")
    return "".join(chunks).encode()


class _Handler(BaseHTTPRequestHandler):
    model: FakeModel
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _send(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _json(self, data: Any, status: int = 200) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
        self.model.record("HEAD", self.path, None)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802
        self.model.record("GET", self.path, None)
        self._json({})


# --------------------------------------------------------------------------- Anthropic


def anthropic_tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``tool_result`` blocks of a Messages request, oldest first."""
    found = []
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list):
            found.extend(b for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    return found


def block_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


class _AnthropicHandler(_Handler):
    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        self.model.record("POST", self.path, body)
        if not self.path.startswith("/v1/messages") or not isinstance(body, dict):
            self._json({"error": "not scripted"}, 404)
            return
        if "count_tokens" in self.path:
            self._json({"input_tokens": 10})
            return
        call = self.model.next_call(len(anthropic_tool_results(body))) if body.get("tools") else None
        message = {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": body.get("model", "fake"),
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        }
        events: list[tuple[str | None, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": message})]
        if call is not None:
            n = len(anthropic_tool_results(body))
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "tool_use", "id": f"toolu_{n}", "name": call.name, "input": {}}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "input_json_delta", "partial_json": json.dumps(call.args)}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ]
            stop = "tool_use"
        else:
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": self.model.final_text}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ]
            stop = "end_turn"
        events += [
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        if body.get("stream"):
            self._send(200, _sse(events), "text/event-stream")
        else:
            content = []
            if call is not None:
                content.append({"type": "tool_use", "id": "toolu_x", "name": call.name, "input": call.args})
            else:
                content.append({"type": "text", "text": self.model.final_text})
            self._json({**message, "content": content, "stop_reason": stop})


# --------------------------------------------------------------------------- OpenAI Responses


def responses_tool_outputs(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``function_call_output`` and ``custom_tool_call_output`` items of a Responses
    request, oldest first."""
    items = body.get("input")
    if not isinstance(items, list):
        return []
    return [i for i in items if isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output")]


class _ResponsesHandler(_Handler):
    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        self.model.record("POST", self.path, body)
        if not self.path.startswith("/v1/responses") or not isinstance(body, dict):
            self._json({"error": {"message": "not scripted"}}, 404)
            return
        n = len(responses_tool_outputs(body))
        call = self.model.next_call(n)
        if call is not None and call.freeform:
            item = {"type": "custom_tool_call", "id": f"ctc_{n}", "call_id": f"call_{n}", "name": call.name,
                    "input": str(call.args.get("input", "")), "status": "completed"}
        elif call is not None:
            item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": call.name,
                    "arguments": json.dumps(call.args), "status": "completed"}
        else:
            item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": self.model.final_text, "annotations": []}]}
        response = {"id": f"resp_{n}", "object": "response", "status": "in_progress", "model": body.get("model", "fake"), "output": []}
        done = {**response, "status": "completed", "output": [item],
                "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                          "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}}
        events = [
            ("response.created", {"type": "response.created", "sequence_number": 0, "response": response}),
            ("response.output_item.added", {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
                                            "item": {**item, "status": "in_progress"}}),
            ("response.output_item.done", {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "sequence_number": 3, "response": done}),
        ]
        self._send(200, _sse(events), "text/event-stream")


# --------------------------------------------------------------------------- Gemini


def gemini_function_responses(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``functionResponse`` parts of a generateContent request, oldest first."""
    found = []
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            if isinstance(part, dict) and "functionResponse" in part:
                found.append(part["functionResponse"])
    return found


class _GeminiHandler(_Handler):
    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        self.model.record("POST", self.path, body)
        if ":streamGenerateContent" not in self.path and ":generateContent" not in self.path and ":countTokens" not in self.path:
            self._json({"error": {"message": "not scripted"}}, 404)
            return
        if ":countTokens" in self.path:
            self._json({"totalTokens": 10})
            return
        usage = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
        streaming = ":streamGenerateContent" in self.path
        call = None
        if streaming and isinstance(body, dict) and body.get("tools"):
            call = self.model.next_call(len(gemini_function_responses(body)))
        if call is not None:
            parts = [{"functionCall": {"name": call.name, "args": call.args}}]
        elif streaming:
            parts = [{"text": self.model.final_text}]
        else:
            # side calls (routing, next-speaker checks) ask for JSON: give a neutral answer
            parts = [{"text": json.dumps({"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash",
                                          "complexity_reasoning": "scripted", "complexity_score": 1})}]
        chunk = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": usage, "modelVersion": "fake"}
        if streaming:
            self._send(200, _sse([(None, chunk)]), "text/event-stream")
        else:
            self._json(chunk)


# --------------------------------------------------------------------------- running


class FakeServer:
    """A fake model API on 127.0.0.1, stopped by ``close`` (use it as a context manager)."""

    HANDLERS = {"anthropic": _AnthropicHandler, "responses": _ResponsesHandler, "gemini": _GeminiHandler}

    def __init__(self, api: str, script: list[ScriptedCall], final_text: str = "All done.") -> None:
        self.model = FakeModel(script, final_text)
        handler = type(f"Bound{self.HANDLERS[api].__name__}", (self.HANDLERS[api],), {"model": self.model})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name=f"fake-{api}", daemon=True)

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
