"""``bastion check`` (one call, ``--batch``, ``--prompt``) and ``bastion explain``."""

from __future__ import annotations

import sys

from .. import fastjson
from .common import (
    EXIT_ALLOW,
    EXIT_BAD_INPUT,
    EXIT_BY_VERDICT,
    BadInput,
    Guards,
    add_decision_flags,
    add_flags,
    check_cwd,
    decide,
    internal_error_decision,
    read_call,
    read_one_call,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: ``check``'s own options, beside ``common.DECISION_FLAGS`` (same record shape).
CHECK_FLAGS: tuple[tuple[str, str, Any, str | None, str], ...] = (
    ("--batch", "store_true", False, None, "JSON Lines in, one decision per line out"),
    ("--prompt", "store_true", False, None,
     "settle an ask at the terminal (allow once / for this session / deny); deny without one"),
)


def add_parsers(sub: Any) -> None:
    check = sub.add_parser("check", help="decide one call (JSON on stdin, or -- 'shell command')")
    add_decision_flags(check)
    add_flags(check, CHECK_FLAGS)

    explain = sub.add_parser("explain", help="decide one call and explain it for a person")
    add_decision_flags(explain)


def cmd_check(args: Any) -> int:
    check_cwd(args)
    guards = Guards(args)
    if args.batch:
        if args.prompt:
            raise BadInput("--prompt asks about one call; it cannot be combined with --batch")
        return _check_batch(guards, args)
    call = read_one_call(args)
    decision = decide(guards, call, audit=not args.no_audit, prompt=args.prompt)
    print(fastjson.dumps(decision.to_dict(), ensure_ascii=False))
    return EXIT_BY_VERDICT[decision.verdict.value]


def _check_batch(guards: Guards, args: Any) -> int:
    """One record per input line, in order, each with the line's number: its decision,
    or an error naming the line (and its id when one could be read). A bad line never
    stops the lines after it."""
    from ..validate import MAX_INPUT_BYTES

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BadInput("stdin is closed: there are no calls to read")
    status = EXIT_ALLOW
    for number, raw in enumerate(_lines(stream, MAX_INPUT_BYTES), 1):
        record = _batch_record(guards, args, number, raw)
        if "error" in record:
            status = EXIT_BAD_INPUT
        sys.stdout.write(fastjson.dumps(record, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return status


def _lines(stream: Any, limit: int) -> Any:
    """Each line's bytes without its newline; a line longer than ``limit`` comes out as
    its first ``limit + 1`` bytes (too large: refused) and the rest is skipped unread
    into memory."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            line = line[:-1]
        elif len(line) > limit:
            while (rest := stream.readline(65536)) and not rest.endswith(b"\n"):
                pass
        yield line


def _batch_record(guards: Guards, args: Any, number: int, raw: bytes) -> dict[str, Any]:
    where = f"stdin line {number}"
    ident: Any = None
    try:
        data, call = read_call(raw, args, where=where)
        ident = _echo_id(data)
        return {"id": ident, "line": number, **decide(guards, call, audit=not args.no_audit).to_dict()}
    except BadInput as exc:
        return bad_line(str(exc), _echo_id(exc.data), number)
    except Exception as exc:  # noqa: BLE001 - the engine failed on this line: it asks, the next lines go on
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        print(f"bastion: {where}: internal error, asking instead of allowing: {detail}", file=sys.stderr)
        return {"id": ident, "line": number, **internal_error_decision(detail)}


def bad_line(message: str, ident: Any, number: int) -> dict[str, Any]:
    """The one place a ``--batch`` line bastion could not read gets its record (and its
    one stderr line): ``{"id", "line", "error"}``; no decision, exit status 2."""
    print(f"bastion: {message}", file=sys.stderr)
    return {"id": ident, "line": number, "error": message}


def _echo_id(data: dict[str, Any] | None) -> Any:
    """The line's ``id`` as given, when it can be written back as JSON text."""
    ident = data.get("id") if isinstance(data, dict) else None
    try:
        fastjson.dumps(ident, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):
        return None
    return ident


def cmd_explain(args: Any) -> int:
    from ..explain import render

    check_cwd(args)
    guards = Guards(args)
    call = read_one_call(args)
    decision = decide(guards, call, audit=False)
    print(render(call, decision, color=sys.stdout.isatty()))
    return EXIT_BY_VERDICT[decision.verdict.value]
