"""Filling a disk: an endless or huge stream written to a file (CAT040, an ask).

``cat /dev/urandom > /tmp/x``, ``yes > y``, ``head -c 100G /dev/zero > f`` and ``dd
if=/dev/zero of=f bs=1G count=100`` write until the disk is full, even where writing a
plain file needs no question (scratch space). The stream's size decides: a source that
never ends (``/dev/zero``, ``/dev/urandom``, ``/dev/random``, ``yes``) with no bound, or a
bound of :data:`HUGE` bytes or more.
"""

from __future__ import annotations

from ...syntax.lazyre import LazyPattern
from ..facts import Facts

__all__ = ["HUGE", "fills_disk"]

#: A stream this large or larger fills a disk worth having (1 GiB).
HUGE = 1 << 30
_ENDLESS = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
_SIZE = LazyPattern(r"^(\d+)([kKmMgGtTpP]?)(i?[bB])?$")
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def _bytes(text: str) -> int | None:
    match = _SIZE.match(text)
    if match is None:
        return None
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def _to_file(f: Facts) -> bool:
    """The command's output goes to a file (not a device, not a pipe)."""
    return any(r.writes and r.target and not r.target.startswith("/dev/") and not r.target.isdigit()
               for r in f.cmd.redirects)


def _stream_size(f: Facts) -> int | None:
    """The bytes ``f`` writes when it reads an endless source, or None when it does not
    (``-1``: no bound)."""
    args = f.cmd.argv[1:]
    if f.name == "yes":
        return -1
    if f.name == "cat" and args and all(a in _ENDLESS for a in args):
        return -1
    if f.name == "head" and any(a in _ENDLESS for a in args):
        for k, arg in enumerate(args):
            value = args[k + 1] if arg in ("-c", "--bytes") and k + 1 < len(args) else (
                arg[2:] if arg.startswith("-c") and len(arg) > 2 else (arg.split("=", 1)[1] if arg.startswith("--bytes=") else None))
            if value is not None:
                return _bytes(value)
        return None  # head -n: lines of /dev/zero, a bounded read
    if f.name == "dd":
        pairs = dict(a.split("=", 1) for a in args if "=" in a)
        if pairs.get("if") not in _ENDLESS or not pairs.get("of") or pairs["of"].startswith("/dev/"):
            return None
        block, count = _bytes(pairs.get("bs", "512")), pairs.get("count")
        if count is None:
            return -1
        number = _bytes(count)
        return None if block is None or number is None else block * number
    return None


def fills_disk(f: Facts) -> str | None:
    """Why ``f`` fills a disk, or None."""
    size = _stream_size(f)
    if size is None:
        return None
    if f.name != "dd" and not _to_file(f):
        return None
    if size == -1:
        return "an endless stream written to a file"
    return f"{size >> 30} GiB written to a file" if size >= HUGE else None
