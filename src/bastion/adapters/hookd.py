"""``hookd``: the per-user server that answers ``bastion hook`` calls with a warm engine.

Started in the background by the first hook call (``hookc.start_server``); serves one
Unix socket in a folder only this user can enter; accepts connections only from
processes of the same user; answers each call with ``hook.run`` under the *caller's*
environment and working directory (so settings, audit log and denial tracking are
exactly what an in-process hook would use); exits after ``IDLE_SECONDS`` without calls,
or as soon as its own code changed on disk (it then answers ``STALE`` and the caller
decides in-process). One call at a time: a decision takes milliseconds, and a caller
that waits too long decides on its own.
"""

from __future__ import annotations

import fcntl
import os
import socket
import struct
import sys
from typing import Any

from . import hookc

IDLE_SECONDS = 600.0
MAX_REQUEST = 8 * 1024 * 1024


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
    if not sep or len(parts) != 3 or parts[0] != hookc.PROTOCOL or not parts[2].isdigit():
        return None
    meta_len = int(parts[2])
    meta, stdin = rest[:meta_len].decode("utf-8", "surrogateescape"), rest[meta_len:]
    cwd, *pairs = meta.split("\0")
    env = dict(pair.split("=", 1) for pair in pairs if "=" in pair)
    return parts[1].decode(), cwd, env, stdin


def answer(data: bytes) -> bytes:
    """The reply for one request (``code len(stdout)\\n`` + stdout + stderr)."""
    from . import hook

    request = parse_request(data)
    if request is None:
        return b"%d 0\n" % hookc.STALE  # not a request this code understands: caller decides
    client_name, cwd, env, stdin = request
    try:
        client = hook.client_module(client_name)
    except hook.PayloadError:
        return b"%d 0\n" % hookc.STALE
    reply = hook.run(client, stdin, env, cwd=cwd)  # the caller's bytes, read by the same validate.parse_input
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
    chunks, size = [], 0
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
    if not hookc.safe_dir(folder, create=True):
        return 1
    lock = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return 0  # another server already serves this socket
    os.ftruncate(lock, 0)
    os.write(lock, str(os.getpid()).encode())
    from . import claude_code, codex, gemini, hook  # noqa: F401 - warm every client path
    from .. import engine, session  # noqa: F401

    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    os.chmod(path, 0o600)
    server.listen(16)
    server.settimeout(idle)
    files = _loaded_files()
    try:
        while True:
            try:
                conn, _ = server.accept()
            except socket.timeout:
                return 0
            with conn:
                conn.settimeout(5.0)
                try:
                    if not _same_user(conn):
                        continue
                    data = _read_all(conn)
                    if data is None:
                        continue
                    if _changed(files):
                        conn.sendall(b"%d 0\n" % hookc.STALE)
                        return 0
                    conn.sendall(answer(data))
                    files.update({p: m for p, m in _loaded_files().items() if p not in files})
                except OSError:
                    continue
    finally:
        server.close()
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(lock)


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
        print("usage: python -m bastion.adapters.hookd SOCKET", file=sys.stderr)
        return 2
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # clean up the socket on the way out
    idle = float(os.environ.get("BASTION_HOOK_IDLE", IDLE_SECONDS))
    return serve(argv[0], idle)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
