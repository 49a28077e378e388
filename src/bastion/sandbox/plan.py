"""What the sandbox's file system looks like for one run — independent of the backend.

A ``Plan`` lists, as resolved host paths:

* ``write_roots`` — the workspace, configured write roots (everything else is read-only,
  and ``/tmp`` is a private per-run directory);
* ``readonly`` — protected paths *inside* the write roots that stay read-only:
  ``.git/hooks``, ``.git/config``, shell startup and agent config files, bastion's own
  settings and state (the lists come from ``bastion.files.protected``);
* ``hidden`` — credential stores and configured ``denyRead`` paths, covered by an
  unreadable placeholder so their content is gone from the sandbox's view;
* ``visible`` — paths under the private ``/tmp`` that must stay readable (a home
  directory or an interpreter installed there).

bubblewrap and the Landlock helper both turn the same plan into mounts, so the two
backends cannot drift apart on what is protected.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..files import protected

#: Directories mounted fresh (and private) inside the sandbox.
PRIVATE_DIRS = ("/tmp", "/run")

#: Inside a git directory: what runs code on its own or redirects what runs.
GIT_PROTECTED = ("hooks", "config")

#: Protected entries at the top of every write root (and of a writable home).
ROOT_PROTECTED_DIRS = tuple(d for d in protected.DANGEROUS_DIRECTORIES if d != ".git")
ROOT_PROTECTED_FILES = tuple(protected.DANGEROUS_FILES)
#: Agent configuration folders that define hooks and permissions: covered even when they
#: do not exist yet (an empty read-only folder is mounted, which leaves an empty folder
#: behind), or a sandboxed command could create `.claude/settings.json` with a hook that
#: the next agent session runs unconfined.
CREATE_PROTECTED_DIRS = (".claude", ".bastion", ".codex", ".gemini")

#: Structural folders inside protected ones that stay writable (agents' worktrees).
REWRITABLE = (".claude/worktrees",)

#: Absolute secrets that are hidden when present (``/proc`` is private anyway).
SYSTEM_SECRETS = tuple(g for g in protected.SYSTEM_CREDENTIAL_GLOBS if not g.startswith("/proc/"))


class PlanError(ValueError):
    """The run cannot be planned as asked (e.g. the working directory is outside)."""


@dataclass(frozen=True)
class Plan:
    cwd: str
    workspace: str
    write_roots: tuple[str, ...]
    readonly: tuple[tuple[str, str], ...] = ()
    #: protected directories that do not exist yet: covered by an empty read-only dir
    create_readonly: tuple[tuple[str, str], ...] = ()
    rewritable: tuple[str, ...] = ()
    #: writable folders bound onto themselves so they become mount points: a mount point
    #: cannot be renamed or removed, so ``mv .git .git.old && mkdir .git`` cannot swap a
    #: fresh, writable hooks folder in under the protected one
    pinned: tuple[str, ...] = ()
    #: protected files a mount cannot cover, as ``(path, why, link, leads_to)``: names that
    #: did not exist when the run began (``link`` None; a file cannot be covered without
    #: leaving an empty one behind) and names that are symbolic links (``link`` is where it
    #: pointed, ``leads_to`` a fingerprint of the file at the end of the chain: the link,
    #: the links after it and the folders on the way can all be swapped). What the
    #: command made of them is moved out after the run (see :mod:`bastion.sandbox.quarantine`)
    watched_protected: tuple[tuple[str, str, str | None, str], ...] = ()
    hidden: tuple[tuple[str, bool, str], ...] = ()
    visible: tuple[str, ...] = ()
    home: str = ""
    notes: tuple[str, ...] = field(default=())

    # -- questions the violation report asks --------------------------------------

    def writable(self, path: str) -> bool:
        if self.protected_why(path) is not None or self.hidden_why(path) is not None:
            return False
        if any(_within(path, w) for w in self.write_roots):
            return True
        return _within(path, "/tmp") and not any(_within(path, v) for v in self.visible)

    def protected_why(self, path: str) -> str | None:
        if any(_within(path, p) for p in self.rewritable):
            return None
        for root, why in self.readonly + self.create_readonly:
            if _within(path, root):
                return why
        return None

    def hidden_why(self, path: str) -> str | None:
        for root, _is_dir, why in self.hidden:
            if _within(path, root):
                return why
        return None


def _within(path: str, root: str) -> bool:
    return root == "/" or path == root or path.startswith(root.rstrip("/") + "/")


def _real(path: str) -> str:
    return os.path.realpath(path)


class _Finder:
    """Case-insensitive lookup of lowercase table entries (``.config/bravesoftware``
    is ``.config/BraveSoftware`` on disk), with each directory listed at most once."""

    def __init__(self) -> None:
        self._listings: dict[str, dict[str, str]] = {}

    def _listing(self, directory: str) -> dict[str, str]:
        if directory not in self._listings:
            try:
                names = os.listdir(directory)
            except OSError:
                names = []
            self._listings[directory] = {n.lower(): n for n in names}
        return self._listings[directory]

    def find(self, base: str, rel: str) -> str | None:
        current = base
        for part in rel.split("/"):
            name = self._listing(current).get(part.lower())
            if name is None:
                return None
            current = os.path.join(current, name)
        return current


def _homes(home: str) -> list[str]:
    homes = [home] if home else []
    homes.append("/root")
    try:
        homes.extend(os.path.join("/home", n) for n in sorted(os.listdir("/home")))
    except OSError:
        pass
    seen: list[str] = []
    for h in homes:
        real = _real(h)
        if os.path.isdir(real) and real not in seen:
            seen.append(real)
    return seen


def _hidden(home: str, deny_read: Iterable[str], credential_globs: Iterable[str]) -> list[tuple[str, bool, str]]:
    found: dict[str, tuple[bool, str]] = {}

    def add(path: str, why: str) -> None:
        real = _real(path)
        if real == "/" or real in found:
            return
        try:
            is_dir = os.path.isdir(real)
            exists = is_dir or os.path.lexists(real)
        except OSError:
            return
        if exists:
            found[real] = (is_dir, why)

    finder = _Finder()
    for h in _homes(home):
        for rel, why in protected.HOME_CREDENTIALS.items():
            path = finder.find(h, rel)
            if path is not None:
                add(path, f"credential store: {why}")
    for pattern in SYSTEM_SECRETS:
        for path in glob.glob(pattern):
            add(path, f"system secret: {protected.SYSTEM_CREDENTIAL_GLOBS[pattern]}")
    for pattern in credential_globs:
        for path in glob.glob(pattern, recursive=True):
            add(path, "credential pattern from settings")
    for path in deny_read:
        add(path, "denied by sandbox.filesystem.denyRead")
    # a hidden directory already covers what is below it
    dirs = [p for p, (is_dir, _) in found.items() if is_dir]
    return [
        (p, is_dir, why)
        for p, (is_dir, why) in sorted(found.items())
        if not any(p != d and _within(p, d) for d in dirs)
    ]


def _git_dirs(root: str) -> list[str]:
    """The git directories of a checkout at ``root``: ``.git``, or for a worktree the
    directory its ``.git`` file points at and that one's common directory."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git) and not os.path.islink(dot_git):
        return [dot_git]
    try:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except OSError:
        return [_real(dot_git)] if os.path.isdir(dot_git) else []
    if not first.startswith("gitdir:"):
        return []
    gitdir = os.path.normpath(os.path.join(root, first[len("gitdir:") :].strip()))
    dirs = [_real(gitdir)]
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as handle:
            dirs.append(_real(os.path.join(gitdir, handle.read().strip())))
    except OSError:
        pass
    return dirs


