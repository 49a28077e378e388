"""Checks for network tools: where data goes (``curl -d @file``, ``scp`` uploads),
whether the response can feed a shell (``curl``/``wget -O-`` print remote content),
raw sockets and listeners (``nc -e``, ``socat … exec:``), tunnels (``ssh -R``),
commands run by ssh options (``ProxyCommand``), and loopback-only traffic (routine).
"""

from __future__ import annotations

import posixpath

from ...catalog import catalog as C
from ...syntax.lazyre import LazyPattern
from ...syntax.options import Args, parse_args
from ..facts import Checker, Ctx, Facts, L, dynamic, host_of, urls
from ..paths import READ, WRITE, resolve
from ..targets import critical_reason, home_relative, secret_level


def check_network(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    kind = C.NETWORK.get(f.name, "send")
    for word in _host_words(f.name, args):
        host = host_of(word)
        if host:
            f.hosts.append(host)
    if kind in ("both",):
        f.roles.update({"fetch", "send"})
    else:
        f.roles.add("send")
    if kind == "dns":
        f.roles.add("dns")
    if not f.hosts and f.name in _BARE_HOST_TOOLS:
        ops = [a for a in args if not a.startswith("-") and not a.isdigit()]
        if ops and "/" not in ops[0]:
            f.hosts.append(ops[0].split("@", 1)[-1])
    handler = _NETWORK_DETAIL.get(f.name)
    if handler is not None:
        handler(f, args, ctx)
        if not f.known:
            return
    if any(h.code in ("CAT001", "CAT002", "CAT029", "CAT041") or h.code.startswith("HB") for h in f.hits):
        return
    if f.hosts and all(loopback(h) for h in f.hosts) and kind != "dns" and ("mutates" not in f.roles or _dev_servers(args)):
        f.at_least(L)
        f.hit("CAT031", f"{f.label} (loopback only)")
    else:
        f.hit("CAT001", f.label)


#: Network tools whose first operand is a bare host name (``nc HOST PORT``, ``ping HOST``).
_BARE_HOST_TOOLS = frozenset({"nc", "ncat", "netcat", "nc.openbsd", "nc.traditional", "telnet", "ping", "ping6", "traceroute", "traceroute6", "tracepath", "mtr", "nmap"})
_LOOPBACK = frozenset({"localhost", "::1", "0.0.0.0", "host.docker.internal"})


def loopback(host: str) -> bool:
    """Traffic to the machine itself (a dev server, a local database) leaves nothing:
    a host as a developer names it (:func:`loopback_kind` ``"name"``)."""
    return loopback_kind(host) == "name"


def loopback_kind(host: str) -> str | None:
    """Whether ``host`` is the machine itself, judged by what the host is, not how it
    starts (``127.0.0.1.evil.example`` is a domain).

    ``"name"``: ``localhost``, a name under ``.localhost`` (RFC 6761 keeps it for loopback;
    curl and browsers answer it without DNS), ``127.x.y.z`` in dotted decimal, ``::1``,
    ``0.0.0.0`` and ``host.docker.internal``. ``"numeric"``: another spelling of a loopback
    or unspecified address (``0x7f000001``, ``2130706433``, ``0177.0.0.1``, ``127.1``,
    ``::ffff:127.0.0.1``): loopback for what a request there may do, but no developer's dev
    server (nobody types their app's address that way). None: any other host."""
    h = host.strip().lower()
    if h[:1] == "[" and h[-1:] == "]":
        h = h[1:-1]
    h = h.rstrip(".") if not h.endswith("..") else h
    if not h:
        return None
    if h in _LOOPBACK or h.endswith(".localhost"):
        return "name"
    parts = h.split(".")
    if len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and (p == "0" or p[0] != "0") and int(p) < 256 for p in parts):
        return "name" if parts[0] == "127" else None
    if ":" in h:
        return _ipv6_loopback(h)
    number = _inet_aton(parts)
    return "numeric" if number is not None and (number >> 24 == 127 or number == 0) else None


