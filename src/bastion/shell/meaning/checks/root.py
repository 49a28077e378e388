"""Granting root (HB017): a setuid/setgid bit, or a file capability that leads to root,
on a program that runs other code — a shell, an interpreter, an editor or pager with
shell escapes, a command wrapper such as ``env`` — or on a copy of or link to one.

Anyone who can run such a file becomes root (``chmod u+s /bin/bash`` then ``bash -p``;
``setcap cap_setuid+ep python3`` then ``os.setuid(0)``), so these are hard blocks.
The program is recognised by name (``/usr/bin/python3.11``, ``$(which bash)``), as a
copy made in the same script (``cp /bin/bash /tmp/b && chmod u+s /tmp/b``), or, for a
file that already exists, as a link to or a byte-for-byte copy of an installed one
(the copy made by an earlier call). Setuid on other programs (``chmod 4755
/usr/bin/sudo`` restoring a package's mode, ``chmod u+s ./tool``), setgid on
directories and capabilities that do not lead to root (``cap_net_bind_service``) only
ask (CAT005).
"""

from __future__ import annotations

import os
import posixpath
import stat

from ...catalog import catalog as C
from ...syntax.lazyre import LazyPattern
from ...syntax.options import parse_args
from ..facts import Ctx, Facts, line_parsed
from ..paths import WRITE, resolve

__all__ = ["RUNNERS", "sets_id_bits", "root_caps", "runner_of", "check_setcap"]

#: Programs that run other code: setuid root on any of them is a root shell. The
#: privilege tools themselves (``sudo``, ``su``, ``newgrp`` …) are setuid by design.
RUNNERS = (
    C.SHELLS | frozenset(C.INTERPRETERS) | C.AWKS | C.INTERACTIVE | (C.WRAPPERS - C.PRIVILEGE) | {"find"}
)

#: Capabilities that lead to root when a program that runs code holds them.
ROOT_CAPS = frozenset(
    "cap_setuid cap_setgid cap_sys_admin cap_dac_override cap_fowner cap_chown cap_sys_ptrace cap_sys_module "
    "cap_setfcap cap_setpcap".split()
)

#: ``$(which bash)``, `` `command -v python3` ``, ``$(readlink -f $(type -P perl))``.
_LOOKUP = LazyPattern(r"(?:\bwhich|\bcommand\s+-[vV]|\btype\s+-[aPp]+|\bwhereis(?:\s+-b)?)\s+(?:-\S+\s+)*[\"']?([\w.+-]+)")

#: Commands that copy a file's bytes (or link to it) somewhere else.
_COPIERS = frozenset({"cp", "install", "ln", "mv", "rsync", "dd", "cat", "pv", "tee", "ditto"})


def sets_id_bits(mode: str) -> bool:
    """Whether a chmod/install mode sets the setuid or setgid bit (``u+s``, ``+s``,
    ``g=rxs``, ``4755``, ``06755``)."""
    if mode.isdigit():
        try:
            return bool(int(mode, 8) & 0o6000) and len(mode) >= 4
        except ValueError:
            return False
    for clause in mode.split(","):
        # ``u+s``, ``a=rwx,u+s``, ``+xs``: an operator that adds or sets, followed by s
        for op in ("+", "="):
            for part in clause.split(op)[1:]:
                if "s" in part.split("-", 1)[0]:
                    return True
    return False


def root_caps(text: str) -> bool:
    """Whether a ``setcap`` capability text grants a capability that leads to root in the
    effective or permitted set (``cap_setuid+ep``, ``cap_setuid,cap_setgid=ep``, ``=ep``:
    every capability)."""
    for clause in text.split():
        cut = next((i for i, ch in enumerate(clause) if ch in "+-="), -1)
        if cut < 0:
            continue
        names = {n.strip().lower() for n in clause[:cut].split(",") if n.strip()}
        ops = clause[cut:]
        adds = any(ops[i] in "+=" and any(c in "ep" for c in _flags(ops, i)) for i in range(len(ops)))
        if adds and (not names or "all" in names or names & ROOT_CAPS):
            return True
    return False


