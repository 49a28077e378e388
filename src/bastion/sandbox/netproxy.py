"""The sandbox's only way out: an HTTP (CONNECT and plain) and SOCKS5 proxy that enforces
``sandbox.network.allowedDomains`` and ``deniedDomains``.

It runs in bastion's process, in threads, and serves the listening socket that the
bridge (``inside.py``) opened in the sandbox's network namespace. One port speaks both
protocols: a first byte of 5 is SOCKS5, anything else HTTP.

Domain patterns: ``example.com`` is that host only, ``*.example.com`` any subdomain of
it (not the apex), ``*`` every host. A denied pattern beats an allowed one. IP literals
must be listed as such. A name that resolves to a loopback, link-local (cloud metadata
at 169.254.169.254), multicast or unspecified address is refused unless the address was
given by an injected host mapping (``hosts=``, for tests) — otherwise an allowed name
could be pointed at services on the host.
"""

from __future__ import annotations

import ipaddress
import select
import socket
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

MAX_HEADER = 64 * 1024
MAX_CONNECTIONS = 64
CONNECT_TIMEOUT = 10.0
HEADER_TIMEOUT = 30.0
_HOP_HEADERS = frozenset({b"proxy-connection", b"proxy-authorization", b"connection", b"keep-alive"})


def _normalise(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host


def _matches(host: str, pattern: str) -> bool:
    pattern = _normalise(pattern)
    if pattern == "*":
        return True
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and host != pattern[2:]
    return host == pattern


@dataclass(frozen=True)
class DomainPolicy:
    """The hosts the sandbox's network proxy lets a command reach."""

    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()

    def refusal(self, host: str) -> str | None:
        """Why ``host`` may not be reached, or None."""
        host = _normalise(host)
        if not host:
            return "empty host name"
        for pattern in self.denied:
            if _matches(host, pattern):
                return f"denied by sandbox.network.deniedDomains ({pattern})"
        if any(_matches(host, pattern) for pattern in self.allowed):
            return None
        return "not in sandbox.network.allowedDomains"


def _is_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _internal(address: str) -> bool:
    """Anything but a public address: loopback, private and shared ranges, link-local
    (cloud metadata), multicast, reserved — also when written as IPv4-mapped IPv6
    (``::ffff:127.0.0.1``), which ``ipaddress`` does not classify by itself."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    return not ip.is_global or ip.is_multicast


@dataclass
class NetProxy:
    """Serves one sandbox run; ``violations`` lists every refused destination."""

    policy: DomainPolicy
    hosts: Mapping[str, str] = field(default_factory=dict)
    violations: list[dict[str, str]] = field(default_factory=list)
    connections: int = 0
    _open: set[socket.socket] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _listener: socket.socket | None = None
    _closed: bool = False

    # -- lifecycle ----------------------------------------------------------------

    def serve(self, listener: socket.socket) -> None:
        """Accept connections on ``listener`` in a background thread."""
        self._listener = listener
        threading.Thread(target=self._accept_loop, name="bastion-proxy", daemon=True).start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            sockets = list(self._open)
            self._open.clear()
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()
        for sock in sockets:
            try:
                sock.close()
            except OSError:
                pass

    def _track(self, sock: socket.socket) -> bool:
        with self._lock:
            if self._closed or len(self._open) >= 2 * MAX_CONNECTIONS:
                return False
            self._open.add(sock)
            return True

    def _untrack(self, *socks: socket.socket | None) -> None:
        for sock in socks:
            if sock is None:
                continue
            with self._lock:
                self._open.discard(sock)
            try:
                sock.close()
            except OSError:
                pass

    def _accept_loop(self) -> None:
        listener = self._listener
        assert listener is not None
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            if not self._track(conn):
                conn.close()
                continue
            threading.Thread(target=self._handle, args=(conn,), name="bastion-proxy-conn", daemon=True).start()

    # -- deciding and connecting --------------------------------------------------

    def _refuse(self, host: str, port: int, reason: str) -> None:
        with self._lock:
            self.violations.append({"kind": "network", "target": f"{host}:{port}", "detail": reason})

    def _connect(self, host: str, port: int) -> tuple[socket.socket | None, str, bool]:
        """Check the policy, resolve and connect: ``(upstream, "", False)``, or
        ``(None, reason, refused)`` — ``refused`` when the policy said no (as opposed to
        the destination failing)."""
        host = _normalise(host)
        reason = self.policy.refusal(host)
        if reason is not None:
            self._refuse(host, port, reason)
            return None, reason, True
        mapped = self.hosts.get(host)
        try:
            if mapped is not None:
                candidates = [mapped]
            else:
                infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                candidates = [str(info[4][0]) for info in infos]  # an IP text for AF_INET and AF_INET6
        except OSError as exc:
            return None, f"cannot resolve {host}: {exc.strerror or exc}", False
        # Names that resolve inward (DNS rebinding onto metadata or loopback) are refused;
        # so are internal address literals, unless the allowed list names that very
        # address (a "*" does not open the host's own network).
        explicit = _is_literal(host) and any(_normalise(p) == host for p in self.policy.allowed)
        if mapped is None and not explicit:
            internal = [a for a in candidates if _internal(a)]
            if internal:
                reason = f"{host} resolves to an internal address ({internal[0]})"
                self._refuse(host, port, reason)
                return None, reason, True
        last = "no address"
        for address in candidates:
            try:
                upstream = socket.create_connection((address, port), timeout=CONNECT_TIMEOUT)
            except OSError as exc:
                last = exc.strerror or str(exc)
                continue
            upstream.settimeout(None)
            if not self._track(upstream):
                upstream.close()
                return None, "proxy closing", False
            self.connections += 1
            return upstream, "", False
        return None, f"cannot connect to {host}:{port}: {last}", False

    # -- protocols ----------------------------------------------------------------

    def _handle(self, conn: socket.socket) -> None:
        upstream: socket.socket | None = None
        try:
            conn.settimeout(HEADER_TIMEOUT)
            first = conn.recv(1, socket.MSG_PEEK)
            if not first:
                return
            if first == b"\x05":
                upstream = self._socks5(conn)
            else:
                upstream = self._http(conn)
            if upstream is not None:
                conn.settimeout(None)
                _relay(conn, upstream)
        except (OSError, ValueError):
            pass
        finally:
            self._untrack(conn, upstream)

    def _http(self, conn: socket.socket) -> socket.socket | None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(8192)
            if not chunk:
                return None
            data += chunk
            if len(data) > MAX_HEADER:
                conn.sendall(_http_reply(431, "request header too large"))
                return None
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        try:
            method, target, version = lines[0].decode("latin-1").split(" ", 2)
        except ValueError:
            conn.sendall(_http_reply(400, "bad request line"))
            return None
        if method.upper() == "CONNECT":
            host, port = _split_host_port(target, 443)
            upstream, reason, refused = self._connect(host, port)
            if upstream is None:
                conn.sendall(_http_reply(403 if refused else 502, reason))
                return None
            conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            if rest:
                upstream.sendall(rest)
            return upstream
        if not target.lower().startswith("http://"):
            conn.sendall(_http_reply(400, "only absolute http:// URLs and CONNECT are proxied"))
            return None
        authority, slash, path = target[7:].partition("/")
        host, port = _split_host_port(authority, 80)
        upstream, reason, refused = self._connect(host, port)
        if upstream is None:
            conn.sendall(_http_reply(403 if refused else 502, reason))
            return None
        headers = [h for h in lines[1:] if h.split(b":", 1)[0].strip().lower() not in _HOP_HEADERS]
        request = f"{method} {slash}{path or ''} {version}".encode("latin-1")
        upstream.sendall(b"\r\n".join([request, *headers, b"Connection: close"]) + b"\r\n\r\n" + rest)
        return upstream

    def _socks5(self, conn: socket.socket) -> socket.socket | None:
        greeting = _recv_exact(conn, 2)
        _recv_exact(conn, greeting[1])
        conn.sendall(b"\x05\x00")
        ver, cmd, _rsv, atyp = _recv_exact(conn, 4)
        if atyp == 1:
            host = socket.inet_ntop(socket.AF_INET, _recv_exact(conn, 4))
        elif atyp == 4:
            host = socket.inet_ntop(socket.AF_INET6, _recv_exact(conn, 16))
        elif atyp == 3:
            host = _recv_exact(conn, _recv_exact(conn, 1)[0]).decode("ascii")
        else:
            conn.sendall(b"\x05\x08\x00\x01" + bytes(6))
            return None
        port = int.from_bytes(_recv_exact(conn, 2), "big")
        if ver != 5 or cmd != 1:
            conn.sendall(b"\x05\x07\x00\x01" + bytes(6))
            return None
        upstream, _reason, refused = self._connect(host, port)
        if upstream is None:
            code = 2 if refused else 4  # 2: not allowed by ruleset, 4: host unreachable
            conn.sendall(bytes([5, code, 0, 1]) + bytes(6))
            return None
        conn.sendall(b"\x05\x00\x00\x01" + bytes(6))
        return upstream


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ValueError("connection closed")
        data += chunk
    return data


def _split_host_port(authority: str, default: int) -> tuple[str, int]:
    authority = authority.rpartition("@")[2]
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = authority.partition(":")
    try:
        return host, int(port) if port else default
    except ValueError:
        return host, -1


def _http_reply(status: int, reason: str) -> bytes:
    text = {400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large", 502: "Bad Gateway"}[status]
    body = f"bastion sandbox: {reason}\n".encode()
    return (
        f"HTTP/1.1 {status} {text}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + body


def _relay(a: socket.socket, b: socket.socket) -> None:
    """Copy both ways until both sides are done (half-closes are passed on)."""
    peers = {a: b, b: a}
    open_reads = {a, b}
    while open_reads:
        readable, _, _ = select.select(list(open_reads), [], [], 300)
        if not readable:
            return
        for sock in readable:
            try:
                data = sock.recv(65536)
            except OSError:
                return
            if not data:
                open_reads.discard(sock)
                try:
                    peers[sock].shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                continue
            try:
                peers[sock].sendall(data)
            except OSError:
                return


def policy_from(allowed: Iterable[str], denied: Iterable[str]) -> DomainPolicy:
    return DomainPolicy(tuple(a for a in allowed if a), tuple(d for d in denied if d))

