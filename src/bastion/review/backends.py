"""Chat backends over plain HTTP: OpenAI-compatible chat completions and Anthropic Messages.

Why no SDK: the reviewer runs inside a short-lived hook process, and two small JSON
requests do not justify importing an HTTP stack. ``http.client`` is imported only when a
request is made.

Both backends speak one neutral conversation — :class:`Turn` objects holding text, tool
uses and tool results — so the reviewer and the guard agent do not care which API is on
the other end. Every request has a hard deadline: the request runs in a worker thread
and, past the deadline, its socket is shut down and :class:`ReviewTimeout` raised, so a
server that trickles bytes cannot hold the guard. Redirects are not followed (a redirect
could carry the key to another host), responses are capped, and every error message has
the key scrubbed out.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from .config import ReviewConfig, Secret

#: Responses larger than this are refused (a verdict is a line; a tool call a few hundred bytes).
MAX_RESPONSE_BYTES = 2 << 20
ANTHROPIC_VERSION = "2023-06-01"
_USER_AGENT = "bastion-review/0.1"


class ReviewError(Exception):
    """The model could not be asked or its answer could not be read (one-line message)."""


class ReviewTimeout(ReviewError):
    """No complete answer before the deadline."""


@dataclass(frozen=True)
class ToolUse:
    """The model asks to run one of our tools."""

    id: str
    name: str
    arguments: dict[str, Any]
    #: Set when the arguments were not a JSON object; the tool answers with this error.
    error: str = ""


@dataclass(frozen=True)
class ToolResult:
    """A tool's answer, sent back to the model in the next turn."""

    tool_use_id: str
    content: str
    name: str = ""


@dataclass(frozen=True)
class Turn:
    """One message of the neutral conversation.

    ``role`` is ``user`` (text), ``assistant`` (text and/or tool uses) or ``tool``
    (results for the previous assistant turn's tool uses).
    """

    role: str
    text: str = ""
    tool_uses: tuple[ToolUse, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()


@dataclass(frozen=True)
class ToolDef:
    """A tool the reviewer's model may call: its name, what it does and its JSON parameters."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """What the model said in one completion."""

    text: str
    tool_uses: tuple[ToolUse, ...] = ()
    stop: str = ""

    def as_turn(self) -> Turn:
        return Turn("assistant", self.text, self.tool_uses)


class Backend(Protocol):
    def complete(
        self, system: str, turns: Sequence[Turn], tools: Sequence[ToolDef] = (), *, deadline: float
    ) -> Reply: ...


# --------------------------------------------------------------------------- HTTP


@dataclass
class _Endpoint:
    """Where a backend's API is reached, split from its URL."""

    scheme: str
    host: str
    port: int | None
    path: str

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}" if self.port else self.host


def _endpoint(base_url: str, suffix: str) -> _Endpoint:
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/") + suffix
    if parts.query:
        path += "?" + parts.query
    return _Endpoint(parts.scheme, parts.hostname or "", parts.port, path)


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line[:limit] + ("…" if len(line) > limit else "")


def post_json(
    endpoint: _Endpoint, headers: dict[str, str], body: dict[str, Any], *, deadline: float, secret: Secret
) -> Any:
    """POST ``body`` as JSON and return the decoded JSON answer, or raise ReviewError.

    The whole exchange — connect, send, wait, read — finishes before ``deadline``
    (a ``time.monotonic()`` value) or is cut off.
    """
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise ReviewTimeout("no time left for the request")
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    box: dict[str, Any] = {}
    done = threading.Event()
    conn_box: list[Any] = []

    def run() -> None:
        try:
            box["value"] = _exchange(endpoint, headers, payload, deadline, conn_box)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=run, name="bastion-review-http", daemon=True)
    worker.start()
    if not done.wait(max(0.0, deadline - time.monotonic())):
        _abort(conn_box)
        raise ReviewTimeout(f"no answer from {endpoint.where} within the time limit")
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, ReviewError):
            raise type(exc)(secret.scrub(str(exc))) from None
        if isinstance(exc, TimeoutError) or type(exc).__name__ == "timeout":
            raise ReviewTimeout(f"no answer from {endpoint.where} within the time limit") from None
        detail = secret.scrub(_one_line(str(exc)))
        raise ReviewError(f"cannot reach {endpoint.where}: {type(exc).__name__}{': ' + detail if detail else ''}") from None
    status, raw = box["value"]
    if not 200 <= status < 300:
        snippet = secret.scrub(_one_line(raw.decode("utf-8", "replace")))
        raise ReviewError(f"HTTP {status} from {endpoint.where}{': ' + snippet if snippet else ''}")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ReviewError(f"the answer from {endpoint.where} is not JSON") from None


