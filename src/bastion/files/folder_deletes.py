"""Whether a delete can remove a folder at all.

``rm`` without ``-r`` fails on a folder ("Is a directory"); ``rm -d`` and ``rmdir``
remove empty folders only; ``unlink`` and ``shred`` remove files only. So ``rm /`` and
``rm -- -rf /`` (``--`` makes ``-rf`` a file name) delete nothing of ``/``: the layers
that deny deleting a system folder or bastion's installed code ask them as ordinary
deletes instead. A link is not a folder: ``rm /bin`` removes the ``/bin -> usr/bin``
link of a merged-usr system, and still counts.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: Deleters that remove no folder, whatever their options.
_FILES_ONLY = frozenset({"unlink", "shred"})
#: Deleters that remove a folder holding files only with a recursive option before ``--``.
_RECURSIVE_BY_OPTION = frozenset({"rm", "srm", "wipe"})
#: Deleters that remove empty folders only (``rmdir``; ``rm -d``).
_EMPTY_ONLY = frozenset({"rmdir"})


def _options(argv: tuple[str, ...]) -> tuple[bool, bool]:
    """``(recursive, empty folders too)`` from the options before ``--``."""
    recursive = empty = False
    for arg in argv[1:]:
        if arg == "--":
            break
        if arg.startswith("--"):
            recursive |= arg == "--recursive"
            empty |= arg == "--dir"
        elif arg.startswith("-"):
            recursive |= "r" in arg or "R" in arg
            empty |= "d" in arg
    return recursive, empty


def leaves_folder(use: Any, commands: Iterable[Any], home: str) -> bool:
    """True when ``use`` (a delete) names a real folder (not a link to one) that every
    command deleting it leaves in place. Fails closed: a deleter not known here, a
    delete not found among ``commands``, a relative path (its folder depends on earlier
    ``cd``s) or a path that cannot be looked at counts."""
    name = use.command
    if use.op != "delete" or name not in _FILES_ONLY | _RECURSIVE_BY_OPTION | _EMPTY_ONLY:
        return False
    if not use.raw.startswith(("/", "~")):
        return False
    from ..shell.meaning.paths import resolve

    lexical = resolve(use.raw, "/", home)
    try:
        mode = os.lstat(lexical).st_mode
    except (OSError, ValueError):
        return False
    if not stat.S_ISDIR(mode):
        return False
    found = 0
    for cmd in commands:
        argv = cmd.argv
        if not argv or os.path.basename(argv[0]) != name or use.raw not in argv[1:]:
            continue
        found += 1
        if name in _FILES_ONLY:
            continue
        recursive, empty = _options(argv) if name in _RECURSIVE_BY_OPTION else (False, True)
        if recursive or (empty and not _holds_files(lexical)):
            return False
    return found > 0


def _holds_files(folder: str) -> bool:
    try:
        with os.scandir(folder) as entries:
            return any(True for _ in entries)
    except OSError:
        return False
