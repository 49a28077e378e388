"""Code that runs *inside* the sandbox, before the command: the network bridge.

Standard library only, and importable as a top-level module (``python -I -S`` with
this folder on ``sys.path``), because it runs where bastion's package may not be set up.

The bridge: the sandbox has its own network namespace with nothing but a loopback
device. This code opens a listening TCP socket on ``127.0.0.1`` *in that namespace*,
sends the listening socket itself over an inherited Unix socket to bastion's proxy
(SCM_RIGHTS), points ``HTTP_PROXY``/``HTTPS_PROXY``/``ALL_PROXY`` at it and execs the
command. The proxy, outside, accepts on that socket and decides per connection; nothing
inside the sandbox ever has to create a Unix socket (the seccomp filter forbids it), and
no forwarding process stays behind.
"""

from __future__ import annotations

import _socket  # not ``socket``: its enum set-up costs milliseconds at every start
import os
import sys

_SOL_SOCKET, _SCM_RIGHTS = 1, 1

NO_PROXY = "localhost,127.0.0.1,::1"


def open_bridge(ctl_fd: int, environ: dict[str, str]) -> None:
    """Listen on 127.0.0.1, hand the listener to the proxy, set the proxy variables."""
    ctl = _socket.socket(fileno=ctl_fd)
    listener = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        port = listener.getsockname()[1]
        fd = listener.fileno().to_bytes(4, sys.byteorder, signed=True)
        ctl.sendmsg([b"L"], [(_SOL_SOCKET, _SCM_RIGHTS, fd)])
    finally:
        listener.close()
        ctl.close()
    http = f"http://127.0.0.1:{port}"
    socks = f"socks5h://127.0.0.1:{port}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        environ[name] = http
    for name in ("ALL_PROXY", "all_proxy"):
        environ[name] = socks
    environ["NO_PROXY"] = environ["no_proxy"] = NO_PROXY


def exec_command(argv: list[str], environ: dict[str, str]) -> None:
    """``execvpe`` or exit 127/126 with one line, like a shell."""
    try:
        os.execvpe(argv[0], argv, environ)
    except OSError as exc:
        sys.stderr.write(f"bastion: cannot run {argv[0]}: {exc.strerror}\n")
        os._exit(127 if isinstance(exc, FileNotFoundError) else 126)


def main() -> None:
    """``inside <ctl-fd> -- argv…`` (the bubblewrap entry when the network is bridged)."""
    args = sys.argv[1:]
    ctl_fd = int(args[0])
    argv = args[2:] if args[1:2] == ["--"] else args[1:]
    environ = dict(os.environ)
    open_bridge(ctl_fd, environ)
    exec_command(argv, environ)