def _with_submodules(git_dirs: list[str], depth: int = 2) -> list[str]:
    """Git directories plus those of their submodules (``modules/<name>``, two levels
    deep): git runs a submodule's hooks too."""
    out = list(git_dirs)
    frontier = list(git_dirs)
    for _ in range(depth):
        found = []
        for git_dir in frontier:
            try:
                names = os.listdir(os.path.join(git_dir, "modules"))
            except OSError:
                continue
            found.extend(os.path.join(git_dir, "modules", n) for n in sorted(names))
        out.extend(d for d in found if os.path.isdir(os.path.join(d, "objects")))
        frontier = found
    return out


def leads_to(path: str, write_roots: Sequence[str]) -> str:
    """A fingerprint of where ``path`` leads, as far as a sandboxed run could change it:
    the resolved path, and — when that lies where the run may write — which file is there
    (device and inode: a file swapped in is a new one). A file outside, which the run
    cannot touch, is not fingerprinted: someone editing it meanwhile changes nothing."""
    real = os.path.realpath(path)
    if not any(_within(real, root) for root in write_roots):
        return real
    try:
        st = os.lstat(real)
    except OSError:
        return f"{real}|missing"
    return f"{real}|{st.st_dev}|{st.st_ino}"


def _protected(write_roots: Sequence[str], home: str, own: Iterable[str]) -> tuple[list, list, list, list, list]:
    readonly: dict[str, str] = {}
    create: dict[str, str] = {}
    watched: dict[str, tuple[str, str | None, str]] = {}
    rewritable: list[str] = []
    pinned: list[str] = []

    def writable(path: str) -> bool:
        return any(_within(path, w) for w in write_roots)

    tops = list(write_roots)
    if home and writable(home) and home not in tops:
        tops.append(home)
    for top in tops:
        for git_dir in _with_submodules(_git_dirs(top)):
            if not writable(git_dir):
                continue
            if os.path.isdir(git_dir) and not os.path.islink(git_dir):
                pinned.append(_real(git_dir))
            for name in GIT_PROTECTED:
                path = os.path.join(git_dir, name)
                why = f".git/{name} is protected (git runs hooks and obeys its config)"
                if os.path.lexists(path):
                    readonly[_real(path)] = why
                elif name == "hooks":
                    create[path] = why
        for name in ROOT_PROTECTED_DIRS:
            path = os.path.join(top, name)
            why = f"{name} is protected ({protected.DANGEROUS_DIRECTORIES[name]})"
            if os.path.isdir(path):
                readonly[_real(path)] = why
            elif name in CREATE_PROTECTED_DIRS and not os.path.lexists(path):
                create[path] = why
        for name in ROOT_PROTECTED_FILES:
            path = os.path.join(top, name)
            why = f"{name} is protected ({protected.DANGEROUS_FILES[name]})"
            if os.path.islink(path):
                watched[path] = (why, os.readlink(path), leads_to(path, write_roots))
                target = _real(path)
                if os.path.lexists(target):
                    readonly[target] = why
                else:  # a dangling link: what it names is protected too
                    watched[target] = (why, None, "")
            elif os.path.lexists(path):  # a file, or a folder or FIFO by that name: covered all the same
                readonly[_real(path)] = why
            else:
                watched[path] = (why, None, "")
        for rel in REWRITABLE:
            path = os.path.join(top, rel)
            if os.path.isdir(path) and not os.path.islink(path):
                rewritable.append(path)
    for path in own:
        if os.path.lexists(path) and writable(_real(path)):
            readonly[_real(path)] = "bastion's own settings and state are protected"
    ro = sorted((p, why) for p, why in readonly.items() if writable(p))
    kept = sorted((p, why, link, end) for p, (why, link, end) in watched.items() if writable(os.path.dirname(p)))
    return ro, sorted(create.items()), rewritable, sorted(set(pinned)), kept


