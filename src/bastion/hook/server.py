"""``hook.server`` (``hookd``): the per-user server that answers ``bastion hook`` calls with a warm engine.

Started in the background by the first hook call (``hook.client.start_server``); serves one
Unix socket in a folder only this user can enter; accepts connections only from
processes of the same user; answers each call with ``hook.run.run`` under the *caller's*
environment and working directory (so settings, audit log and denial tracking are
exactly what an in-process hook would use; settings are kept per project while their
files are unchanged, ``policy.cache``); exits after ``IDLE_SECONDS`` without calls,
or as soon as its own code changed on disk (it then answers ``STALE`` and the caller
decides in-process).

Calls are independent: each connection has its own thread, and each call is answered
within the deadline (``hook.deadline``) — fail-closed when its decision is not done —
so one project with a huge settings file or a hung file system never holds up another
project's calls. Calls of the same project take turns (:class:`ProjectLocks`), so its
slow calls do not pile up and starve the rest; at most :data:`MAX_CALLS` calls are
served at once, and a call beyond that is handed back for the caller to decide.
"""

from __future__ import annotations

import fcntl
import os
import socket
import struct
import sys
import threading

from .client import PROTOCOL, STALE, safe_dir

IDLE_SECONDS = 600.0
MAX_REQUEST = 8 * 1024 * 1024
#: Calls served at once (each a thread); more are handed back (``STALE``) to decide in-process.
MAX_CALLS = 64


class ProjectLocks:
    """One lock per project root: a project's calls take turns, other projects' do not wait."""

    #: Roots remembered; past this, the locks nobody holds are forgotten.
    KEEP = 1024

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def for_call(self, cwd: str, env: dict[str, str]) -> threading.Lock:
        from ..policy.settings import find_project_root

        try:
            root = find_project_root(cwd or "/", env=env)
        except (OSError, ValueError):
            root = cwd
        with self._guard:
            if len(self._locks) >= self.KEEP:
                self._locks = {key: lock for key, lock in self._locks.items() if lock.locked()}
            return self._locks.setdefault(root, threading.Lock())


def _loaded_files() -> dict[str, float]:
    """Every bastion source file this process has loaded, with its mtime."""
    files: dict[str, float] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if name.split(".")[0] == "bastion" and path:
            try:
                files[path] = os.stat(path).st_mtime
            except OSError:
                files[path] = -1.0
    return files


def _changed(files: dict[str, float]) -> bool:
    for path, mtime in files.items():
        try:
            if os.stat(path).st_mtime != mtime:
                return True
        except OSError:
            return True
    return False


def parse_request(data: bytes) -> tuple[str, str, dict[str, str], bytes] | None:
    head, sep, rest = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or len(parts) != 3 or parts[0] != PROTOCOL or not parts[2].isdigit():
        return None
    meta_len = int(parts[2])
    meta, stdin = rest[:meta_len].decode("utf-8", "surrogateescape"), rest[meta_len:]
    cwd, *pairs = meta.split("\0")
    env = dict(pair.split("=", 1) for pair in pairs if "=" in pair)
    return parts[1].decode(), cwd, env, stdin


def answer(data: bytes, locks: ProjectLocks | None = None) -> bytes:
    """The reply for one request (``code len(stdout)\\n`` + stdout + stderr), within the
    caller's deadline; ``locks``: the server's per-project locks."""
    from .deadline import run_within
    from .protocol import PayloadError
    from .run import client_module

    request = parse_request(data)
    if request is None:
        return b"%d 0\n" % STALE  # not a request this code understands: caller decides
    client_name, cwd, env, stdin = request
    try:
        client = client_module(client_name)
    except PayloadError:
        return b"%d 0\n" % STALE
    lock = locks.for_call(cwd, env) if locks is not None else None
    reply = run_within(client, stdin, env, cwd=cwd, lock=lock)  # the caller's bytes, read by the same validate.parse_input
    out = (reply.stdout + "\n").encode() if reply.stdout else b""
    err = (reply.stderr + "\n").encode() if reply.stderr else b""
    return b"%d %d\n" % (reply.exit_code, len(out)) + out + err


