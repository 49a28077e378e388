"""``bastion run`` and ``bastion doctor``.

``bastion run [options] -- cmd…`` decides first, exactly like ``bastion check`` (one
argument is a shell command run with ``bash -c``; several are an argv run as is and
decided as their shell-quoted join): a deny exits 4 without running anything; an ask
goes to a person on the terminal and is denied with ``--no-prompt`` or without one.
Then the command runs in the sandbox and ``bastion run`` exits with its status — 124 at
the timeout, 125 when no sandbox could be set up (nothing ran).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from typing import Any

from .common import EXIT_DENY, add_decision_flags

#: ``(call, decision) -> final decision``: the person at the terminal settles an ask.
Asker = Callable[[Any, Any], Any]


def add_parsers(sub: Any) -> None:
    run = sub.add_parser("run", help="decide, then run a command in the sandbox (-- cmd…)")
    add_decision_flags(run)
    run.add_argument("--allow-write", action="append", default=[], metavar="DIR", help="another writable directory")
    run.add_argument("--allow-domain", action="append", default=[], metavar="HOST",
                     help="a host the command may reach through bastion's proxy (*.example.com for subdomains)")
    run.add_argument("--timeout", type=float, metavar="S", help="seconds before the whole process tree is killed (default 30)")
    run.add_argument("--max-output", type=int, default=100_000, metavar="BYTES", help="cap per output stream")
    run.add_argument("--json", action="store_true", help="print one JSON result instead of the output")
    run.add_argument("--no-prompt", action="store_true", help="deny what would ask instead of prompting")
    run.add_argument("--no-check", action="store_true",
                     help="skip the decision (the caller already decided); the sandbox still applies in full")
    run.add_argument("--backend", choices=("auto", "bwrap", "landlock"), default="auto")
    from .doctor import add_parser as add_doctor

    add_doctor(sub)


def cmd_doctor(args: Any) -> int:
    """The clients' hooks (``cli.doctor``), then what the sandbox can enforce."""
    from .doctor import main

    return main(args)


def _call(args: Any, cwd: str) -> tuple[Any, str | list[str]]:
    from ..core.mode import parse_mode
    from ..model import ToolCall

    words = list(args.command)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise ValueError("no command given (use: bastion run [options] -- command …)")
    runnable: str | list[str] = words[0] if len(words) == 1 else words
    command = words[0] if len(words) == 1 else shlex.join(words)
    call = ToolCall(
        "Bash",
        {"command": command},
        cwd=cwd,
        session_id=args.session or "",
        mode=parse_mode(args.mode or None),
    )
    return call, runnable


def _decide(guard: Any, call: Any, args: Any, ask: Asker) -> Any:
    """Check, then settle an ask: the person at the terminal (``ask``, which is headless
    itself without one), or the headless approver where nobody may be asked."""
    from ..approve.headless import HeadlessApprover, nobody_to_ask
    from ..session import decide

    why = nobody_to_ask(guard.effective_mode(call), can_prompt=not args.no_prompt, headless="--no-prompt")
    return decide(guard, call, approver=HeadlessApprover(why) if why else ask, audit=not args.no_audit)


def _json_out(payload: dict[str, Any]) -> None:
    print(json.dumps(payload, ensure_ascii=False))


def cmd_run(args: Any, guards: Any, ask: Asker) -> int:
    from ..model import Verdict
    from ..sandbox.config import SandboxSettings, SandboxSettingsError, credential_globs, rule_domains
    from ..sandbox.runner import EXIT_SETUP, Sandbox, SandboxError

    cwd = os.path.abspath(args.cwd or os.getcwd())
    call, runnable = _call(args, cwd)
    guard = guards.for_cwd(cwd)
    guard.runs_sandboxed = True  # what runs here runs confined: autoAllowBashIfSandboxed may apply
    decision = None
    if not args.no_check:
        decision = _decide(guard, call, args, ask)
        if decision.verdict is not Verdict.ALLOW:
            print(f"bastion: denied, not run: {decision.reason}", file=sys.stderr)
            if args.json:
                _json_out({"exit_code": EXIT_DENY, "stdout": "", "stderr": "", "truncated": False,
                           "violations": [], "enforced": {}, "decision": decision.to_dict()})
            return EXIT_DENY
    home = guard.env.get("HOME") or os.path.expanduser("~")
    try:
        settings = SandboxSettings.from_policy(guard.policy, home=home)
    except SandboxSettingsError as exc:
        raise ValueError(f"settings: {exc}") from None
    if args.timeout is not None and args.timeout <= 0:
        raise ValueError("--timeout must be a positive number of seconds")
    if args.max_output < 1:
        raise ValueError("--max-output must be at least 1 byte")
    web_allowed, web_denied = rule_domains(guard.policy)
    workspace = guard.policy.project_root or cwd
    if not (cwd == workspace or cwd.startswith(workspace.rstrip("/") + "/")):
        workspace = cwd
    from ..sandbox.cgroups import Limits
    from ..sandbox.limits import apply_to_self

    apply_to_self()  # this process only launches the sandbox: its children inherit the limits
    sandbox = Sandbox(
        rlimits_inherited=True,
        backend=args.backend,
        home=home,
        environ=guard.env,
        allow_unix_sockets=settings.allow_unix_sockets,
        credential_globs=credential_globs(guard.policy, home),
        protect=_own_files(guard),
        warn=sys.stderr,
        limits=Limits(settings.processes, settings.memory_mb, settings.cpus),
    )
    live = None if args.json else _write_live
    try:
        stdin = sys.stdin.fileno() if sys.stdin is not None and not sys.stdin.closed else None
    except (OSError, ValueError):
        stdin = None
    _signals_end_the_run()
    try:
        result = sandbox.run(
            runnable,
            cwd=cwd,
            workspace=workspace,
            allow_write=[*guard.policy.additional_directories, *settings.allow_write, *args.allow_write],
            allow_domains=[*settings.allowed_domains, *web_allowed, *args.allow_domain],
            deny_domains=[*settings.denied_domains, *web_denied],
            timeout=args.timeout or settings.timeout or 30,
            max_output=args.max_output,
            env_allow=settings.env_allow,
            deny_read=settings.deny_read,
            stdin=stdin,
            on_output=live,
        )
    except SandboxError as exc:
        print(f"bastion: {exc}", file=sys.stderr)
        return EXIT_SETUP
    if args.json:
        payload = result.to_dict()
        if decision is not None:
            payload["decision"] = decision.to_dict()
        _json_out(payload)
    return result.exit_code


def _signals_end_the_run() -> None:
    """Ctrl-C, SIGTERM and SIGHUP (a harness stopping the agent, a closed terminal) end
    the run in order: the sandboxed tree is killed and swept before this process exits,
    instead of this process dying on the spot and leaving what the command made behind.
    Once one has arrived, the others are ignored, so a second signal cannot cut the
    sweep short."""
    import signal

    stopping = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def stop(signum: int, _frame: Any) -> None:
        for which in stopping:
            signal.signal(which, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    for which in stopping:
        signal.signal(which, stop)


def _own_files(guard: Any) -> list[str]:
    """bastion's files the settings place elsewhere (the audit log): read-only inside."""
    from ..audit.log import audit_path

    path = audit_path(guard.policy, guard.env)
    return [str(path), str(path) + ".lock"] if path is not None else []


def _write_live(name: str, data: bytes) -> None:
    stream = sys.stdout if name == "stdout" else sys.stderr
    stream.flush()
    stream.buffer.write(data)
    stream.buffer.flush()