def _visible(home: str, write_roots: Sequence[str], extra: Iterable[str]) -> list[str]:
    """Paths inside the private /tmp or /run that must stay readable."""
    out: list[str] = []
    for path in [home, *extra]:
        if not path:
            continue
        real = _real(path)
        if any(_within(real, d) and real != d for d in PRIVATE_DIRS) and not any(
            _within(real, w) for w in write_roots
        ):
            if real not in out and os.path.exists(real):
                out.append(real)
    return out


def build_plan(
    cwd: str,
    *,
    workspace: str | None = None,
    allow_write: Iterable[str] = (),
    deny_read: Iterable[str] = (),
    home: str = "",
    env: Mapping[str, str] | None = None,
    credential_globs: Iterable[str] = (),
    keep_visible: Iterable[str] = (),
    protect: Iterable[str] = (),
) -> Plan:
    """Resolve everything the backends need; raise ``PlanError`` for an impossible run."""
    cwd_real = _real(cwd)
    if not os.path.isdir(cwd_real):
        raise PlanError(f"working directory {cwd} does not exist")
    ws = _real(workspace or cwd)
    if not os.path.isdir(ws):
        raise PlanError(f"workspace {workspace} does not exist")
    notes: list[str] = []
    roots = [ws]
    for raw in allow_write:
        path = _real(os.path.join(cwd_real, os.path.expanduser(raw)))
        if not os.path.isdir(path):
            notes.append(f"write root {raw} does not exist; not mounted")
            continue
        if path not in roots:
            roots.append(path)
    if not any(_within(cwd_real, r) for r in roots):
        raise PlanError(f"working directory {cwd_real} is outside the workspace {ws} and the write roots")
    home_real = _real(home) if home else ""
    for root in roots:
        if home_real and _within(home_real, root):
            # A writable home holds everything that runs at login and every key that
            # opens a door (~/.ssh, ~/.bashrc, ~/.config/…), most of which do not exist
            # yet and so cannot be covered: refuse rather than confine less.
            raise PlanError(
                f"the writable folder {root} contains the home directory {home_real}; "
                "run from a project folder (or give narrower --allow-write folders)"
            )
    config = protected.ProtectionConfig.from_settings({}, env=dict(env) if env is not None else dict(os.environ))
    own = (*protected.own_paths(config), *(_real(os.path.expanduser(p)) for p in protect))
    readonly, create, rewritable, pinned, watched = _protected(roots, home_real, own)
    deny = [_real(os.path.join(cwd_real, os.path.expanduser(p))) for p in deny_read]
    return Plan(
        cwd=cwd_real,
        workspace=ws,
        write_roots=tuple(roots),
        readonly=tuple(readonly),
        create_readonly=tuple(create),
        rewritable=tuple(rewritable),
        pinned=tuple(pinned),
        watched_protected=tuple(watched),
        hidden=tuple(_hidden(home_real, deny, credential_globs)),
        visible=tuple(_visible(home_real, roots, keep_visible)),
        home=home_real,
        notes=tuple(notes),
    )
