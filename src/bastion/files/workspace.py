"""Path resolution and the workspace boundary.

Every path check in bastion compares *resolved* paths: absolute, ``~`` expanded, ``..``
folded and symlinks followed, for the path and for the workspace roots alike (spec 002
§12.10). Comparing what the agent typed would let ``ln -s /etc ./innocent`` make
``./innocent/passwd`` look like a project file.

Containment is compared component-wise and case-sensitively: ``/a/bc`` is not inside
``/a/b``, and ``/Proj`` is not inside ``/proj``. Case-sensitive is the fail-closed choice
here: on a case-insensitive disk a differently-cased spelling of a project path is
merely treated as outside (an ask); treating it as inside on a case-sensitive disk would
let a different directory pass. (The protected-name lists in ``protected.py`` do the
opposite and compare lowercase, because there widening the match is the safe side.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from stat import S_ISLNK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Workspace", "resolve_path", "resolve_folder", "is_within", "known_folder"]

_SEP = "/"


def _expand_home(path: str, home: str) -> str:
    """Expand a leading ``~``, ``~user``, ``$HOME`` or ``${HOME}`` the way a shell would.

    ``home`` is the caller's notion of the home directory (the agent's, not bastion's
    process environment). ``~user`` goes through the password database; an unknown user
    stays literal, as in a shell.
    """
    if not home or path[:1] not in ("~", "$"):
        return path  # the usual case: nothing to expand
    for prefix in ("~", "$HOME", "${HOME}"):
        if path == prefix or path.startswith(prefix + _SEP):
            return home + path[len(prefix) :]
    if path.startswith("~"):
        try:
            return os.path.expanduser(path)
        except (KeyError, ValueError, OSError):  # pragma: no cover - defensive
            return path
    return path


def _lexical(path: str) -> str:
    """``os.path.normpath`` without POSIX's special case for a leading ``//``."""
    norm = os.path.normpath(path)
    if norm.startswith("//"):
        norm = _SEP + norm.lstrip(_SEP)
    return norm


def _absolute(path: str, cwd: str, home: str) -> str:
    path = _expand_home(path, home)
    if not path.startswith(_SEP):
        base = _expand_home(cwd or _SEP, home)
        if not base.startswith(_SEP):
            base = os.path.join(os.getcwd(), base)
        path = base + _SEP + path if path else base
    return path


#: Linux answers "where does this path lead" in three system calls: the path opened with
#: ``O_PATH`` (no read, no device side effect), its ``/proc/self/fd`` link read back.
#: None until first use, then whether this system can.
_KERNEL_REAL: bool | None = None


def _kernel_real(path: str) -> str | None:
    """Where ``path`` leads by the kernel's own reading, or None when it does not open."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    finally:
        os.close(fd)
    return real if real.startswith(_SEP) and not real.endswith(" (deleted)") else None


#: Missing names at the end of a path resolved through the folder above them, at most.
_MISSING_NAMES = 8


#: Names that lead to a process's own descriptors and files. In a command they are the
#: command's own, which bastion cannot see; followed here they would lead into the
#: deciding process's (its open files, its pid), and a decision would depend on what
#: bastion happens to hold open. So they are kept as written, as a name that is not there.
_OWN_PROCESS = ("/proc/self/", "/proc/thread-self/", "/dev/fd/", "/dev/stdin/", "/dev/stdout/", "/dev/stderr/")


def _names_own_process(path: str) -> bool:
    """Whether ``path`` (absolute) names the running process's own descriptors or files."""
    folded = os.path.normpath(path) + _SEP  # ``/proc/self`` itself, and ``/dev/stdin``, match too
    return folded.startswith(_OWN_PROCESS) or folded.startswith(f"/proc/{os.getpid()}/")