def _abort(conn_box: list[Any]) -> None:
    """Wake a worker blocked on the socket: shut it down (closing alone may not)."""
    import socket

    for conn in conn_box:
        sock = getattr(conn, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        try:
            conn.close()
        except Exception:  # noqa: BLE001 - best effort
            pass


def _exchange(
    endpoint: _Endpoint, headers: dict[str, str], payload: bytes, deadline: float, conn_box: list[Any]
) -> tuple[int, bytes]:
    import http.client

    timeout = max(0.01, deadline - time.monotonic())
    conn: Any
    if endpoint.scheme == "https":
        import ssl

        conn = http.client.HTTPSConnection(
            endpoint.host, endpoint.port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        conn = http.client.HTTPConnection(endpoint.host, endpoint.port, timeout=timeout)
    conn_box.append(conn)
    try:
        conn.request("POST", endpoint.path, body=payload, headers={**headers, "Content-Length": str(len(payload))})
        response = conn.getresponse()
        chunks: list[bytes] = []
        size = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReviewTimeout(f"no complete answer from {endpoint.where} within the time limit")
            if conn.sock is not None:
                conn.sock.settimeout(left)
            chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_RESPONSE_BYTES:
                raise ReviewError(f"the answer from {endpoint.where} is larger than {MAX_RESPONSE_BYTES} bytes")
            chunks.append(chunk)
        return response.status, b"".join(chunks)
    finally:
        conn.close()


# --------------------------------------------------------------------------- OpenAI-compatible


def _tool_error(arguments: Any) -> tuple[dict[str, Any], str]:
    """Decode a tool call's arguments into a dict, or say what was wrong with them."""
    if isinstance(arguments, dict):
        return arguments, ""
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}, ""
        try:
            value = json.loads(arguments)
        except ValueError:
            return {}, "the arguments are not valid JSON"
        if isinstance(value, dict):
            return value, ""
    return {}, "the arguments must be a JSON object"


@dataclass
class OpenAIBackend:
    """Any server speaking ``POST {base}/chat/completions`` with ``tools`` (OpenAI, vLLM,
    llama.cpp's server, Ollama's ``/v1``, LM Studio …)."""

    model: str
    base_url: str
    api_key: Secret = field(default_factory=lambda: Secret(""))
    max_tokens: int = 512

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": _USER_AGENT}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key.reveal()}"
        return headers

    def request_body(self, system: str, turns: Sequence[Turn], tools: Sequence[ToolDef]) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        for turn in turns:
            if turn.role == "user":
                messages.append({"role": "user", "content": turn.text})
            elif turn.role == "assistant":
                message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
                if turn.tool_uses:
                    message["tool_calls"] = [
                        {
                            "id": use.id,
                            "type": "function",
                            "function": {"name": use.name, "arguments": json.dumps(use.arguments)},
                        }
                        for use in turn.tool_uses
                    ]
                messages.append(message)
            else:
                for result in turn.tool_results:
                    messages.append({"role": "tool", "tool_call_id": result.tool_use_id, "content": result.content})
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": self.max_tokens,
            "temperature": 0,
        }
        if tools:
            body["tools"] = [
                {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
                for t in tools
            ]
        return body

    def parse(self, data: Any) -> Reply:
        try:
            choice = data["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError):
            raise ReviewError("the chat completion has no choices[0].message") from None
        if not isinstance(message, dict):
            raise ReviewError("the chat completion's message is not an object")
        text = message.get("content") or ""
        if isinstance(text, list):  # some servers send content parts
            text = "".join(part.get("text", "") for part in text if isinstance(part, dict))
        if not isinstance(text, str):
            raise ReviewError("the chat completion's content is not text")
        uses = []
        for index, call in enumerate(message.get("tool_calls") or ()):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise ReviewError("a tool call in the chat completion has no function name")
            arguments, error = _tool_error(function.get("arguments"))
            uses.append(ToolUse(str(call.get("id") or f"call_{index}"), function["name"], arguments, error))
        return Reply(text, tuple(uses), str(choice.get("finish_reason") or ""))

    def complete(
        self, system: str, turns: Sequence[Turn], tools: Sequence[ToolDef] = (), *, deadline: float
    ) -> Reply:
        endpoint = _endpoint(self.base_url, "/chat/completions")
        data = post_json(
            endpoint, self._headers(), self.request_body(system, turns, tools), deadline=deadline, secret=self.api_key
        )
        return self.parse(data)


# --------------------------------------------------------------------------- Anthropic


@dataclass
class AnthropicBackend:
    """The Anthropic Messages API, ``POST {base}/v1/messages`` with ``tools``."""

    model: str
    base_url: str
    api_key: Secret = field(default_factory=lambda: Secret(""))
    max_tokens: int = 512

    def _headers(self) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": _USER_AGENT,
            "anthropic-version": ANTHROPIC_VERSION,
        }
        if self.api_key:
            headers["x-api-key"] = self.api_key.reveal()
        return headers

    def request_body(self, system: str, turns: Sequence[Turn], tools: Sequence[ToolDef]) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []
        for turn in turns:
            if turn.role == "user":
                messages.append({"role": "user", "content": [{"type": "text", "text": turn.text}]})
            elif turn.role == "assistant":
                content: list[dict[str, Any]] = []
                if turn.text:
                    content.append({"type": "text", "text": turn.text})
                for use in turn.tool_uses:
                    content.append({"type": "tool_use", "id": use.id, "name": use.name, "input": use.arguments})
                messages.append({"role": "assistant", "content": content})
            else:
                messages.append(
                    {
                        "role": "user",
                        "content": [
                            {"type": "tool_result", "tool_use_id": r.tool_use_id, "content": r.content}
                            for r in turn.tool_results
                        ],
                    }
                )
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": messages,
            "temperature": 0,
        }
        if tools:
            body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]
        return body

    def parse(self, data: Any) -> Reply:
        if not isinstance(data, dict) or not isinstance(data.get("content"), list):
            raise ReviewError("the Messages API answer has no content list")
        texts: list[str] = []
        uses: list[ToolUse] = []
        for index, block in enumerate(data["content"]):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif block.get("type") == "tool_use":
                if not isinstance(block.get("name"), str):
                    raise ReviewError("a tool_use block in the Messages API answer has no name")
                arguments, error = _tool_error(block.get("input"))
                uses.append(ToolUse(str(block.get("id") or f"toolu_{index}"), block["name"], arguments, error))
        return Reply("".join(texts), tuple(uses), str(data.get("stop_reason") or ""))

    def complete(
        self, system: str, turns: Sequence[Turn], tools: Sequence[ToolDef] = (), *, deadline: float
    ) -> Reply:
        path = urlsplit(self.base_url).path.rstrip("/")
        endpoint = _endpoint(self.base_url, "/messages" if path.endswith("/v1") else "/v1/messages")
        data = post_json(
            endpoint, self._headers(), self.request_body(system, turns, tools), deadline=deadline, secret=self.api_key
        )
        return self.parse(data)


def make_backend(config: ReviewConfig) -> OpenAIBackend | AnthropicBackend:
    cls = AnthropicBackend if config.api == "anthropic" else OpenAIBackend
    return cls(config.model, config.base_url, config.api_key, config.max_tokens)
