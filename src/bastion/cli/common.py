"""What the verbs share: exit codes, bad input, reading a call, one Guard per project,
deciding, the decision flags, and the ask that stands for an internal error."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EXIT_ALLOW, EXIT_BAD_INPUT, EXIT_ASK, EXIT_DENY = 0, 2, 3, 4
EXIT_BY_VERDICT = {"allow": EXIT_ALLOW, "ask": EXIT_ASK, "deny": EXIT_DENY}


class BadInput(Exception):
    """Input the user must fix; printed as one line, exit status 2. ``data``: the call's
    JSON object, when it could be read."""

    def __init__(self, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.data = data


def fail(message: str) -> int:
    print(f"bastion: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


# --------------------------------------------------------------------------- parsing calls


def call_from_json(data: dict[str, Any], *, where: str) -> Any:
    """A ToolCall from the ``bastion check`` JSON shape, already read by
    ``validate.parse_input`` (types checked, ``cwd`` absolute), or BadInput naming what
    is missing."""
    from ..core.mode import parse_mode
    from ..model import ToolCall

    tool = data.get("tool", data.get("tool_name"))
    if not isinstance(tool, str) or not tool:
        raise BadInput(f"{where}: missing \"tool\" (a tool name such as \"Bash\" or \"Write\")")
    tool_input = data.get("input", data.get("tool_input")) or {}
    try:
        mode = parse_mode(data.get("mode"))
    except ValueError as exc:
        raise BadInput(f"{where}: {exc}") from None
    return ToolCall(
        tool=tool,
        input=tool_input,
        cwd=data["cwd"],
        session_id=data.get("session_id") or "",
        mode=mode,
        agent=data.get("agent") or "",
    )


def read_call(raw: bytes | None, args: Any, *, where: str) -> tuple[dict[str, Any], Any]:
    """One call's JSON object and ToolCall from its raw bytes, through the gate every
    entry shares (``validate.parse_input``), with ``--cwd`` and ``--session`` as its
    context; BadInput otherwise (its ``data``: the JSON object, when one was read)."""
    from ..validate import InputError, parse_input

    try:
        data = parse_input(raw, cwd=os.path.abspath(args.cwd or os.getcwd()))
    except InputError as exc:
        audit_bad_input(f"{where}: {exc}", raw, args, exc.data)
        raise BadInput(f"{where}: {exc}", exc.data) from None
    try:
        call = call_from_json(data, where=where)
    except BadInput as exc:
        audit_bad_input(str(exc), raw, args, data)
        raise BadInput(str(exc), data) from None
    if args.session and not call.session_id:
        call.session_id = args.session
    return data, call


def audit_bad_input(message: str, raw: bytes | None, args: Any, data: Any = None) -> None:
    """``bastion check`` refused a call it could not read (exit 2, or the line's error):
    the audit log says so, as it says every decision (not with ``--no-audit``)."""
    if getattr(args, "verb", "") == "check" and not getattr(args, "no_audit", False):
        from ..audit.log import record_fail_closed

        record_fail_closed(message, verdict="error", agent="cli", raw=raw, payload=data)


def shell_call(command: str, args: Any) -> Any:
    from ..core.mode import parse_mode
    from ..model import ToolCall

    return ToolCall(
        "Bash",
        {"command": command},
        cwd=os.path.abspath(args.cwd or os.getcwd()),
        session_id=args.session or "",
        mode=parse_mode(args.mode or None),
    )


def read_one_call(args: Any) -> Any:
    """The call of ``check``/``explain``: ``-- 'shell command'``, else JSON on stdin."""
    if args.command:
        return shell_call(" ".join(args.command) if len(args.command) > 1 else args.command[0], args)
    from ..hook.run import read_stdin
    from ..validate import MAX_INPUT_BYTES

    raw = read_stdin(MAX_INPUT_BYTES + 1)
    if raw is None or not raw.strip():
        where = "stdin is closed" if raw is None else "stdin"
        audit_bad_input(f"{where}: no call given", raw, args)
        raise BadInput(f"{where}: no call given (pipe a JSON call, or use: bastion check -- 'shell command')")
    return read_call(raw, args, where="stdin")[1]


def check_cwd(args: Any) -> None:
    if args.cwd and not os.path.isdir(args.cwd):
        raise BadInput(f"--cwd {args.cwd}: no such directory")


# --------------------------------------------------------------------------- guard cache


class Guards:
    """One Guard per project directory, so a batch over many projects loads each
    project's settings once and reports each broken file once."""

    def __init__(self, args: Any) -> None:
        self.args = args
        self._cache: dict[str, Any] = {}
        self._reported: set[str] = set()

    def for_cwd(self, cwd: str) -> Any:
        from ..engine import Guard

        guard = self._cache.get(cwd)
        if guard is None:
            guard = Guard.from_settings(
                cwd,
                isolated=self.args.isolated,
                settings_files=self.args.settings or (),
                mode=self.args.mode,
                add_dirs=getattr(self.args, "add_dir", None) or (),
            )
            self._cache[cwd] = guard
            for line in list(guard.policy.errors) + list(guard.policy.notices):
                if line not in self._reported:
                    self._reported.add(line)
                    print(f"bastion: {line}", file=sys.stderr)
        return guard


def decide(guards: Guards, call: Any, *, audit: bool, prompt: bool = False) -> Any:
    from ..session import decide

    guard = guards.for_cwd(call.cwd)
    return decide(guard, call, audit=audit, approver=approver(guard) if prompt else None)


def approver(guard: Any) -> Any:
    """The approvals prompt racing the settings' permission hooks; headless (deny)
    without a terminal or in CI."""
    from ..approve import default_approver

    return default_approver(guard)


#: The options every deciding verb takes (``check``, ``explain``, ``run``), one record
#: each: (option, argparse action, default, metavar, help). ``add_flags`` gives them to
#: argparse, and ``cli.plain_args`` reads the plain form of ``check``/``explain`` from them.
DECISION_FLAGS: tuple[tuple[str, str, Any, str | None, str], ...] = (
    ("--cwd", "store", None, None, "working directory of the call (default: the current one)"),
    ("--mode", "store", None, None, "permission mode: default, acceptEdits, plan, bypassPermissions, dontAsk"),
    ("--settings", "append", None, "FILE", "extra settings file (flag priority)"),
    ("--isolated", "store_true", False, None, "ignore managed, user and Claude Code settings"),
    ("--add-dir", "append", [], "DIR", "another directory the agent may work in (besides additionalDirectories)"),
    ("--session", "store", None, None, "session id (grants and denial tracking are per session)"),
    ("--no-audit", "store_true", False, None, "do not write this decision to the audit log"),
)


def add_flags(parser: Any, flags: tuple[tuple[str, str, Any, str | None, str], ...]) -> None:
    """Give ``parser`` each option of a flag table (``DECISION_FLAGS``)."""
    for option, action, default, metavar, text in flags:
        extra = {} if metavar is None else {"metavar": metavar}
        if action == "store_true":
            parser.add_argument(option, action=action, help=text)
        else:
            parser.add_argument(option, action=action, default=default, help=text, **extra)


def add_decision_flags(parser: Any) -> None:
    add_flags(parser, DECISION_FLAGS)
    parser.add_argument("command", nargs="*", help="a shell command (after --), shorthand for a Bash call")


def internal_error_decision(detail: str) -> dict[str, Any]:
    """The record printed when bastion failed while deciding: an immune ask."""
    return {
        "decision": "ask",
        "reason": f"bastion failed internally ({detail}); asking instead of allowing",
        "layer": "engine",
        "risk": "high_risk",
        "source": "builtin",
        "immune": True,
        "interrupt": False,
        "findings": [],
        "suggestions": [],
        "trace": [],
    }