def _realpath(path: str, below: tuple[str, list[str]] | None = None) -> str:
    """``os.path.realpath(path)``, asked of the kernel where it can answer: one lstat per
    component is the larger part of resolving a path. A file not there yet (what a write
    creates), or one in folders not there yet (``tests/new/test_x.py``), is the real path
    of the deepest folder that is and the missing names after it, as ``os.path.realpath``
    makes it — unless one of those names is a dangling link. Anything else that does not
    open — a loop, a folder without search permission — goes to ``os.path.realpath``,
    which resolves what exists and keeps the rest.

    ``below`` is ``path`` as a folder resolved in this same call (its real path) and the
    plain names after it: a path that does not open is then looked up name by name from
    there (:func:`_walk`), one ``lstat`` each, rather than by opening each folder above it."""
    global _KERNEL_REAL
    if path.startswith(("/proc/", "/dev/")) and _names_own_process(path):
        return os.path.normpath(path)
    if _KERNEL_REAL is None:
        _KERNEL_REAL = hasattr(os, "O_PATH") and os.path.isdir("/proc/self/fd")
    if _KERNEL_REAL:
        real = _kernel_real(path)
        if real is not None:
            return real
        if below is not None:
            real = _walk(*below)
            if real is not None:
                return real
        missing: list[str] = []
        here = path
        for _ in range(_MISSING_NAMES):
            folder, _, name = here.rpartition(_SEP)
            # Nothing by that name, not even a link (asked without raising an error: most
            # paths that do not open are files a write creates). Where the name cannot be
            # looked up at all (no search permission, a file for a folder) the answer is
            # the same: ``os.path.realpath`` keeps a name it cannot look up after its folder.
            if not folder or name in ("", ".", "..") or os.access(here, os.F_OK, follow_symlinks=False):
                break
            missing.append(name)
            parent = _kernel_real(folder)
            if parent is not None:
                return parent.rstrip(_SEP) + _SEP + _SEP.join(reversed(missing))
            here = folder
    return os.path.realpath(path)


#: Names below a folder already resolved in the same call that are looked at one by one
#: (``ls src/app.py``); deeper paths go to the kernel in one go, and are looked at name
#: by name only when the kernel finds nothing there (a file a write creates).
_KNOWN_NAMES = 2


def _names_below(path: str, folder: str) -> list[str] | None:
    """The names after ``folder`` (absolute, normalised) in ``path``: ``[]`` for the
    folder itself, None for a path not below it or with a ``..`` after it. Empty names
    and ``.`` are passed over, as ``os.path.realpath`` passes them over: ``cwd/.`` is
    the folder itself."""
    cut = len(folder)
    if path[cut:cut + 1] != _SEP or not path.startswith(folder):
        return [] if path == folder else None
    names = path[cut + 1 :].split(_SEP)
    if "" in names or "." in names:
        names = [name for name in names if name and name != "."]
    return None if ".." in names else names


def _walk(real: str, names: list[str]) -> str | None:
    """``_realpath`` of the folder whose real path is ``real`` followed by ``names``
    (plain names, none empty, ``.`` or ``..``), looking at each name once (``lstat``):
    while none is a link, the real path is the folder's and the names, and a name that
    is not there ends the lookup with the rest kept (as ``os.path.realpath`` keeps it).
    A link, or a name that cannot be looked at, leaves the answer to ``_realpath``: None."""
    here = real
    for index, name in enumerate(names):
        here = here + _SEP + name
        try:
            mode = os.lstat(here).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return _SEP.join((here, *names[index + 1 :]))
        except (OSError, ValueError):
            return None
        if S_ISLNK(mode):
            return None
    return here


def known_folder(cwd: str, real: str, *, home: str) -> tuple[str, str] | None:
    """``(cwd as resolve_path reads it, real)``: the ``known`` folder to hand to
    :func:`resolve_path` for paths inside ``cwd``, once ``real`` is what ``resolve_path``
    gave for it in this same call. None when the form is not plain (``..``, ``//``, the
    root), which only the full resolution reads right."""
    try:
        cwd = cwd.split("\0", 1)[0]
        home = home.split("\0", 1)[0].rstrip(_SEP)
        folder = _absolute(cwd, _SEP, home)
    except Exception:  # noqa: BLE001 - odd input: no shortcut
        return None
    return _known(folder, real)


def resolve_folder(cwd: str, *, home: str) -> tuple[str, tuple[str, str] | None]:
    """``resolve_path(cwd, cwd="/", home=home)`` and :func:`known_folder` for it, with
    the folder's absolute form worked out once: the call's folder is resolved on every call."""
    if isinstance(cwd, str) and isinstance(home, str):
        try:
            folder = _absolute(cwd.split("\0", 1)[0], _SEP, home.split("\0", 1)[0].rstrip(_SEP))
        except Exception:  # noqa: BLE001 - odd input: the long way says what it resolves to
            folder = ""
        if folder:
            real = _resolved(folder, None)
            return real, _known(folder, real)
    real = resolve_path(cwd, cwd=_SEP, home=home)
    return real, known_folder(cwd, real, home=home)


