"""Permission hook scripts (spec 002 §12.14): programs that may settle an ask.

Settings::

    {"hooks": {
        "PermissionRequest": [{"command": "python3 /opt/policy.py", "timeout": 5000}],
        "PermissionDenied":  [{"command": "logger -t bastion", "timeout": 2000}]
    }}

``timeout`` is in milliseconds (default 10 000); an optional ``matcher`` limits a hook
to some tools (``"Bash"``, ``"Edit|Write"``, ``"mcp__*"``; default every tool).

A **PermissionRequest** script gets ``{hook_event_name, tool_name, tool_input,
session_id, cwd, permission_mode}`` as JSON on stdin and may print::

    {"behavior": "allow" | "deny", "message": "...", "interrupt": false,
     "updatedInput": {...}, "updatedPermissions": [...]}

(Claude Code's ``{"hookSpecificOutput": {"decision": {...}}}`` wrapper is accepted too;
exit status 2 with a message on stderr is a deny.) Several scripts run in parallel and
a deny from any of them wins. A script that fails, times out, prints something that is
not such an object, or prints nothing has no opinion — **a hook never allows by
failing**. A hook may not allow an immune ask (a protected path, an ask rule): only a
person may. ``updatedInput`` is used only when the changed call, checked again by the
guard, is not denied; ``updatedPermissions`` rules are saved like "always allow"
rules, and a Bash allow rule that is too broad (``Bash(bash:*)``) is refused.

**PermissionDenied** scripts get every deny (with ``reason``, ``layer``, ``source``)
for auditing. They are fire-and-forget: started and never waited for, and a small
watchdog kills one that outlives its timeout.

Hooks come from settings; a project's own files only contribute them once the project
is trusted (``policy.settings`` drops the ``hooks`` section of an untrusted project),
and bastion never reads hooks from Claude Code's settings files.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Decision, Source, ToolCall, Verdict
from ..shell.syntax.wildcards import fnmatchcase
from .base import allowed, automated_may_allow, denied

DEFAULT_TIMEOUT_MS = 10_000
MAX_TIMEOUT_MS = 600_000
#: Hook output beyond this is malformed (and never parsed).
MAX_OUTPUT = 1 << 20
EVENTS = ("PermissionRequest", "PermissionDenied")


@dataclass(frozen=True)
class HookSpec:
    """One configured hook script."""

    command: str
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    matcher: str = "*"

    def applies_to(self, call: ToolCall) -> bool:
        names = {call.tool, call.canonical_tool}
        return any(fnmatchcase(name, pattern.strip()) for pattern in self.matcher.split("|") for name in names)


def hook_specs(policy: Any, event: str) -> tuple[list[HookSpec], list[str]]:
    """The hooks configured for ``event`` and a problem line per malformed entry."""
    section = policy.section("hooks") if hasattr(policy, "section") else {}
    entries = section.get(event) or []
    specs: list[HookSpec] = []
    problems: list[str] = []
    if not isinstance(entries, list):
        return [], [f"hooks.{event} must be a list of {{\"command\", \"timeout\"}} objects"]
    for index, entry in enumerate(entries):
        where = f"hooks.{event}[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("command"), str) or not entry["command"].strip():
            problems.append(f"{where}: needs a \"command\" string; ignored")
            continue
        timeout = entry.get("timeout", DEFAULT_TIMEOUT_MS)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            problems.append(f"{where}: \"timeout\" must be a positive number of milliseconds; using {DEFAULT_TIMEOUT_MS}")
            timeout = DEFAULT_TIMEOUT_MS
        matcher = entry.get("matcher", "*")
        specs.append(HookSpec(entry["command"], int(min(timeout, MAX_TIMEOUT_MS)), matcher if isinstance(matcher, str) and matcher else "*"))
    return specs, problems


def payload(call: ToolCall, event: str, mode: str, decision: Decision | None = None) -> dict[str, Any]:
    """What a hook script reads on stdin."""
    data: dict[str, Any] = {
        "hook_event_name": event,
        "tool_name": call.tool,
        "tool_input": dict(call.input),
        "session_id": call.session_id,
        "cwd": call.cwd,
        "permission_mode": mode,
    }
    if decision is not None:
        data.update(reason=decision.reason, layer=decision.layer, source=decision.source.value,
                    risk=decision.risk.value, decision=decision.verdict.value)
    return data


# --------------------------------------------------------------------------- running one


@dataclass
class HookAnswer:
    """What one script said: ``behavior`` is allow, deny or None (no opinion)."""

    spec: HookSpec
    behavior: str | None
    message: str = ""
    interrupt: bool = False
    updated_input: dict[str, Any] | None = None
    updated_permissions: list[Any] | None = None
    problem: str = ""


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


def _parse(spec: HookSpec, out: bytes) -> HookAnswer:
    text = out.decode("utf-8", "replace").strip()
    if not text:
        return HookAnswer(spec, None)  # no opinion, said the quiet way
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return HookAnswer(spec, None, problem=f"printed invalid JSON ({exc.msg})")
    if isinstance(data, dict) and isinstance(data.get("hookSpecificOutput"), dict):
        inner = data["hookSpecificOutput"].get("decision")
        data = inner if isinstance(inner, dict) else data["hookSpecificOutput"]
    if not isinstance(data, dict):
        return HookAnswer(spec, None, problem="did not print a JSON object")
    behavior = data.get("behavior")
    if behavior is None:
        return HookAnswer(spec, None)  # no opinion
    if behavior not in ("allow", "deny"):
        return HookAnswer(spec, None, problem=f"gave an unknown behavior {behavior!r}")
    message = data.get("message")
    updated = data.get("updatedInput")
    permissions = data.get("updatedPermissions")
    return HookAnswer(
        spec,
        behavior,
        message=message if isinstance(message, str) else "",
        interrupt=data.get("interrupt") is True,
        updated_input=updated if isinstance(updated, dict) else None,
        updated_permissions=permissions if isinstance(permissions, list) else None,
    )


def run_hook(spec: HookSpec, data: Mapping[str, Any], *, cwd: str, env: Mapping[str, str],
             running: HookRun | None = None) -> HookAnswer:
    """Run one PermissionRequest script and read its answer (never raises).

    ``running`` keeps track of the process so that a racing approver can end it as
    soon as the race is decided.
    """
    workdir = cwd if os.path.isdir(cwd) else None
    try:
        proc = subprocess.Popen(
            spec.command, shell=True, cwd=workdir, env=dict(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
        )
    except OSError as exc:
        return HookAnswer(spec, None, problem=f"could not start ({exc.strerror or exc})")
    if running is not None and not running.add(proc):
        _kill(proc)
        proc.communicate()
        return HookAnswer(spec, None, problem="was stopped: the race was already decided")
    try:
        out, err = proc.communicate(json.dumps(data).encode(), timeout=spec.timeout_ms / 1000)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        return HookAnswer(spec, None, problem=f"gave no answer within {spec.timeout_ms} ms")
    except OSError as exc:
        _kill(proc)
        return HookAnswer(spec, None, problem=f"failed ({exc})")
    finally:
        if proc.poll() is None:
            _kill(proc)
        if running is not None:
            running.discard(proc)
    if running is not None and running.stopped:
        return HookAnswer(spec, None, problem="was stopped: the race was already decided")
    if len(out) > MAX_OUTPUT:
        return HookAnswer(spec, None, problem="printed too much")
    if proc.returncode == 2:  # Claude Code's convention: exit 2 blocks, stderr says why
        message = err.decode("utf-8", "replace").strip().splitlines()
        return HookAnswer(spec, "deny", message=message[0] if message else "")
    if proc.returncode != 0:
        return HookAnswer(spec, None, problem=f"exited with status {proc.returncode}")
    return _parse(spec, out)


# --------------------------------------------------------------------------- the approver part


class HookRun:
    """The hook processes of one ask; ``stop`` ends those still running (a racing
    approver calls it once the race is decided) and drops their answers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._procs: set[subprocess.Popen[bytes]] = set()
        self.stopped = False

    def add(self, proc: subprocess.Popen[bytes]) -> bool:
        with self._lock:
            if self.stopped:
                return False
            self._procs.add(proc)
            return True

    def discard(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._procs.discard(proc)

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            procs = list(self._procs)
        for proc in procs:
            _kill(proc)


class PermissionHooks:
    """The PermissionRequest scripts of one policy, as a source of answers.

    ``answer(call, decision)`` runs every matching script in parallel and returns the
    final Decision (source ``hook``) or None when no script decided. ``guard`` (optional)
    re-checks an ``updatedInput``; without one, updated input is ignored.
    """

    def __init__(self, specs: Sequence[HookSpec], *, env: Mapping[str, str] | None = None, guard: Any = None,
                 settings_file: Any = None) -> None:
        self.specs = list(specs)
        self.env = env if env is not None else os.environ
        self.guard = guard
        self.settings_file = settings_file
        self.problems: list[str] = []

    @classmethod
    def from_guard(cls, guard: Any) -> PermissionHooks:
        specs, problems = hook_specs(guard.policy, "PermissionRequest")
        hooks = cls(specs, env=guard.env, guard=guard)
        hooks.problems = problems
        return hooks

    def __bool__(self) -> bool:
        return bool(self.specs)

    def _mode(self, call: ToolCall) -> str:
        if self.guard is not None:
            return self.guard.effective_mode(call).value
        from ..core.mode import resolve_mode

        return resolve_mode(payload=call.mode).value

    def run_all(self, call: ToolCall, run: HookRun | None = None) -> list[HookAnswer]:
        specs = [spec for spec in self.specs if spec.applies_to(call)]
        if not specs:
            return []
        data = payload(call, "PermissionRequest", self._mode(call))
        answers: list[HookAnswer | None] = [None] * len(specs)
        running = run if run is not None else HookRun()

        def work(index: int) -> None:
            answers[index] = run_hook(specs[index], data, cwd=call.cwd, env=self.env, running=running)

        threads = [threading.Thread(target=work, args=(i,), daemon=True, name="bastion-hook") for i in range(len(specs))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return [a if a is not None else HookAnswer(specs[i], None, problem="crashed") for i, a in enumerate(answers)]

    def answer(self, call: ToolCall, decision: Decision, *, run: HookRun | None = None) -> Decision | None:
        """The hooks' combined answer: any deny wins, else an allow, else None."""
        run = run if run is not None else HookRun()
        try:
            answers = self.run_all(call, run)
        except Exception:  # noqa: BLE001 - failing hooks never allow
            return None
        for problem in (f"bastion: permission hook {a.spec.command!r} {a.problem}; ignored" for a in answers if a.problem):
            if not run.stopped:
                print(problem, file=sys.stderr)
        if run.stopped:
            return None
        deny = next((a for a in answers if a.behavior == "deny"), None)
        if deny is not None:
            why = f"denied by permission hook{': ' + deny.message if deny.message else ''}"
            return denied(decision, Source.HOOK, why, interrupt=deny.interrupt)
        allow = next((a for a in answers if a.behavior == "allow"), None)
        if allow is None or not automated_may_allow(decision):
            return None
        result = allowed(decision, Source.HOOK, f"allowed by permission hook{': ' + allow.message if allow.message else ''}")
        if allow.updated_input is not None:
            result = self._with_updated_input(call, result, allow.updated_input)
        if allow.updated_permissions and result.verdict is Verdict.ALLOW:
            notes = self._save_permissions(allow.updated_permissions)
            if notes:
                result = result.revise(reason=f"{result.reason} ({'; '.join(notes)})")
        return result

    def _with_updated_input(self, call: ToolCall, result: Decision, updated: dict[str, Any]) -> Decision:
        """Use the hook's changed input only when the guard does not deny the changed call."""
        if self.guard is None:
            return result.revise(reason=f"{result.reason} (its updatedInput was ignored: nothing to re-check it with)")
        changed = ToolCall(call.tool, updated, cwd=call.cwd, session_id=call.session_id, mode=call.mode, agent=call.agent)
        try:
            again = self.guard.check(changed)
        except Exception:  # noqa: BLE001
            again = None
        if again is None or again.verdict is Verdict.DENY or (again.verdict is Verdict.ASK and not automated_may_allow(again)):
            why = again.reason if again is not None else "the check failed"
            return denied(result, Source.HOOK, f"the permission hook's updated input is not allowed ({why})")
        return result.revise(updated_input=dict(updated))

    def _save_permissions(self, entries: list[Any]) -> list[str]:
        """Save the rules a hook asked for (``"Bash(npm test)"`` or ``{"tool", "pattern"
        or "ruleContent", "behavior"}``); refuse malformed and too-broad ones."""
        from .. import state
        from ..policy.grants import save_always_rule
        from ..policy.suggest import is_too_broad

        target = self.settings_file or state.config_dir(self.env) / "settings.json"
        notes: list[str] = []
        for entry in entries[:10]:
            behavior = "allow"
            if isinstance(entry, str):
                rule = entry
            elif isinstance(entry, dict) and isinstance(entry.get("tool") or entry.get("toolName"), str):
                content = entry.get("pattern", entry.get("ruleContent"))
                tool = entry.get("tool") or entry.get("toolName")
                rule = f"{tool}({content})" if isinstance(content, str) and content else str(tool)
                behavior = str(entry.get("behavior", "allow"))
            else:
                notes.append("a malformed updatedPermissions entry was ignored")
                continue
            if behavior == "allow" and is_too_broad(rule):
                notes.append(f"refused to save the too-broad rule {rule}")
                continue
            try:
                save_always_rule(target, rule, behavior=behavior, env=self.env)
            except (OSError, ValueError) as exc:
                notes.append(f"could not save {rule}: {str(exc).splitlines()[0]}")
                continue
            notes.append(f"saved {behavior} rule {rule}")
        return notes


# --------------------------------------------------------------------------- PermissionDenied


#: A tiny watchdog, run detached: it starts the hook, feeds it stdin, and kills its
#: process group at the timeout, so the deciding process never waits.
_WATCHDOG = (
    "import os,signal,subprocess,sys\n"
    "p=subprocess.Popen(sys.argv[2],shell=True,stdin=subprocess.PIPE,stdout=subprocess.DEVNULL,"
    "stderr=subprocess.DEVNULL,start_new_session=True)\n"
    "try:\n p.communicate(sys.stdin.buffer.read(),timeout=float(sys.argv[1]))\n"
    "except subprocess.TimeoutExpired:\n"
    " os.killpg(p.pid,signal.SIGKILL)\n"
)


def notify_denied(policy: Any, call: ToolCall, decision: Decision, *, mode: str = "default",
                  env: Mapping[str, str] | None = None) -> int:
    """Start every PermissionDenied script for this deny; returns how many were started.

    Fire and forget: the scripts run detached under a watchdog that enforces their
    timeout; nothing here waits, and nothing here can change the decision.
    """
    specs, _ = hook_specs(policy, "PermissionDenied")
    specs = [spec for spec in specs if spec.applies_to(call)]
    if not specs:
        return 0
    data = json.dumps(payload(call, "PermissionDenied", mode, decision)).encode()
    workdir = call.cwd if os.path.isdir(call.cwd) else None
    started = 0
    for spec in specs:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", _WATCHDOG, str(spec.timeout_ms / 1000), spec.command],
                cwd=workdir, env=dict(env if env is not None else os.environ), stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )
            assert proc.stdin is not None
            proc.stdin.write(data)
            proc.stdin.close()
            started += 1
        except (OSError, ValueError):
            continue
    return started
