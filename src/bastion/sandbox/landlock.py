"""The Landlock backend: user, mount, PID and network namespaces plus Landlock, through
ctypes syscalls — for machines without bubblewrap.

How it confines, in the helper process (``python -I -S``, this file as a top-level
module, standard library only):

1. ``unshare``: a user namespace (so an unprivileged user may do the rest), then mount,
   network, IPC, UTS and PID namespaces; each one that fails is reported, and the mount
   namespace is required (without it credential stores could not be hidden).
2. Mounts from the same ``Plan`` bubblewrap gets: a fresh ``/proc`` and ``/dev`` (no
   disks), private (tmpfs) ``/tmp``, ``/run`` and ``/dev/shm``, protected paths re-bound read-only, credential stores
   covered by unreadable placeholders.
3. Landlock: read and execute everywhere, write only beneath the write roots, the
   private ``/tmp`` and ``/dev/shm``, and a few device files. Landlock also forbids
   ``mount``/``umount`` from then on, so the placeholders cannot be lifted; with ABI 6+
   the sandbox can neither signal processes outside it nor reach abstract Unix sockets;
   without a network namespace but with ABI 4+ it refuses every TCP bind and connect.
4. All capabilities dropped, ``no_new_privs``, the seccomp filter, then the command
   runs as PID 2 under a small init (PID 1 exits with it, which kills whatever is left).

The runner learns what was achieved from one ``marshal``-ed dict on a status pipe (the
spec arrives the same way, in a memory file): ``json`` would import ``re`` at every start.
"""

from __future__ import annotations

import _signal  # not ``signal``: its enum set-up costs milliseconds at every start
import ctypes
import errno
import marshal  # not ``json``: it imports ``re``; spec and status are plain data
import os
import struct
import sys

_SIGKILL, _SIGTERM, _SIGINT, _SIGHUP = 9, 15, 2, 1

# --------------------------------------------------------------------------- constants

_SYS_LANDLOCK_CREATE_RULESET = 444
_SYS_LANDLOCK_ADD_RULE = 445
_SYS_LANDLOCK_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13  # ABI 2
FS_TRUNCATE = 1 << 14  # ABI 3
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1

_READ = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
#: statvfs flags that a remount inside a user namespace must keep (they are locked)
_LOCKED_FLAGS = ((1, MS_RDONLY), (2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC),
                 (1024, MS_NOATIME), (2048, MS_NODIRATIME), (4096, MS_RELATIME))

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECCOMP_MODE_FILTER = 2

_SYS_CAPSET = {"x86_64": 126, "aarch64": 91}

#: Device nodes the sandbox's fresh /dev keeps, and the links it makes.
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
DEV_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
#: Device files a command may write (``> /dev/null`` needs write and truncate).
WRITABLE_DEVICES = tuple(f"/dev/{name}" for name in DEVICES)

_libc: ctypes.CDLL | None = None


def _lib() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        _libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        _libc.unshare.argtypes = [ctypes.c_int]
    return _libc


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


# --------------------------------------------------------------------------- landlock


def abi() -> int:
    """The Landlock ABI version of this kernel (0 when Landlock is unavailable)."""
    try:
        result = _lib().syscall(
            ctypes.c_long(_SYS_LANDLOCK_CREATE_RULESET), ctypes.c_void_p(None), ctypes.c_size_t(0),
            ctypes.c_uint32(_CREATE_RULESET_VERSION),
        )
    except (OSError, AttributeError):
        return 0
    return max(0, int(result))


def _fs_access(version: int) -> int:
    access = (1 << 13) - 1
    if version >= 2:
        access |= FS_REFER
    if version >= 3:
        access |= FS_TRUNCATE
    return access