def _inet_aton(parts: list[str]) -> int | None:
    """The address the C resolver reads from 1-4 numbers (hex ``0x``, octal ``0``, decimal;
    the last fills the remaining bytes), or None."""
    if not 1 <= len(parts) <= 4:
        return None
    values = []
    for part in parts:
        try:
            value = int(part, 16) if part[:2] == "0x" else int(part, 8) if len(part) > 1 and part[0] == "0" else int(part)
        except ValueError:
            return None
        values.append(value)
    *head, last = values
    if any(v > 255 for v in head) or last >= 1 << (8 * (4 - len(head))):
        return None
    number = 0
    for i, v in enumerate(head):
        number |= v << (24 - 8 * i)
    return number | last


def _ipv6_loopback(h: str) -> str | None:
    import ipaddress  # cold: only an IPv6 host reaches here

    try:
        address = ipaddress.IPv6Address(h.split("%", 1)[0])
    except ValueError:
        return None
    mapped = address.ipv4_mapped
    if address.is_loopback or address.is_unspecified or (mapped is not None and (mapped.is_loopback or int(mapped) == 0)):
        return "numeric"
    return None


#: URL schemes whose requests a dev server on the machine itself answers. Any other
#: protocol sent there (``gopher://``, ``dict://`` …) reaches a local service in its own
#: language: the SSRF smuggling that rewrites Redis or memcached state.
_WEB_SCHEMES = frozenset({"http", "https", "ws", "wss"})


def _smuggles(f: Facts, words: list[str], default_scheme: str) -> None:
    """A non-web protocol sent to the machine itself (CAT041, asked in every mode);
    ``file://`` always names this machine."""
    for word in words:
        scheme, sep, _ = word.partition("://")
        scheme = scheme.lower() if sep else default_scheme
        if scheme in _WEB_SCHEMES or not scheme.isalnum():
            continue
        host = host_of(word if sep else f"x://{word}")
        if scheme == "file" or (host and loopback_kind(host)):
            f.hit("CAT041", f"{f.label} ({scheme}:// to {host or 'this machine'})")
            return


def _host_words(name: str, args: tuple[str, ...]) -> list[str]:
    """The words that may name where traffic goes. For curl and wget: the URLs and the
    options that route the request elsewhere (a proxy, ``--connect-to``, ``--resolve``),
    not the data or headers sent (``-d '{"email":"a@b.com"}'`` names no host)."""
    if name not in _NETWORK_DETAIL or _NETWORK_DETAIL[name] is not _curl:
        return [w for w in args if not (w.startswith("-") and "://" not in w)]
    parsed = parse_args(args, _CURL_VALUE if name == "curl" else _WGET_VALUE)
    words = parsed.operands + parsed.values("--url")
    for option, value in parsed.options:
        if option in _ROUTING and value:
            parts = value.split(":")
            if option in ("--connect-to", "--resolve"):  # ``H1:P1:H2:P2``, ``H:P:ADDR``: sent to the third part
                value = parts[2] if len(parts) > 2 else value
            words.append(value if "://" in value else f"http://{value or 'proxy'}/")
    return words


#: curl/wget options that send the request somewhere other than its URL's host.
_ROUTING = frozenset({"-x", "--proxy", "--preproxy", "--connect-to", "--resolve", "--doh-url", "-e", "--execute"})


def _dev_servers(args: tuple[str, ...]) -> bool:
    """Every URL names a loopback development-server port (``catalog.DEV_SERVER_PORTS``,
    not ``LOCAL_CONTROL_PORTS``): a request that changes something there reaches the app
    the agent is building; its body is checked on its own (``-d @.env`` still sends a secret)."""
    ports = [_port_of(word) for word in args if "://" in word or word.startswith(("localhost:", "127.0.0.1:", "[::1]:"))]
    return bool(ports) and all(
        port is not None and port not in C.LOCAL_CONTROL_PORTS and any(lo <= port <= hi for lo, hi in C.DEV_SERVER_PORTS)
        for port in ports
    )


