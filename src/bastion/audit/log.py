"""The audit log: one strict-JSON line per decision, appended whole and flushed.

Every string of a record is redacted before it is written (``audit.redact``: secrets
become ``[REDACTED]``, the context around them stays); the input also carries a SHA-256
digest of the original, so an auditor can prove what was asked without the log
becoming a second copy of the user's secrets.

A line is never torn and never merged with the next one: a record is capped at
``MAX_RECORD_BYTES`` (the longest strings, the command first, are cut with a visible
``…[truncated N bytes]``), written with one ``write`` on an ``O_APPEND`` descriptor under
an exclusive ``flock``, and a writer first removes an unterminated last line left by a
writer that was killed mid-write (SIGKILL can stop a large ``write`` part way). Numbers
that strict JSON cannot hold (NaN, ±Infinity) are written as strings.

Answers that fail closed because the input could not be read or checked are logged
too (``record_fail_closed``), with a short redacted prefix of the input, never all of it.
"""

from __future__ import annotations

import os
import time
from _collections_abc import Mapping  # collections.abc's classes, loaded with os

from .. import fastjson, state
from ..digest import sha256
from ..model import Decision, ToolCall
from .redact import REDACTED, redact, shorten  # noqa: F401 - REDACTED and redact are this module's API too

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

#: Largest line the log holds; larger records are cut to fit.
MAX_RECORD_BYTES = 64 * 1024
#: Strings are clipped to this many characters before redaction (bounds its cost); the
#: cap then cuts again, so no half secret at a clip point can stay in the line.
_CLIP_CHARS = 2 * MAX_RECORD_BYTES
#: How much of unreadable input a fail-closed record keeps (after redaction).
FAIL_CLOSED_PREFIX = 200
#: Fields cut first when a record is too large: the command is what grows without bound.
_CUT_FIRST = (("input", "command"), ("input", "cmd"), ("input", "content"), ("input", "new_string"))


class Record(dict):
    """A record already redacted, clipped and made finite (``append`` skips that work)."""


def audit_file(policy: Any, env: Mapping[str, str] | None = None) -> str | None:
    """Where decisions are logged, or None when the audit log is switched off."""
    env = env if env is not None else os.environ
    section = (getattr(policy, "sections", None) or {}).get("audit") or {}
    if env.get("BASTION_AUDIT") == "0" or section.get("enabled") is False:
        return None
    custom = env.get("BASTION_AUDIT_LOG") or section.get("path")
    if isinstance(custom, str) and custom:
        return state.path_text(os.path.expanduser(custom))
    return state.path_text(state.state_folder(env), "audit.jsonl")


def audit_path(policy: Any, env: Mapping[str, str] | None = None) -> Path | None:
    """:func:`audit_file` as a ``Path`` (the decision path logs with the string)."""
    from pathlib import Path

    path = audit_file(policy, env)
    return Path(path) if path is not None else None


def digest(value: Any) -> str:
    try:
        blob = fastjson.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):  # nesting too deep for json: hash what can be written
        blob = fastjson.dumps(redact(value), sort_keys=True, ensure_ascii=False, default=str)
    return "sha256:" + sha256(blob.encode("utf-8", "replace")).hexdigest()


def _now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"


def prepare(record: Mapping[str, Any]) -> Record:
    """``record`` made safe to write: redacted, long strings clipped, numbers finite."""
    return Record(redact(record, clip=_CLIP_CHARS))


def entry(call: ToolCall, decision: Decision, *, agent: str = "") -> Record:
    """The audit record for one decision."""
    return prepare({
        "time": _now(),
        "session": call.session_id,
        "agent": agent or call.agent,
        "tool": call.tool,
        "cwd": call.cwd,
        "input": dict(call.input) if isinstance(call.input, Mapping) else call.input,
        "input_digest": digest(dict(call.input) if isinstance(call.input, Mapping) else call.input),
        "decision": decision.verdict.value,
        "layer": decision.layer,
        "source": decision.source.value,
        "risk": decision.risk.value,
        "reason": decision.reason,
        "interrupt": decision.interrupt,
        "trace": [t.to_dict() for t in decision.trace],
    })