def restrict(
    *,
    write_dirs: list[str],
    write_files: list[str],
    block_tcp: bool = False,
    scope: bool = True,
) -> dict[str, object]:
    """Apply Landlock to this thread and its future children: read/execute everywhere,
    writes only beneath ``write_dirs`` (and to ``write_files``). Returns what held."""
    version = abi()
    if version < 1:
        raise OSError(errno.ENOSYS, "Landlock is not available")
    lib = _lib()
    handled_fs = _fs_access(version)
    handled_net = NET_BIND_TCP | NET_CONNECT_TCP if (block_tcp and version >= 4) else 0
    scoped = SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if (scope and version >= 6) else 0
    if version >= 6:
        attr = struct.pack("=QQQ", handled_fs, handled_net, scoped)
    elif version >= 4:
        attr = struct.pack("=QQ", handled_fs, handled_net)
    else:
        attr = struct.pack("=Q", handled_fs)
    buf = ctypes.create_string_buffer(attr, len(attr))
    ruleset = _check(
        lib.syscall(ctypes.c_long(_SYS_LANDLOCK_CREATE_RULESET), buf, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0)),
        "landlock_create_ruleset",
    )
    try:
        def allow(path: str, access: int) -> None:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = ctypes.create_string_buffer(struct.pack("=Qi", access, fd), 12)
                _check(
                    lib.syscall(ctypes.c_long(_SYS_LANDLOCK_ADD_RULE), ctypes.c_int(ruleset),
                                ctypes.c_int(_RULE_PATH_BENEATH), rule, ctypes.c_uint32(0)),
                    f"landlock_add_rule {path}",
                )
            finally:
                os.close(fd)

        allow("/", _READ)
        for path in write_dirs:
            allow(path, handled_fs)
        for path in write_files:
            if os.path.exists(path):
                try:
                    allow(path, _FILE_RIGHTS & handled_fs)
                except OSError:
                    pass  # e.g. /dev/tty without a terminal
        _check(lib.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(NO_NEW_PRIVS)")
        _check(lib.syscall(ctypes.c_long(_SYS_LANDLOCK_RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)),
               "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return {"landlock_abi": version, "tcp_blocked": bool(handled_net), "scoped": bool(scoped)}


# --------------------------------------------------------------------------- namespaces and mounts


def unshare(flags: int) -> None:
    _check(_lib().unshare(flags), "unshare")


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def map_ids(uid: int, gid: int) -> None:
    """Map the caller's own ids into its new user namespace (as bubblewrap does)."""
    try:
        _write("/proc/self/setgroups", "deny")
    except OSError:
        pass
    _write("/proc/self/uid_map", f"{uid} {uid} 1\n")
    _write("/proc/self/gid_map", f"{gid} {gid} 1\n")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = lambda s: s.encode() if s is not None else None  # noqa: E731
    _check(_lib().mount(enc(source), enc(target), enc(fstype), flags, enc(data)), f"mount {target}")


def _locked_flags(path: str) -> int:
    flags = os.statvfs(path).f_flag
    return sum(ms for st, ms in _LOCKED_FLAGS if flags & st and ms != MS_RDONLY)


def _ensure_target(target: str, like_dir: bool) -> None:
    if os.path.lexists(target):
        return
    if like_dir:
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "a"):
            pass


def bind(source_fd: int, target: str, *, readonly: bool, like_dir: bool) -> None:
    """Bind the file or directory open as ``source_fd`` (O_PATH) onto ``target``."""
    _ensure_target(target, like_dir)
    _mount(f"/proc/self/fd/{source_fd}", target, None, MS_BIND | MS_REC)
    if readonly:
        _mount(None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | _locked_flags(target))


def loopback_up() -> None:
    """Bring ``lo`` up in a new network namespace (SIOCSIFFLAGS, IFF_UP)."""
    import _socket  # not ``socket``: its enum set-up costs milliseconds
    import fcntl

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    try:
        ifreq = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock.fileno(), 0x8913, ifreq))[1]  # SIOCGIFFLAGS
        fcntl.ioctl(sock.fileno(), 0x8914, struct.pack("16sH14x", b"lo", flags | 1))  # SIOCSIFFLAGS
    finally:
        sock.close()


# --------------------------------------------------------------------------- capabilities and seccomp


