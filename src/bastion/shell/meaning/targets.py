"""What a path *is* to the shell analysis: a secret, a persistence target, a critical
directory, a device.

Secrets, persistence targets, critical directories and temp space are rows of the one
path table (``bastion.paths.table``); this module only re-exports the readings the
analyser uses (``bastion.paths.match``), and keeps the device checks, which are about
what a file *is* rather than where it sits.

Levels: ``0`` nothing special, ``1`` sensitive (ask), ``2`` high value (hard block when
dumped or, for backdoor targets, when written).
"""

from __future__ import annotations

from ...paths.match import critical_reason, home_relative, is_temp, persistence_level, secret_level, strip_glob, within
from ..syntax.lazyre import LazyPattern

__all__ = [
    "secret_level",
    "persistence_level",
    "critical_reason",
    "is_block_device",
    "is_temp",
    "is_harmless_device",
    "within",
    "strip_glob",
    "home_relative",
]

#: Device files that are safe to read or write.
HARMLESS_DEVICES = frozenset(
    {"/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full", "/dev/ptmx"}
)

_BLOCK_DEVICE = LazyPattern(
    r"^/dev/(?:sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?"
    r"|r?disk\d+(?:s\d+)*|md\d+|md/.*|dm-\d+|mapper/.+|loop\d+|sr\d+|nbd\d+|zd\d+|cciss/.+|disk/by-.+"
    r"|root|mtdblock\d+|ubi.*|mem|kmem|port)$"
)


def is_harmless_device(path: str) -> bool:
    return path in HARMLESS_DEVICES or path.startswith("/dev/fd/") or path.startswith("/dev/pts/")


def is_block_device(path: str) -> bool:
    """A disk, partition or raw memory device: writing it destroys data."""
    return bool(_BLOCK_DEVICE.match(path))
