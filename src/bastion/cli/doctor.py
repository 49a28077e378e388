"""``bastion doctor [CLIENT|sandbox]``: is bastion really in front of each agent?

For Claude Code, Codex and Gemini CLI: where bastion's hook is installed (user, project,
Claude Code's local file) and so which hooks are in force; whether each command resolves
(this machine's interpreter, or the ``bastion`` command on ``PATH``); whether it answers
a probe call the way the client needs (a catastrophic command denied); and for Codex,
whether the hook is trusted, since Codex skips an untrusted hook without a word. Every
problem comes with the exact command that fixes it. The sandbox's own checks follow
(``sandbox.doctor``). ``--json`` gives the same for scripts.

The probe runs the installed command itself, as the client would (``sh -c``), deciding
in its own process (no decision server is left behind) with the audit log off.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..adapters.install import (
    CLIENTS,
    InstallError,
    _load,
    is_bastion_handler,
    parse_hook_command,
    project_root,
    stale_hook,
    target_file,
)

#: A call every installed hook must deny, in each client's own payload shape.
PROBE_COMMAND = "rm -rf /"
PROBE_TOOL = {"claude-code": "Bash", "codex": "Bash", "gemini": "run_shell_command"}
PROBE_TIMEOUT = 30.0


@dataclass
class Check:
    """One answer: ``ok`` None means "not applicable / for information"."""

    name: str
    ok: bool | None
    detail: str
    fix: str = ""


@dataclass
class Hook:
    """One bastion hook entry found in a client's settings."""

    scope: str
    file: str
    command: str
    python: str | None  # None: the bastion command on PATH
    runs: str = ""  # what the command resolves to
    in_force: bool = True


@dataclass
class ClientReport:
    """One client as ``bastion doctor`` finds it: bastion's hook entries and the checks on them."""

    client: str
    title: str
    hooks: list[Hook] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    @property
    def installed(self) -> bool:
        return bool(self.hooks)

    @property
    def ok(self) -> bool:
        return self.installed and all(check.ok is not False for check in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"client": self.client, "title": self.title, "installed": self.installed, "ok": self.ok,
                "in_force": [hook.scope for hook in self.hooks if hook.in_force],
                "hooks": [asdict(hook) for hook in self.hooks], "checks": [asdict(check) for check in self.checks]}

    def render(self) -> list[str]:
        lines = [self.title]
        for check in self.checks:
            mark = {True: "ok ", False: "NO ", None: "-- "}[check.ok]
            lines.append(f"  {mark} {check.name:<17} {check.detail}")
            if check.fix:
                lines.append(f"      {'':<17} fix: {check.fix}")
        return lines


# --------------------------------------------------------------------------- finding the hooks


def _scopes(client: str) -> tuple[str, ...]:
    return ("user", "project", "local") if CLIENTS[client].local_file else ("user", "project")


def find_hooks(client: str, cwd: str, env: Mapping[str, str]) -> tuple[list[Hook], list[Check]]:
    """bastion's hooks in each of the client's settings files (first event's handler)."""
    hooks: list[Hook] = []
    problems: list[Check] = []
    seen: set[Path] = set()
    for scope in _scopes(client):
        path = target_file(client, scope, cwd=cwd, env=env)
        if path in seen:  # the project is the home folder
            continue
        seen.add(path)
        try:
            _, data = _load(path)
        except InstallError as exc:
            problems.append(Check("settings file", False, str(exc), "fix the file, then: bastion doctor"))
            continue
        event = CLIENTS[client].events[0][0]
        groups = (data.get("hooks") or {}).get(event) or []
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                if is_bastion_handler(handler):
                    command = str(handler.get("command"))
                    parsed = parse_hook_command(command)
                    hooks.append(Hook(scope, str(path), command, parsed.python if parsed else None))
                    break
            else:
                continue
            break
    return hooks, problems


def _flag(scope: str) -> str:
    return "" if scope == "user" else f" --{scope}"


# --------------------------------------------------------------------------- the checks


