"""The audit log: one JSON line per decision, appended and flushed.

Inputs are redacted before they are written (secret-looking keys and values become
``[REDACTED]``) and carry a SHA-256 digest of the original, so an auditor can prove what
was asked without the log becoming a second copy of the user's secrets.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..model import Decision, ToolCall

REDACTED = "[REDACTED]"
_SECRET_KEY = re.compile(r"(?i)(token|secret|password|passwd|api[_-]?key|auth|credential|private[_-]?key)")
#: Well-known secret shapes: provider tokens, AWS keys, bearer headers, PEM blocks, key=value secrets.
_SECRET_VALUE = re.compile(
    r"(sk-[A-Za-z0-9_\-]{16,}|sk-ant-[A-Za-z0-9_\-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{30,}|glpat-[A-Za-z0-9_\-]{20,}"
    r"|(?i:bearer)\s+[A-Za-z0-9._\-]{16,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"
    r"|(?i:(?:password|passwd|token|secret|api[_-]?key)\s*[=:]\s*)[^\s'\"&]+)"
)


def redact(value: Any) -> Any:
    """A copy of ``value`` with secret-looking keys and values replaced."""
    if isinstance(value, Mapping):
        return {
            key: (REDACTED if isinstance(key, str) and _SECRET_KEY.search(key) and isinstance(item, str) else redact(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact(item) for item in value]
    if isinstance(value, str):
        return _SECRET_VALUE.sub(REDACTED, value)
    return value


def digest(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8", "replace")
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def entry(call: ToolCall, decision: Decision, *, agent: str = "") -> dict[str, Any]:
    """The audit record for one decision."""
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + f".{int(time.time() * 1000) % 1000:03d}Z",
        "session": call.session_id,
        "agent": agent or call.agent,
        "tool": call.tool,
        "cwd": call.cwd,
        "input": redact(dict(call.input)),
        "input_digest": digest(dict(call.input)),
        "decision": decision.verdict.value,
        "layer": decision.layer,
        "source": decision.source.value,
        "risk": decision.risk.value,
        "reason": redact(decision.reason),
        "interrupt": decision.interrupt,
        "trace": [redact(t.to_dict()) for t in decision.trace],
    }


def append(path: Path, record: Mapping[str, Any]) -> None:
    """Append one line with a single ``write`` on an ``O_APPEND`` descriptor, so lines
    from concurrent hook processes never interleave, then flush it to disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8", "replace")
    fd = os.open(str(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def tail(path: Path, count: int = 20) -> list[dict[str, Any]]:
    """The last ``count`` records (unparseable lines are skipped, never fatal)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            block = min(size, max(65536, count * 4096))
            handle.seek(size - block)
            lines = handle.read().splitlines()[-count:]
    except OSError:
        return []
    records = []
    for raw in lines:
        try:
            records.append(json.loads(raw))
        except ValueError:
            continue
    return records


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for raw in handle:
                try:
                    yield json.loads(raw)
                except ValueError:
                    continue
    except OSError:
        return