def drop_capabilities() -> None:
    """Empty the bounding, ambient, effective, permitted and inheritable sets."""
    lib = _lib()
    for cap in range(64):
        if lib.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 and ctypes.get_errno() == errno.EINVAL:
            break  # past the last capability this kernel knows
    lib.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    nr = _SYS_CAPSET.get(os.uname().machine)
    if nr is not None:
        header = ctypes.create_string_buffer(struct.pack("=Ii", 0x20080522, 0), 8)
        data = ctypes.create_string_buffer(bytes(24), 24)
        _check(lib.syscall(ctypes.c_long(nr), header, data), "capset")


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_seccomp(program: bytes) -> None:
    lib = _lib()
    buf = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    _check(lib.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(NO_NEW_PRIVS)")
    _check(lib.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0), "seccomp")


# --------------------------------------------------------------------------- the helper


class SetupError(Exception):
    """A confinement the run cannot go without; the command does not run."""


def _namespaces(status: dict, missing: list[str]) -> None:
    uid, gid = os.getuid(), os.getgid()
    try:
        unshare(CLONE_NEWUSER)
        map_ids(uid, gid)
        status["user_namespace"] = True
    except OSError as exc:
        if os.geteuid() != 0:
            raise SetupError(f"cannot create a user namespace ({exc.strerror})") from None
        missing.append("no user namespace (running as root without one; capabilities are dropped instead)")
    try:
        unshare(CLONE_NEWNS)
        status["mount_namespace"] = True
    except OSError as exc:
        raise SetupError(f"cannot create a mount namespace ({exc.strerror})") from None
    for flag, key, why in (
        (CLONE_NEWNET, "net_namespace", "no network namespace"),
        (CLONE_NEWIPC, "ipc_namespace", "no IPC namespace"),
        (CLONE_NEWUTS, "uts_namespace", None),
        (CLONE_NEWPID, "pid_namespace", "no PID namespace: a process that calls setsid may outlive the timeout"),
    ):
        try:
            unshare(flag)
            status[key] = True
        except OSError:
            status[key] = False
            if why:
                missing.append(why)


def _mounts(spec: dict, status: dict, missing: list[str]) -> list[str]:
    """Apply the plan's mounts; returns the extra writable directories."""
    sources: dict[str, int] = {}
    for op in spec["binds"]:
        src = op["src"]
        if src not in sources:
            try:
                sources[src] = os.open(src, os.O_PATH | os.O_CLOEXEC)
            except OSError as exc:
                raise SetupError(f"cannot open {src} ({exc.strerror})") from None
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    if status.get("pid_namespace"):
        try:
            _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
            status["own_proc"] = True
        except OSError as exc:
            missing.append(f"host /proc stays visible ({exc.strerror})")
    try:
        _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    except OSError as exc:
        raise SetupError(f"cannot make a private /tmp ({exc.strerror})") from None
    writable = _fresh_dev(missing)
    try:
        _mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    except OSError as exc:
        missing.append(f"/run is not private ({exc.strerror})")
    for op in spec["binds"]:
        try:
            bind(sources[op["src"]], op["dst"], readonly=op["ro"], like_dir=op["dir"])
        except OSError as exc:
            raise SetupError(f"cannot mount over {op['dst']} ({exc.strerror})") from None
    for fd in sources.values():
        os.close(fd)
    return writable


def _fresh_dev(missing: list[str]) -> list[str]:
    """A new ``/dev`` with only harmless devices, as bubblewrap's ``--dev`` makes: the
    host's disks must not be readable (Landlock allows reads everywhere, and root owns
    the block devices). Returns the writable directories it made (``/dev/shm``, ``/dev/pts``)."""
    nodes: dict[str, int] = {}
    for name in DEVICES:
        try:
            nodes[name] = os.open(f"/dev/{name}", os.O_PATH | os.O_CLOEXEC)
        except OSError:
            pass
    try:
        _mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    except OSError as exc:
        for fd in nodes.values():
            os.close(fd)
        if os.geteuid() == 0:
            raise SetupError(f"cannot make a fresh /dev ({exc.strerror}); the host's disks would be readable") from None
        missing.append(f"the host's /dev stays visible ({exc.strerror})")
        return []
    for name, fd in nodes.items():
        bind(fd, f"/dev/{name}", readonly=False, like_dir=False)
        os.close(fd)
    writable = []
    os.mkdir("/dev/shm")
    _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    writable.append("/dev/shm")
    os.mkdir("/dev/pts")
    try:
        _mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620")
        os.symlink("pts/ptmx", "/dev/ptmx")
        writable.append("/dev/pts")
    except OSError:
        pass  # no pseudo-terminals; programs that need one will say so
    for name, target in DEV_LINKS.items():
        os.symlink(target, f"/dev/{name}")
    return writable