def _port_of(word: str) -> int | None:
    """The port a URL names (``http://localhost:8080/x`` → 8080; none given: 80 or 443)."""
    scheme, sep, rest = word.partition("://")
    if not sep:
        scheme, rest = "", word
    authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rsplit("@", 1)[-1]
    port = authority.rsplit("]", 1)[-1].rpartition(":")[2] if ":" in authority.rsplit("]", 1)[-1] else ""
    if port:
        return int(port) if port.isdigit() else None
    return {"http": 80, "https": 443}.get(scheme.lower())


def _raw_socket(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.roles.add("raw_socket")
    if f.name == "socat":
        for arg in args:
            kind, sep, rest = arg.partition(":")
            if sep and kind.lower() in ("file", "open", "gopen", "create"):
                path = resolve(rest.split(",", 1)[0], f.base, ctx.home)
                level = secret_level(path, ctx.home)
                if level:
                    f.secrets.append((path, level))
                    f.hit("HB009" if level >= 2 else "CAT003", f"{f.label} ({path})")
        addresses = [a.lower() for a in args if not a.startswith("-") or a.startswith("-") and len(a) == 1]
        execs = any(a.startswith(("exec:", "system:")) or ",exec" in a for a in addresses) or any(a.lower().startswith(("exec:", "system:")) for a in args)
        listen = any("listen" in a for a in addresses)
        network = any(a.startswith(("tcp", "udp", "ssl", "openssl", "sctp", "socks", "proxy")) for a in addresses)
        if execs and network:
            f.hit("HB007" if listen else "HB006", f.label)
        elif listen:
            f.hit("CAT029", f.label)
            f.roles.add("listen")
        return
    if f.name == "openssl":
        return
    parsed = parse_args(args, frozenset({"-e", "-c", "--exec", "--sh-exec", "--lua-exec", "-p", "-s", "-w", "-i", "-q", "-x", "-X", "-P", "-O", "-I", "-T", "-V", "--source-port", "--source", "--wait", "--proxy", "--proxy-type"}))
    listen = parsed.has("-l", "--listen")
    if parsed.has("-e", "-c", "--exec", "--sh-exec", "--lua-exec"):
        f.hit("HB007" if listen else "HB006", f.label)
        return
    if listen:
        f.hit("CAT029", f.label)
        f.roles.add("listen")


def _ssh(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    for i, arg in enumerate(args):
        value = ""
        if arg == "-o" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("-o") and len(arg) > 2:
            value = arg[2:]
        key = value.split("=", 1)[0].split(" ", 1)[0].strip().lower()
        if key in ("proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match"):
            f.hit("CAT006", f"{f.label} (-o {key} runs a command)")
    parsed = parse_args(args, frozenset("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B -P".split()))
    if parsed.has("-R", "-D", "-L", "-w"):
        f.hit("CAT029", f"{f.label} (tunnel)")
    if f.name in ("scp", "sftp") and parsed.has("-S"):
        f.hit("CAT006", f"{f.label} (-S program)")
    if f.name == "scp":
        _remote_copy_direction(f, parsed.operands)
    elif f.name in ("ssh", "autossh") and len(parsed.operands) > 1:
        f.nested.append(" ".join(parsed.operands[1:]))  # the remote command


def _remote_copy_direction(f: Facts, operands: list[str]) -> None:
    if len(operands) >= 2:
        dest_remote = _is_remote(operands[-1])
        src_local = any(not _is_remote(o) for o in operands[:-1])
        if dest_remote and src_local:
            f.hit("CAT002", f"{f.label} (uploads to {host_of(operands[-1])})")


def _is_remote(word: str) -> bool:
    head = word.split("/", 1)[0]
    return ":" in head or word.startswith(("rsync://", "s3://", "gs://"))


def check_rsync(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-e", "--rsh", "--rsync-path", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--filter", "-f", "--port", "--password-file", "--log-file", "--chmod", "--chown", "--timeout", "--bwlimit", "-T", "--temp-dir", "--partial-dir", "--backup-dir", "--suffix", "--compare-dest", "--link-dest", "--copy-dest"}))
    remote = [o for o in parsed.operands if _is_remote(o)]
    rsh = parsed.value("-e", "--rsh")
    if rsh and rsh.split()[0].rsplit("/", 1)[-1] not in ("ssh", "rsh"):
        f.hit("CAT006", f"{f.label} (-e {rsh})")
    if parsed.has("--rsync-path"):
        f.hit("CAT006", f"{f.label} (--rsync-path runs a remote command)")
    if any(o.startswith("--del") or o in ("--remove-source-files",) for o, _ in parsed.options):
        wiped = _mirror_wipe(f, parsed, ctx)
        if wiped:
            f.hit("HB001", f"{f.label} → {wiped}")
        else:
            f.hit("CAT035", f"{f.label} (deletes files at the destination)")
    if remote:
        f.roles.update({"fetch", "send"})
        for r in remote:
            host = host_of(r) or r.split(":", 1)[0]
            if host:
                f.hosts.append(host)
        _remote_copy_direction(f, parsed.operands)
        if not any(h.code == "CAT002" for h in f.hits):
            f.hit("CAT001", f.label)
    else:
        f.at_least(L)