def _flags(ops: str, i: int) -> str:
    j = i + 1
    while j < len(ops) and ops[j] not in "+-=":
        j += 1
    return ops[i + 1 : j]


def _named_runner(word: str, path: str) -> str | None:
    """The runner a word names: a lookup substitution, or a path whose file name is one."""
    if "$(" in word or "`" in word:
        match = _LOOKUP.search(word)
        if match and C.canonical_name(match.group(1)) in RUNNERS:
            return match.group(1)
        return None
    name = posixpath.basename(path.rstrip("/"))
    return name if name and C.canonical_name(name) in RUNNERS else None


def runner_of(word: str, path: str, ctx: Ctx) -> str | None:
    """Which runner the file at ``path`` (written ``word``) is, if any: by name, as a copy
    made earlier in this script, or as a link to or copy of an installed runner on disk.
    A directory is none (setgid on a directory only sets the group of new files)."""
    if os.path.isdir(path):
        return None
    return _named_runner(word, path) or _script_copies(ctx).get(path) or _installed_copy(path)


def _script_copies(ctx: Ctx) -> dict[str, str]:
    """Files this script makes into copies of (or links to) a runner: resolved path → name.
    Reads the whole script's commands again, which only happens when a mode or capability
    grants root."""
    if not ctx.source or not any(name in ctx.source for name in _COPIERS):
        return {}
    from ..paths import extract_paths

    copies: dict[str, str] = {}
    for cmd in line_parsed(ctx).commands:
        if not cmd.argv or C.canonical_name(posixpath.basename(cmd.argv[0])) not in _COPIERS:
            continue
        source = None
        for word in cmd.argv[1:]:
            value = word.split("=", 1)[1] if word.startswith("if=") else word
            if "/" in value or "$(" in value or "`" in value:
                source = _named_runner(value, resolve(value, ctx.cwd, ctx.home))
                if source:
                    break
        if source is None:
            continue
        for access in extract_paths(cmd, cwd=ctx.cwd, home=ctx.home):
            if access.op == WRITE:
                copies[access.resolved] = source
                copies[posixpath.join(access.resolved, source)] = source  # copied into a folder
    return copies


def _installed_copy(path: str) -> str | None:
    """An existing file that is a link to, or the same bytes as, an installed runner."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    real = os.path.realpath(path)
    name = posixpath.basename(real)
    if C.canonical_name(name) in RUNNERS:
        return name
    import filecmp

    for folder in sorted(C.STANDARD_BIN_DIRS):
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for entry in entries:
            if C.canonical_name(entry) not in RUNNERS:
                continue
            candidate = posixpath.join(folder, entry)
            try:
                if os.stat(candidate).st_size == info.st_size and filecmp.cmp(candidate, real, shallow=False):
                    return entry
            except OSError:
                continue
    return None


def grant_root(f: Facts, words: list[str], ctx: Ctx, how: str) -> bool:
    """Hit HB017 for the first target that is a runner; True when one was."""
    for word in words:
        path = resolve(word, f.base, ctx.home)
        runner = runner_of(word, path, ctx)
        if runner:
            where = path if runner == posixpath.basename(path) else f"{path}, a copy of {runner}"
            f.hit("HB017", f"{f.label} ({how} on {where})")
            return True
    return False


def check_setcap(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``setcap [-q] [-v] [-n ROOTUID] CAPS FILE [CAPS FILE …]``; ``-r FILE`` removes."""
    parsed = parse_args(args, frozenset({"-n"}))
    ops = parsed.operands
    if parsed.has("-v", "-r") or len(ops) < 2:
        f.hit("CAT005", f.label)
        return
    for caps, word in zip(ops[0::2], ops[1::2], strict=False):  # an odd last word has no pair
        if root_caps(caps) and grant_root(f, [word], ctx, f"capability {caps}"):
            return
    f.hit("CAT005", f.label)
