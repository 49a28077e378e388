"""Checks for system administration and remote services: power state, kernel
modules, security controls (SELinux, firewalls), accounts, privilege tools,
publishing, cloud/infrastructure CLIs (destructive verbs, HTTP DELETE), SQL clients
and SQL pasted into the shell.
"""

from __future__ import annotations

from ...catalog import catalog as C
from ...syntax.options import parse_args
from ..facts import Ctx, Facts, L, destructive_verb, host_of
from ..inline import sql_risks


def check_power(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "init" and not any(a in ("0", "6", "1", "s", "S") for a in args):
        f.hit("CAT009", f.label)
        return
    if f.name == "shutdown" and "-c" in args:
        f.hit("CAT009", f.label)
        return
    f.hit("CAT018", f.label)


def check_kernel(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "sysctl" and any(".." in a for a in args):
        # a key is a path below /proc/sys: ``sysctl -n /../../etc/shadow`` reads any file
        f.hit("CAT003", f"{f.label} (key escapes /proc/sys)")
        return
    if f.name == "sysctl" and not any(a in ("-w", "--write", "-p", "--load", "--system") or "=" in a for a in args):
        return
    f.hit("CAT009", f.label)


def check_security(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    low = [a.lower() for a in args]
    name = f.name
    if name == "setenforce":
        f.hit("CAT028" if low[:1] in (["0"], ["permissive"]) else "CAT009", f.label)
        return
    if name in ("iptables", "ip6tables", "ebtables"):
        if set(low) & {"-l", "--list", "-s", "--list-rules", "-c", "--check"} and not set(low) & {"-f", "--flush", "-x", "-p"}:
            return
        if set(low) & {"-f", "--flush", "-x", "--delete-chain"} or ("-p" in low and "accept" in low):
            f.hit("CAT028", f.label)
        else:
            f.hit("CAT009", f.label)
        return
    if name == "ufw":
        if low[:1] in (["status"], ["app"], ["show"], ["version"]):
            return
        f.hit("CAT028" if low[:1] in (["disable"], ["reset"]) else "CAT009", f.label)
        return
    if name == "nft":
        if low[:1] in (["list"], ["-a"], ["monitor"]):
            return
        f.hit("CAT028" if "flush" in low else "CAT009", f.label)
        return
    if name in ("csrutil", "spctl"):
        if low[:1] in (["status"],) or "--status" in low:
            return
        f.hit("CAT028" if "disable" in low or "--master-disable" in low else "CAT009", f.label)
        return
    if name in ("aa-disable", "aa-complain", "aa-teardown"):
        f.hit("CAT028", f.label)
        return
    if name == "auditctl":
        if set(low) & {"-l", "-s"} and not set(low) & {"-d", "-e"}:
            return
        f.hit("CAT028" if "-D" in args or low[-2:] == ["-e", "0"] else "CAT009", f.label)
        return
    if name == "firewall-cmd" and all(a.startswith(("--list", "--get", "--query", "--state")) or a.startswith("--zone") for a in args if a.startswith("-")) and args:
        return
    f.hit("CAT009", f.label)


def check_accounts(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name in ("chsh", "passwd") and any(a in ("-l", "--list-shells", "-S", "--status") for a in args):
        return
    f.hit("CAT025", f.label)


def check_privilege(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.hit("CAT005", f.label)


def check_publish(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "twine" and args[:1] == ("check",):
        f.at_least(L)
        return
    f.hit("CAT017", f.label)


def check_remote_admin(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    f.roles.add("send")
    for word in ops:
        host = host_of(word)
        if host and "://" in word:
            f.hosts.append(host)
    if any(destructive_verb(o) for o in ops[:4]) or is_http_delete(args):
        f.hit("CAT016", f.label)
    else:
        f.hit("CAT001", f.label)


def is_http_delete(args: tuple[str, ...]) -> bool:
    for i, arg in enumerate(args):
        if arg in ("-X", "--request", "--method", "-m") and i + 1 < len(args) and args[i + 1].upper() == "DELETE":
            return True
        if arg.upper() in ("--METHOD=DELETE", "--REQUEST=DELETE", "-XDELETE"):
            return True
    return False


def check_sql_client(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name in C.LOCAL_SQL:  # a database file, not a server (``localsql``)
        from .localsql import check_local_sql

        check_local_sql(f, args, ctx)
        return
    opts = C.SQL_CLIENTS.get(f.name, frozenset())
    if any(a.startswith(("--default-auth", "--plugin-dir", "--init-command")) for a in args):
        f.hit("CAT021", f"{f.label} (loads a plugin or runs an init command)")
    parsed = parse_args(args, C.SQL_VALUE_OPTS | opts)
    statements = parsed.values(*opts) if opts else []
    if f.name in ("sqlite3", "duckdb") and len(parsed.operands) > 1:
        statements.extend(parsed.operands[1:])
    elif f.name not in ("sqlite3", "duckdb"):
        f.roles.add("send")
    if f.name == "psql" and parsed.has("-l", "--list") and not statements:
        f.hit("CAT001", f.label)
        return
    _sql_statements(f, statements)
    if not statements:
        f.hit("CAT001" if f.name not in ("sqlite3", "duckdb") else "CAT036", f.label)


def _sql_statements(f: Facts, statements: list[str]) -> None:
    for statement in statements:
        risks = sql_risks(statement)
        if "destroy" in risks:
            f.hit("CAT016", f"{f.label} (destructive SQL)")
        if "privilege" in risks:
            f.hit("CAT005", f"{f.label} (grants privileges)")
        if "exec" in risks:
            f.hit("CAT006", f"{f.label} (SQL that runs commands or writes files)")
        if "write" in risks and "destroy" not in risks:
            f.hit("CAT036", f.label)
    if statements and not f.hits:
        f.hit("CAT001", f.label)


def check_db_destroyer(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "mysqladmin" and not any(a.lower() in ("drop", "shutdown", "flush-privileges", "password", "kill") for a in args):
        f.hit("CAT001", f.label)
        return
    f.hit("CAT016", f.label)


def check_sql_keyword(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """SQL pasted into the shell (``DELETE FROM users;``): judged as SQL."""
    statement = " ".join(f.cmd.argv)
    risks = sql_risks(statement)
    if not risks:
        f.known = False
        return
    _sql_statements(f, [statement])