#: rsync options that leave parts of the destination alone, or make the run a dry run.
_RSYNC_NARROWING = frozenset({"--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--filter",
                              "-f", "-F", "-C", "--cvs-exclude", "--existing", "-n", "--dry-run", "--list-only"})
#: What a mirror may not replace: emptying these is a wipe (``rsync --delete empty/ ./``,
#: ``rsync -r --delete nothing/ /usr/``).
_MIRROR_WIPES = frozenset({"root directory", "home directory", "workspace root", "ancestor of the workspace",
                           "system directory"})
#: System directories that are also where deployments and backups are mirrored
#: (``rsync -a --delete dist/ /srv/``, ``… public/ /var/www/``): an ask, not a wipe.
_DEPLOY_TARGETS = frozenset({"/srv", "/var/www", "/opt", "/mnt", "/media", "/var/backups"})


def _mirror_wipe(f: Facts, parsed: Args, ctx: Ctx) -> str | None:
    """``rsync -a --delete SRC/ DEST``: DEST becomes a copy of SRC's contents, and
    everything else in it is deleted. When DEST is the workspace root, a home or ``/``
    and nothing is excluded, that is a wipe of DEST (SRC may well be an empty folder).
    A source without a trailing slash (``rsync -a --delete empty ./``) only replaces
    ``./empty``. Returns what is wiped, or None."""
    ops = parsed.operands
    if len(ops) < 2 or parsed.names & _RSYNC_NARROWING or not parsed.has("-r", "-a", "--recursive", "--archive", "-d", "--dirs"):
        return None
    dest = ops[-1]
    if _is_remote(dest) or not any(s in (".", "./") or s.endswith(("/", "/.")) for s in ops[:-1]):
        return None
    path = resolve(dest, f.base, ctx.home)
    if path.rstrip("/") in _DEPLOY_TARGETS:
        return None
    reason = "home directory" if home_relative(path, ctx.home) == "" else critical_reason(path, ctx.home, ctx.roots)
    return f"{path} ({reason}: everything not in the source is deleted)" if reason in _MIRROR_WIPES else None