def _known(folder: str, real: str) -> tuple[str, str] | None:
    """:func:`known_folder` of ``folder`` as ``resolve_path`` reads it (absolute)."""
    if (folder == _SEP or real == _SEP or _lexical(folder) != folder or not real.startswith(_SEP)
            or real.startswith("//")):
        return None  # the root, as written or as a link resolves (a folder linked to /): the long way
    return folder, real.rstrip(_SEP)


def resolve_path(path: str, *, cwd: str, home: str, known: tuple[str, str] | None = None) -> str:
    """The real absolute path ``path`` names when used from ``cwd``.

    - ``~``, ``~/x``, ``$HOME/x``, ``${HOME}/x`` expand to ``home``; relative paths join
      ``cwd``; ``..`` is folded after the symlinks before it are followed (POSIX order).
    - Symlinks are resolved, including the last component: a link inside the project
      that points outside resolves outside. A dangling link resolves to its target.
    - A path that does not exist yet resolves its deepest existing parent and appends
      the rest (what ``Write`` would create).
    - A symlink loop cannot be resolved: the part before the loop is resolved and the
      rest is kept as written, normalised lexically (the OS would refuse it with ELOOP).
    - A NUL byte ends the path, as it would for any C-level consumer; the empty path is
      ``cwd``. Anything that still fails yields the lexical form. Never raises.

    ``known`` (from :func:`known_folder`) is a folder resolved in this same call: a path
    a name or two inside it is resolved from its real path, one ``lstat`` per name.
    """
    try:
        if not isinstance(path, str):
            path = os.fsdecode(path) if isinstance(path, (bytes, bytearray)) else str(path)
        if "\0" in path:
            path = path.split("\0", 1)[0]
        cwd = (cwd.split("\0", 1)[0] if "\0" in cwd else cwd) if isinstance(cwd, str) else _SEP
        home = (home.split("\0", 1)[0] if "\0" in home else home).rstrip(_SEP) if isinstance(home, str) else ""
        absolute = _absolute(path, cwd, home or "")
    except Exception:  # noqa: BLE001 - odd input must not raise; fall back to cwd
        return _lexical(cwd if isinstance(cwd, str) and cwd.startswith(_SEP) else _SEP)
    return _resolved(absolute, known)


def _resolved(absolute: str, known: tuple[str, str] | None) -> str:
    """:func:`resolve_path` of a path already made absolute."""
    try:
        below = None
        if known is not None:
            names = _names_below(absolute, known[0])
            if names is not None:
                if len(names) <= _KNOWN_NAMES:
                    real = _walk(known[1], names)
                    if real is not None:
                        return _lexical(real)
                else:
                    below = (known[1], names)
        return _lexical(_realpath(absolute, below))
    except Exception:  # noqa: BLE001 - e.g. RecursionError on absurd link chains
        return _lexical(absolute)


def is_within(path: str, root: str) -> bool:
    """``path`` equals ``root`` or lies beneath it, compared component by component."""
    if path == root:
        return True
    if root == _SEP:
        return path.startswith(_SEP)
    return path.startswith(root + _SEP)


@dataclass(frozen=True)
class Workspace:
    """The directories an agent may write without asking: its cwd and additionalDirectories.

    ``roots`` holds resolved real paths, the call's cwd first (it is the project root
    that relative rules are written against).
    """

    roots: tuple[str, ...]

    @classmethod
    def create(cls, cwd: str, additional: Sequence[str] = (), *, home: str) -> Workspace:
        """Resolve ``cwd`` and each additional directory (relative ones against ``cwd``)."""
        return cls.around(resolve_path(cwd, cwd=_SEP, home=home), additional, home=home)

    @classmethod
    def around(cls, base: str, additional: Sequence[str] = (), *, home: str) -> Workspace:
        """:meth:`create` for a ``cwd`` already resolved to ``base`` (:func:`resolve_folder`)."""
        roots: list[str] = [base]
        for extra in additional:
            if not isinstance(extra, str) or not extra:
                continue
            root = resolve_path(extra, cwd=base, home=home)
            if root not in roots:
                roots.append(root)
        return cls(tuple(roots))

    @property
    def project_root(self) -> str:
        return self.roots[0] if self.roots else _SEP

    def contains(self, resolved_path: str) -> bool:
        """Whether an already-resolved path lies inside one of the roots."""
        path = _lexical(resolved_path) if resolved_path else ""
        for root in self.roots:  # every path of every call is asked about: no generator
            if is_within(path, root):
                return True
        return False

    def is_root(self, resolved_path: str) -> bool:
        """Whether an already-resolved path is one of the roots itself."""
        path = _lexical(resolved_path) if resolved_path else ""
        return path in self.roots
