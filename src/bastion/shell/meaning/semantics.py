"""What one simple command means: its tier, its findings, its roles in a pipeline.

``classify(cmd, ctx)`` looks the command up in the catalog (one dict lookup on its
canonical name picks a *checker* from ``checks/``: files, network, code, tools, git,
admin), lets the checker read the options that matter, then
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

from ...files.patch import PATCH_COMMANDS
from ..catalog import catalog as C
from ..syntax.env import is_dangerous_env, search_path_folders
from ..syntax.script import SimpleCommand
from .checks.guard import GUARD_NAMES, GUARD_PREFIXES, check_guard_off
from .checks.loads import LOADING, check_loads
from .facts import (
    SHELL_PATHS,
    Ctx,
    Facts,
    H,
    L,
    destructive_verb,
    dynamic,
    host_of,
    is_path_word,
    secret_var,
)
from .paths import EXEC, EXTRACTORS, READ, WRITE, PathAccess, command_base, extract_paths_in, resolve
from .targets import is_block_device, is_temp, persistence_level, secret_level

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ANALYSER", "Ctx", "Facts", "classify", "DISPATCH", "checker_of"]

# =========================================================================== dispatch


def _build_dispatch() -> dict[str, str]:
    """Each name to its checker: the special ones first, then each group's, the first group
    that names a command winning (built by ``dict`` itself: some two thousand names in
    every fresh decision)."""
    special: dict[str, str] = {
        "git": "git:check_git",
        "rm": "files:check_rm",
        "unlink": "files:check_rm",
        "rmdir": "files:check_rmdir",
        "dd": "files:check_dd",
        "tar": "files:check_tar",
        "bsdtar": "files:check_tar",
        "find": "files:check_find",
        "bfs": "files:check_find",
        "chmod": "files:check_chmod_like",
        "chown": "files:check_chmod_like",
        "chgrp": "files:check_chmod_like",
        "setfacl": "files:check_setfacl",
        "crontab": "files:check_crontab",
        "history": "files:check_history",
        "source": "files:check_source",
        ".": "files:check_source",
        "eval": "files:check_eval",
        "trap": "files:check_trap",
        "enable": "files:check_enable",
        "make": "files:check_make",
        "gmake": "files:check_make",
        "truncate": "files:check_truncate",
        "env": "files:check_env",
        "printenv": "files:check_env",
        "set": "files:check_env",
        "export": "files:check_assign_words",
        "declare": "files:check_assign_words",
        "typeset": "files:check_assign_words",
        "local": "files:check_assign_words",
        "readonly": "files:check_assign_words",
        "unset": "files:check_assign_words",
        "alias": "files:check_alias",
        "hostname": "files:check_hostname",
        "ifconfig": "files:check_ifconfig",
        "getent": "files:check_getent",
        "xargs": "files:check_xargs",
        "busybox": "files:check_busybox",
        "openssl": "network:check_openssl",
        "rsync": "network:check_rsync",
        "setcap": "root:check_setcap",
        "install": "files:check_install",
        **dict.fromkeys(C.SHELL_SERVERS, "code:check_shell_server"),
        **dict.fromkeys(PATCH_COMMANDS, "patch:check_patch"),
        "jq": "files:check_jq",
        "gojq": "files:check_jq",
        **dict.fromkeys(C.PAGERS, "code:check_pager"),
        **dict.fromkeys(("grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "zgrep"), "files:check_grep"),
    }
    groups = (
        (C.SEDS, "files:check_sed"),
        (C.TEX, "code:check_tex"),
        (C.CREDENTIAL_TOOLS, "code:check_credential_tool"),
        (C.AWKS, "files:check_awk"),
        (C.PROCESS_KILLERS, "files:check_kill"),
        (C.WIPERS, "files:check_wiper"),
        (C.DISK_DESTROYERS, "files:check_disk_destroyer"),
        (C.DISK_PARTITIONERS, "files:check_partitioner"),
        (C.POWER, "admin:check_power"),
        (C.ACCOUNTS, "admin:check_accounts"),
        (C.KERNEL, "admin:check_kernel"),
        (C.SECURITY_DISABLE, "admin:check_security"),
        (C.PUBLISH, "admin:check_publish"),
        (C.DB_DESTROYERS, "admin:check_db_destroyer"),
        (C.SQL_CLIENTS, "admin:check_sql_client"),
        (C.TOOLS, "tools:check_tool"),
        (C.NETWORK, "network:check_network"),
        (C.SHELLS, "code:check_shell"),
        (C.INTERPRETERS, "code:check_interpreter"),
        (C.INTERACTIVE, "code:check_interactive"),
        (C.PRIVILEGE, "admin:check_privilege"),
        (C.PACKAGE_RUNNERS, "tools:check_package_runner"),
        (C.REMOTE_ADMIN, "admin:check_remote_admin"),
        (C.WRAPPERS, "code:check_wrapper"),
        (C.READ_ONLY, "files:check_read_only"),
        (C.ROUTINE, "files:check_routine"),
        (C.SQL_KEYWORDS, "admin:check_sql_keyword"),
    )
    table: dict[str, str] = {}
    for names, checker in reversed(groups):  # an earlier group's name overwrites a later one's
        table.update(dict.fromkeys(names, checker))
    table.update(special)
    return table


#: Which checker reads a command's options: ``"module:function"`` in ``checks/``. The
#: table holds names only; :func:`checker_of` imports a checker's module the first time a
#: command needs it, so a line imports only the checks it runs.
DISPATCH: dict[str, str] = _build_dispatch()
_LOADED: dict[str, Any] = {}


def checker_of(spec: str) -> Any:
    """The function a ``module:function`` name in ``checks/`` stands for, imported once
    (a checker, or a helper such as ``fill:fills_disk``)."""
    function = _LOADED.get(spec)
    if function is None:
        module, _, name = spec.partition(":")
        function = _LOADED[spec] = getattr(__import__(f"{__package__}.checks.{module}", fromlist=(name,)), name)
    return function


#: A lone ``--help`` or ``--version`` prints and exits (GNU coding standards; every
#: argument parser implements both), so ``tool --help`` is read-only for any tool on
#: PATH — except those whose old or minimal implementations ignore unknown arguments
#: and act (``halt``, ``reboot`` on some systems).
PRINT_ONLY = frozenset({"--help", "--version"})
NO_HELP_SHORTCUT = (
    C.POWER | C.DISK_DESTROYERS | C.WIPERS | C.DISK_PARTITIONERS | C.KERNEL | C.ACCOUNTS | C.SECURITY_DISABLE
    | C.PROCESS_KILLERS | C.PRIVILEGE
)

#: Wrappers (peeled by the parser) that change who runs the command.
PRIVILEGE_WRAPPERS = frozenset(
    {"sudo", "doas", "pkexec", "su", "runuser", "chroot", "sg", "run0", "ksu", "machinectl", "setpriv", "unshare",
     "systemd-run", "nsenter"}
)

#: Privilege wrappers that run the program they are given (not a login shell): under a
#: raising wrapper, the shell they start is a shell escape like any other spawner's.
_PROGRAM_RUNNERS = frozenset({"setpriv", "unshare", "systemd-run", "nsenter"})

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
    if not cmd.argv:
        f = Facts(cmd, "")
        f.base = command_base(cmd, ctx.cwd, ctx.home)
        f.paths = extract_paths_in(cmd, "", f.base, ctx.home)
        _common(f, ctx)
        return f
    head = cmd.argv[0]
    raw_name = head.rsplit("/", 1)[-1] if "/" in head else head  # cmd.name, without the property call
    name = C.canonical_name(raw_name)
    f = Facts(cmd, name)
    # ctx.cwd is resolved once per analysis; only a tracked ``cd`` needs resolving here
    f.base = command_base(cmd, ctx.cwd, ctx.home) if cmd.cwd else ctx.cwd
    f.paths = extract_paths_in(cmd, name, f.base, ctx.home)
    if dynamic(head):
        f.known = False
        f.at_least(H)
        f.hit("CAT014", f"{f.label} (command name built at run time)")
        _common(f, ctx)
        return f
    local = "/" in head and posixpath.dirname(head) not in C.STANDARD_BIN_DIRS
    if len(cmd.argv) == 2 and (cmd.argv[1] in PRINT_ONLY or cmd.argv[1] in C.VERSION_OPTIONS.get(name, ())) \
            and not local and name not in NO_HELP_SHORTCUT:
        _common(f, ctx)  # ``tool --help`` / ``tool --version`` only print
        return f
    spec = DISPATCH.get(name)
    if spec is None:
        from ..catalog.catalog_cli import cli_spec  # the long tail: only a name the core tables lack

        if cli_spec(name) is not None:
            spec = "tools:check_cli"
    if name in C.SQL_KEYWORDS and (raw_name.isupper() or any(a.endswith(";") for a in cmd.argv)):
        spec = "admin:check_sql_keyword"
    checker = checker_of(spec) if spec is not None else None
    if local and name not in ("gradlew", "mvnw"):
        checker_of("code:run_file")(f, resolve(head, f.base, ctx.home), ctx)
        if checker is not None and name not in C.READ_ONLY and name not in C.ROUTINE:
            checker(f, cmd.argv[1:], ctx)
    elif checker is not None:
        checker(f, cmd.argv[1:], ctx)
    else:
        _unknown(f, cmd.argv[1:], ctx)
    if name in LOADING:
        check_loads(f, cmd.argv[1:], ctx)  # the files whose code a build or test tool loads
    if name in GUARD_NAMES or name.startswith(GUARD_PREFIXES):
        check_guard_off(f, ctx)  # switching the guard off (HB016), wherever the command runs
    if name in _STREAMERS and (why := checker_of("fill:fills_disk")(f)):
        f.hit("CAT040", f"{f.label} ({why})")  # even into scratch space
    _common(f, ctx)
    return f


#: Commands that can stream without end into a file (``checks.fill``).
_STREAMERS = frozenset({"cat", "yes", "head", "dd"})



class _Analyser:
    """``facts.Analyser``: this module's entry point, handed to the checks in ``Ctx``
    (they import nothing from here: this module dispatches to them)."""

    __slots__ = ()

    @staticmethod
    def classify(cmd: SimpleCommand, ctx: Ctx) -> Facts:
        return classify(cmd, ctx)

    @staticmethod
    def knows(name: str) -> bool:
        return name in DISPATCH


ANALYSER = _Analyser()

def _unknown(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.known = False
    f.at_least(H)
    ops = [a for a in args if not a.startswith("-")]
    if any(destructive_verb(o) for o in ops[:4]) or checker_of("admin:is_http_delete")(args):
        f.hit("CAT016", f.label)


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
    # a file a modelled command writes is not read: writing a secret file is the path
    # layer's question (``cp .env.example .env.test`` reads no secret); made at the first
    # word that names a path (most words name none)
    written: set[str] | tuple[()] | None = None if modelled else ()
    previous = ""
    for word in args:
        prior = previous
        previous = word
        if "/" not in word and "~" not in word and "$" not in word and word.isascii():
            continue  # no path, URL, variable or look-alike dash can be in it
        option_value = prior.startswith("-") and not prior.startswith("--") or word.startswith("-")
        prior_key = word.split("=", 1)[0] if word.startswith("-") else ""
        if word.startswith(_UNICODE_DASHES):
            f.hit("CAT014", f"{f.label} (look-alike dash in {word!r})")
            continue
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        value = value.lstrip("@")
        file_url = value.startswith("file://")
        if file_url:
            value = value[7:]
        elif "://" in value:
            host = host_of(value)
            if host and unknown:
                f.hosts.append(host)
                f.roles.add("send")
            continue
        if not value or not is_path_word(value):
            continue
        path = resolve(value.split(",", 1)[0], f.base, ctx.home)
        if written is None:
            written = {a.resolved for a in f.paths if a.op == WRITE}
        level = secret_level(path, ctx.home) if path not in written else 0
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
        if path in SHELL_PATHS and not modelled and f.name not in C.READ_ONLY and f.name not in C.ACCOUNTS:
            f.hit("CAT006", f"{f.label} (starts a shell)")
            f.spawns_shell = True
    if unknown and f.hosts:
        f.hit("CAT001", f.label)


def _common(f: Facts, ctx: Ctx) -> None:
    """Checks every command gets: wrappers, variables, and what its files are."""
    cmd = f.cmd
    wrappers = cmd.wrappers
    if wrappers:
        for wrapper in wrappers:
            if wrapper in PRIVILEGE_WRAPPERS:
                f.hit("CAT005", f"{f.label} (via {wrapper})")
                break
        if "parallel" in wrappers:
            f.hit("CAT006", f"{f.label} (run by parallel with arguments from its input)")
    for name, value in cmd.assignments:
        if name in C.HISTORY_VARS:
            f.hit("CAT024", f"{name}=")
        elif is_dangerous_env(name, value):
            f.hit("CAT021", f"{name}=… {f.label}")
        elif any(not ctx.inside(resolve(p, f.base, ctx.home)) for p in search_path_folders(name, value)):
            f.hit("CAT021", f"{name}={value[:40]} {f.label} (imports code from outside the workspace)")
    # the markers below hold no blank, so a test on the blank-joined argv settles
    # whether any word holds one (most commands have neither)
    joined = " ".join(cmd.argv)
    if "$" in joined:
        if "${IFS" in joined or "$IFS" in joined:
            f.hit("CAT014", f"{f.label} (IFS used as a separator)")
        for word in cmd.argv[1:]:
            if "$" in word and secret_var(word.split("$", 1)[1][:40]):
                f.hit("CAT004", f"{f.label} (secret variable)")
                break
    # only a word with a path, a URL, a variable or a non-ASCII letter can matter there
    if len(cmd.argv) > 1 and ("/" in joined or "~" in joined or "$" in joined or not joined.isascii()
                              or (f.hosts and not f.known)):
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
    # A /dev/tcp/ word opens a connection only for a program that opens the paths it is
    # given; as data (a grep pattern, echoed text, a commit message) it is only text.
    if "/dev/" in joined and f.name not in C.DATA_ONLY:
        for word in cmd.argv[1:]:
            if word.startswith(("/dev/tcp/", "/dev/udp/")):
                f.hit("HB006", f"{f.label} ({word})")
    if not wrappers:
        return
    privileged = next((i for i, w in enumerate(wrappers) if w in _ESCALATING), None)
    if privileged is not None:
        spawners = [w for w in cmd.wrappers[privileged + 1 :]
                    if (w not in PRIVILEGE_WRAPPERS or w in _PROGRAM_RUNNERS) and w not in C.SHELLS]
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
    if op == WRITE and (path.startswith("/var/log/") or path.endswith(("check_history", "/wtmp", "/btmp", "/lastlog"))) and access.command not in ("tee",) and f.name != "":
        f.hit("CAT024", f"{f.label} ({path})")
    elif op == WRITE and f.name == "" and path.startswith("/var/log/"):
        f.hit("CAT024", f"{f.label} ({path})")
    if not ctx.inside(path) and not is_temp(path):
        f.hit("CAT019", f"{f.label} ({path})")
    elif op == WRITE:
        f.at_least(L)
        f.hit("CAT033", f"{f.label} ({path})")
    if op == WRITE and _empties(f) and not _scratch_file(path, ctx):
        f.hit("CAT030", f"{f.label} (empties {path})")


def _empties(f: Facts) -> bool:
    """The command's file redirection leaves the file empty: ``> file`` on its own, or a
    command that prints nothing (``: > f``, ``true > f``, ``cat /dev/null > f``, ``echo -n
    > f``, ``printf '' > f``) — the same edit, whatever it is spelled as. Appending
    (``>>``) changes nothing."""
    cmd = f.cmd
    if not any(r.writes and r.op not in (">>", "&>>") for r in cmd.redirects):
        return False
    if not cmd.argv:
        return _bare_redirect(cmd)
    args = cmd.argv[1:]
    return f.name in (":", "true", "false") or (f.name, args) in _PRINTS_NOTHING


#: Commands with arguments that print nothing.
_PRINTS_NOTHING = frozenset({("cat", ("/dev/null",)), ("echo", ("-n",)), ("printf", ("",)), ("echo", ("-n", ""))})


def _scratch_file(path: str, ctx: Ctx) -> bool:
    """Emptying ``path`` loses nothing anyone keeps: it is a workspace file git does not
    track, or a plain file below a temp directory, or a new one there (the agent's
    scratch, as for deletes: ``files.tracked``). A workspace path that does not exist
    asks, as ``rm`` of one does: the file the line empties may be one an earlier part of
    it puts there, which bastion does not follow."""
    import os
    import stat

    try:
        info = os.stat(path)
    except OSError:
        # a new file in /tmp (a workspace under /var/tmp is still the workspace); a dangling
        # link: where it leads is unknown
        return not ctx.inside(path) and is_temp(path) and not os.path.lexists(path)
    if not stat.S_ISREG(info.st_mode):
        return True  # a device, a pipe: writing does not empty anything
    if ctx.inside(path):
        from ...files.tracked import untracked_file

        return untracked_file(path) is True
    return is_temp(path)


def _bare_redirect(cmd: SimpleCommand) -> bool:
    """``> file`` on its own (it empties the file), not the redirection of a pipeline or
    group, which the parser hands over as an argv-less command (``a | b > out``)."""
    return (cmd.text or "").lstrip()[:1] in ("<", ">", "&") or (cmd.text or "").lstrip()[:2].rstrip(">").isdigit()