def _resolve(client: str, hook: Hook, env: Mapping[str, str]) -> Check:
    if parse_hook_command(hook.command) is None:
        return Check("command", False, f"{hook.scope}: not a command bastion wrote: {hook.command[:80]}",
                     f"bastion install {client}{_flag(hook.scope)}")
    if hook.python is not None:
        if os.access(hook.python, os.X_OK) and stale_hook(hook.command, client, hook.python):
            return Check("command", False, f"{hook.scope}: the command sets other folders than {hook.python} has now "
                         "(bastion reinstalled or moved): the hook would decide with another copy of bastion than "
                         "its decision server", f"bastion install {client}{_flag(hook.scope)}")
        if os.access(hook.python, os.X_OK):
            hook.runs = hook.python
            return Check("command", True, f"{hook.scope}: {hook.python} (this machine's interpreter)")
        return Check("command", False, f"{hook.scope}: {hook.python} is gone (moved or removed): every tool call is "
                     "blocked", f"install bastion again, then: bastion install {client}{_flag(hook.scope)}")
    found = shutil.which("bastion", path=env.get("PATH") or os.defpath)
    if found:
        hook.runs = found
        return Check("command", True, f"{hook.scope}: bastion on PATH is {found}")
    return Check("command", False, f"{hook.scope}: no bastion command on PATH: every tool call is blocked with "
                 "\"bastion is not installed\"", "put bastion on PATH (README, Install): pipx install <bastion checkout>")


def probe_payload(client: str, cwd: str) -> dict[str, Any]:
    event = CLIENTS[client].events[0][0]
    return {"hook_event_name": event, "tool_name": PROBE_TOOL[client], "tool_input": {"command": PROBE_COMMAND},
            "cwd": cwd, "session_id": f"bastion-doctor-{uuid.uuid4().hex[:12]}", "permission_mode": "default"}


def denies(client: str, stdout: str) -> bool:
    """Whether a hook's answer is a deny the client obeys."""
    try:
        answer = json.loads(stdout)
    except ValueError:
        return False
    if not isinstance(answer, dict):
        return False
    if client == "gemini":
        return answer.get("decision") == "deny"
    specific = answer.get("hookSpecificOutput")
    return isinstance(specific, dict) and specific.get("permissionDecision") == "deny"


def probe(client: str, hook: Hook, cwd: str, env: Mapping[str, str]) -> Check:
    """Run the installed command on a call it must deny, as the client runs it."""
    payload = json.dumps(probe_payload(client, cwd))
    run_env = {**env, "BASTION_HOOK_SERVER": "0", "BASTION_AUDIT": "0"}
    started = time.monotonic()
    try:
        done = subprocess.run(["sh", "-c", hook.command], input=payload, capture_output=True, text=True, cwd=cwd,
                              env=run_env, timeout=PROBE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return Check("answers a probe", False, f"{hook.scope}: no answer within {PROBE_TIMEOUT:.0f} s",
                     f"run it by hand to see why: echo '{payload}' | sh -c '<the command above>'")
    except OSError as exc:
        return Check("answers a probe", False, f"{hook.scope}: cannot run sh: {exc.strerror}")
    took = (time.monotonic() - started) * 1000
    if done.returncode == 0 and denies(client, done.stdout):
        return Check("answers a probe", True, f"{hook.scope}: denied a test call ({PROBE_COMMAND}) in {took:.0f} ms")
    said = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or ["no output"])[0][:160]
    blocked = " (the call is blocked, but bastion did not decide it)" if done.returncode == 2 else ""
    return Check("answers a probe", False, f"{hook.scope}: exit {done.returncode}{blocked}: {said}",
                 f"bastion install {client}{_flag(hook.scope)}, then: bastion doctor {client}")


def _codex_checks(hooks: list[Hook], cwd: str, env: Mapping[str, str]) -> list[Check]:
    from ..adapters import codex_trust

    checks = []
    config = codex_trust.config_path(env)
    for hook in hooks:
        _, data = _load(Path(hook.file))
        if hook.scope == "project":
            root = str(project_root(cwd, env))
            if not _codex_trusts_project(config, root):
                hook.in_force = False
                checks.append(Check("project trusted", False, f"Codex reads {hook.file} only in a project it trusts",
                                    f"open codex in {root} and trust the project (or add [projects.\"{root}\"] "
                                    f"trust_level = \"trusted\" to {config})"))
        missing = codex_trust.untrusted(Path(hook.file), data, env)
        if missing:
            hook.in_force = False
            checks.append(Check("hook trusted", False, f"{hook.scope}: Codex has not trusted bastion's hook as it is "
                                "now, so it runs WITHOUT bastion",
                                f"bastion install codex{_flag(hook.scope)} --trust (or in codex: /hooks, then t on "
                                "each bastion hook)"))
        else:
            checks.append(Check("hook trusted", True, f"{hook.scope}: trusted in {config}"))
    return checks