def _report(fd: int | None, status: dict) -> None:
    if fd is None:
        return
    try:
        os.write(fd, marshal.dumps(status))
    finally:
        os.close(fd)


def _wait_as_init(child: int) -> None:
    """PID 1: reap everything, exit with the command's status (taking the rest down)."""
    for sig in (_SIGTERM, _SIGINT, _SIGHUP):
        _signal.signal(sig, _signal.SIG_IGN)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(125)
        if pid == child:
            if os.WIFSIGNALED(status):
                os._exit(128 + os.WTERMSIG(status))
            os._exit(os.WEXITSTATUS(status))


def _exit_like(status: int) -> None:
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status))


def main() -> None:
    """``landlock <spec-fd>``: confine this process, then run ``spec["argv"]``."""
    spec_fd = int(sys.argv[1])
    with os.fdopen(spec_fd, "rb") as handle:
        spec = marshal.loads(handle.read())
    lib = _lib()
    status_fd = spec.get("status_fd")
    status: dict = {"missing": []}
    missing: list[str] = status["missing"]
    lib.prctl(PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)
    if os.getppid() != spec["ppid"]:
        os._exit(125)
    try:
        _namespaces(status, missing)
        # the outer process holds ``alive``'s write end until it dies: EOF tells the
        # child (which cannot use getppid across the PID namespace) that it is gone
        alive, alive_w = os.pipe()
        child = os.fork()
        if child:
            os.close(alive)
            if status_fd is not None:
                os.close(status_fd)
            _exit_like(os.waitpid(child, 0)[1])
        os.close(alive_w)
        lib.prctl(PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)
        os.set_blocking(alive, False)
        try:
            if os.read(alive, 1) == b"":
                os._exit(125)
        except BlockingIOError:
            pass
        os.close(alive)
        writable = _mounts(spec, status, missing)
        environ = dict(spec["env"])
        if status.get("net_namespace"):
            loopback_up()
            if spec.get("bridge_fd") is not None:
                sys.path.append(os.path.dirname(os.path.abspath(__file__)))
                import inside

                inside.open_bridge(spec["bridge_fd"], environ)
        elif spec.get("bridge_fd") is not None:
            missing.append("the proxy needs a network namespace; the network stays closed")
        os.setsid()
        os.chdir(spec["cwd"])
        held = restrict(
            write_dirs=[*spec["write"], *writable],
            write_files=list(WRITABLE_DEVICES),
            block_tcp=not status.get("net_namespace"),
        )
        status.update(held)
        if not status.get("net_namespace"):
            if held["tcp_blocked"]:
                missing.append("network: TCP blocked by Landlock, but UDP and DNS are not (no network namespace)")
            else:
                missing.append("network is NOT isolated (no network namespace, Landlock ABI < 4)")
        drop_capabilities()
        if spec.get("seccomp"):
            try:
                install_seccomp(bytes.fromhex(spec["seccomp"]))
                status["seccomp"] = True
            except OSError as exc:
                missing.append(f"no seccomp filter ({exc.strerror}): Unix sockets on the host stay reachable")
    except (SetupError, OSError) as exc:
        sys.stderr.write(f"bastion: sandbox setup failed: {exc}\n")
        status["error"] = str(exc)
        _report(status_fd, status)
        os._exit(125)
    _report(status_fd, status)
    argv = spec["argv"]
    if status.get("pid_namespace"):
        command = os.fork()
        if command:
            os.closerange(3, 1 << 16)
            _wait_as_init(command)
    sys.path.append(os.path.dirname(os.path.abspath(__file__)))
    import inside

    inside.exec_command(argv, environ)


if __name__ == "__main__":  # pragma: no cover - run as a script by the runner
    main()
