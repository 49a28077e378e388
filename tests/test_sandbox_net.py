"""The sandbox's network, on the real kernel: nothing gets out except through bastion's
proxy, and the proxy lets through only allowed domains (HTTP, CONNECT and SOCKS5)."""

from __future__ import annotations

import http.server
import socket
import threading
from pathlib import Path

import pytest

from bastion.sandbox.netproxy import DomainPolicy
from sandbox_util import BACKENDS, make_world

HOSTS = {"allowed.test": "127.0.0.1", "api.allowed.test": "127.0.0.1", "denied.test": "127.0.0.1"}


class _Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's spelling
        body = f"hello {self.headers.get('Host', '')} {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server():
    """A real HTTP server on the host's 127.0.0.1 (outside every sandbox)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def world(tmp_path: Path):
    return make_world(tmp_path)


def _python(code: str) -> list[str]:
    import sys

    return [sys.executable, "-I", "-c", code]


@pytest.mark.parametrize("backend", BACKENDS)
def test_tcp_to_a_host_listener_fails(world, backend):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    try:
        result = world.sandbox(backend).run(
            _python(f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3); print('connected')"),
            cwd=str(world.project),
        )
        assert result.exit_code != 0
        assert "connected" not in result.stdout
        assert "ConnectionRefusedError" in result.stderr
        with pytest.raises(socket.timeout):
            listener.accept()  # nothing ever arrived on the host side
    finally:
        listener.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_dns_and_no_udp_without_allowed_domains(world, backend):
    result = world.sandbox(backend).run(
        _python(
            "import socket\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            "try:\n    s.sendto(b'x', ('1.1.1.1', 53)); print('sent')\n"
            "except OSError as e: print('udp', e.errno)\n"
            "try:\n    socket.getaddrinfo('example.com', 80); print('resolved')\n"
            "except OSError as e: print('dns failed')\n"
        ),
        cwd=str(world.project),
    )
    assert result.exit_code == 0, result.stderr
    assert "sent" not in result.stdout and "resolved" not in result.stdout
    assert result.enforced["network"] == "none"


@pytest.mark.parametrize("backend", BACKENDS)
def test_allowed_domain_is_reachable_and_denied_is_not(world, backend, server):
    sandbox = world.sandbox(backend, hosts=HOSTS)
    result = sandbox.run(
        f"curl -sS -m 5 http://allowed.test:{server}/ok; echo; curl -sS -m 5 -o /dev/null -w '%{{http_code}}' http://denied.test:{server}/no",
        cwd=str(world.project),
        allow_domains=["allowed.test"],
        timeout=20,
    )
    assert f"hello allowed.test:{server} /ok" in result.stdout
    assert result.stdout.strip().endswith("403")
    assert result.enforced["network"] == "proxy"
    assert {"kind": "network", "target": f"denied.test:{server}", "detail": "not in sandbox.network.allowedDomains"} in result.violations


@pytest.mark.parametrize("backend", BACKENDS)
def test_connect_tunnel_and_socks5_follow_the_same_policy(world, backend, server):
    code = (
        "import os, socket, http.client\n"
        "port = int(os.environ['HTTP_PROXY'].rsplit(':', 1)[1])\n"
        # HTTPS-style: CONNECT through the proxy, then talk through the tunnel
        f"c = http.client.HTTPConnection('127.0.0.1', port, timeout=5); c.set_tunnel('api.allowed.test', {server})\n"
        "c.request('GET', '/tunnel'); print(c.getresponse().read().decode())\n"
        f"c = http.client.HTTPConnection('127.0.0.1', port, timeout=5); c.set_tunnel('denied.test', {server})\n"
        "try:\n    c.request('GET', '/x'); print('tunnel open')\n"
        "except OSError as e: print('tunnel refused')\n"
        # SOCKS5 with a domain name (socks5h)
        "def socks(host):\n"
        "    s = socket.create_connection(('127.0.0.1', port), timeout=5)\n"
        "    s.sendall(b'\\x05\\x01\\x00'); assert s.recv(2) == b'\\x05\\x00'\n"
        f"    s.sendall(b'\\x05\\x01\\x00\\x03' + bytes([len(host)]) + host.encode() + ({server}).to_bytes(2, 'big'))\n"
        "    reply = s.recv(10)\n"
        "    if reply[1] != 0: return 'socks refused %d' % reply[1]\n"
        "    s.sendall(b'GET /socks HTTP/1.0\\r\\nHost: ' + host.encode() + b'\\r\\n\\r\\n')\n"
        "    data = b''\n"
        "    while chunk := s.recv(4096): data += chunk\n"
        "    return data.decode().rsplit('\\r\\n', 1)[-1]\n"
        "print(socks('allowed.test')); print(socks('denied.test'))\n"
    )
    result = world.sandbox(backend, hosts=HOSTS).run(
        _python(code), cwd=str(world.project), allow_domains=["allowed.test", "*.allowed.test"], timeout=20
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"hello api.allowed.test:{server} /tunnel"
    assert lines[1] == "tunnel refused"
    assert lines[2].startswith("hello allowed.test")
    assert lines[3] == "socks refused 2"


@pytest.mark.parametrize("backend", BACKENDS)
def test_denied_domains_beat_allowed_ones(world, backend, server):
    result = world.sandbox(backend, hosts=HOSTS).run(
        f"curl -sS -m 5 -o /dev/null -w '%{{http_code}}' http://api.allowed.test:{server}/",
        cwd=str(world.project),
        allow_domains=["*"],
        deny_domains=["*.allowed.test"],
        timeout=20,
    )
    assert result.stdout == "403"
    assert result.violations[0]["detail"].startswith("denied by sandbox.network.deniedDomains")


@pytest.mark.parametrize("backend", BACKENDS)
def test_direct_connections_still_fail_when_a_proxy_is_up(world, backend, server):
    result = world.sandbox(backend, hosts=HOSTS).run(
        f"curl -sS -m 3 --noproxy '*' http://127.0.0.1:{server}/",
        cwd=str(world.project),
        allow_domains=["allowed.test"],
        timeout=20,
    )
    assert result.exit_code != 0
    assert "hello" not in result.stdout


def test_names_resolving_to_internal_addresses_are_refused(world):
    from bastion.sandbox.netproxy import NetProxy

    proxy = NetProxy(DomainPolicy(("localhost",)))
    upstream, reason, refused = proxy._connect("localhost", 80)
    assert upstream is None and refused
    assert "internal address" in reason
    assert proxy.violations[0]["target"] == "localhost:80"


@pytest.mark.parametrize(
    "allowed, denied, host, ok",
    [
        (("example.com",), (), "example.com", True),
        (("example.com",), (), "EXAMPLE.com.", True),
        (("example.com",), (), "api.example.com", False),
        (("*.example.com",), (), "api.example.com", True),
        (("*.example.com",), (), "example.com", False),
        (("*.example.com",), (), "evil-example.com", False),
        (("*",), ("evil.com",), "evil.com", False),
        (("*",), ("evil.com",), "good.com", True),
        ((), (), "example.com", False),
        (("example.com",), ("example.com",), "example.com", False),
        (("10.0.0.5",), (), "10.0.0.5", True),
    ],
)
def test_domain_policy(allowed, denied, host, ok):
    assert (DomainPolicy(allowed, denied).refusal(host) is None) is ok


@pytest.mark.parametrize("address", ["::ffff:127.0.0.1", "::ffff:169.254.169.254", "10.1.2.3", "100.100.100.200", "fd00:ec2::254"])
def test_internal_address_literals_are_refused_even_under_a_wildcard(world, address):
    from bastion.sandbox.netproxy import NetProxy

    proxy = NetProxy(DomainPolicy(("*",)))
    upstream, reason, refused = proxy._connect(address, 80)
    assert upstream is None and refused and "internal address" in reason
