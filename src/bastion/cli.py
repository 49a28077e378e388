"""The ``bastion`` command.

Exit status of ``check`` and ``explain`` (a contract scripts rely on): 0 allow, 3 ask,
4 deny, 2 bad input (with one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Sequence

EXIT_ALLOW, EXIT_BAD_INPUT, EXIT_ASK, EXIT_DENY = 0, 2, 3, 4
EXIT_BY_VERDICT = {"allow": EXIT_ALLOW, "ask": EXIT_ASK, "deny": EXIT_DENY}


class BadInput(Exception):
    """Input the user must fix; printed as one line, exit status 2. ``data``: the call's
    JSON object, when it could be read."""

    def __init__(self, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.data = data


def _fail(message: str) -> int:
    print(f"bastion: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


# --------------------------------------------------------------------------- parsing calls


def call_from_json(data: dict[str, Any], *, where: str) -> Any:
    """A ToolCall from the ``bastion check`` JSON shape, already read by
    ``validate.parse_input`` (types checked, ``cwd`` absolute), or BadInput naming what
    is missing."""
    from .model import Mode, ToolCall

    tool = data.get("tool", data.get("tool_name"))
    if not isinstance(tool, str) or not tool:
        raise BadInput(f"{where}: missing \"tool\" (a tool name such as \"Bash\" or \"Write\")")
    tool_input = data.get("input", data.get("tool_input")) or {}
    mode = None
    if data.get("mode") is not None:
        try:
            mode = Mode.parse(data["mode"])
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
    from .validate import InputError, parse_input

    try:
        data = parse_input(raw, cwd=os.path.abspath(args.cwd or os.getcwd()))
    except InputError as exc:
        _audit_bad_input(f"{where}: {exc}", raw, args, exc.data)
        raise BadInput(f"{where}: {exc}", exc.data) from None
    try:
        call = call_from_json(data, where=where)
    except BadInput as exc:
        _audit_bad_input(str(exc), raw, args, data)
        raise BadInput(str(exc), data) from None
    if args.session and not call.session_id:
        call.session_id = args.session
    return data, call


def _audit_bad_input(message: str, raw: bytes | None, args: Any, data: Any = None) -> None:
    """``bastion check`` refused a call it could not read (exit 2, or the line's error):
    the audit log says so, as it says every decision (not with ``--no-audit``)."""
    if getattr(args, "verb", "") == "check" and not getattr(args, "no_audit", False):
        from .audit.log import record_fail_closed

        record_fail_closed(message, verdict="error", agent="cli", raw=raw, payload=data)


# --------------------------------------------------------------------------- guard cache


class Guards:
    """One Guard per project directory, so a batch over many projects loads each
    project's settings once and reports each broken file once."""

    def __init__(self, args: Any) -> None:
        self.args = args
        self._cache: dict[str, Any] = {}
        self._reported: set[str] = set()

    def for_cwd(self, cwd: str) -> Any:
        from .engine import Guard

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


def _decide(guards: Guards, call: Any, *, audit: bool, prompt: bool = False) -> Any:
    from .session import decide

    guard = guards.for_cwd(call.cwd)
    return decide(guard, call, audit=audit, approver=_approver(guard) if prompt else None)


def _approver(guard: Any) -> Any:
    """The approvals prompt racing the settings' permission hooks; headless (deny)
    without a terminal or in CI."""
    from .approve import default_approver

    return default_approver(guard)


def _shell_call(command: str, args: Any) -> Any:
    from .model import Mode, ToolCall

    return ToolCall(
        "Bash",
        {"command": command},
        cwd=os.path.abspath(args.cwd or os.getcwd()),
        session_id=args.session or "",
        mode=Mode.parse(args.mode) if args.mode else None,
    )


def _read_call(args: Any) -> Any:
    if args.command:
        return _shell_call(" ".join(args.command) if len(args.command) > 1 else args.command[0], args)
    from .hook.run import read_stdin
    from .validate import MAX_INPUT_BYTES

    raw = read_stdin(MAX_INPUT_BYTES + 1)
    if raw is None or not raw.strip():
        where = "stdin is closed" if raw is None else "stdin"
        _audit_bad_input(f"{where}: no call given", raw, args)
        raise BadInput(f"{where}: no call given (pipe a JSON call, or use: bastion check -- 'shell command')")
    return read_call(raw, args, where="stdin")[1]


# --------------------------------------------------------------------------- commands


def _check_cwd(args: Any) -> None:
    if args.cwd and not os.path.isdir(args.cwd):
        raise BadInput(f"--cwd {args.cwd}: no such directory")


def cmd_check(args: Any) -> int:
    _check_cwd(args)
    guards = Guards(args)
    if args.batch:
        if args.prompt:
            raise BadInput("--prompt asks about one call; it cannot be combined with --batch")
        return _check_batch(guards, args)
    call = _read_call(args)
    decision = _decide(guards, call, audit=not args.no_audit, prompt=args.prompt)
    print(json.dumps(decision.to_dict(), ensure_ascii=False))
    return EXIT_BY_VERDICT[decision.verdict.value]


def _check_batch(guards: Guards, args: Any) -> int:
    """One record per input line, in order, each with the line's number: its decision,
    or an error naming the line (and its id when one could be read). A bad line never
    stops the lines after it."""
    from .validate import MAX_INPUT_BYTES

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BadInput("stdin is closed: there are no calls to read")
    status = EXIT_ALLOW
    for number, raw in enumerate(_lines(stream, MAX_INPUT_BYTES), 1):
        record = _batch_record(guards, args, number, raw)
        if "error" in record:
            status = EXIT_BAD_INPUT
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
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
        return {"id": ident, "line": number, **_decide(guards, call, audit=not args.no_audit).to_dict()}
    except BadInput as exc:
        return bad_line(str(exc), _echo_id(exc.data), number)
    except Exception as exc:  # noqa: BLE001 - the engine failed on this line: it asks, the next lines go on
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        print(f"bastion: {where}: internal error, asking instead of allowing: {detail}", file=sys.stderr)
        return {"id": ident, "line": number, **_internal_error_decision(detail)}


def bad_line(message: str, ident: Any, number: int) -> dict[str, Any]:
    """The one place a ``--batch`` line bastion could not read gets its record (and its
    one stderr line): ``{"id", "line", "error"}``; no decision, exit status 2."""
    print(f"bastion: {message}", file=sys.stderr)
    return {"id": ident, "line": number, "error": message}


def _echo_id(data: dict[str, Any] | None) -> Any:
    """The line's ``id`` as given, when it can be written back as JSON text."""
    ident = data.get("id") if isinstance(data, dict) else None
    try:
        json.dumps(ident, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):
        return None
    return ident


def cmd_explain(args: Any) -> int:
    from .explain import render

    _check_cwd(args)
    guards = Guards(args)
    call = _read_call(args)
    decision = _decide(guards, call, audit=False)
    print(render(call, decision, color=sys.stdout.isatty()))
    return EXIT_BY_VERDICT[decision.verdict.value]


def cmd_demo(args: Any) -> int:
    from .demo import run_demo

    return run_demo(color=sys.stdout.isatty())


def cmd_audit(args: Any) -> int:
    from .audit.log import tail
    from .session import audit_path
    from .policy.settings import load_policy

    policy = load_policy(os.getcwd())
    path = audit_path(policy)
    if path is None:
        return _fail("the audit log is switched off (audit.enabled is false or BASTION_AUDIT=0)")
    records = tail(path, args.lines)
    if args.json:
        for record in records:
            print(json.dumps(record, ensure_ascii=False))
        return 0
    if not records:
        print(f"no decisions logged yet in {path}")
    for record in records:
        tool_input = record.get("input") or {}
        what = tool_input.get("command") or tool_input.get("file_path") or tool_input.get("url") or ""
        print(f"{record.get('time', '?')}  {record.get('decision', '?'):5}  {record.get('tool', '?')}  {what}")
        print(f"    {record.get('layer', '?')}: {record.get('reason', '')}")
    return 0


def cmd_trust(args: Any, trusted: bool) -> int:
    from .policy.settings import find_project_root, trust, untrust

    root = find_project_root(os.path.abspath(args.dir))
    (trust if trusted else untrust)(root)
    print(f"{'trusted' if trusted else 'no longer trusted'}: {root}")
    return 0


def cmd_rules(args: Any) -> int:
    if args.rules_command == "test":
        from .policy.settings import test_rules_file

        ok, lines = test_rules_file(args.file)
        for line in lines:
            print(line)
        return 0 if ok else 1
    if args.rules_command == "add":
        from .policy.grants import save_always_rule
        from .policy.rules import RuleError, parse_rule
        from pathlib import Path

        try:
            parse_rule(args.rule, args.behavior, source="user")
        except RuleError as exc:
            return _fail(f"invalid rule {args.rule!r}: {exc}")
        if args.behavior == "allow" and not args.force:
            from .policy.suggest import is_too_broad

            if is_too_broad(args.rule):
                return _fail(f"{args.rule} would allow far more than one task needs (a whole tool, an open-ended "
                             "command, or credential and protected paths); narrow it, or add --force")
        target = Path(args.file) if args.file else _settings_target(args.scope)
        try:
            save_always_rule(target, args.rule, examples=args.example or (), behavior=args.behavior)
        except (OSError, ValueError) as exc:
            return _fail(str(exc))
        print(f"added {args.behavior} rule {args.rule} to {target}")
        if args.behavior == "allow" and not args.file and args.scope != "user":
            from .policy.settings import find_project_root, is_trusted

            root = find_project_root(os.getcwd())
            if not is_trusted(root):
                print(f"bastion: note: {root} is not trusted, so its settings can only tighten; "
                      "run 'bastion trust' for this allow rule to apply", file=sys.stderr)
        return 0
    # list
    from .policy.settings import load_policy

    policy = load_policy(os.path.abspath(args.cwd or os.getcwd()), isolated=args.isolated)
    for rule in policy.rules:
        print(f"{rule.behavior:5}  {rule.text}  [{rule.source}{': ' + rule.origin if rule.origin else ''}]")
    for line in list(policy.errors) + list(policy.notices):
        print(f"note: {line}")
    return 0


def _settings_target(scope: str) -> Any:
    from pathlib import Path

    from . import state
    from .policy.settings import find_project_root

    if scope == "user":
        return state.config_dir() / "settings.json"
    root = Path(find_project_root(os.getcwd()))
    return root / ".bastion" / ("settings.local.json" if scope == "local" else "settings.json")


# --------------------------------------------------------------------------- argparse


def _add_decision_flags(parser: Any) -> None:
    parser.add_argument("--cwd", help="working directory of the call (default: the current one)")
    parser.add_argument("--mode", help="permission mode: default, acceptEdits, plan, bypassPermissions, dontAsk")
    parser.add_argument("--settings", action="append", metavar="FILE", help="extra settings file (flag priority)")
    parser.add_argument("--isolated", action="store_true", help="ignore managed, user and Claude Code settings")
    parser.add_argument("--add-dir", action="append", default=[], metavar="DIR",
                        help="another directory the agent may work in (besides additionalDirectories)")
    parser.add_argument("--session", help="session id (grants and denial tracking are per session)")
    parser.add_argument("--no-audit", action="store_true", help="do not write this decision to the audit log")
    parser.add_argument("command", nargs="*", help="a shell command (after --), shorthand for a Bash call")


def build_parser() -> Any:
    import argparse

    parser = argparse.ArgumentParser(prog="bastion", description="Allow, ask or deny AI agents' tool calls.")
    sub = parser.add_subparsers(dest="verb", metavar="COMMAND")

    check = sub.add_parser("check", help="decide one call (JSON on stdin, or -- 'shell command')")
    _add_decision_flags(check)
    check.add_argument("--batch", action="store_true", help="JSON Lines in, one decision per line out")
    check.add_argument("--prompt", action="store_true",
                       help="settle an ask at the terminal (allow once / for this session / deny); deny without one")

    explain = sub.add_parser("explain", help="decide one call and explain it for a person")
    _add_decision_flags(explain)

    sub.add_parser("demo", help="show real decisions on a handful of calls")

    evaluate = sub.add_parser("eval", help="accuracy on labelled JSON Lines corpora")
    evaluate.add_argument("files", nargs="+", metavar="FILE.jsonl")
    evaluate.add_argument("--json", action="store_true", help="machine-readable report")
    evaluate.add_argument("--misses", type=int, default=0, metavar="N", help="also print N misses per file")

    audit = sub.add_parser("audit", help="read the audit log")
    audit_sub = audit.add_subparsers(dest="audit_command", metavar="SUBCOMMAND")
    audit_tail = audit_sub.add_parser("tail", help="the latest decisions")
    audit_tail.add_argument("-n", "--lines", type=int, default=20)
    audit_tail.add_argument("--json", action="store_true")

    for verb, text in (("trust", "let this project's settings loosen the guard"), ("untrust", "take trust back")):
        trust = sub.add_parser(verb, help=text)
        trust.add_argument("dir", nargs="?", default=".")

    rules = sub.add_parser("rules", help="list, add and test permission rules")
    rules_sub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    rules_list = rules_sub.add_parser("list", help="the rules in force here, with their sources")
    rules_list.add_argument("--cwd")
    rules_list.add_argument("--isolated", action="store_true")
    rules_test = rules_sub.add_parser("test", help="check the match/not_match examples of a settings file")
    rules_test.add_argument("file")
    rules_add = rules_sub.add_parser("add", help="save an allow (or deny/ask) rule")
    rules_add.add_argument("rule")
    rules_add.add_argument("--behavior", choices=("allow", "deny", "ask"), default="allow")
    rules_add.add_argument("--scope", choices=("user", "project", "local"), default="user",
                           help="user settings (default), or this project's .bastion/settings(.local).json")
    rules_add.add_argument("--file", help="settings file to write (overrides --scope)")
    rules_add.add_argument("--example", action="append", help="a command the rule must match (checked on load)")
    rules_add.add_argument("--force", action="store_true", help="save an allow rule even when it is very broad")

    from .adapters.commands import add_parsers  # hook, install, uninstall, mcp-proxy

    add_parsers(sub)

    from .sandbox.command import add_parsers as add_sandbox_parsers  # run, doctor

    add_sandbox_parsers(sub, _add_decision_flags)

    from .injection.command import add_parser as add_scan_parser  # scan

    add_scan_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["hook"]:  # every tool call: skip argparse and import only the decision path
        from .hook.client import main as hook_main

        return hook_main(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else EXIT_BAD_INPUT
    try:
        if args.verb == "check":
            return cmd_check(args)
        if args.verb == "explain":
            return cmd_explain(args)
        if args.verb == "demo":
            return cmd_demo(args)
        if args.verb == "eval":
            from .evaluate import main as eval_main

            return eval_main(args.files, as_json=args.json, show_misses=args.misses)
        if args.verb == "audit":
            if args.audit_command != "tail":
                parser.parse_args(["audit", "--help"])
            return cmd_audit(args)
        if args.verb in ("trust", "untrust"):
            return cmd_trust(args, args.verb == "trust")
        if args.verb in ("install", "uninstall", "mcp-proxy"):
            from .adapters.commands import dispatch

            return dispatch(args)
        if args.verb in ("run", "doctor"):
            from .sandbox.command import cmd_doctor, cmd_run

            if args.verb == "doctor":
                return cmd_doctor(args)
            guards = Guards(args)
            return cmd_run(args, guards, lambda call, decision: _ask_person(guards.for_cwd(call.cwd), call, decision))
        if args.verb == "scan":
            from .injection.command import run as cmd_scan

            return cmd_scan(args)
        if args.verb == "rules":
            if not args.rules_command:
                args.rules_command, args.cwd, args.isolated = "list", None, False
            return cmd_rules(args)
        parser.print_help()
        return EXIT_BAD_INPUT
    except BadInput as exc:
        return _fail(str(exc))
    except ValueError as exc:
        return _fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - never a traceback, never an allow
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        if args.verb in ("check", "explain"):
            print(json.dumps(_internal_error_decision(detail)))
            print(f"bastion: internal error, asking instead of allowing: {detail}", file=sys.stderr)
            return EXIT_ASK
        print(f"bastion: internal error: {detail}", file=sys.stderr)
        return 1


def _ask_person(guard: Any, call: Any, decision: Any) -> bool:
    """``bastion run``'s answer to an ask: the approvals prompt (racing the permission
    hooks); False without a terminal."""
    return _approver(guard)(call, decision).allowed


def _internal_error_decision(detail: str) -> dict[str, Any]:
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