def _same_user(conn: socket.socket) -> bool:
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return False
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid == os.getuid()


def _read_all(conn: socket.socket) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_REQUEST:
            return None
        chunks.append(chunk)


def serve(path: str, idle: float = IDLE_SECONDS) -> int:
    folder = os.path.dirname(path)
    if not safe_dir(folder, create=True):
        return 1
    lock = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return 0  # another server already serves this socket
    os.ftruncate(lock, 0)
    os.write(lock, str(os.getpid()).encode())
    from .. import engine, session  # noqa: F401
    from ..adapters import claude_code, codex, gemini  # noqa: F401 - warm every client path
    from ..policy.settings import cache_policies
    from . import run  # noqa: F401

    cache_policies()  # settings are read again only when one of their files changed
    from ..audit.otel import serve_in_background

    serve_in_background()  # OpenTelemetry records leave from this process's batch thread, not the hook's

    server = _listen(path)
    server.settimeout(idle)
    files = _loaded_files()
    files_lock = threading.Lock()
    locks = ProjectLocks()
    slots = threading.BoundedSemaphore(MAX_CALLS)
    calls: list[threading.Thread] = []

    def serve_one(conn: socket.socket) -> None:
        try:
            with conn:
                conn.settimeout(5.0)
                if not _same_user(conn):
                    return
                data = _read_all(conn)
                if data is None:
                    return
                conn.sendall(answer(data, locks))
            with files_lock:
                files.update({p: m for p, m in _loaded_files().items() if p not in files})
        except OSError:
            pass
        finally:
            slots.release()

    try:
        while True:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                return 0
            with files_lock:
                changed = _changed(files)
            if changed or not slots.acquire(blocking=False):
                _hand_back(conn)
                if changed:
                    return 0
                continue
            calls = [call for call in calls if call.is_alive()]
            call = threading.Thread(target=serve_one, args=(conn,), name="bastion-hookd-call", daemon=True)
            calls.append(call)
            call.start()
    finally:
        server.close()
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(lock)  # a new server may start while the calls in flight finish
        for call in calls:  # they get their answers, each within its deadline
            call.join(MAX_WAIT)


def _listen(path: str) -> socket.socket:
    """A listening socket at ``path``. It is bound under a temporary name and moved into
    place once it listens, so a client never finds the name before it can connect."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staging = path + ".t"  # only the holder of the server lock gets here: no other user of the name
    try:
        _unlink(staging)
        server.bind(staging)
    except OSError:  # the longer name does not fit a socket address: bind in place
        _unlink(path)
        server.bind(path)
        staging = path
    os.chmod(staging, 0o600)
    server.listen(64)
    if staging != path:
        os.replace(staging, path)
    return server


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


#: How long a stopping server waits for each call in flight (the longest deadline and then some).
MAX_WAIT = 30.0


def _hand_back(conn: socket.socket) -> None:
    """Answer ``STALE``: the caller decides in its own process."""
    with conn:
        try:
            conn.settimeout(1.0)
            conn.sendall(b"%d 0\n" % STALE)
        except OSError:
            pass


def stop_servers(folder: str) -> int:
    """Stop the servers whose sockets live in ``folder`` (tests, benchmarks); how many."""
    import signal

    stopped = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        if not name.endswith(".sock.lock"):
            continue
        lock_path = os.path.join(folder, name)
        fd = os.open(lock_path, os.O_RDONLY)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                continue  # nobody holds it: no server
            except OSError:
                pid_text = os.read(fd, 32).decode().strip()
        finally:
            os.close(fd)
        if pid_text.isdigit():
            try:
                os.kill(int(pid_text), signal.SIGTERM)
                stopped += 1
            except OSError:
                pass
    return stopped


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bastion.hook.server SOCKET", file=sys.stderr)
        return 2
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # clean up the socket on the way out
    idle = float(os.environ.get("BASTION_HOOK_IDLE", IDLE_SECONDS))
    return serve(argv[0], idle)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
