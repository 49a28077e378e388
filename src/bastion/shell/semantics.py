"""What one simple command means: its tier, its findings, its roles in a pipeline.

``classify(cmd, ctx)`` looks the command up in the catalog (one dict lookup on its
canonical name picks a *checker*), lets the checker read the options that matter, then
applies the checks every command gets: privilege wrappers, dangerous variables, and
what its file accesses touch (secrets, persistence targets, devices, paths outside the
workspace).

The result, :class:`Facts`, is per command. Script-wide rules (``curl … | sh``, secret
read + network send, download-then-execute) live in ``analyse.py`` and use the *roles*
recorded here (``fetch``: prints remote content; ``send``: can carry data out;
``exec_stdin``: runs what it reads on stdin; ``decode``; ``env_dump``; ``raw_socket``).

Data is not execution: checkers only look at the arguments a command interprets as
code (``-c``, ``-e``, sed/awk programs, SQL); an ``echo`` or ``git commit -m`` argument
is never scanned.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Callable

from ..model import Severity, Tier
from . import catalog as C
from .env import is_dangerous_env
from .intents import CODES
from .inline import awk_risks, code_intents, heredoc_bodies, jq_risks, sed_commands, sql_risks
from .options import Args, parse_args
from .paths import DELETE, EXEC, EXTRACTORS, READ, WRITE, PathAccess, command_base, extract_paths, resolve
from .script import SimpleCommand
from .targets import (
    critical_reason,
    is_block_device,
    is_harmless_device,
    is_temp,
    persistence_level,
    secret_level,
    within,
)
from .lazyre import LazyPattern

__all__ = ["Ctx", "Facts", "Hit", "classify"]

R, L, H = Tier.READ_ONLY, Tier.LOW_RISK, Tier.HIGH_RISK


@dataclass(frozen=True)
class Ctx:
    """Where the script runs: the call's cwd, the agent's home, the workspace roots."""

    cwd: str
    home: str
    roots: tuple[str, ...]
    #: The raw command string (here-document bodies fed to interpreters are read from it).
    source: str = ""

    def inside(self, path: str) -> bool:
        return any(within(path, root) for root in self.roots)


@dataclass(frozen=True)
class Hit:
    code: str
    detail: str


@dataclass
class Facts:
    """Everything the analyser learnt about one simple command."""

    cmd: SimpleCommand
    name: str
    label: str
    tier: Tier = R
    known: bool = True
    hits: list[Hit] = field(default_factory=list)
    paths: list[PathAccess] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    roles: set[str] = field(default_factory=set)
    #: Resolved files this command downloads into (for download-then-execute).
    downloads: list[str] = field(default_factory=list)
    #: Secret files it reads: (resolved path, level).
    secrets: list[tuple[str, int]] = field(default_factory=list)
    #: Shell command strings found in interpreter code, analysed again by analyse.py.
    nested: list[str] = field(default_factory=list)
    #: The command starts a shell itself (``find -exec /bin/sh``, ``awk 'BEGIN{system("sh")}'``).
    spawns_shell: bool = False
    base: str = "/"

    def hit(self, code: str, detail: str = "") -> None:
        """Record a finding; the command's tier rises with it (an ask is at least
        high-risk, a destructive finding or a hard block makes it destructive)."""
        self.hits.append(Hit(code, detail or self.label))
        info = CODES[code]
        if info.destructive:
            self.tier = Tier.DESTRUCTIVE
        elif info.severity is not Severity.LOW:
            self.tier = self.tier.max(H)

    def at_least(self, tier: Tier) -> None:
        self.tier = self.tier.max(tier)


Checker = Callable[[Facts, tuple[str, ...], Ctx], None]

# =========================================================================== helpers


def _short(cmd: SimpleCommand, limit: int = 80) -> str:
    text = " ".join(cmd.argv) if cmd.argv else (cmd.text or "")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _risky_options(args: tuple[str, ...], risky: dict[str, str] | object) -> list[tuple[str, str]]:
    """Risky options present in ``args``: exact, ``--x=value``, or a short letter in a cluster."""
    if not risky:
        return []
    found: list[tuple[str, str]] = []
    for arg in args:
        if arg == "--":
            break
        if not arg.startswith("-"):
            continue
        code = risky.get(arg)  # type: ignore[union-attr]
        if code is None and arg.startswith("--"):
            code = risky.get(arg.split("=", 1)[0])  # type: ignore[union-attr]
        if code is not None:
            found.append((arg, code))
            continue
        if not arg.startswith("--") and len(arg) > 2:
            for letter in arg[1:]:
                code = risky.get("-" + letter)  # type: ignore[union-attr]
                if code is not None:
                    found.append((arg, code))
                    break
    return found


def _host_of(word: str) -> str | None:
    """The host in a URL, ``user@host:path``, or ``user@host``."""
    if "://" in word:
        rest = word.split("://", 1)[1]
        host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        host = host.rsplit("@", 1)[-1]
        if host.startswith("["):
            return host[1:].split("]", 1)[0] or None
        return host.split(":", 1)[0] or None
    if "@" in word and not word.startswith("-") and "/" not in word.split("@", 1)[0]:
        host = word.split("@", 1)[1].split(":", 1)[0].split("/", 1)[0]
        return host or None
    head, sep, _ = word.partition(":")
    if sep and head and "/" not in head and ("." in head or head == "localhost") and not head.startswith("-") and "=" not in head:
        return head
    return None


def _urls(words: list[str] | tuple[str, ...]) -> list[str]:
    return [w for w in words if "://" in w and not w.startswith("-")]


def _is_path_word(word: str) -> bool:
    return word.startswith(("/", "~", "./", "../", "$HOME")) or ("/" in word and not word.startswith("-") and "://" not in word)


def _dynamic(word: str) -> bool:
    return "$" in word or "`" in word


# =========================================================================== checkers
# Each checker refines Facts for one command family. ``args`` excludes argv[0].


def _read_only(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    risky = C.READ_ONLY.get(f.name, {})
    for arg, code in _risky_options(args, risky):
        f.hit(code, f"{f.name} {arg}")


def _routine(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    if f.name == "split" and len(parse_args(args, frozenset({"-a", "-b", "-C", "-l", "-n", "-t", "--additional-suffix", "--filter", "--numeric-suffixes", "--hex-suffixes", "--suffix-length", "--bytes", "--lines", "--line-bytes", "--number", "--separator"})).operands) > 2:
        f.known = False  # not coreutils split (``split splits delete …`` is a SaaS CLI)
        f.at_least(H)
        if any(_destructive_verb(a) for a in args):
            f.hit("CAT016", f.label)
        return
    for arg, code in _risky_options(args, C.ROUTINE.get(f.name, {})):
        f.hit(code, f"{f.name} {arg}")


def _rm(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, aliases={"--recursive": "-r", "-R": "-r", "--force": "-f", "--dir": "-d"})
    recursive = parsed.has("-r")
    f.at_least(H)
    targets = [p for p in f.paths if p.op == DELETE]
    if not parsed.operands:
        if f.cmd.origin in ("xargs", "parallel", "find -exec") or f.cmd.pipe_index > 0:
            f.hit("CAT034" if recursive else "CAT010", f"{f.label} (targets come from input)")
        return
    if not targets:  # only placeholders such as {} (find -exec, parallel)
        f.hit("CAT034" if recursive else "CAT010", f"{f.label} (targets come from input)")
        return
    for access in targets:
        _delete_target(f, access, recursive, ctx)


def _delete_target(f: Facts, access: PathAccess, recursive: bool, ctx: Ctx) -> None:
    path = access.resolved
    reason = critical_reason(path, ctx.home, ctx.roots)
    if reason and (recursive or (access.path.rstrip("/").endswith("*") and reason in ("root directory", "system directory"))):
        f.hit("HB001", f"{f.label} → {path} ({reason})")
        return
    if "$" in path and recursive:
        f.hit("CAT034", f"{f.label} (target {access.path!r} is only known at run time)")
        return
    if ctx.inside(path) or is_temp(path):
        f.hit("CAT010", f.label)
    elif recursive:
        f.hit("CAT011", f"{f.label} → {path}")
    else:
        f.hit("CAT010", f.label)


def _rmdir(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)


def _wiper(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(H)
    devices = [a for a in parse_args(args, frozenset({"-n", "-s", "--iterations", "--size"})).operands if is_block_device(resolve(a, f.base, ctx.home))]
    if devices:
        f.hit("HB003", f"{f.label} (device {devices[0]})")
        return
    f.hit("CAT030", f.label)
    if parse_args(args).has("-u", "--remove", "-r", "-R"):
        f.hit("CAT010", f.label)


def _disk_destroyer(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(H)
    devices = [a for a in args if a.startswith("/dev/") and not is_harmless_device(a)]
    if devices:
        f.hit("HB002" if f.name.startswith("mk") or f.name == "newfs" else "HB003", f"{f.label} (device {devices[0]})")
    else:
        f.hit("CAT023", f.label)


def _partitioner(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args)
    if f.name in ("mount", "umount", "swapon", "swapoff", "losetup"):
        if f.name in ("mount", "losetup", "swapon") and not parsed.operands and not (parsed.names - {"-l", "--list", "-a", "--show", "-s", "--summary", "-t"}):
            return  # listing
        f.hit("CAT009", f.label)
        return
    wipes = C.PARTITION_WIPES.get(f.name, frozenset())
    devices = [a for a in args if a.startswith("/dev/") and is_block_device(a)]
    if devices and wipes and any(a in wipes or a.split("=", 1)[0] in wipes for a in args):
        f.hit("HB003", f"{f.label} (erases the layout of {devices[0]})")
        return
    if parsed.names and parsed.names <= {"-l", "--list", "-s", "--show", "-p", "--print", "-v", "--version", "-h", "--help"} or (
        parsed.operands[-1:] == ["print"] or parsed.operands[:1] == ["list"] or parsed.operands[:1] == ["info"]
    ):
        return
    f.hit("CAT023", f.label)


def _dd(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq:
            continue
        target = resolve(value, f.base, ctx.home)
        if key == "of" and is_block_device(target):
            f.hit("HB003", f"{f.label} (writes {value})")
        elif key == "if" and is_block_device(target):
            f.hit("CAT003", f"{f.label} (reads raw disk {value})")


def _chmod_like(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    parsed = parse_args(args, frozenset({"--reference", "--from"}), aliases={"--recursive": "-R", "-r": "-R"})
    recursive = parsed.has("-R")
    mode = parsed.operands[0] if parsed.operands and parsed.value("--reference") is None else ""
    if f.name == "chmod" and mode:
        if "s" in mode.split("=")[-1] and any(c in mode for c in "+=") or (mode.isdigit() and len(mode) == 4 and mode[0] in "2467"):
            f.hit("CAT005", f"{f.label} (setuid/setgid)")
    open_mode = f.name == "chmod" and (mode.endswith("777") or mode in ("a+rwx", "ugo+rwx", "o+w", "a+w"))
    for access in f.paths:
        if access.op != WRITE:
            continue
        reason = critical_reason(access.resolved, ctx.home, others=False)
        if reason and (recursive or (open_mode and access.resolved in ("/", ctx.home))):
            f.hit("HB012", f"{f.label} → {access.resolved} ({reason})")
        elif f.name != "chmod" or (not ctx.inside(access.resolved) and not is_temp(access.resolved)):
            f.hit("CAT012", f.label)
        elif recursive and access.resolved in ctx.roots:
            f.hit("CAT012", f"{f.label} (the whole workspace)")


def _find(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    _read_only(f, args, ctx)
    for i, arg in enumerate(args[:-1]):
        if arg in ("-name", "-iname", "-path", "-ipath", "-wholename", "-regex") and _secret_glob(args[i + 1]):
            f.hit("CAT003", f"{f.label} (searches for secret files)")
            break
    deletes = [p for p in f.paths if p.op == DELETE]
    if not deletes:
        return
    filtered = any(a in _FIND_FILTERS for a in args)
    recursive_exec = "-delete" in args or any(a in ("-rf", "-fr", "-r", "-R", "--recursive") for a in args)
    for access in deletes:
        reason = critical_reason(access.resolved, ctx.home)
        if reason and not filtered and recursive_exec:
            f.hit("HB001", f"{f.label} → {access.resolved} ({reason})")
        elif access.resolved in ctx.roots and not filtered:
            f.hit("CAT034", f"{f.label} (deletes the whole workspace)")
        elif not ctx.inside(access.resolved) and not is_temp(access.resolved):
            f.hit("CAT011", f"{f.label} → {access.resolved}")


def _secret_glob(pattern: str) -> bool:
    """``-name 'id_rsa*'``, ``-name '*.pem'``: a search for key or credential files."""
    probe = pattern.strip("'\"").lstrip("*").rstrip("*") or pattern
    name = probe.rsplit("/", 1)[-1]
    if not name:
        return False
    return bool(secret_level("/x/" + name, "/nonexistent")) or name in _SECRET_WORDS


_SECRET_WORDS = frozenset({"shadow", "id_rsa", "id_ed25519", "id_dsa", "id_ecdsa", "credentials", ".netrc", ".git-credentials", "authorized_keys", ".pgpass", "*.kdbx", ".env"})


_FIND_FILTERS = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -user -group -size -mtime -atime -ctime "
    "-mmin -amin -cmin -newer -perm -empty -links -inum -samefile -lname -ilname -nouser -nogroup".split()
)


def _sed(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length"}), optional_value_opts=frozenset({"--in-place"}))
    if any(p.op == WRITE for p in f.paths):
        f.at_least(L)
    if parsed.has("-f", "--file"):
        f.hit("CAT020", f"{f.label} (script read from a file)")
        return
    scripts = parsed.values("-e", "--expression") or parsed.operands[:1]
    for script in scripts:
        used = sed_commands(script)
        if used is None:
            f.hit("CAT020", f"{f.label} (sed script not understood)")
        elif "e" in used:
            f.hit("CAT006", f"{f.label} (sed e runs commands)")
        elif used & {"w", "W"}:
            f.hit("CAT020", f"{f.label} (sed w writes files)")


def _awk(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-f", "--file", "-v", "--assign", "-F", "--field-separator", "-i", "--include", "-l", "--load", "-E", "--exec"}))
    if parsed.has("-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load"):
        f.hit("CAT020", f"{f.label} (program read from a file or extension loaded)")
        return
    program = parsed.operands[0] if parsed.operands else ""
    risks = awk_risks(program)
    if "net" in risks and ("exec" in risks or "|&" in program):
        f.hit("HB007" if "/0/0" in program or "/inet/tcp/" in program and program.count("/0") >= 2 else "HB006", f.label)
        return
    for target in _AWK_TARGET.findall(program):
        path = resolve(target, f.base, ctx.home)
        if persistence_level(path, ctx.home) >= 2:
            f.hit("HB011", f"{f.label} (writes {path})")
    if "exec" in risks:
        f.hit("CAT006", f"{f.label} (awk runs commands)")
        f.spawns_shell = f.spawns_shell or bool(_SHELL_WORD.search(program))
    if "write" in risks:
        f.hit("CAT020", f"{f.label} (awk writes files)")
    if "net" in risks:
        f.hit("CAT001", f"{f.label} (awk network socket)")
    if "env" in risks:
        f.hit("CAT004", f.label)


def _grep(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    _read_only(f, args, ctx)
    for arg in args[:6]:
        if _SECRET_PATTERN_HINT(arg):
            f.hit("CAT003", f"{f.label} (searches for secrets)")
            return


def _SECRET_PATTERN_HINT(word: str) -> bool:
    low = word.lower()
    return any(h in low for h in ("private key", "begin rsa", "begin openssh", "aws_secret", "akia", "ghp_", "xoxb-", "sk-ant-", "sk_live_"))


_AWK_TARGET = LazyPattern(r'>>?\s*"([^"]+)"')
_SHELL_WORD = LazyPattern(r"(?:^|[\s\"'(/!])(?:ba|z|da|k)?sh\b(?!\.)")


def _jq(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    _read_only(f, args, ctx)
    ops = [a for a in args if not a.startswith("-")]
    if ops:
        risks = jq_risks(ops[0])
        if "env" in risks:
            f.hit("CAT004", f.label)
        if "exec" in risks:
            f.hit("CAT006", f.label)


def _tar(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    for arg in args:
        key = arg.split("=", 1)[0]
        if key in _TAR_EXEC:
            f.hit("CAT006", f"{f.label} ({key})")
        elif key in ("-f", "--file") or arg.startswith("--file="):
            pass
    archive = parse_args(args, frozenset({"-f", "--file"})).value("-f", "--file")
    if archive is None and args and not args[0].startswith("-") and "f" in args[0] and len(args) > 1:
        archive = args[1]  # old-style ``tar cvf ARCHIVE …``
    if archive and ":" in archive.split("/", 1)[0]:
        f.hit("CAT001", f.label)
        f.roles.add("send")
        f.hosts.append(_host_of(archive) or archive.split(":", 1)[0].rsplit("@", 1)[-1])


_TAR_EXEC = frozenset({"--to-command", "--checkpoint-action", "--use-compress-program", "-I", "--rsh-command", "--rmt-command", "--info-script", "-F", "--new-volume-script"})


def _kill(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(H)
    if f.name == "killall5":
        f.hit("HB013", f.label)
        return
    if f.name != "kill":
        f.hit("CAT013", f.label)
        return
    rest = list(args)
    if rest and rest[0] in ("-l", "-L", "--list", "--table"):
        f.tier = R
        return
    if rest and rest[0] in ("-s", "-n", "--signal") and len(rest) > 1:
        rest = rest[2:]
    elif rest and rest[0].startswith("-") and rest[0] != "--" and not rest[0][1:].lstrip("-").isdigit() or rest[:1] and rest[0][1:].isdigit() and rest[0].startswith("-") and len(rest) > 1:
        rest = rest[1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    zero = any(a in ("-0", "-s0", "--signal=0") for a in args) or args[:2] in (("-s", "0"), ("-n", "0"))
    if any(t in ("-1", "1") for t in rest) and not zero:
        f.hit("HB013", f.label)
    else:
        f.hit("CAT013", f.label)


def _crontab(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-u"}))
    if parsed.has("-l") and not parsed.operands:
        return
    if parsed.has("-r"):
        f.hit("CAT035", f.label)
    else:
        f.hit("CAT008", f"{f.label} (installs cron jobs)")


def _assign_words(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """export / declare / local / readonly / typeset / unset."""
    if f.name == "unset":
        for name in args:
            if name in C.HISTORY_VARS:
                f.hit("CAT024", f"{f.label} (hides shell history)")
        return
    words = [a for a in args if not a.startswith("-")]
    if not words and f.name in C.ENV_DUMPERS and not any(a in ("-f", "-F") for a in args):
        f.hit("CAT004", f"{f.label} (prints the environment)")
        f.roles.add("env_dump")
        return
    for word in words:
        name, eq, value = word.partition("=")
        if name in C.HISTORY_VARS and (not eq or value in ("", "0", "/dev/null") or f.name == "unset"):
            f.hit("CAT024", f"{f.label} (hides shell history)")
        elif eq and is_dangerous_env(name):
            f.hit("CAT021", f"{f.label} ({name})")


def _env(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    names = [a for a in args if not a.startswith("-")]
    if f.name == "set":
        if not args:
            f.hit("CAT004", f"{f.label} (prints shell variables)")
            f.roles.add("env_dump")
        return
    if not names or f.name == "env":
        f.hit("CAT004", f"{f.label} (prints the environment)")
        f.roles.add("env_dump")
        return
    if any(_secret_var(n) for n in names):
        f.hit("CAT004", f"{f.label} (prints a secret variable)")
        f.roles.add("env_dump")


def _secret_var(name: str) -> bool:
    upper = name.upper().lstrip("${").rstrip("}")
    return any(hint in upper for hint in C.SECRET_VAR_HINTS)


def _alias(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    for arg in args:
        name, eq, value = arg.partition("=")
        if eq and value:
            f.hit("CAT006", f"{f.label} (alias {name} runs {value!r})")
            f.nested.append(value)


def _history(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    _read_only(f, args, ctx)
    if not args or all(a.isdigit() for a in args):
        f.roles.add("env_dump")  # command lines often carry tokens and passwords


def _hostname(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-F", "--file"}))
    if parsed.operands or parsed.has("-F", "--file", "-b", "--boot"):
        f.hit("CAT009", f.label)


def _ifconfig(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    if len(ops) > 1:
        f.hit("CAT009", f.label)


def _ip(f: Facts, args: tuple[str, ...], ctx: Ctx | None) -> None:
    ops = [a for a in args if not a.startswith("-")]
    if any(o in _IP_MUTATORS for o in ops[1:]):
        f.hit("CAT009", f.label)
    elif ops and ops[0] not in C.TOOLS["ip"].subs:
        f.hit("CAT009", f.label)


_IP_MUTATORS = frozenset({"add", "del", "delete", "set", "change", "replace", "flush", "append", "prepend", "exec", "attach", "detach", "up", "down"})


def _getent(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    if ops and ops[0] in ("shadow", "gshadow"):
        f.hit("HB009", f"{f.label} (shadow database)")


def _source(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if not args:
        return
    target = args[0]
    if target in ("/dev/stdin", "-", "/proc/self/fd/0") or target.startswith(("<(", "/dev/fd/")):
        f.roles.add("exec_stdin")
        f.hit("CAT007", f.label)
        return
    if _dynamic(target):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f.label)
        return
    _exec_file(f, resolve(target, f.base, ctx.home), ctx)


def _exec_file(f: Facts, path: str, ctx: Ctx) -> None:
    """A script or binary from a file runs: routine inside the workspace."""
    if ctx.inside(path):
        f.at_least(L)
        f.hit("CAT032", f.label)
    else:
        f.hit("CAT006", f"{f.label} (runs {path}, outside the workspace)")


def _eval(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.roles.add("exec_dynamic")
    f.hit("CAT006", f"{f.label} (evaluates a string)")


def _trap(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if args and not args[0].startswith("-"):
        f.hit("CAT006", f"{f.label} (trap handler runs code)")


def _enable(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if any(a.startswith("-f") for a in args):
        f.hit("CAT021", f"{f.label} (loads a shared library into the shell)")


def _make(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    parsed = parse_args(args, frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-j", "--jobs", "-l", "--load-average", "-o", "-W", "--eval", "-I", "--include-dir"}))
    if parsed.has("--eval") or any(v in ("-", "/dev/stdin") for v in parsed.values("-f", "--file", "--makefile")):
        f.hit("CAT006", f"{f.label} (makefile from input)")
    for target in parsed.operands:
        if "=" in target:
            continue
        code = C.NON_ROUTINE_TARGETS.get(target)
        if code:
            f.hit(code, f.label)
    f.hit("CAT032", f.label)


def _truncate(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if args[:1] and (args[0].lower() == "table" or args[-1].endswith(";")):
        _sql_keyword(f, args, ctx)
        return
    f.at_least(L)
    for access in f.paths:
        if access.resolved.startswith("/var/log/") or access.resolved.endswith("_history"):
            f.hit("CAT024", f"{f.label} (erases {access.resolved})")
            return
    size = parse_args(args, frozenset({"-s", "--size", "-r", "--reference"})).value("-s", "--size")
    if size in ("0", "0K", "0M", "0B"):
        f.hit("CAT030", f.label)


def _xargs(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.hit("CAT006", f"{f.label} (runs commands built from input)")


def _busybox(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if not args:
        return
    inner = SimpleCommand(args, f.cmd.assignments, f.cmd.redirects, f.cmd.wrappers + ("busybox",), f.cmd.cwd, f.cmd.origin, f.cmd.text, f.cmd.depth, f.cmd.pipeline, f.cmd.pipe_index, f.cmd.background)
    sub = classify(inner, ctx)
    f.tier, f.known, f.hits, f.roles, f.hosts, f.paths = sub.tier, sub.known, sub.hits, sub.roles, sub.hosts, sub.paths
    f.downloads, f.secrets, f.nested, f.name = sub.downloads, sub.secrets, sub.nested, sub.name


# --------------------------------------------------------------------------- network


def _network(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    kind = C.NETWORK.get(f.name, "send")
    for word in args:
        if word.startswith("-") and "://" not in word:
            continue
        host = _host_of(word)
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
    if any(h.code in ("CAT001", "CAT002", "CAT029") or h.code.startswith("HB") for h in f.hits):
        return
    if f.hosts and all(_loopback(h) for h in f.hosts) and kind != "dns" and "mutates" not in f.roles:
        f.at_least(L)
        f.hit("CAT031", f"{f.label} (loopback only)")
    else:
        f.hit("CAT001", f.label)


#: Network tools whose first operand is a bare host name (``nc HOST PORT``, ``ping HOST``).
_BARE_HOST_TOOLS = frozenset({"nc", "ncat", "netcat", "nc.openbsd", "nc.traditional", "telnet", "ping", "ping6", "traceroute", "traceroute6", "tracepath", "mtr", "nmap"})
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0", "host.docker.internal"})


def _loopback(host: str) -> bool:
    """Traffic to the machine itself (a dev server, a local database) leaves nothing."""
    return host.lower() in _LOOPBACK or host.startswith("127.") or host.endswith(".localhost")


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
            f.hit("CAT002", f"{f.label} (uploads to {_host_of(operands[-1])})")


def _is_remote(word: str) -> bool:
    head = word.split("/", 1)[0]
    return ":" in head or word.startswith(("rsync://", "s3://", "gs://"))


def _rsync(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-e", "--rsh", "--rsync-path", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--filter", "-f", "--port", "--password-file", "--log-file", "--chmod", "--chown", "--timeout", "--bwlimit", "-T", "--temp-dir", "--partial-dir", "--backup-dir", "--suffix", "--compare-dest", "--link-dest", "--copy-dest"}))
    remote = [o for o in parsed.operands if _is_remote(o)]
    rsh = parsed.value("-e", "--rsh")
    if rsh and rsh.split()[0].rsplit("/", 1)[-1] not in ("ssh", "rsh"):
        f.hit("CAT006", f"{f.label} (-e {rsh})")
    if parsed.has("--rsync-path"):
        f.hit("CAT006", f"{f.label} (--rsync-path runs a remote command)")
    if any(o.startswith("--del") or o in ("--remove-source-files",) for o, _ in parsed.options):
        f.hit("CAT035", f"{f.label} (deletes files at the destination)")
    if remote:
        f.roles.update({"fetch", "send"})
        for r in remote:
            host = _host_of(r) or r.split(":", 1)[0]
            if host:
                f.hosts.append(host)
        _remote_copy_direction(f, parsed.operands)
        if not any(h.code == "CAT002" for h in f.hits):
            f.hit("CAT001", f.label)
    else:
        f.at_least(L)


_CURL_VALUE = frozenset(
    "-o --output -T --upload-file -d --data --data-binary --data-raw --data-ascii --data-urlencode -F --form "
    "--form-string -K --config -b --cookie -c --cookie-jar -H --header -u --user -X --request -A --user-agent "
    "-e --referer --cacert --cert --key -E --capath --output-dir -w --write-out -D --dump-header --trace "
    "--trace-ascii --stderr -x --proxy --resolve --connect-to -r --range -m --max-time --retry -C --continue-at "
    "--url --json --engine --method".split()
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
        host = _host_of(word)
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
        for url in _urls(parsed.operands + parsed.values("--url")):
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
    if any(_dynamic(a) for a in args):
        f.hit("CAT002", f"{f.label} (builds a DNS query from data)")


_NETWORK_DETAIL: dict[str, Checker] = {
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


def _openssl(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    sub = args[0] if args else ""
    if sub in ("s_client", "s_server", "s_time"):
        f.roles.add("raw_socket")
        _network(f, args, ctx)
        if sub == "s_server":
            f.hit("CAT029", f.label)
        return
    f.at_least(L)
    if sub in ("enc", "base64") and any(a in ("-d", "-D", "--decode", "-decrypt") for a in args):
        f.roles.add("decode")
    if any(a in ("-engine", "--engine") for a in args):
        f.hit("CAT021", f"{f.label} (-engine loads a library)")


# --------------------------------------------------------------------------- code


def _interpreter(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    code_opts = C.INTERPRETERS.get(f.name, frozenset())
    value_opts = C.INTERPRETER_VALUE_OPTS.get(f.name, frozenset())
    if f.name == "deno":
        _deno(f, args, ctx)
        return
    if f.name in ("java",):
        f.at_least(L)
        f.hit("CAT032", f.label)
        ops = [a for a in args if not a.startswith("-")]
        if any(_destructive_verb(o) for o in ops[1:5]):
            f.hit("CAT016", f.label)
        elif any(o in ("shutdown", "safe-shutdown", "restart", "safe-restart") for o in ops[1:5]):
            f.hit("CAT018", f.label)
        return
    code: str | None = None
    module: str | None = None
    operands: list[str] = []
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg in code_opts:
            code = args[i + 1] if i + 1 < n else ""
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2 and arg not in value_opts:
            cluster = _code_in_cluster(arg, code_opts, value_opts)
            if cluster is not None:
                code = cluster or (args[i + 1] if i + 1 < n else "")
                break
        if f.name in ("python", "pypy") and arg == "-m" or arg.startswith("-m") and f.name in ("python", "pypy") and len(arg) > 2:
            module = args[i + 1] if arg == "-m" and i + 1 < n else arg[2:]
            operands = list(args[i + 2 :]) if arg == "-m" else list(args[i + 1 :])
            break
        if arg in value_opts and i + 1 < n:
            i += 2
            continue
        if arg == "--":
            operands = list(args[i + 1 :])
            break
        if arg.startswith("-") and arg != "-":
            i += 1
            continue
        operands = list(args[i:])
        break
    if f.name == "php" and any(a == "-S" or a.startswith("-S") for a in args):
        f.hit("CAT029", f"{f.label} (built-in web server)")
        return
    if code is not None:
        if f.name == "ruby" and "-run" in args and code.split()[:1] == ["httpd"]:
            f.hit("CAT029", f"{f.label} (web server)")
        _inline_code(f, code, ctx)
        return
    if module is not None:
        _python_module(f, module, operands, ctx)
        return
    if not operands or operands[0] in ("-", "/dev/stdin"):
        f.roles.add("exec_stdin")
        if any(r.op in ("<<", "<<-") for r in f.cmd.redirects):
            for body in heredoc_bodies(ctx.source, f.cmd.name):
                _inline_code(f, body, ctx)
            return
        if f.cmd.pipe_index > 0 or any(r.op in ("<", "<<<", "<&") for r in f.cmd.redirects):
            f.hit("CAT007", f.label)
        else:
            f.hit("CAT027", f"{f.label} (interactive interpreter)")
        return
    script = operands[0]
    if "://" in script:
        f.hit("CAT006", f"{f.label} (runs a remote script)")
        f.hit("CAT001", f.label)
        host = _host_of(script)
        if host:
            f.hosts.append(host)
        return
    if _dynamic(script):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f.label)
        return
    _exec_file(f, resolve(script, f.base, ctx.home), ctx)


def _code_in_cluster(arg: str, code_opts: frozenset[str], value_opts: frozenset[str]) -> str | None:
    """``perl -ne CODE`` / ``python -Bc CODE``: the code option inside a short cluster.

    Returns the attached code (``-eCODE``), ``""`` when the code is the next argument,
    or None when the cluster has no code option (a value option ends the scan:
    ``-MData::Dumper`` is a module, not ``-e``)."""
    letters = arg[1:]
    for k, letter in enumerate(letters):
        opt = "-" + letter
        if opt in code_opts:
            return letters[k + 1 :]
        if opt in value_opts:
            return None
    return None


def _deno(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    sub = ops[0] if ops else ""
    if sub == "eval" and len(ops) > 1:
        _inline_code(f, ops[1], ctx)
        return
    if sub in ("fmt", "lint", "check", "test", "bench", "doc", "info", "task", "compile", "bundle", "cache", "types", "coverage", "--version"):
        f.at_least(L)
        return
    target = ops[1] if sub == "run" and len(ops) > 1 else (ops[0] if ops else "")
    if "://" in target:
        f.hit("CAT006", f"{f.label} (runs a remote script)")
        f.hit("CAT001", f.label)
        return
    if target:
        _exec_file(f, resolve(target, f.base, ctx.home), ctx)
    else:
        f.hit("CAT027", f.label)


def _python_module(f: Facts, module: str, operands: list[str], ctx: Ctx) -> None:
    value = C.PYTHON_MODULES.get(module)
    if value is None:
        f.hit("CAT006", f"{f.label} (runs module {module})")
        return
    if module == "pip":
        sub = SimpleCommand(("pip", *operands), f.cmd.assignments, f.cmd.redirects, f.cmd.wrappers, f.cmd.cwd, f.cmd.origin, f.cmd.text, f.cmd.depth, f.cmd.pipeline, f.cmd.pipe_index)
        inner = classify(sub, ctx)
        f.tier, f.hits, f.known = inner.tier, inner.hits, inner.known
        return
    _apply_value(f, value, f"python -m {module}")


def _inline_code(f: Facts, code: str, ctx: Ctx) -> None:
    f.hit("CAT006", f"{f.label} (inline code)")
    intent = code_intents(code)
    if intent.reverse_shell:
        f.hit("HB006", f.label)
    if intent.bind_shell:
        f.hit("HB007", f.label)
    if intent.fork_bomb:
        f.hit("HB004", f.label)
    if intent.download_exec:
        f.hit("HB005", f"{f.label} (code fetched and evaluated)")
    if intent.library_load:
        f.hit("CAT021", f"{f.label} (loads a native library)")
    if intent.network:
        f.roles.add("send")
        f.hit("CAT001", f.label)
    if intent.env_dump:
        f.roles.add("env_dump")
        f.hit("CAT004", f.label)
        if intent.network:
            f.hit("HB008", f"{f.label} (environment sent over the network)")
    for raw in intent.recursive_deletes:
        path = resolve(raw, f.base, ctx.home)
        reason = critical_reason(path, ctx.home, ctx.roots)
        if reason:
            f.hit("HB001", f"{f.label} → {path} ({reason})")
        elif ctx.inside(path) or is_temp(path):
            f.hit("CAT010", f.label)
        else:
            f.hit("CAT011", f"{f.label} → {path}")
    for raw in intent.deletes:
        path = resolve(raw, f.base, ctx.home)
        f.hit("CAT010" if ctx.inside(path) or is_temp(path) else "CAT011", f"{f.label} → {path}")
    for raw in intent.paths:
        path = resolve(raw, f.base, ctx.home)
        level = secret_level(path, ctx.home)
        if level:
            f.secrets.append((path, level))
            if level >= 2:
                f.hit("HB008" if intent.network else "HB009", f"{f.label} ({path})")
            else:
                f.hit("CAT003", f"{f.label} ({path})")
        plevel = persistence_level(path, ctx.home)
        if plevel >= 2 and _WRITE_CALL.search(code):
            f.hit("HB011", f"{f.label} (writes {path})")
        elif plevel:
            f.hit("CAT008", f"{f.label} ({path})")
    f.nested.extend(intent.commands)
    if intent.shell_exec and (_SHELL_WORD.search(code) or any(p in _SHELL_PATHS for p in intent.paths)):
        f.spawns_shell = True


_WRITE_CALL = LazyPattern(r"file_put_contents|fputs|fwrite|download\s*\(|createWriteStream|FileWriter|OpenFile|writeFileSync|copyfile|urlretrieve|\.write\s*\(|open\s*\([^)]*[\"'][wa]\+?[\"']|File\.write|writeFile|>>?\s*[\"']|print\s+\w+\s|IO\.write|spit\b")


def _shell(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """A shell the parser did not replace by its commands: a script, stdin, or a -c
    string it could not read."""
    parsed = parse_args(args, frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}), stop_at_operand=True)
    if any(o == "-c" or (o.startswith("-") and not o.startswith("--") and "c" in o) for o, _ in parsed.options):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f"{f.label} (shell string)")
        if parsed.operands:
            f.nested.append(parsed.operands[0])
        return
    if not parsed.operands or parsed.operands[0] in ("-", "/dev/stdin") or parsed.has("-s"):
        f.roles.add("exec_stdin")
        if f.cmd.pipe_index > 0 or any(r.op in ("<", "<&", "<<<") for r in f.cmd.redirects):
            f.hit("CAT007", f.label)
        else:
            f.hit("CAT006", f"{f.label} (interactive shell)")
        return
    script = parsed.operands[0]
    if script.startswith(("<(", "/dev/fd/")) or _dynamic(script):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f.label)
        return
    _exec_file(f, resolve(script, f.base, ctx.home), ctx)


def _interactive(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.hit("CAT027", f.label)
    if any("!" in a and _SHELL_WORD.search(a) for a in args):
        f.spawns_shell = True
    for arg in args:
        if arg in ("-c", "--cmd", "-S", "--eval", "-P", "--pager", "-H", "--html", "-x", "-l", "--load") or (arg.startswith("+") and len(arg) > 1) or arg.startswith("--eval="):
            f.hit("CAT006", f"{f.label} ({arg} runs commands)")
            break


def _tex(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    joined = " ".join(args)
    if any(a.lstrip("-") in ("shell-escape", "enable-write18") for a in args) or "\\write18" in joined:
        f.hit("CAT006", f"{f.label} (shell escape)")
    elif "\\openout" in joined or "\\write" in joined:
        f.hit("CAT020", f"{f.label} (TeX writes files)")


def _credential_tool(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    flags = {a for a in args if a.startswith("-")}
    if f.name in ("gpg", "gpg2") and flags & {"--export-secret-keys", "--export-secret-subkeys"}:
        f.hit("HB009", f"{f.label} (exports private keys)")
        return
    if f.name == "ssh-keygen" and (flags & {"-l", "-F", "-lf", "-lv", "-E"} or any(a.startswith("-l") for a in flags)):
        return
    if f.name in ("gpg", "gpg2") and flags and all(a.startswith(("--list", "--fingerprint", "-k", "-K", "--version", "--verify")) for a in flags):
        return
    if f.name in ("ssh-keygen", "ssh-add") and flags & {"-D", "-s", "-S", "-e"} and f.name == "ssh-keygen" and "-D" in flags:
        f.hit("CAT021", f"{f.label} (loads a PKCS#11 library)")
        return
    if f.name == "ssh-keyscan":
        _network(f, args, ctx)
        return
    f.hit("CAT003", f"{f.label} (manages keys or credentials)")


def _wrapper(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.hit("CAT006", f"{f.label} (runs another command)")
    if f.name == "parallel" and args[:1] == (":::",):
        f.nested.extend(a for a in args[1:] if a != ":::")  # each input is a command


def _package_runner(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-p", "--package", "-c", "--call"}), stop_at_operand=True)
    if parsed.has("-c", "--call"):
        f.hit("CAT006", f.label)
        return
    tool = parsed.operands[0] if parsed.operands else ""
    base = C.canonical_name(tool.split("@", 1)[0].rsplit("/", 1)[-1]) if tool else ""
    if base and (base in C.ROUTINE or base in C.READ_ONLY) and not parsed.has("-p", "--package") and "@" not in tool[1:]:
        f.at_least(L)
        return
    f.hit("CAT026", f"{f.label} (downloads and runs a package)")


# --------------------------------------------------------------------------- tools


def _apply_value(f: Facts, value: str, detail: str) -> None:
    if value == "r":
        return
    if value == "l":
        f.at_least(L)
        return
    if value == "?":
        f.known = False
        f.at_least(H)
        return
    f.hit(value, detail)


def _tool(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    tool = C.TOOLS[f.name]
    parsed = parse_args(args, tool.value_opts)
    ops = parsed.operands
    w1 = ops[0] if ops else ""
    if not w1 and parsed.options:
        w1 = parsed.options[0][0]  # ``dpkg -l``, ``pacman -Q``
    w2 = f"{w1} {ops[1]}" if len(ops) > 1 else ""
    value = tool.subs.get(w2) if w2 else None
    key = w2 if value is not None else w1
    if value is None:
        value = tool.subs.get(w1, tool.default if w1 else "r")
    detail = f"{f.name} {key}".strip()
    if value == "?":
        f.label = detail
        if any(_destructive_verb(o) for o in ops):
            f.hit("CAT016", detail)
    for arg, code in _risky_options(args, tool.risky):
        f.hit(code, f"{f.name} {arg}")
    if key in tool.installs or w1 in tool.installs:
        packages = [o for o in ops[1:] if o not in (".", "..") and not o.startswith(("./", "../", "/"))]
        if parsed.has("-g", "--global") or packages and not parsed.has("-r", "--requirement", "-e", "--editable"):
            f.hit("CAT026", f"{f.label}")
            return
    refine = _TOOL_REFINERS.get(f.name)
    if refine is not None and refine(f, parsed, value, key):
        return
    _apply_value(f, value, detail)


def _destructive_verb(word: str) -> bool:
    low = word.lower()
    return low in C.DESTRUCTIVE_VERBS or low.startswith(C.DESTRUCTIVE_VERB_PREFIXES)


def _refine_docker(f: Facts, parsed: Args, value: str, key: str) -> bool:
    if key in ("compose down",):
        if parsed.has("-v", "--volumes", "--rmi"):
            f.hit("CAT016", f.label)
        else:
            f.at_least(L)
        return True
    if key in ("run", "container run", "create", "container create", "compose run", "exec", "container exec"):
        risky = [o for o, v in parsed.options if o in ("--privileged", "--pid", "--net", "--network", "--cap-add", "--userns", "--ipc", "--security-opt", "--device")]
        mounts = [v or "" for o, v in parsed.options if o in ("-v", "--volume", "--mount")]
        if risky and any(o == "--privileged" for o in risky) or any(m.split(":", 1)[0] in ("/", "/etc", "/root", "/var/run/docker.sock", "/home") or "source=/," in m or "src=/," in m for m in mounts):
            f.hit("CAT005", f"{f.label} (host access from a container)")
    return False


def _refine_kubectl(f: Facts, parsed: Args, value: str, key: str) -> bool:
    ops = parsed.operands
    if key in ("get", "describe") and len(ops) > 1 and ops[1].split("/", 1)[0].split(",", 1)[0] in ("secret", "secrets", "sa-token"):
        f.hit("CAT003", f"{f.label} (reads secrets)")
        return True
    if value == "r":
        f.at_least(L)  # reads cluster state over the network: routine
        f.hit("CAT031", f.label)
        return True
    return False


def _refine_systemctl(f: Facts, parsed: Args, value: str, key: str) -> bool:
    units = {u.split(".", 1)[0] for u in parsed.operands[1:]}
    if key in ("stop", "disable", "mask", "kill") and units & _SECURITY_UNITS:
        f.hit("CAT028", f.label)
        return True
    return False


_SECURITY_UNITS = frozenset({"firewalld", "ufw", "iptables", "nftables", "apparmor", "auditd", "selinux", "fail2ban", "clamav-daemon", "falcon-sensor", "osqueryd", "wazuh-agent", "crowdstrike"})


def _refine_terraform(f: Facts, parsed: Args, value: str, key: str) -> bool:
    if key == "apply" and any(a in ("-destroy", "--destroy") for a in f.cmd.argv):
        f.hit("CAT016", f"{f.label} (-destroy)")
        return True
    return False


def _refine_npm(f: Facts, parsed: Args, value: str, key: str) -> bool:
    ops = parsed.operands
    if key in ("run", "run-script") and len(ops) > 1:
        code = C.NON_ROUTINE_TARGETS.get(ops[1].split(":", 1)[0])
        if code:
            f.hit(code, f.label)
            return True
    if f.name == "yarn" and value == "l" and ops and ops[0] not in C.TOOLS["yarn"].subs:
        code = C.NON_ROUTINE_TARGETS.get(ops[0].split(":", 1)[0])
        if code:
            f.hit(code, f.label)
            return True
    if value == "l":
        f.hit("CAT032", f.label)
    return False


def _refine_ip(f: Facts, parsed: Args, value: str, key: str) -> bool:
    _ip(f, tuple(parsed.operands), None)
    return any(h.code == "CAT009" for h in f.hits)


_TOOL_REFINERS: dict[str, Callable[[Facts, Args, str, str], bool]] = {
    "docker": _refine_docker,
    "podman": _refine_docker,
    "nerdctl": _refine_docker,
    "kubectl": _refine_kubectl,
    "oc": _refine_kubectl,
    "systemctl": _refine_systemctl,
    "terraform": _refine_terraform,
    "tofu": _refine_terraform,
    "terragrunt": _refine_terraform,
    "npm": _refine_npm,
    "pnpm": _refine_npm,
    "yarn": _refine_npm,
    "bun": _refine_npm,
    "ip": _refine_ip,
}


# --------------------------------------------------------------------------- git


def _git(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        arg = args[i]
        key = ""
        if arg == "-c" and i + 1 < n:
            key = args[i + 1].split("=", 1)[0]
            i += 2
        elif arg.startswith("-c") and len(arg) > 2:
            key = arg[2:].split("=", 1)[0]
            i += 1
        elif arg == "--config-env" and i + 1 < n:
            key = args[i + 1].split("=", 1)[0]
            i += 2
        elif arg.startswith("--config-env="):
            key = arg.split("=", 2)[1]
            i += 1
        elif arg in C.GIT_VALUE_OPTS and i + 1 < n:
            if arg == "--exec-path":
                f.hit("CAT022", f"{f.label} (--exec-path)")
            i += 2
            continue
        else:
            i += 1
            continue
        if key and _git_exec_key(key):
            f.hit("CAT022", f"{f.label} ({key})")
    sub = args[i] if i < n else ""
    rest = args[i + 1 :]
    value = C.GIT.get(sub)
    if not sub:
        return
    if value is None:
        f.known = False
        f.label = f"git {sub}"
        f.at_least(H)
        return
    f.label = _short(f.cmd)
    refine = _GIT_SUBS.get(sub)
    if refine is not None:
        value = refine(f, rest, ctx) or value
        if value == "done":
            return
    _apply_value(f, value, f.label)
    if sub in ("clone", "fetch", "pull", "ls-remote", "submodule"):
        for word in rest:
            host = _host_of(word)
            if host:
                f.hosts.append(host)
        f.hit("CAT031", f.label)
        if any(a.startswith(("--upload-pack", "-u")) for a in rest if sub != "pull"):
            f.hit("CAT022", f"{f.label} (--upload-pack)")
        if any(w.startswith("ext::") for w in rest):
            f.hit("CAT006", f"{f.label} (ext:: transport)")


def _git_exec_key(key: str) -> bool:
    low = key.lower()
    return low in C.GIT_EXEC_CONFIG or low.startswith(C.GIT_EXEC_CONFIG_PREFIXES) or low.endswith(C.GIT_EXEC_CONFIG_SUFFIXES)


def _flags(rest: tuple[str, ...]) -> set[str]:
    out: set[str] = set()
    for a in rest:
        if a == "--":
            break
        if a.startswith("--"):
            out.add(a.split("=", 1)[0])
        elif a.startswith("-") and len(a) > 1:
            out.update("-" + c for c in a[1:])
    return out


def _git_read_opts(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if "--output" in flags:
        f.hit("CAT020", f"{f.label} (--output writes a file)")
    if "--ext-diff" in flags:
        f.hit("CAT020", f"{f.label} (--ext-diff runs a program)")
    if "--open-files-in-pager" in flags or ("-O" in flags and f.label.startswith("git grep")):
        f.hit("CAT020", f"{f.label} (opens a pager command)")
    return None


def _git_branch(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    if "-D" in flags or (("-d" in flags or "--delete" in flags) and ("-f" in flags or "--force" in flags)):
        return "CAT015"
    if "-d" in flags or "--delete" in flags:
        return "CAT037"
    if ("-f" in flags or "--force" in flags or "-M" in flags or "-C" in flags) and ops:
        return "CAT038"
    if not ops or flags & {"-a", "-r", "-l", "--list", "-v", "-vv", "--show-current", "--contains", "--merged", "--no-merged", "--points-at", "--format", "--sort"}:
        return "r"
    return "l"


def _git_tag(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    if "-d" in flags or "--delete" in flags:
        return "CAT037"
    if "-f" in flags or "--force" in flags:
        return "CAT038"
    if not ops or flags & {"-l", "--list", "-n", "--contains", "--points-at", "-v", "--verify", "--merged", "--no-merged"}:
        return "r"
    return "l"


def _git_remote(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if not ops or ops[0] in ("show", "get-url"):
        return "r"
    if ops[0] in ("remove", "rm"):
        return "CAT037"
    for word in ops[1:]:
        host = _host_of(word)
        if host:
            f.hosts.append(host)
    return "l"


def _git_config(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    read_flags = {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--show-origin", "--show-scope", "--name-only", "--get-color", "--get-colorbool"}
    if flags & read_flags or (ops and ops[0] in ("get", "list")) or len(ops) <= 1 and not flags & {"--unset", "--unset-all", "--remove-section", "--rename-section", "--add", "--replace-all", "-e", "--edit"}:
        return "r"
    if flags & {"-e", "--edit"} or (ops and ops[0] == "edit"):
        return "CAT027"
    key = ops[1] if ops and ops[0] in ("set", "unset") and len(ops) > 1 else (ops[0] if ops else "")
    if key and _git_exec_key(key) and not flags & {"--unset", "--unset-all"} and not (ops and ops[0] == "unset"):
        if flags & {"--global", "--system"} or key.lower() == "core.hookspath":
            f.hit("CAT008", f"{f.label} ({key})")
        return "CAT022"
    return "l"


def _git_stash(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    sub = ops[0] if ops else ""
    if sub in ("drop", "clear"):
        return "CAT015"
    if sub in ("list", "show"):
        return "r"
    return "l"


_GIT_DISCARD_FLAGS = {"-f", "--force", "--ours", "--theirs", "-p", "--patch", "--pathspec-from-file", "--overlay", "-m", "--merge"}


def _git_checkout(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if "--" in rest:
        return "CAT015"
    ops = [a for a in rest if not a.startswith("-")]
    if flags & {"-b", "-B", "--orphan"} and not flags & _GIT_DISCARD_FLAGS and len(ops) <= 2:
        return "l"
    if flags & {"-t", "--track", "--detach"} and not flags & _GIT_DISCARD_FLAGS and len(ops) <= 1:
        return "l"
    if flags & _GIT_DISCARD_FLAGS or "." in ops or any("*" in o for o in ops):
        return "CAT015"
    if len(ops) >= 2:
        return "CAT015"
    if len(ops) == 1 and "/" in ops[0] and "." in ops[0].rsplit("/", 1)[-1]:
        return "CAT015"
    return "l"


def _git_switch(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"--discard-changes", "-f", "--force"}:
        return "CAT015"
    return "l"


def _git_restore(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"-S", "--staged"} and not flags & {"-W", "--worktree"}:
        return "l"
    return "CAT015"


def _git_reset(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"--hard", "--merge", "--keep"}:
        return "CAT015"
    return "l"


def _git_clean(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"-n", "--dry-run"}:
        return "r"
    if flags & {"-i", "--interactive"}:
        return "CAT027"
    if flags & {"-f", "--force"}:
        return "CAT015"
    return "l"


def _git_push(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    for word in ops:
        host = _host_of(word)
        if host:
            f.hosts.append(host)
    if any(a.startswith("--receive-pack") or a.startswith("--exec") for a in rest):
        f.hit("CAT022", f"{f.label} (--receive-pack)")
    if flags & {"-f", "--force", "--mirror", "--delete", "-d", "--prune"} or any(o.startswith("+") or o.startswith(":") for o in ops[1:]):
        f.hit("CAT015", f.label)
        return "done"
    return "CAT001"


def _git_rebase(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"--abort", "--continue", "--skip", "--quit", "--show-current-patch"}:
        return "l"
    if "--exec" in flags or "-x" in flags:
        f.hit("CAT006", f"{f.label} (--exec)")
    if flags & {"-i", "--interactive"}:
        return "CAT027"
    return "CAT038"


def _git_reflog(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if ops and ops[0] in ("expire", "delete"):
        return "CAT015"
    return "r"


def _git_gc(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a in ("--prune=now", "--prune=all") for a in rest):
        return "CAT015"
    return "l"


def _git_update_ref(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return "CAT015" if "-d" in rest or "--delete" in rest else "CAT038"


def _git_rm(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return "l" if "--cached" in rest else "CAT010"


def _git_worktree(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if ops and ops[0] == "remove" and _flags(rest) & {"-f", "--force"}:
        return "CAT015"
    if ops and ops[0] == "list":
        return "r"
    return "l"


def _git_submodule(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if ops and ops[0] == "foreach":
        return "CAT006"
    if not ops or ops[0] in ("status", "summary"):
        return "r"
    return "l"


def _git_bisect(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return "CAT006" if rest[:1] == ("run",) else "l"


def _git_apply(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a.startswith(("--unsafe-paths", "--directory")) for a in rest):
        return "CAT020"
    if "--check" in rest or "--stat" in rest or "--numstat" in rest:
        return "r"
    return "l"


def _git_archive(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a.startswith("--exec") for a in rest):
        f.hit("CAT022", f"{f.label} (--exec)")
    if any(a.startswith("--remote") for a in rest):
        return "CAT001"
    return "l"


def _git_clone(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    for i, a in enumerate(rest):
        value = ""
        if a in ("-c", "--config") and i + 1 < len(rest):
            value = rest[i + 1]
        elif a.startswith("--config="):
            value = a.split("=", 1)[1]
        if value and _git_exec_key(value.split("=", 1)[0]):
            f.hit("CAT022", f"{f.label} ({value.split('=', 1)[0]})")
        if a.startswith("--template"):
            f.hit("CAT008", f"{f.label} (--template installs hooks)")
    return None


def _git_commit(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return None


_GIT_SUBS: dict[str, Callable[[Facts, tuple[str, ...], Ctx], str | None]] = {
    **dict.fromkeys(("log", "diff", "show", "grep", "format-patch", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff", "shortlog"), _git_read_opts),
    "branch": _git_branch,
    "tag": _git_tag,
    "remote": _git_remote,
    "config": _git_config,
    "stash": _git_stash,
    "checkout": _git_checkout,
    "switch": _git_switch,
    "restore": _git_restore,
    "reset": _git_reset,
    "clean": _git_clean,
    "push": _git_push,
    "rebase": _git_rebase,
    "reflog": _git_reflog,
    "gc": _git_gc,
    "update-ref": _git_update_ref,
    "rm": _git_rm,
    "worktree": _git_worktree,
    "submodule": _git_submodule,
    "bisect": _git_bisect,
    "apply": _git_apply,
    "archive": _git_archive,
    "clone": _git_clone,
    "commit": _git_commit,
}

# --------------------------------------------------------------------------- admin groups


def _power(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "init" and not any(a in ("0", "6", "1", "s", "S") for a in args):
        f.hit("CAT009", f.label)
        return
    if f.name == "shutdown" and "-c" in args:
        f.hit("CAT009", f.label)
        return
    f.hit("CAT018", f.label)


def _kernel(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "sysctl" and not any(a in ("-w", "--write", "-p", "--load", "--system") or "=" in a for a in args):
        return
    f.hit("CAT009", f.label)


def _security(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
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


def _accounts(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name in ("chsh", "passwd") and any(a in ("-l", "--list-shells", "-S", "--status") for a in args):
        return
    f.hit("CAT025", f.label)


def _privilege(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.hit("CAT005", f.label)


def _publish(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "twine" and args[:1] == ("check",):
        f.at_least(L)
        return
    f.hit("CAT017", f.label)


def _remote_admin(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    f.roles.add("send")
    for word in ops:
        host = _host_of(word)
        if host and "://" in word:
            f.hosts.append(host)
    if any(_destructive_verb(o) for o in ops[:4]) or _http_delete(args):
        f.hit("CAT016", f.label)
    else:
        f.hit("CAT001", f.label)


def _http_delete(args: tuple[str, ...]) -> bool:
    for i, arg in enumerate(args):
        if arg in ("-X", "--request", "--method", "-m") and i + 1 < len(args) and args[i + 1].upper() == "DELETE":
            return True
        if arg.upper() in ("--METHOD=DELETE", "--REQUEST=DELETE", "-XDELETE"):
            return True
    return False


def _sql_client(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
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


def _db_destroyer(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "mysqladmin" and not any(a.lower() in ("drop", "shutdown", "flush-privileges", "password", "kill") for a in args):
        f.hit("CAT001", f.label)
        return
    f.hit("CAT016", f.label)


def _sql_keyword(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """SQL pasted into the shell (``DELETE FROM users;``): judged as SQL."""
    statement = " ".join(f.cmd.argv)
    risks = sql_risks(statement)
    if not risks:
        f.known = False
        return
    _sql_statements(f, [statement])


# =========================================================================== dispatch


def _build_dispatch() -> dict[str, Checker]:
    table: dict[str, Checker] = {}

    def put(names, checker: Checker) -> None:  # type: ignore[no-untyped-def]
        for name in names:
            table.setdefault(name, checker)

    special: dict[str, Checker] = {
        "git": _git,
        "rm": _rm,
        "unlink": _rm,
        "rmdir": _rmdir,
        "dd": _dd,
        "tar": _tar,
        "bsdtar": _tar,
        "find": _find,
        "bfs": _find,
        "chmod": _chmod_like,
        "chown": _chmod_like,
        "chgrp": _chmod_like,
        "crontab": _crontab,
        "history": _history,
        "source": _source,
        ".": _source,
        "eval": _eval,
        "trap": _trap,
        "enable": _enable,
        "make": _make,
        "gmake": _make,
        "truncate": _truncate,
        "env": _env,
        "printenv": _env,
        "set": _env,
        "export": _assign_words,
        "declare": _assign_words,
        "typeset": _assign_words,
        "local": _assign_words,
        "readonly": _assign_words,
        "unset": _assign_words,
        "alias": _alias,
        "hostname": _hostname,
        "ifconfig": _ifconfig,
        "getent": _getent,
        "xargs": _xargs,
        "busybox": _busybox,
        "openssl": _openssl,
        "rsync": _rsync,
        "jq": _jq,
        "gojq": _jq,
        **dict.fromkeys(("grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "zgrep"), _grep),
    }
    table.update(special)
    put(C.SEDS, _sed)
    put(C.TEX, _tex)
    put(C.CREDENTIAL_TOOLS, _credential_tool)
    put(C.AWKS, _awk)
    put(C.PROCESS_KILLERS, _kill)
    put(C.WIPERS, _wiper)
    put(C.DISK_DESTROYERS, _disk_destroyer)
    put(C.DISK_PARTITIONERS, _partitioner)
    put(C.POWER, _power)
    put(C.ACCOUNTS, _accounts)
    put(C.KERNEL, _kernel)
    put(C.SECURITY_DISABLE, _security)
    put(C.PUBLISH, _publish)
    put(C.DB_DESTROYERS, _db_destroyer)
    put(C.SQL_CLIENTS, _sql_client)
    put(C.TOOLS, _tool)
    put(C.NETWORK, _network)
    put(C.SHELLS, _shell)
    put(C.INTERPRETERS, _interpreter)
    put(C.INTERACTIVE, _interactive)
    put(C.PRIVILEGE, _privilege)
    put(C.PACKAGE_RUNNERS, _package_runner)
    put(C.REMOTE_ADMIN, _remote_admin)
    put(C.WRAPPERS, _wrapper)
    put(C.READ_ONLY, _read_only)
    put(C.ROUTINE, _routine)
    put(C.SQL_KEYWORDS, _sql_keyword)
    return table


DISPATCH: dict[str, Checker] = _build_dispatch()

#: Wrappers (peeled by the parser) that change who runs the command.
PRIVILEGE_WRAPPERS = frozenset({"sudo", "doas", "pkexec", "su", "runuser", "chroot", "sg", "run0", "ksu", "machinectl"})

#: Wrappers that raise privileges (a shell escape under them is a root shell).
_ESCALATING = frozenset({"sudo", "doas", "pkexec", "run0", "ksu"})

#: Readers whose output is the file's content (dumping a secret into the agent's context).
NON_DUMPING = frozenset(
    {"ls", "dir", "du", "tree", "stat", "file", "readlink", "realpath", "cd", "pushd", "find", "bfs", "wc",
     "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum", "cksum", "shasum", "md5",
     "ln", "chmod", "chown", "chgrp", "touch", "mkdir", "source", ".", "test", "[", "[["}
)


# =========================================================================== entry point


def classify(cmd: SimpleCommand, ctx: Ctx) -> Facts:
    """Everything bastion can say about one simple command on its own."""
    label = _short(cmd)
    if not cmd.argv:
        f = Facts(cmd, "", label or "redirection")
        f.base = command_base(cmd, ctx.cwd, ctx.home)
        f.paths = extract_paths(cmd, cwd=ctx.cwd, home=ctx.home)
        _common(f, ctx)
        return f
    head = cmd.argv[0]
    raw_name = cmd.name
    name = C.canonical_name(raw_name)
    f = Facts(cmd, name, label)
    f.base = command_base(cmd, ctx.cwd, ctx.home)
    f.paths = extract_paths(cmd, cwd=ctx.cwd, home=ctx.home)
    if _dynamic(head):
        f.known = False
        f.at_least(H)
        f.hit("CAT014", f"{label} (command name built at run time)")
        _common(f, ctx)
        return f
    local = "/" in head and posixpath.dirname(head) not in C.STANDARD_BIN_DIRS
    checker = DISPATCH.get(name)
    if name in C.SQL_KEYWORDS and (raw_name.isupper() or any(a.endswith(";") for a in cmd.argv)):
        checker = _sql_keyword
    if local and name not in ("gradlew", "mvnw"):
        _exec_file(f, resolve(head, f.base, ctx.home), ctx)
        if checker is not None and name not in C.READ_ONLY and name not in C.ROUTINE:
            checker(f, cmd.argv[1:], ctx)
    elif checker is not None:
        checker(f, cmd.argv[1:], ctx)
    else:
        _unknown(f, cmd.argv[1:], ctx)
    _common(f, ctx)
    return f


def _unknown(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.known = False
    f.at_least(H)
    ops = [a for a in args if not a.startswith("-")]
    if any(_destructive_verb(o) for o in ops[:4]) or _http_delete(args):
        f.hit("CAT016", f.label)


_SHELL_PATHS = frozenset({"/bin/sh", "/bin/bash", "/bin/dash", "/bin/zsh", "/bin/ksh", "/usr/bin/sh", "/usr/bin/bash", "/usr/bin/zsh", "/bin/csh", "/bin/tcsh", "/bin/ash", "/bin/busybox"})

#: Commands that name key files to *use* them (``ssh -i key``, ``chmod 600 key``): a
#: high-value secret in their arguments asks instead of blocking.
CREDENTIAL_USERS = C.CREDENTIAL_TOOLS | frozenset(
    "ssh scp sftp sshfs autossh mosh rsync kubectl helm k9s docker podman ansible ansible-playbook terraform "
    "rm unlink shred srm chmod chown chgrp cp mv install tar zip curl wget vault aws gcloud az".split()
)
#: Options that name an output file, by convention.
_OUTPUT_OPTS = frozenset({"-o", "--output", "--out", "--outfile", "--outFile", "--out-file", "--output-file", "-w", "--write", "--log-file", "--logfile", "-Logfile", "-L", "--save"})
_UNICODE_DASHES = ("\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212", "\ufe63", "\uff0d")


def _scan_words(f: Facts, args: tuple[str, ...], ctx: Ctx, *, unknown: bool) -> None:
    """Words any command names: secret files, URLs (unknown commands), shells, and
    persistence targets of commands whose file operations bastion does not model."""
    if f.name in C.DATA_ONLY:
        return
    modelled = f.name in EXTRACTORS
    previous = ""
    for word in args:
        option_value = previous.startswith("-") and not previous.startswith("--") or word.startswith("-")
        prior, prior_key = previous, word.split("=", 1)[0] if word.startswith("-") else ""
        previous = word
        if word.startswith(_UNICODE_DASHES):
            f.hit("CAT014", f"{f.label} (look-alike dash in {word!r})")
            continue
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        value = value.lstrip("@")
        file_url = value.startswith("file://")
        if file_url:
            value = value[7:]
        elif "://" in value:
            host = _host_of(value)
            if host and unknown:
                f.hosts.append(host)
                f.roles.add("send")
            continue
        if not value or not _is_path_word(value):
            continue
        path = resolve(value.split(",", 1)[0], f.base, ctx.home)
        level = secret_level(path, ctx.home)
        if level and not (level < 2 and f.name in NON_DUMPING):
            if f.name not in CREDENTIAL_USERS:  # ``ssh -i key`` uses the key, it does not read it out
                f.secrets.append((path, level))
            dump = unknown or file_url or (f.name not in CREDENTIAL_USERS and (f.name not in NON_DUMPING or option_value))
            f.hit("HB009" if level >= 2 and dump else "CAT003", f"{f.label} ({path})")
        plevel = 0 if modelled else persistence_level(path, ctx.home)
        if plevel >= 2 and (prior in _OUTPUT_OPTS or prior_key in _OUTPUT_OPTS):
            f.hit("HB011", f"{f.label} (writes {path})")
        elif plevel:
            f.hit("CAT008", f"{f.label} ({path})")
        if path in _SHELL_PATHS and not modelled and f.name not in C.READ_ONLY and f.name not in C.ACCOUNTS:
            f.hit("CAT006", f"{f.label} (starts a shell)")
            f.spawns_shell = True
    if unknown and f.hosts:
        f.hit("CAT001", f.label)


def _common(f: Facts, ctx: Ctx) -> None:
    """Checks every command gets: wrappers, variables, and what its files are."""
    cmd = f.cmd
    for wrapper in cmd.wrappers:
        if wrapper in PRIVILEGE_WRAPPERS:
            f.hit("CAT005", f"{f.label} (via {wrapper})")
            break
    if "parallel" in cmd.wrappers:
        f.hit("CAT006", f"{f.label} (run by parallel with arguments from its input)")
    for name, _value in cmd.assignments:
        if name in C.HISTORY_VARS:
            f.hit("CAT024", f"{name}=")
        elif is_dangerous_env(name):
            f.hit("CAT021", f"{name}=… {f.label}")
    if any("${IFS" in a or "$IFS" in a for a in cmd.argv):
        f.hit("CAT014", f"{f.label} (IFS used as a separator)")
    for word in cmd.argv[1:]:
        if "$" in word and _secret_var(word.split("$", 1)[1][:40]):
            f.hit("CAT004", f"{f.label} (secret variable)")
            break
    if cmd.argv:
        _scan_words(f, cmd.argv[1:], ctx, unknown=not f.known)
    dumps = f.name not in NON_DUMPING and f.known
    for access in f.paths:
        _check_access(f, access, ctx, dumps)
    for redirect in cmd.redirects:
        target = redirect.target
        if target.startswith(("/dev/tcp/", "/dev/udp/")):
            f.hit("HB006", f"{f.label} ({target})")
            host = target.split("/")[3] if target.count("/") >= 3 else ""
            if host:
                f.hosts.append(host)
    for word in cmd.argv[1:]:
        if word.startswith(("/dev/tcp/", "/dev/udp/")):
            f.hit("HB006", f"{f.label} ({word})")
    privileged = next((i for i, w in enumerate(cmd.wrappers) if w in _ESCALATING), None)
    if privileged is not None:
        spawners = [w for w in cmd.wrappers[privileged + 1 :] if w not in PRIVILEGE_WRAPPERS and w not in C.SHELLS]
        interactive_shell = f.name in C.SHELLS and "exec_stdin" in f.roles
        if f.spawns_shell or (interactive_shell and spawners):
            via = spawners[-1] if interactive_shell and spawners else f.name
            f.hit("HB015", f"{f.label} (shell started by {via} under {cmd.wrappers[privileged]})")


def _check_access(f: Facts, access: PathAccess, ctx: Ctx, dumps: bool) -> None:
    path = access.resolved
    op = access.op
    if op == READ:
        level = secret_level(path, ctx.home)
        if level and not (level < 2 and not dumps and f.name in NON_DUMPING):
            f.secrets.append((path, level))
            if level >= 2 and dumps:
                f.hit("HB009", f"{f.label} ({path})")
            else:
                f.hit("CAT003", f"{f.label} ({path})")
        return
    if op == EXEC:
        if access.command != f.name and not ctx.inside(path):
            f.hit("CAT006", f"{f.label} (runs {path})")
        return
    # write / delete
    if is_block_device(path):
        f.hit("HB003", f"{f.label} (writes {path})")
        return
    if path == "/proc/sysrq-trigger":
        f.hit("HB014", f.label)
        return
    if path.startswith(("/proc/sys/", "/sys/")):
        f.hit("CAT009", f"{f.label} ({path})")
        return
    plevel = persistence_level(path, ctx.home)
    if plevel and op == WRITE and ("fetch" in f.roles or path in f.downloads):
        f.hit("HB005", f"{f.label} (downloads into {path}, which runs automatically)")
        return
    if plevel >= 2:
        f.hit("HB011", f"{f.label} ({path})")
        return
    if plevel:
        f.hit("CAT008", f"{f.label} ({path})")
    if op == WRITE and (path.startswith("/var/log/") or path.endswith(("_history", "/wtmp", "/btmp", "/lastlog"))) and access.command not in ("tee",) and f.name != "":
        f.hit("CAT024", f"{f.label} ({path})")
    elif op == WRITE and f.name == "" and path.startswith("/var/log/"):
        f.hit("CAT024", f"{f.label} ({path})")
    if not ctx.inside(path) and not is_temp(path):
        f.hit("CAT019", f"{f.label} ({path})")
    elif op == WRITE:
        f.at_least(L)
        f.hit("CAT033", f"{f.label} ({path})")
    if not f.cmd.argv and op == WRITE and not any(r.op in (">>", "&>>") for r in f.cmd.redirects):
        f.hit("CAT030", f"{f.label} (empties {path})")
