"""The hook's deadline: every call is answered within ``hook.DEADLINE`` seconds.

A hook the client gives up on has no answer at all, and Codex and Gemini then run the
tool unchecked. So whatever makes a decision slow —
a huge settings file in an untrusted repository, a hung file system, a bug — bastion
answers in time with the client's own fail-closed answer (ask; deny or block where
nobody can be asked) and one line on stderr, never silence.

* In the hook's own process the decision runs in the main thread under ``SIGALRM``;
  the alarm raises :class:`DeadlinePassed`, a ``BaseException`` so that no layer's
  ``except Exception`` can swallow it and carry on deciding.
* In the decision server (``hook.server``) each call is decided in a worker thread; past the
  deadline the server answers fail-closed and leaves the worker behind. A per-project
  lock (``lock``) keeps one project's slow calls from piling up.
* The thin client (``hook.client``) waits for the server a little longer (``hook.GRACE``)
  and answers fail-closed itself when nothing came back.

The deadline itself (``DEADLINE``, ``BASTION_HOOK_DEADLINE``) is defined in the
``hook`` package, which the thin client imports and which must stay cheap to import;
this module is loaded only where a call is decided. :func:`main` is ``bastion hook``
answering in its own process.
"""

from __future__ import annotations

import os
import sys

from . import CLIENTS, deadline_seconds
from .protocol import ClientAdapter, PayloadError, Reply
from .run import client_module, fail_closed, read_stdin, run

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from collections.abc import Mapping
    from typing import Any


class DeadlinePassed(BaseException):
    """Raised in the deciding thread by the alarm; not an ``Exception``, so only
    :func:`run_within` catches it."""


def late(client: ClientAdapter, raw: bytes | str | None, env: Mapping[str, str], cwd: str | None = None) -> Reply:
    """The client's fail-closed answer for a call not decided within its deadline."""
    from ..validate import InputError, parse_input
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    payload: dict[str, Any] | None
    try:
        payload = parse_input(raw, cwd=cwd or _getcwd())
    except InputError as exc:
        payload = exc.data
    except Exception:  # noqa: BLE001 - the answer is fail-closed whatever the payload
        payload = None
    name = payload.get("hook_event_name") if isinstance(payload, dict) else None
    event = name if isinstance(name, str) and name else client.PRE_EVENTS[0]
    message = f"bastion could not decide this call within its {deadline_seconds(env):g} s deadline"
    return fail_closed(client, event, payload, message, env)


def run_within(client: ClientAdapter, raw: bytes | str | None, env: Mapping[str, str] | None = None, cwd: str | None = None, *,
               seconds: float | None = None, lock: threading.Lock | None = None) -> Reply:
    """``hook.run`` with a deadline: its reply, or :func:`late`'s once ``seconds`` pass.

    ``lock`` (the server's per-project lock) is held while deciding; a call that cannot
    get it before the deadline is answered fail-closed without being decided."""
    env = env if env is not None else os.environ
    seconds = deadline_seconds(env) if seconds is None else seconds
    if lock is None and _in_main_thread():
        import _signal  # ``signal`` without the enums it builds on import: a cost on every fresh hook call

        if hasattr(_signal, "setitimer"):
            return _with_alarm(client, raw, env, cwd, seconds)
    return _in_worker(client, raw, env, cwd, seconds, lock)


def _in_main_thread() -> bool:
    """Only the main thread can take ``SIGALRM``. A process that never imported
    ``threading`` (a hook deciding in its own process) started no other thread."""
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


def _with_alarm(client: ClientAdapter, raw: bytes | str | None, env: Mapping[str, str], cwd: str | None, seconds: float) -> Reply:
    import _signal as signal  # the same calls, with plain ints for handlers and signal numbers

    armed = [True]  # the alarm may fire just after the decision: then it is ignored

    def on_alarm(signum: int, frame: Any) -> None:
        if armed[0]:
            raise DeadlinePassed()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        reply = run(client, raw, env, cwd)
        armed[0] = False
    except DeadlinePassed:
        armed[0] = False
        reply = late(client, raw, env, cwd)
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
    return reply


def _in_worker(client: ClientAdapter, raw: bytes | str | None, env: Mapping[str, str], cwd: str | None, seconds: float,
               lock: threading.Lock | None) -> Reply:
    import threading

    box: list[Reply] = []
    given_up = threading.Event()

    def work() -> None:
        if lock is not None and not lock.acquire(timeout=seconds):
            return
        try:
            if not given_up.is_set():
                box.append(run(client, raw, env, cwd))
        finally:
            if lock is not None:
                lock.release()

    worker = threading.Thread(target=work, name="bastion-hook-call", daemon=True)
    worker.start()
    worker.join(seconds)
    if box:
        return box[0]
    given_up.set()  # a worker still waiting for its project's lock will not start
    return late(client, raw, env, cwd)


def _getcwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def main(argv: list[str], seconds: float | None = None) -> int:
    """``bastion hook CLIENT`` decided in this process: reads stdin, prints the client's answer —
    within ``seconds`` (default: the deadline, ``hook.DEADLINE``), else fail-closed."""
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(f"usage: bastion hook {{{','.join(CLIENTS)}}}  (hook JSON on stdin)", file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    try:
        client = client_module(argv[0])
    except PayloadError as exc:
        print(f"bastion: {exc}", file=sys.stderr)
        return 2
    from ..validate import MAX_INPUT_BYTES

    raw = read_stdin(MAX_INPUT_BYTES + 1)  # one byte more than allowed: too large is refused
    reply = run_within(client, raw, seconds=seconds)
    _print(reply)
    return reply.exit_code


def print_late(client_name: str, stdin: bytes | None) -> int:
    """The client's fail-closed answer, printed, for a call the server did not answer in time."""
    reply = late(client_module(client_name), stdin, os.environ)
    _print(reply)
    return reply.exit_code


def _print(reply: Reply) -> None:
    if reply.stdout:
        sys.stdout.write(reply.stdout + "\n")
        sys.stdout.flush()
    if reply.stderr:
        sys.stderr.write(reply.stderr + "\n")
