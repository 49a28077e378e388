"""A small seccomp filter: no new Unix-domain sockets, no io_uring.

Why: a read-only bind mount does not stop ``connect()`` on a Unix socket file, so a
sandboxed command could talk to a host daemon (``/var/run/docker.sock``, an agent
socket) and escape through it. ``/run`` and ``/tmp`` are private in the sandbox, but
sockets can live anywhere; refusing ``socket(AF_UNIX, …)`` closes the door wherever the
socket is. ``socketpair`` stays allowed (it reaches nobody outside), and io_uring is
refused because its ``IORING_OP_SOCKET`` would create sockets past this filter.

The program is classic BPF, built here as bytes (stdlib only) and handed to bubblewrap
(``--seccomp FD``) or installed by the Landlock helper with ``prctl``.
"""

from __future__ import annotations

import errno
import platform
import struct

_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_RET_K = 0x06
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_AF_UNIX = 1

#: machine → (audit arch, socket nr, io_uring_setup nr, x32 bit or 0, compat arch rules)
_ARCHES = {
    "x86_64": (0xC000003E, 41, 425, 0x40000000, (0x40000003, 359, 102, 425)),
    "aarch64": (0xC00000B7, 198, 425, 0, None),
}


def supported() -> bool:
    return platform.machine() in _ARCHES


def _ins(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _deny(err: int) -> bytes:
    return _ins(_RET_K, _RET_ERRNO | err)


def _block_socket(socket_nr: int, uring_nr: int) -> list[bytes]:
    """nr already loaded: socket(AF_UNIX) → EPERM, io_uring_setup → ENOSYS, else allow."""
    return [
        _ins(_JEQ_K, uring_nr, 0, 1),
        _deny(errno.ENOSYS),
        _ins(_JEQ_K, socket_nr, 0, 3),
        _ins(_LD_W_ABS, 16),  # args[0], low 32 bits (little endian)
        _ins(_JEQ_K, _AF_UNIX, 0, 1),
        _deny(errno.EPERM),
        _ins(_RET_K, _RET_ALLOW),
    ]


def program() -> bytes:
    """The filter for this machine's architecture (raises on an unknown one)."""
    machine = platform.machine()
    if machine not in _ARCHES:
        raise OSError(f"no seccomp filter for {machine}")
    arch, socket_nr, uring_nr, x32_bit, compat = _ARCHES[machine]
    native = [_ins(_LD_W_ABS, 0)]  # nr
    if x32_bit:
        native += [_ins(_JGE_K, x32_bit, 0, 1), _deny(errno.ENOSYS)]
    native += _block_socket(socket_nr, uring_nr)
    other: list[bytes] = []
    if compat is not None:
        c_arch, c_socket, c_socketcall, c_uring = compat
        # 32-bit programs: socketcall() hides its arguments in memory, so refuse it.
        body = [_ins(_LD_W_ABS, 0), _ins(_JEQ_K, c_socketcall, 0, 1), _deny(errno.ENOSYS)]
        body += _block_socket(c_socket, c_uring)
        other = [_ins(_JEQ_K, c_arch, 0, len(body))] + body
    unknown = [_deny(errno.ENOSYS)]
    head = [_ins(_LD_W_ABS, 4), _ins(_JEQ_K, arch, 0, len(native))]
    return b"".join(head + native + other + unknown)