def _codex_trusts_project(config: Path, root: str) -> bool:
    import tomllib

    try:
        projects = tomllib.loads(config.read_text(encoding="utf-8")).get("projects", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    entry = projects.get(root) if isinstance(projects, dict) else None
    return isinstance(entry, dict) and entry.get("trust_level") == "trusted"


def client_report(client: str, cwd: str, env: Mapping[str, str], *, run_probe: bool = True) -> ClientReport:
    spec = CLIENTS[client]
    report = ClientReport(client, spec.title)
    hooks, problems = find_hooks(client, cwd, env)
    report.hooks = hooks
    report.checks.extend(problems)
    if not hooks:
        where = ", ".join(str(target_file(client, scope, cwd=cwd, env=env)) for scope in _scopes(client))
        fix = f"bastion install {client}" + (" --trust" if client == "codex" else "")
        report.checks.append(Check("installed", None if problems else False, f"no bastion hook in {where}", fix))
        return report
    report.checks.append(Check("installed", True, "; ".join(f"{h.scope}: {h.file}" for h in hooks)))
    for hook in hooks:
        resolved = _resolve(client, hook, env)
        report.checks.append(resolved)
        if resolved.ok and run_probe:
            report.checks.append(probe(client, hook, str(project_root(cwd, env)), env))
    if client == "codex":
        report.checks.extend(_codex_checks(hooks, cwd, env))
    if client == "gemini" and any(h.scope == "project" for h in hooks):
        report.checks.append(Check("project hooks", None, "Gemini CLI runs a project's hooks only in folders you trust"))
    report.checks.append(_in_force(client, hooks))
    return report


def _in_force(client: str, hooks: list[Hook]) -> Check:
    running = [h for h in hooks if h.in_force]
    if not running:
        return Check("in force", False, "none: the client runs without bastion (see above)")
    names = ", ".join(f"{h.scope} ({'bastion on PATH' if h.python is None else 'this machine'})" for h in running)
    if len(running) > 1:
        extra = next(h for h in running if h.scope != "project")
        return Check("in force", True, f"{names}: each runs, so every call is checked {len(running)} times",
                     f"to keep one: bastion uninstall {client}{_flag(extra.scope)}")
    return Check("in force", True, names)


# --------------------------------------------------------------------------- the verb


def add_parser(sub: Any) -> None:
    doctor = sub.add_parser("doctor", help="is bastion's hook installed, resolving, answering (and trusted) in each "
                                           "client; what the sandbox can enforce")
    doctor.add_argument("what", nargs="?", choices=(*CLIENTS, "sandbox"), help="one client, or the sandbox only")
    doctor.add_argument("--json", action="store_true")


def main(args: Any, env: Mapping[str, str] | None = None) -> int:
    env = env if env is not None else os.environ
    cwd = os.getcwd()
    what = getattr(args, "what", None)
    reports = [] if what == "sandbox" else [client_report(c, cwd, env) for c in CLIENTS if what in (None, c)]
    status = 0
    if what is not None and what != "sandbox":
        status = 0 if reports[0].ok else 1
    elif any(r.installed and not r.ok for r in reports):
        status = 1
    sandbox = None
    if what in (None, "sandbox"):
        from ..sandbox.doctor import report

        sandbox = report()
        if not sandbox.backend:
            status = 1
    if getattr(args, "json", False):
        data: dict[str, Any] = {"clients": [r.to_dict() for r in reports]}
        if sandbox is not None:
            data.update(sandbox.to_dict())
        print(json.dumps(data, indent=1))
        return status
    lines: list[str] = []
    if reports:
        lines.append("bastion doctor: bastion's hook in each client")
        for r in reports:
            lines += ["", *r.render()]
        lines.append("")
    if sandbox is not None:
        lines.append(sandbox.render())
    print("\n".join(lines).rstrip())
    return status
