"""The fast path of ``bastion hook CLIENT``: hand the call to a warm decision server.

A hook is a new process on every tool call, and loading the engine (the shell grammar,
the command catalog, the validators) costs far more than deciding. So the hook process
is a thin client: it reads stdin and passes it, with its working directory and its
environment, to ``hook.server`` — a per-user server that keeps the engine loaded and
runs the very same ``hook.run.run`` with that environment — and prints the answer. This
module imports nothing but built-in modules (``_socket``, ``zlib``), its package
(which holds the deadline and imports nothing) and ``bastion.early`` (the state
folder's rule, importing only ``os``), so it costs little more than the interpreter's
start.

Whenever the server cannot answer — not running yet, started from older code, a socket
folder that is not safely ours — the call is decided in this process instead
(``hook.deadline.main``): slower, never different, never an allow by accident. A server
that took the call but sends nothing back within the deadline (``hook.deadline``) gets no
second chance in this process: the time is up, and the answer is the client's own
fail-closed one.
When no server runs, the client starts one in the background for the next calls.
``BASTION_HOOK_SERVER=0`` turns the server off, and so does a project that sets one of
:data:`SOCKET_VARIABLES` in its client settings.
"""

import os
import sys

from ..early import state_dir
from . import CLIENTS, GRACE, deadline_seconds

PROTOCOL = b"bastion-hook/1"
#: Seconds to wait for the server's answer when no deadline is given (``ask_server``).
TIMEOUT = 10.0
STALE = 75  # exit code the server uses for "my code changed: decide it yourself"


def runtime_dir(env):
    """A folder only this user can use: ``$BASTION_RUNTIME_DIR``, else under
    ``$XDG_RUNTIME_DIR`` or ``/tmp`` (short paths: a socket path has ~100 bytes)."""
    base = env.get("BASTION_RUNTIME_DIR")
    if base:
        return base
    return os.path.join(env.get("XDG_RUNTIME_DIR") or "/tmp", f"bastion-{os.getuid()}")


def socket_path(env):
    """One server per interpreter, bastion install and state folder."""
    import zlib

    key = "\0".join((sys.executable, os.path.dirname(os.path.abspath(__file__)), state_dir(env))).encode()
    digest = f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}"
    return os.path.join(runtime_dir(env), f"hookd-{digest}.sock")


def safe_dir(path, create=False):
    """True when ``path`` is a real folder owned by this user that nobody else can enter."""
    if create:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except OSError:
            return False
    try:
        info = os.lstat(path)
    except OSError:
        return False
    import stat

    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077


def encode_request(client, cwd, env, stdin):
    meta = "\0".join([cwd, *(f"{k}={v}" for k, v in env.items() if "\0" not in k + v)]).encode("utf-8", "surrogateescape")
    return b"%s %s %d\n" % (PROTOCOL, client.encode(), len(meta)) + meta + stdin


def decode_reply(data):
    """``(exit_code, stdout, stderr)`` from the server's bytes, or ``None`` if malformed."""
    head, sep, rest = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    code, out_len = int(parts[0]), int(parts[1])
    if out_len > len(rest):
        return None
    return code, rest[:out_len], rest[out_len:]


def ask_server(path, request):
    """The server's reply bytes, or ``None`` when it cannot answer."""
    return ask_server_within(path, request, TIMEOUT)[0]


def ask_server_within(path, request, seconds):
    """``(reply bytes or None, late)``: ``late`` is True when the server took the call
    but its answer did not arrive within ``seconds``."""
    import _socket

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    connected = False
    try:
        sock.settimeout(seconds)
        sock.connect(path)
        connected = True
        sock.sendall(request)
        sock.shutdown(_socket.SHUT_WR)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), False
    except _socket.timeout:
        return None, connected
    except OSError:
        return None, False
    finally:
        sock.close()


def start_server(path):
    """Start ``hook.server`` in the background, detached from this hook's session."""
    import subprocess

    try:
        subprocess.Popen(
            [sys.executable, "-I", "-m", "bastion.hook.server", path],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True,
        )
    except OSError:
        pass


#: What this client reads to find the server. When a project's client settings set one
#: of them (``bastion.provenance``), the call is decided in this process instead, where
#: the project's values are ignored: a socket the project chose could answer anything.
SOCKET_VARIABLES = ("BASTION_RUNTIME_DIR", "XDG_RUNTIME_DIR", "BASTION_STATE_DIR", "XDG_STATE_HOME", "HOME")


def _socket_from_project(env, client):
    from ..provenance import defined_by_project

    try:
        return bool(defined_by_project(env, os.getcwd(), client, SOCKET_VARIABLES))
    except OSError:
        return True


#: The exit status every client reads as "blocked" (Claude Code, Codex and Gemini CLI alike).
BLOCKED = 2


def main(argv, one_shot=False):
    """``bastion hook CLIENT``: the server's answer, else this process's own — within
    the deadline either way. A ``one_shot`` process deciding here loads bastion's
    modules from the bundle (``bastion.bundle``).

    The decision answers its own failures fail-closed (``hook.deadline``); a failure
    before it can (bastion's code cannot be loaded: a broken or half-upgraded install)
    still blocks the call, with one line on stderr: any other exit status lets Claude
    Code run the tool."""
    try:
        return _answer(argv, one_shot)
    except Exception as exc:  # noqa: BLE001 - never a traceback, never a tool run unchecked
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        try:
            sys.stderr.write(f"bastion could not check this call and blocked it (internal error: {detail})\n")
        except (OSError, ValueError, AttributeError):
            pass
        return BLOCKED


def _answer(argv, one_shot):
    import time

    started = time.monotonic()
    env = os.environ
    seconds = deadline_seconds(env)
    if (len(argv) == 1 and argv[0] in CLIENTS and env.get("BASTION_HOOK_SERVER") != "0"
            and not _socket_from_project(env, argv[0])):
        try:
            stdin = sys.stdin.buffer.read()
        except (OSError, ValueError, AttributeError):  # stdin closed (0<&-): decided in-process
            stdin = None
        if stdin is not None:
            path = socket_path(env)
            folder = os.path.dirname(path)
            reply = None
            if safe_dir(folder, create=True):
                data, late = ask_server_within(path, encode_request(argv[0], os.getcwd(), env, stdin), seconds + GRACE)
                if late:
                    from .deadline import print_late

                    return print_late(argv[0], stdin)
                reply = decode_reply(data) if data else None
                if data is None:
                    start_server(path)
            if reply is not None and reply[0] != STALE:
                code, out, err = reply
                sys.stdout.buffer.write(out)
                sys.stdout.flush()
                sys.stderr.buffer.write(err)
                return code
            import io

            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))  # deadline.main reads its bytes as they came
    if one_shot:
        from ..bundle import install

        install()
    from .deadline import main as decide_here

    return decide_here(argv, seconds=max(0.01, seconds - (time.monotonic() - started)))


def cli():
    """The installed hook command: ``PYTHON -I -c 'from bastion.hook.client import cli;
    cli()' bastion hook CLIENT``. ``-c`` starts here directly, where ``-m bastion`` first
    loads runpy (and the ``importlib.util`` and ``contextlib`` it imports); the words after
    the code keep ``bastion hook CLIENT`` in the command and in the process's command line."""
    from ..one_shot import finish, no_collector

    no_collector()
    args = sys.argv[1:]
    if args[:2] == ["bastion", "hook"]:
        args = args[2:]
    finish(main(args, one_shot=True))
