"""Checks for commands that read, write, delete or administer local files and the
machine: ``rm``, ``find``, ``sed``, ``awk``, ``jq``, ``grep``, ``tar``, ``dd``,
``chmod``/``chown``, disk tools, ``kill``, ``crontab``, shell builtins (``export``,
``unset``, ``alias``, ``source``, ``eval``, ``trap``), ``make``, ``truncate``.

Each ``check_*`` function refines a ``Facts`` for one command family; ``semantics.py``
picks the function with one dict lookup on the command's canonical name.
"""

from __future__ import annotations

import os

from ....paths.match import in_session_scratch, is_temp_dir
from ....re_escape import escape
from ...catalog import catalog as C
from ...syntax.env import is_dangerous_env
from ...syntax.lazyre import LazyPattern
from ...syntax.options import Args, parse_args
from ...syntax.script import SimpleCommand
from ..facts import (
    SHELL_WORD,
    STDIN_FILES,
    Ctx,
    Facts,
    H,
    L,
    R,
    destructive_verb,
    dynamic,
    exec_file,
    host_of,
    risky_options,
    secret_var,
)
from ..inline import awk_risks, jq_risks, sed_commands
from ..models import read_program
from ..paths import DELETE, READ, WRITE, PathAccess, resolve
from ..targets import (
    critical_reason,
    is_block_device,
    is_harmless_device,
    is_temp,
    persistence_level,
    secret_level,
    strip_glob,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


_TASKS: tuple[frozenset[str], Callable[[Facts, tuple[str, ...], Ctx], None]] | None = None


def _tasks() -> tuple[frozenset[str], Callable[[Facts, tuple[str, ...], Ctx], None]]:
    """``tasks.RUNNERS`` and ``tasks.add_runs``, imported on the first routine command
    (``tasks`` imports the checks) and kept: an import statement on every call costs a
    module lookup."""
    global _TASKS
    if _TASKS is None:
        from ..tasks import RUNNERS, add_runs

        _TASKS = (RUNNERS, add_runs)
    return _TASKS


def check_read_only(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    risky = C.READ_ONLY.get(f.name, {})
    for arg, code in risky_options(args, risky):
        f.hit(code, f"{f.name} {arg}")


def check_routine(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    RUNNERS, add_runs = _tasks()  # noqa: N806 - the module's names
    f.at_least(L)
    if f.name in RUNNERS:
        add_runs(f, args, ctx)  # ``pytest``'s conftest.py files, ``tox``'s commands, ``nox``'s noxfile
    if f.name == "split" and len(parse_args(args, frozenset({"-a", "-b", "-C", "-l", "-n", "-t", "--additional-suffix", "--filter", "--numeric-suffixes", "--hex-suffixes", "--suffix-length", "--bytes", "--lines", "--line-bytes", "--number", "--separator"})).operands) > 2:
        f.known = False  # not coreutils split (``split splits delete …`` is a SaaS CLI)
        f.at_least(H)
        if any(destructive_verb(a) for a in args):
            f.hit("CAT016", f.label)
        return
    for arg, code in risky_options(args, C.ROUTINE.get(f.name, {})):
        f.hit(code, f"{f.name} {arg}")
    if _archive_moves(f.name, args):
        f.at_least(H)
        f.hit("CAT010", f"{f.label} (deletes the files it archives)")
        _sources_deleted(f, ctx, "archives then deletes")


def _archive_moves(name: str, args: tuple[str, ...]) -> bool:
    """Archivers told to delete what they archive: ``7z a -sdel``, ``zip -r -m``
    (zip only descends with -r, and ``zip -m dir`` alone removes an empty directory)."""
    if name in ("7z", "7za", "7zr"):
        return "-sdel" in args
    if name == "zip":
        move = any(a in ("-m", "--move") or _in_cluster(a, frozenset({"-m"})) for a in args)
        return move and any(a in ("-r", "-R", "--recurse-paths", "--recurse-patterns") or _in_cluster(a, frozenset({"-r", "-R"})) for a in args)
    return False


def check_rm(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, aliases={"--recursive": "-r", "-R": "-r", "--force": "-f", "--dir": "-d"})
    recursive = parsed.has("-r")
    f.at_least(L)
    targets = [p for p in f.paths if p.op == DELETE]
    if not parsed.operands:
        if f.cmd.origin in ("xargs", "parallel", "find -exec") or f.cmd.pipe_index > 0:
            f.at_least(H)
            f.hit("CAT034" if recursive else "CAT010", f"{f.label} (targets come from input)")
        return
    if not targets:  # only placeholders such as {} (find -exec, parallel)
        f.at_least(H)
        f.hit("CAT034" if recursive else "CAT010", f"{f.label} (targets come from input)")
        return
    for access in targets:
        _delete_target(f, access, recursive, ctx)


def _glob_empties(path: str, reason: str, ctx: Ctx) -> bool:
    """A non-recursive ``DIR/*`` delete removes the files directly in DIR: catastrophic
    for the root, a system folder and the home itself (``rm -f ~/*``), not for a folder
    that only holds the home further down (``rm -f /tmp/*`` with a home below /tmp)."""
    if reason in ("root directory", "system directory"):
        return True
    return reason == "home directory" and strip_glob(path).rstrip("/") == ctx.home.rstrip("/")


def _delete_target(f: Facts, access: PathAccess, recursive: bool, ctx: Ctx) -> None:
    path = access.resolved
    reason = critical_reason(path, ctx.home, ctx.roots)
    if reason and (recursive or (access.path.rstrip("/").endswith("*") and _glob_empties(path, reason, ctx))):
        f.at_least(H)
        f.hit("HB001", f"{f.label} → {path} ({reason})")
        return
    if "$" in path and recursive:
        f.at_least(H)
        f.hit("CAT034", f"{f.label} (target {access.path!r} is only known at run time)")
        return
    if _scratch_delete(access, ctx) or _made_by_line(access.resolved, f, ctx):
        return  # the agent's own scratch: the file layers still judge protected names
    f.at_least(H)
    if recursive and is_temp_dir(strip_glob(path)) and path != strip_glob(path):
        # ``rm -rf /tmp/*``: every temp file of every program (the directory itself,
        # ``rm -rf /tmp``, is a removal target and denied above)
        f.hit("CAT011", f"{f.label} → {path} (empties a shared temp directory)")
    elif ctx.inside(path) or is_temp(path):
        f.hit("CAT010", f.label)
    elif recursive:
        f.hit("CAT011", f"{f.label} → {path}")
    else:
        f.hit("CAT010", f.label)


_GLOB = frozenset("*?[{")


def _scratch_delete(access: PathAccess, ctx: Ctx) -> bool:
    """Deleting what is the agent's own scratch, which needs no question:

    - anything below the agent's scratch folder (``/tmp/claude/…``, the path table's
      ``session_scratch`` row), globs and recursive deletes included;
    - a file in the workspace that exists, is a regular file and git does not track (a
      verification test or a ``.bak`` the agent made); a tracked file, a folder, a glob,
      a path that does not exist yet or a project without git still asks;
    - an existing regular file below a shared temp directory (``rm /tmp/fix.py``): no
      project's file. A folder, a socket or a glob there (other programs' files) asks.

    A path that does not exist when the call is checked asks, in the workspace and in
    /tmp alike: an earlier part of the same command may put something there
    (``mv notes.md junk && rm junk``), and bastion does not follow that. The path is
    resolved (a link in /tmp into ``~/.ssh`` is judged as ``~/.ssh``).
    """
    path = access.resolved
    if "$" in path or "`" in path:
        return False
    if in_session_scratch(strip_glob(path)):
        return True
    if any(c in _GLOB for c in access.path):
        return False
    if ctx.inside(path):
        from ....files.tracked import untracked_file

        return untracked_file(path) is True
    home = ctx.home.rstrip("/")
    if is_temp(path) and not is_temp_dir(path) and not (home and (path == home or path.startswith(home + "/"))):
        import stat

        try:
            return stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            return False
    return False


def _made_by_line(path: str, f: Facts, ctx: Ctx) -> bool:
    """``path`` does not exist yet and lies in a fresh scratch folder an earlier ``mkdir``
    of this line makes below a temp directory (``files.scratch_folders.fresh_top``:
    ``mkdir -p /tmp/repro && … && rm -rf /tmp/repro``; a program's ``tempfile.mkdtemp()``
    … ``shutil.rmtree(d)``, which its model writes as ``mkdir -p -- /tmp/tmpXXXXXXXX``
    then ``rm -rf -- …``): what is in it, the line put there. A folder that exists
    already may hold other programs' files, and asks as before."""
    if "$" in path or "`" in path or not is_temp(path) or is_temp_dir(path) or ctx.inside(path) or os.path.lexists(path):
        return False  # (a workspace under /var/tmp is the workspace: its own rules)
    at = ctx.source.find(f.cmd.text) if f.cmd.text else -1
    if at <= 0:
        return False
    from ....files.scratch_folders import fresh_top
    from ..scripts import earlier_commands

    for cmd in earlier_commands(ctx.source[:at]):
        if cmd.name != "mkdir":
            continue
        base = resolve(cmd.cwd or ".", ctx.cwd, ctx.home)
        for operand in parse_args(cmd.args, frozenset({"-m", "--mode", "--context"})).operands:
            top = fresh_top(resolve(operand, base, ctx.home), ctx.home)
            if top is not None and (path == top or path.startswith(top.rstrip("/") + "/")):
                return True
    return False


def check_rmdir(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)


def check_wiper(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(H)
    devices = [a for a in parse_args(args, frozenset({"-n", "-s", "--iterations", "--size"})).operands if is_block_device(resolve(a, f.base, ctx.home))]
    if devices:
        f.hit("HB003", f"{f.label} (device {devices[0]})")
        return
    f.hit("CAT030", f.label)
    if parse_args(args).has("-u", "--remove", "-r", "-R") or any(_in_cluster(a, frozenset({"-u"})) for a in args):
        f.hit("CAT010", f.label)
        _sources_deleted(f, ctx, "overwrites and deletes", globs_only=True)


def _sources_deleted(f: Facts, ctx: Ctx, what: str, *, globs_only: bool = False) -> None:
    """A command that deletes what it reads (``tar --remove-files``, ``7z -sdel``,
    ``zip -m``, ``shred -u``) deletes a tree when it reads one: a critical source is
    a recursive delete of it (HB001). ``globs_only``: the command does not descend, so
    only a glob over a critical directory (``shred -u ~/*``) empties it."""
    for access in f.paths:
        if access.op == DELETE or (access.op == READ and not globs_only):
            path = access.resolved
            if globs_only and path == strip_glob(path):
                continue
            reason = critical_reason(path, ctx.home, ctx.roots)
            if reason:
                f.hit("HB001", f"{f.label} → {path} ({reason}; {what} its sources)")
                return


def check_disk_destroyer(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "wipefs" and ("-n" in args or "--no-act" in args or not any(a.split("=", 1)[0] in _WIPEFS_ERASE or _in_cluster(a, _WIPEFS_ERASE) for a in args)):
        f.at_least(L)  # without -a/-o (or with -n) wipefs only lists the signatures it finds
        return
    f.at_least(H)
    devices = [a for a in args if a.startswith("/dev/") and not is_harmless_device(a)]
    if devices:
        f.hit("HB002" if f.name.startswith("mk") or f.name == "newfs" else "HB003", f"{f.label} (device {devices[0]})")
    else:
        f.hit("CAT023", f.label)


def check_partitioner(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args)
    if f.name in _VOLUME_TOOLS and _volume_read(parsed.operands, parsed.names):
        return
    if f.name in ("mount", "umount", "swapon", "swapoff", "losetup"):
        if f.name in ("mount", "losetup", "swapon") and not parsed.operands and not (parsed.names - {"-l", "--list", "-a", "--show", "-s", "--summary", "-t"}):
            return  # listing
        f.hit("CAT009", f.label)
        return
    if _volume_destroy(f, parsed, args, ctx):
        return
    wipes = C.PARTITION_WIPES.get(f.name, frozenset())
    devices = [a for a in args if a.startswith("/dev/") and is_block_device(a)]
    if devices and wipes and any(a in wipes or a.split("=", 1)[0] in wipes or _in_cluster(a, wipes) for a in args):
        f.hit("HB003", f"{f.label} (erases the layout of {devices[0]})")
        return
    if parsed.names and parsed.names <= {"-l", "--list", "-s", "--show", "-p", "--print", "-v", "--version", "-h", "--help"} or (
        parsed.operands[-1:] == ["print"] or parsed.operands[:1] == ["list"] or parsed.operands[:1] == ["info"]
    ):
        return
    f.hit("CAT023", f.label)


#: wipefs options that erase signatures (``-a``/``--all``, ``-o``/``--offset``); without them it only lists.
_WIPEFS_ERASE = frozenset({"-a", "--all", "-o", "--offset"})
#: Partitioners that take a whole new layout on stdin when it is not a terminal.
_SCRIPTED_PARTITIONERS = frozenset({"fdisk", "sfdisk", "gdisk"})
_FORCE = frozenset({"-f", "--force", "-ff", "-y", "--yes"})


def _volume_destroy(f: Facts, parsed: Args, args: tuple[str, ...], ctx: Ctx) -> bool:
    """Destroying a pool, a volume or a subvolume by name (not by ``/dev`` path), and a
    partition table fed on stdin: HB003, or HB001 for a critical subvolume path."""
    ops = parsed.operands
    verb = ops[0] if ops else ""
    label = f.label
    if f.name == "zpool" and verb == "destroy":
        f.hit("HB003", f"{label} (destroys the pool and every dataset in it)")
        return True
    if f.name == "zfs" and verb == "destroy":
        datasets = [o for o in ops[1:] if "@" not in o and "#" not in o]
        if datasets and (parsed.names & {"-r", "-R"} or any(_in_cluster(a, frozenset({"-r", "-R"})) for a in args)
                         or any("/" not in d for d in datasets)):
            f.hit("HB003", f"{label} (destroys {datasets[0]} and everything below it)")
            return True
    if f.name in ("lvremove", "vgremove", "pvremove") and ops and (
            parsed.names & _FORCE or any(_in_cluster(a, frozenset({"-f", "-y"})) for a in args)):
        f.hit("HB003", f"{label} (removes {ops[0]} without asking; its data is gone)")
        return True
    if f.name == "btrfs" and ops[:1] in (["subvolume"], ["sub"], ["su"]) and ops[1:2] in (["delete"], ["del"], ["de"]):
        for target in ops[2:]:
            path = resolve(target, f.base, ctx.home)
            reason = critical_reason(path, ctx.home, ctx.roots)
            if reason:
                f.hit("HB001", f"{label} → {path} ({reason})")
                return True
    if f.name in _SCRIPTED_PARTITIONERS and not parsed.names & {"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify", "-g", "--show-geometry", "-p", "--print"}:
        fed = f.cmd.pipe_index > 0 or any(r.op in ("<", "<<", "<<<", "<<-") and r.fd in (None, 0) for r in f.cmd.redirects)
        disks = [o for o in ops if is_block_device(resolve(o, f.base, ctx.home))]
        if disks and (fed or f.name == "sfdisk"):
            f.hit("HB003", f"{label} (writes a new partition table to {disks[0]} from its input)")
            return True
    return False


def _in_cluster(arg: str, options: frozenset[str]) -> bool:
    """A one-letter option inside a short cluster (``badblocks -wsv``)."""
    return len(arg) > 2 and arg[0] == "-" and arg[1] != "-" and any("-" + c in options for c in arg[1:])


#: Volume managers whose query verbs only read (``zpool status``, ``btrfs filesystem
#: show``, ``mdadm --detail``); everything else they do changes disks.
_VOLUME_TOOLS = frozenset({"btrfs", "zfs", "zpool", "mdadm"})
_VOLUME_READ_VERBS = frozenset({"list", "show", "status", "df", "du", "usage", "stats", "get", "iostat", "history", "events", "check", "c"})
_VOLUME_READ_OPTS = frozenset({"--detail", "-D", "--examine", "-E", "--query", "-Q"})
_VOLUME_WRITE_OPTS = frozenset({"--repair", "--init-csum-tree", "--init-extent-tree", "--clear-space-cache", "--create", "-C", "--stop", "-S", "--fail", "-f", "--remove", "-r", "--add", "-a", "--zero-superblock", "--grow", "-G", "--assemble", "-A"})


def _volume_read(ops: list[str], names: set[str]) -> bool:
    if names & _VOLUME_WRITE_OPTS:
        return False
    if names & _VOLUME_READ_OPTS:
        return True
    return bool(ops) and (ops[0] in _VOLUME_READ_VERBS or (len(ops) > 1 and ops[1] in _VOLUME_READ_VERBS))


def check_dd(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
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


def check_chmod_like(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    parsed = parse_args(args, frozenset({"--reference", "--from"}), aliases={"--recursive": "-R", "-r": "-R"})
    recursive = parsed.has("-R")
    mode = parsed.operands[0] if parsed.operands and parsed.value("--reference") is None else ""
    if f.name == "chmod" and _sets_id_bits(parsed, mode, f, ctx):
        from .root import grant_root

        targets = parsed.operands[1:] if mode else parsed.operands
        if not grant_root(f, targets, ctx, f"mode {mode or 'copied from ' + str(parsed.value('--reference'))}"):
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


#: setfacl options that change an ACL (each but ``-b``/``-k`` takes the ACL or a file of them).
_SETFACL_VALUE = frozenset({"-m", "--modify", "-M", "--modify-file", "-x", "--remove", "-X", "--remove-file", "--set", "--set-file"})


def check_setfacl(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``setfacl -R -m o::rwx /`` opens every file to every user, like ``chmod -R 777 /``
    (HB012); an ACL on a workspace file is routine, anywhere else it asks."""
    f.at_least(L)
    parsed = parse_args(args, _SETFACL_VALUE, aliases={"--recursive": "-R"})
    recursive = parsed.has("-R") or any(_in_cluster(a, frozenset({"-R"})) for a in args)
    for target in parsed.operands:
        path = resolve(target, f.base, ctx.home)
        reason = critical_reason(path, ctx.home, others=False)
        if reason and recursive:
            f.hit("HB012", f"{f.label} → {path} ({reason})")
            return
        if not ctx.inside(path) and not is_temp(path):
            f.hit("CAT012", f.label)


def _sets_id_bits(parsed: Args, mode: str, f: Facts, ctx: Ctx) -> bool:
    """A mode that sets setuid/setgid, or ``--reference=FILE`` naming a file that has them."""
    if mode:
        from .root import sets_id_bits

        return sets_id_bits(mode)
    reference = parsed.value("--reference")
    if not reference:
        return False
    try:
        return bool(os.stat(resolve(reference, f.base, ctx.home)).st_mode & 0o6000)
    except (OSError, ValueError):
        return False


def check_find(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``find`` reads; ``-delete`` deletes; ``-fprint`` writes. The command after
    ``-exec``/``-execdir``/``-ok`` is extracted by the parser and judged on its own
    (origin ``find -exec``), so ``find … -exec grep x {} +`` is as safe as ``grep``;
    an ``-exec`` without a command word is code execution nobody can see."""
    for i, arg in enumerate(args):
        if arg in _FIND_EXEC and (i + 1 >= len(args) or args[i + 1] in (";", "\\;", "+")):
            f.hit("CAT006", f"{f.name} {arg} (no command to check)")
    for arg, code in risky_options(args, C.READ_ONLY[f.name]):
        if arg not in _FIND_EXEC:
            f.hit(code, f"{f.name} {arg}")
    for i, arg in enumerate(args[:-1]):
        if arg in ("-name", "-iname", "-path", "-ipath", "-wholename", "-regex") and _secret_glob(args[i + 1]):
            f.hit("CAT003", f"{f.label} (searches for secret files)")
            break
    deletes = [p for p in f.paths if p.op == DELETE]
    if not deletes:
        return
    from .find_expr import deletes_everything

    everything = deletes_everything(args, confirmed=f.cmd.pipe_index > 0 or any(r.op.startswith("<") for r in f.cmd.redirects))
    for access in deletes:
        # ``dir/*`` (paths.within) deletes inside dir; critical_reason reads it as dir
        directory = access.resolved[:-2] if access.resolved.endswith("/*") else access.resolved
        reason = critical_reason(access.resolved, ctx.home, ctx.roots)
        if reason and everything:
            # emptying the workspace, a home or a system directory is a wipe however
            # it is spelt (``-mindepth 1``, ``-type f``, ``-exec rm {} +``)
            f.hit("HB001", f"{f.label} → {directory} ({reason}: deletes everything in it)")
        elif not ctx.inside(access.resolved) and not is_temp(access.resolved):
            f.hit("CAT011", f"{f.label} → {access.resolved}")


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _secret_glob(pattern: str) -> bool:
    """``-name 'id_rsa*'``, ``-name '*.pem'``: a search for key or credential files."""
    probe = pattern.strip("'\"").lstrip("*").rstrip("*") or pattern
    name = probe.rsplit("/", 1)[-1]
    if not name:
        return False
    return bool(secret_level("/x/" + name, "/nonexistent")) or name in _SECRET_WORDS


_SECRET_WORDS = frozenset({"shadow", "id_rsa", "id_ed25519", "id_dsa", "id_ecdsa", "credentials", ".netrc", ".git-credentials", "authorized_keys", ".pgpass", "*.kdbx", ".env"})


def check_sed(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length"}), optional_value_opts=frozenset({"--in-place"}))
    if any(p.op == WRITE for p in f.paths):
        f.at_least(L)
    if parsed.has("-f", "--file"):
        f.hit("CAT020", f"{f.label} (script read from a file)")
        return
    scripts = parsed.values("-e", "--expression") or parsed.operands[:1]
    for script in scripts:
        shell: list[str] = []
        used = sed_commands(script, shell)
        if used is None:
            f.hit("CAT020", f"{f.label} (sed script not understood)")
        elif "e" in used:
            f.hit("CAT006", f"{f.label} (sed e runs commands)")
            f.nested.extend(shell)  # the command text ``e`` runs, analysed as shell
        elif used & {"w", "W"}:
            f.hit("CAT020", f"{f.label} (sed w writes files)")


def check_awk(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    from .code import apply_program, read_stdin_program

    parsed = parse_args(args, frozenset({"-f", "--file", "-v", "--assign", "-F", "--field-separator", "-i", "--include", "-l", "--load", "-E", "--exec"}))
    files = parsed.values("-f", "--file", "-E", "--exec")
    if files and all(name in STDIN_FILES for name in files) and not parsed.has("-i", "--include", "-l", "--load"):
        if not read_stdin_program(f, ctx):  # ``… | awk -f -``: what the pipeline feeds is the program
            f.hit("CAT007", f"{f.label} (program read from stdin)")
        return
    if parsed.has("-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load"):
        f.hit("CAT020", f"{f.label} (program read from a file or extension loaded)")
        return
    program = parsed.operands[0] if parsed.operands else ""
    effects = read_program(f.name, program) if program else None
    if effects is not None and not effects.inert:  # what its system(), pipes and writes do
        apply_program(f, effects)
    elif effects is not None:
        f.prints = effects.prints  # ``awk 'BEGIN{printf "%c…", 114, …}' | sh`` runs what it prints
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
        f.spawns_shell = f.spawns_shell or bool(SHELL_WORD.search(program))
    if "write" in risks:
        f.hit("CAT020", f"{f.label} (awk writes files)")
    if "net" in risks:
        f.hit("CAT001", f"{f.label} (awk network socket)")
    if "env" in risks:
        f.hit("CAT004", f.label)


def check_grep(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    check_read_only(f, args, ctx)
    # one search over the first words, joined by a character no hint holds
    if args and _SECRET_PATTERN_HINT.search("\0".join(args[:6]).lower()):
        f.hit("CAT003", f"{f.label} (searches for secrets)")


#: Search patterns that look for secrets (key headers, token prefixes).
_SECRET_PATTERN_HINTS = ("private key", "begin rsa", "begin openssh", "aws_secret", "akia", "ghp_", "xoxb-", "sk-ant-",
                         "sk_live_")
_SECRET_PATTERN_HINT = LazyPattern("|".join(escape(hint) for hint in _SECRET_PATTERN_HINTS))


_AWK_TARGET = LazyPattern(r'>>?\s*"([^"]+)"')


def check_jq(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    check_read_only(f, args, ctx)
    ops = [a for a in args if not a.startswith("-")]
    if ops:
        risks = jq_risks(ops[0])
        if "env" in risks:
            f.hit("CAT004", f.label)
        if "exec" in risks:
            f.hit("CAT006", f.label)


def check_tar(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    for arg in args:
        key = arg.split("=", 1)[0]
        if key in _TAR_EXEC:
            f.hit("CAT006", f"{f.label} ({key})")
        elif key in ("-f", "--file") or arg.startswith("--file="):
            pass
    if "--remove-files" in args:
        f.at_least(H)
        f.hit("CAT010", f"{f.label} (--remove-files deletes what it archives)")
        _sources_deleted(f, ctx, "archives then deletes")
    archive = parse_args(args, frozenset({"-f", "--file"})).value("-f", "--file")
    if archive is None and args and not args[0].startswith("-") and "f" in args[0] and len(args) > 1:
        archive = args[1]  # old-style ``tar cvf ARCHIVE …``
    if archive and ":" in archive.split("/", 1)[0]:
        f.hit("CAT001", f.label)
        f.roles.add("send")
        f.hosts.append(host_of(archive) or archive.split(":", 1)[0].rsplit("@", 1)[-1])


_TAR_EXEC = frozenset({"--to-command", "--checkpoint-action", "--use-compress-program", "-I", "--rsh-command", "--rmt-command", "--info-script", "-F", "--new-volume-script"})


def check_kill(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
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


def check_crontab(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-u"}))
    if parsed.has("-l") and not parsed.operands:
        return
    if parsed.has("-r"):
        f.hit("CAT035", f.label)
    else:
        f.hit("CAT008", f"{f.label} (installs cron jobs)")


def check_assign_words(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
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
        elif eq and is_dangerous_env(name, value):
            f.hit("CAT021", f"{f.label} ({name})")


def check_env(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
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
    if any(secret_var(n) for n in names):
        f.hit("CAT004", f"{f.label} (prints a secret variable)")
        f.roles.add("env_dump")


def check_alias(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """Defining an alias runs nothing (and a one-shot, non-interactive shell does not
    expand aliases); its text is still analysed as the command it stands for, so
    ``alias ls='rm -rf ~'`` is blocked like ``rm -rf ~``."""
    for arg in args:
        name, eq, value = arg.partition("=")
        if eq and value:
            f.nested.append(value)


def check_history(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    check_read_only(f, args, ctx)
    if not args or all(a.isdigit() for a in args):
        f.roles.add("env_dump")  # command lines often carry tokens and passwords


def check_hostname(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, frozenset({"-F", "--file"}))
    if parsed.operands or parsed.has("-F", "--file", "-b", "--boot"):
        f.hit("CAT009", f.label)


def check_ifconfig(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    if len(ops) > 1:
        f.hit("CAT009", f.label)


def check_getent(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    if ops and ops[0] in ("shadow", "gshadow"):
        f.hit("HB009", f"{f.label} (shadow database)")


def check_source(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if not args:
        return
    target = args[0]
    if target in ("/dev/stdin", "-", "/proc/self/fd/0") or target.startswith(("<(", "/dev/fd/")):
        f.roles.add("exec_stdin")
        f.hit("CAT007", f.label)
        return
    if dynamic(target):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f.label)
        return
    exec_file(f, resolve(target, f.base, ctx.home), ctx)


def check_eval(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.roles.add("exec_dynamic")
    f.hit("CAT006", f"{f.label} (evaluates a string)")


def check_trap(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if args and not args[0].startswith("-"):
        f.hit("CAT006", f"{f.label} (trap handler runs code)")


def check_enable(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if any(a.startswith("-f") for a in args):
        f.hit("CAT021", f"{f.label} (loads a shared library into the shell)")


def check_make(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    f.at_least(L)
    parsed = parse_args(args, frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-j", "--jobs", "-l", "--load-average", "-o", "-W", "--eval", "-I", "--include-dir"}))
    if parsed.has("--eval") or any(v in ("-", "/dev/stdin") for v in parsed.values("-f", "--file", "--makefile")):
        f.hit("CAT006", f"{f.label} (makefile from input)")
    # ``make -n deploy`` prints the recipe and runs none of it, but the lines marked ``+``
    # or naming $(MAKE): those are still read and judged (``tasks_make``), not the name
    dry = bool(parsed.names & C.MAKE_DRY_RUN)
    for target in parsed.operands:
        if "=" in target or dry:
            continue
        code = C.NON_ROUTINE_TARGETS.get(target)
        if code:
            f.hit(code, f.label)
    f.hit("CAT032", f.label)
    from ..tasks import add_runs

    add_runs(f, args, ctx)  # the recipes it will run, read from the Makefile


def check_truncate(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if args[:1] and (args[0].lower() == "table" or args[-1].endswith(";")):
        from .admin import check_sql_keyword

        check_sql_keyword(f, args, ctx)
        return
    f.at_least(L)
    for access in f.paths:
        if access.resolved.startswith("/var/log/") or access.resolved.endswith("check_history"):
            f.hit("CAT024", f"{f.label} (erases {access.resolved})")
            return
    size = parse_args(args, frozenset({"-s", "--size", "-r", "--reference"})).value("-s", "--size")
    if size in ("0", "0K", "0M", "0B"):
        f.hit("CAT030", f.label)


def check_xargs(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """An ``xargs`` the parser left in place: without a command it runs ``echo``."""
    if not parse_args(args, _XARGS_VALUE).operands:
        return
    f.hit("CAT006", f"{f.label} (runs commands built from input)")


_XARGS_VALUE = frozenset(
    "-n -L -l -I -i -d -E -e -s -P -a --max-args --max-lines --replace --delimiter --eof --max-chars --max-procs "
    "--arg-file --process-slot-var".split()
)


def check_busybox(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if not args:
        return
    inner = SimpleCommand(args, f.cmd.assignments, f.cmd.redirects, f.cmd.wrappers + ("busybox",), f.cmd.cwd, f.cmd.origin, f.cmd.text, f.cmd.depth, f.cmd.pipeline, f.cmd.pipe_index, f.cmd.background)
    sub = ctx.analyser.classify(inner, ctx)  # the entry point dispatches back here
    f.tier, f.known, f.hits, f.roles, f.hosts, f.paths = sub.tier, sub.known, sub.hits, sub.roles, sub.hosts, sub.paths
    f.downloads, f.secrets, f.nested, f.name = sub.downloads, sub.secrets, sub.nested, sub.name


def check_install(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``install -m 4755 /bin/bash /tmp/b`` makes a setuid copy of a shell."""
    check_routine(f, args, ctx)
    parsed = parse_args(args, frozenset({"-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory", "-S", "--suffix"}))
    mode = parsed.value("-m", "--mode")
    from .root import grant_root, sets_id_bits

    if mode and sets_id_bits(mode):
        sources = parsed.operands if parsed.has("-t", "--target-directory") else parsed.operands[:-1]
        if not grant_root(f, sources, ctx, f"mode {mode}"):
            f.hit("CAT005", f"{f.label} (setuid/setgid)")