_CURL_VALUE = frozenset(
    "-o --output -T --upload-file -d --data --data-binary --data-raw --data-ascii --data-urlencode -F --form "
    "--form-string -K --config -b --cookie -c --cookie-jar -H --header -u --user -X --request -A --user-agent "
    "-e --referer --cacert --cert --key -E --capath --output-dir -w --write-out -D --dump-header --trace "
    "--trace-ascii --stderr -x --proxy --resolve --connect-to -r --range -m --max-time --retry -C --continue-at "
    "--url --json --engine --method --proto-default --proto --proto-redir".split()
)
_WGET_VALUE = frozenset(
    "-O --output-document -o --output-file -a --append-output -i --input-file -P --directory-prefix --post-file "
    "--post-data --body-file --body-data --load-cookies --save-cookies -e --execute -U --user-agent --header -t --tries "
    "-T --timeout --user --password --method --use-askpass".split()
)


def _curl(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """curl / wget: where the response goes (stdout feeds pipes; a file may be run
    later), what is uploaded, and HTTP DELETE."""
    wget = f.name != "curl"
    parsed = parse_args(args, _WGET_VALUE if wget else _CURL_VALUE)
    method = (parsed.value("-X", "--request", "--method") or "").upper()
    if method == "DELETE":
        f.hit("CAT016", f"{f.label} (HTTP DELETE)")
    data_opts = ("-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--data-urlencode", "-F", "--form", "--json", "-T", "--upload-file", "--post-data", "--post-file", "--body-data", "--body-file")
    if method in ("POST", "PUT", "PATCH", "DELETE") or parsed.has(*data_opts):
        f.roles.add("mutates")
    _destructive_urls(f, parsed.operands + parsed.values("--url"))
    _smuggles(f, parsed.operands + parsed.values("--url"), "http" if wget else (parsed.value("--proto-default") or "http").lower())
    if parsed.has("--engine"):
        f.hit("CAT021", f"{f.label} (--engine loads a library)")
    if parsed.has("-K", "--config", "-e", "--execute", "--use-askpass") and (not wget or parsed.has("-e", "--execute", "--use-askpass")):
        f.hit("CAT006", f"{f.label} (reads options or commands from elsewhere)")
    uploads = [p for p in f.paths if p.op == READ]
    from_stdin = any(v in ("@-", "-") or v.startswith("@-") for v in parsed.values("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-T", "--upload-file"))
    if uploads or from_stdin or parsed.has("--post-file", "--body-file"):
        f.hit("CAT002", f"{f.label} (uploads local data)")
    if from_stdin:
        f.roles.add("send_stdin")
    for word in parsed.values("--url") + [o for o in parsed.operands]:
        host = host_of(word)
        if host and host not in f.hosts:
            f.hosts.append(host)
    if wget:
        outputs = parsed.values("-O", "--output-document")
        stdout = bool(outputs) and all(o == "-" for o in outputs)
    else:
        outputs = parsed.values("-o", "--output")
        remote_name = parsed.has("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name")
        stdout = not remote_name and all(o == "-" for o in outputs)
    if stdout:
        f.roles.add("fetch")
        return
    f.roles.discard("fetch")
    for access in f.paths:
        if access.op == WRITE:
            f.downloads.append(access.resolved)
    if not outputs:
        directory = parsed.value("-P", "--directory-prefix", "--output-dir") or "."
        for url in urls(parsed.operands + parsed.values("--url")):
            name = url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name and "://" not in name:
                f.downloads.append(resolve(posixpath.join(directory, name), f.base, ctx.home))


_URL_DESTROY = LazyPattern(r"(?i)[/_.-](?:delete|drop|truncate|purge|destroy|flush|wipe|nuke)(?:[/_.?-]|$)")


def _destructive_urls(f: Facts, words: list[str]) -> None:
    """``…/_delete_by_query``, ``…/tsdb/delete_series``: an admin endpoint that destroys."""
    for word in words:
        if "://" in word or word.startswith(("localhost", "127.")):
            path = word.split("://", 1)[-1].split("/", 1)[1] if "/" in word.split("://", 1)[-1] else ""
            if path and _URL_DESTROY.search("/" + path):
                f.hit("CAT016", f"{f.label} (destructive endpoint)")
                return


def _httpie(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """httpie / xh: ``http [METHOD] URL [items]``; ``key=value`` items send data."""
    ops = [a for a in args if not a.startswith("-")]
    method = ops[0].upper() if ops and ops[0].isalpha() and ops[0].isupper() else ""
    if method == "DELETE":
        f.hit("CAT016", f"{f.label} (HTTP DELETE)")
    if method in ("POST", "PUT", "PATCH", "DELETE") or any(("=" in o or ":=" in o or "@" in o) and "://" not in o for o in ops[1:]):
        f.roles.add("mutates")
    for word in ops:
        if word.startswith(("localhost", "127.", ":")) and not f.hosts:
            f.hosts.append(word.lstrip(":").split("/", 1)[0].split(":", 1)[0] or "localhost")
    _destructive_urls(f, ops)
    if any(o.startswith("@") for o in ops):
        f.hit("CAT002", f"{f.label} (uploads a file)")


def _dns(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if any(dynamic(a) for a in args):
        f.hit("CAT002", f"{f.label} (builds a DNS query from data)")


#: ``open``/``xdg-open`` options that only say how a URL opens (in the background, a new or
#: fresh instance, waiting, hidden). ``-a APP``, ``-b ID``, ``-e``, ``-t``, ``--args`` and
#: ``--env`` start a program the caller chooses, with the URL or file as its input.
_OPEN_FLAGS = frozenset({"-g", "-n", "-F", "-W", "-j", "--background", "--new", "--fresh", "--wait-apps", "--hide"})


def _browser(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``open URL`` / ``xdg-open URL``: the person's browser loads it with their cookies and
    logins. Every URL on the agent's own dev server (http(s) on a loopback
    ``catalog.DEV_SERVER_PORTS`` port, not a ``LOCAL_CONTROL_PORTS`` API) is the app being
    tried, routine as curl's request there is; another URL is network access; a file or an
    application (``open x.app``, ``x.command``, ``x.desktop``, ``-a APP``) is opened by a
    program that may run it, which bastion does not model (unknown: asked)."""
    ops = [a for a in args if not a.startswith("-")]
    urls_only = bool(ops) and all(o.lower().startswith(("http://", "https://")) for o in ops)
    if not urls_only or any(a.startswith("-") and a not in _OPEN_FLAGS for a in args):
        f.known = False
        return
    if all(h and loopback(h) for h in (host_of(o) for o in ops)) and not _dev_servers(tuple(ops)):
        f.hit("CAT001", f"{f.label} (a loopback port that is not a dev server's)")


_NETWORK_DETAIL: dict[str, Checker] = {
    "open": _browser,
    "xdg-open": _browser,
    **dict.fromkeys(C.RAW_SOCKETS, _raw_socket),
    "ssh": _ssh,
    "scp": _ssh,
    "sftp": _ssh,
    "autossh": _ssh,
    "curl": _curl,
    "wget": _curl,
    "wget2": _curl,
    **dict.fromkeys(("http", "https", "xh", "httpie", "curlie"), _httpie),
    **dict.fromkeys(("dig", "nslookup", "host", "drill", "ping", "ping6", "whois", "kdig", "delv"), _dns),
}


def check_openssl(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    sub = args[0] if args else ""
    if sub in ("s_client", "s_server", "s_time"):
        f.roles.add("raw_socket")
        check_network(f, args, ctx)
        if sub == "s_server":
            f.hit("CAT029", f.label)
        return
    f.at_least(L)
    if sub in ("enc", "base64") and any(a in ("-d", "-D", "--decode", "-decrypt") for a in args):
        f.roles.add("decode")
    if any(a in ("-engine", "--engine") for a in args):
        f.hit("CAT021", f"{f.label} (-engine loads a library)")