def _safe_prefix(raw: str | bytes) -> str:
    """The start of unreadable input, safe to show: decoded, invisible and control
    characters escaped, redacted (with room for a secret cut at the edge), shortened."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    text = text[: FAIL_CLOSED_PREFIX * 4].encode("utf-8", "replace").decode("utf-8")
    text = "".join(c if c.isprintable() or c in "\n\t" else f"\\u{ord(c):04x}" for c in text)
    text = redact(text)
    return shorten(text, FAIL_CLOSED_PREFIX) if len(text) > FAIL_CLOSED_PREFIX else text


def fail_closed_entry(reason: str, *, verdict: str, agent: str = "", raw: str | bytes | None = None,
                      payload: Mapping[str, Any] | None = None, event: str = "") -> Record:
    """The audit record for an answer that failed closed on input bastion could not check."""
    payload = payload if isinstance(payload, Mapping) else {}

    def text(key: str) -> str:
        value = payload.get(key)
        return value if isinstance(value, str) else ""

    raw_bytes = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    return prepare({
        "time": _now(),
        "session": text("session_id"),
        "agent": agent,
        "event": event,
        "tool": text("tool_name") or text("tool"),
        "cwd": text("cwd"),
        # readable input that failed later (a deadline, an error) shows its call, redacted;
        # unreadable input only a short prefix of its bytes
        "input": payload.get("tool_input") if raw is None and isinstance(payload.get("tool_input"), Mapping) else {},
        "input_prefix": _safe_prefix(raw_bytes) if raw_bytes else "",
        "input_digest": "sha256:" + sha256(raw_bytes or b"").hexdigest(),
        "decision": verdict,
        "layer": "input",
        "source": "builtin",
        "reason": reason,
        "fail_closed": True,
        "trace": [],
    })


def record_fail_closed(reason: str, *, verdict: str = "ask", agent: str = "", raw: str | bytes | None = None,
                       payload: Mapping[str, Any] | None = None, event: str = "",
                       env: Mapping[str, str] | None = None, policy: Any = None) -> None:
    """Log a fail-closed answer to input that could not be read or checked (hook, CLI,
    server). ``verdict`` is what the answer amounts to (``ask``/``deny``, ``none`` when the
    client gets no opinion). The log's place comes from the environment (and ``policy``
    when the caller has one): settings are not read again here, they may be what failed.
    Never raises: a failure to log is one line on stderr and changes no answer."""
    import sys

    from .export_switch import wanted

    env = env if env is not None else os.environ
    try:
        path = audit_file(policy, env)
        exported = wanted(policy, env)
        if path is None and not exported:
            return
        record = fail_closed_entry(reason, verdict=verdict, agent=agent, raw=raw, payload=payload, event=event)
        if exported:
            from . import otel

            otel.export(record, policy, env)
        if path is not None:
            append(path, record)
    except Exception as exc:  # noqa: BLE001 - logging must never change or break the answer
        print(f"bastion: warning: cannot log the fail-closed answer: {type(exc).__name__}: {exc}", file=sys.stderr)


def record_decision(call: ToolCall, decision: Decision, *, policy: Any, env: Mapping[str, str]) -> None:
    """The audit line for a final decision, and its OpenTelemetry log record when the
    settings or environment ask for one (``audit.otel``, ``audit.export`` in the settings): both from the same redacted
    record. A log that cannot be written is one warning line; the decision stands."""
    from .export_switch import wanted

    path = audit_file(policy, env)
    exported = wanted(policy, env)
    if path is None and not exported:
        return
    record = entry(call, decision)
    if exported:
        from . import otel  # the records and the SDK load only when an export is on

        otel.export(record, policy, env)  # queued: never waits on the network
    if path is not None:
        try:
            append(path, record)
        except OSError as exc:
            import sys

            print(f"bastion: warning: cannot write audit log {path}: {exc.strerror}", file=sys.stderr)


def reply_verdict(stdout: str, exit_code: int) -> str:
    """What a hook client's fail-closed reply amounts to: ``deny`` (Codex's exit 2,
    Gemini's ``decision``, Claude Code's ``permissionDecision``), ``ask``, or ``none``
    (no opinion: the client's own prompt shows, or the tool already ran)."""
    try:
        data = fastjson.loads(stdout) if stdout.strip() else {}
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    inner = data.get("hookSpecificOutput")
    said = data.get("decision") or (inner.get("permissionDecision") if isinstance(inner, dict) else None)
    if exit_code == 2 or said in ("deny", "block"):
        return "deny"
    return "ask" if said == "ask" else "none"


# --------------------------------------------------------------------------- one line


def _dumps(record: Any) -> bytes:
    return (fastjson.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8", "replace")


def _strings(value: Any) -> Iterator[tuple[Any, Any, str]]:
    """(container, key, string) for every string value inside ``value``."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(item, str):
            yield value, key, item
        elif isinstance(item, (dict, list)):
            yield from _strings(item)


def _size(text: str) -> int:
    return len(fastjson.dumps(text, ensure_ascii=False).encode("utf-8", "replace"))


def line(record: Mapping[str, Any], cap: int = MAX_RECORD_BYTES) -> bytes:
    """The record as one strict-JSON line of at most ``cap`` bytes.

    Too large: the command (then content) is cut first, then the longest string, each
    with ``…[truncated N bytes]``; a record still too large keeps only its summary."""
    record = record if isinstance(record, Record) else prepare(record)
    out = _dumps(record)
    if len(out) <= cap:
        return out
    record = Record(fastjson.loads(out))  # a private copy to cut
    for _ in range(64):
        excess = len(out) - cap
        first = [(c, k, c[k]) for c, k in _first_cuts(record)]
        candidates = [x for x in first if _size(x[2]) > 512] or sorted(_strings(record), key=lambda x: -_size(x[2]))
        if not candidates or _size(candidates[0][2]) <= 512:
            break
        container, key, text = candidates[0]
        size = _size(text)
        keep_bytes = max(256, size - excess - 96)
        container[key] = shorten(text, max(0, int(len(text) * keep_bytes / size) - 1))
        out = _dumps(record)
        if len(out) <= cap:
            return out
    summary = {k: record.get(k) for k in ("time", "session", "agent", "tool", "cwd", "input_digest", "decision",
                                         "layer", "source", "risk", "interrupt", "fail_closed") if k in record}
    summary["reason"] = shorten(str(record.get("reason", "")), 1024)
    summary["input"] = {"truncated": True}
    out = _dumps(summary)
    return out if len(out) <= cap else _dumps({"time": record.get("time"), "decision": record.get("decision"),
                                                "truncated": True})


def _first_cuts(record: dict) -> Iterator[tuple[Any, Any]]:
    for outer, inner in _CUT_FIRST:
        holder = record.get(outer)
        if isinstance(holder, dict) and isinstance(holder.get(inner), str):
            yield holder, inner


# --------------------------------------------------------------------------- the file


def append(path: str | os.PathLike[str], record: Mapping[str, Any]) -> None:
    """Append one record as one line: a single ``write`` on an ``O_APPEND`` descriptor
    under an exclusive ``flock`` (so concurrent hook processes never interleave), after
    dropping an unterminated last line a killed writer left; then flush it to disk."""
    import fcntl

    data = line(record)
    state.make_parent(path)
    flags = os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, os.O_RDWR | flags, 0o600)
    except PermissionError:  # a write-only log: append without the repair
        fd = os.open(path, os.O_WRONLY | flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _drop_torn_tail(fd)
        written = os.write(fd, data)
        while written < len(data):  # a short write (a signal, a full disk): finish it under the lock
            written += os.write(fd, data[written:])
        os.fsync(fd)
    finally:
        os.close(fd)  # releases the lock


def _drop_torn_tail(fd: int) -> None:
    """Cut an unterminated last line (a writer killed mid-``write``) so the next record
    starts on a line of its own instead of being glued to half a record."""
    size = os.fstat(fd).st_size
    try:
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return
    except OSError:  # not readable (write-only): nothing to repair with
        return
    end = size
    while end > 0:
        start = max(0, end - 65536)
        block = os.pread(fd, end - start, start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            os.ftruncate(fd, start + newline + 1)
            return
        end = start
    os.ftruncate(fd, 0)


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        record = fastjson.loads(raw)
    except ValueError:  # a torn or foreign line: skipped, never fatal
        return None
    return record if isinstance(record, dict) else None


def tail(path: str | os.PathLike[str], count: int = 20) -> list[dict[str, Any]]:
    """The last ``count`` records (torn or unparseable lines are skipped)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            block = min(size, max(65536, (count + 1) * MAX_RECORD_BYTES))
            handle.seek(size - block)
            lines = handle.read().split(b"\n")
    except OSError:
        return []
    if block < size:
        lines = lines[1:]  # the block starts inside a line
    records = [r for r in map(_parse, lines) if r is not None]
    return records[-count:] if count > 0 else []


def iter_records(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Every record in the file, in order (torn or unparseable lines are skipped)."""
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                record = _parse(raw)
                if record is not None:
                    yield record
    except OSError:
        return
