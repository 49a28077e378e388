"""What the sandbox's file system looks like for one run — independent of the backend.

A ``Plan`` lists, as resolved host paths:

* ``write_roots`` — the workspace, configured write roots (everything else is read-only,
  and ``/tmp`` is a private per-run directory);
* ``readonly`` — protected paths *inside* the write roots that stay read-only: what
  steers git in every git folder of the workspace (``GIT_CONTROL``: hooks, config,
  commondir, info, modules, worktrees, alternates …), the protected names of
  ``bastion.files.protected`` at the top of each write root (shell startup and agent
  config files, ``.vscode``, ``.idea`` …), bastion's own settings and state;
* ``create_readonly`` — protected folders that do not exist yet, covered by an empty
  read-only one, and ``watched_protected`` — protected files that do not exist yet (or
  are links), which the quarantine sweep takes away after the run; ``stop_on_create``
  are the watched names git obeys at once, whose creation stops the run;
* ``hidden`` — credential stores and configured ``denyRead`` paths, covered by an
  unreadable placeholder so their content is gone from the sandbox's view;
* ``visible`` — paths under the private ``/tmp`` that must stay readable (a home
  directory or an interpreter installed there).

bubblewrap and the Landlock helper both mount ``Plan.mounts()``, in that order, so the
two backends cannot drift apart on what is protected.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..files import protected
from ..paths import match as paths

#: Directories mounted fresh (and private) inside the sandbox.
PRIVATE_DIRS = ("/tmp", "/run")

#: Inside a git folder: what makes git run something or look somewhere else, as
#: ``relative path → (where, why)``. A trailing ``/`` marks a folder. ``where`` says whose
#: name it is: a repository's own git folder (``repo``: ``.git``, ``modules/<name>``), a
#: linked worktree's (``worktree``: ``worktrees/<name>``) or both. In the sandbox each one
#: that exists is read-only. One that is missing cannot be covered without leaving
#: something behind (an empty ``commondir`` breaks git, empty folders litter ``.git``), so
#: it is watched, and creating it stops the run at once (:mod:`.livewatch`) and is undone
#: (:mod:`.quarantine`): git obeys these without asking anyone, and editors run
#: ``git status`` on their own while a command is still running.
GIT_CONTROL: Mapping[str, tuple[str, str]] = {
    "config": ("repo", "git obeys its config: core.hooksPath, core.fsmonitor, aliases, filters"),
    "config.worktree": ("both", "git reads it as config once extensions.worktreeConfig is on"),
    "commondir": ("both", "it sends git to another folder's config and hooks"),
    "gitdir": ("worktree", "it says where the linked worktree's checkout is"),
    "hooks/": ("repo", "git runs the hooks in it"),
    "info/": ("repo", "attributes, excludes and sparse-checkout patterns git applies"),
    "modules/": ("repo", "submodules' git folders, each with its own config and hooks"),
    "worktrees/": ("repo", "linked worktrees' git folders: which git folder and checkout each one uses"),
    "objects/info/alternates": ("repo", "git reads objects from the folders it lists"),
    "objects/info/http-alternates": ("repo", "git fetches objects from the addresses it lists"),
    "remotes/": ("repo", "old-style remotes: where fetch and push go"),
    "branches/": ("repo", "old-style remotes: where fetch and push go"),
}

#: Submodules (git folders below ``modules/``, and theirs) are followed this deep.
GIT_NESTING = 4

#: Protected entries at the top of every write root (and of a writable home): each protected
#: name of the path table (``bastion.paths.table``: protected files and folders, startup
#: files), with its why. A folder that does not exist yet is covered by an
#: empty read-only one (an empty folder is left behind): otherwise a sandboxed command could
#: create ``.claude/settings.json`` with a hook the next agent session runs unconfined, or
#: ``.vscode/tasks.json`` with a task the editor runs. ``.git`` is covered by ``GIT_CONTROL``.
_PROTECTED_DIRS, _PROTECTED_FILES = paths.protected_names()
ROOT_PROTECTED_DIRS = tuple(d for d in _PROTECTED_DIRS if d != ".git")
ROOT_PROTECTED_FILES = tuple(_PROTECTED_FILES)

#: Structural folders inside protected ones that stay writable (agents' worktrees).
REWRITABLE = paths.structural_folders()


class PlanError(ValueError):
    """The run cannot be planned as asked (e.g. the working directory is outside)."""


@dataclass(frozen=True)
class Plan:
    """What the sandbox lets a command read and write, worked out before it starts."""

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
    #: watched names git obeys at once (``commondir``, a checkout's ``.git``…): the run is
    #: stopped as soon as one appears (see :mod:`bastion.sandbox.livewatch`); each one's
    #: folder is a mount point (pinned or a write root), so it cannot be swapped away
    stop_on_create: tuple[str, ...] = ()
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
        """Why ``path`` is read-only inside a write root; the deepest mount decides (a
        submodule's git folder is writable inside read-only ``modules/``, its config not)."""
        best: tuple[int, str | None] = (-1, None)
        for root, why in (*self.readonly, *self.create_readonly, *((p, None) for p in self.rewritable)):
            if _within(path, root) and len(root) > best[0]:
                best = (len(root), why)
        return best[1]

    def mounts(self) -> list[tuple[str, str]]:
        """Every mount, in the order to apply it, as ``(what, path)``; ``what`` is ``ro``,
        ``rw``, ``empty`` (an empty read-only folder), ``hide-dir`` or ``hide-file``.

        Visible paths and write roots come first (a protected path inside a write root is
        covered even when that root lies in a protected folder), credential stores last
        (nothing is mounted over their placeholders). The protected paths between them go
        in path order, so a folder is mounted before what lies inside it — ``modules/``
        read-only, then a submodule's git folder writable, then its hooks read-only again:
        a later mount hides the earlier ones below it."""
        rank = {"rw-pin": 0, "ro": 1, "empty": 2, "rw": 3}
        middle = [("rw-pin", p) for p in self.pinned]
        middle += [("ro", p) for p, _ in self.readonly]
        middle += [("empty", p) for p, _ in self.create_readonly]
        middle += [("rw", p) for p in self.rewritable]
        middle.sort(key=lambda item: (item[1].rstrip("/").split("/"), rank[item[0]]))
        out = [("ro", p) for p in self.visible] + [("rw", p) for p in self.write_roots]
        out += [("rw" if what == "rw-pin" else what, p) for what, p in middle]
        out += [("hide-dir" if is_dir else "hide-file", p) for p, is_dir, _ in self.hidden]
        return out

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
        for rel, _folder, row in paths.home_stores():
            path = finder.find(h, rel)
            if path is not None:
                add(path, f"credential store: {row.title}")
    for pattern, _folder, row in paths.system_stores():  # /proc, /run and /tmp are private in the sandbox anyway
        for path in glob.glob(pattern):
            if not any(_within(_real(path), d) for d in PRIVATE_DIRS):
                add(path, f"credential store: {row.title}")
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


def _git_dirs(root: str) -> list[tuple[str, str]]:
    """The git folders of a checkout at ``root`` as ``(folder, where)``: ``.git``; for a
    linked worktree or an absorbed submodule, the folder its ``.git`` file points at
    (and a worktree's common folder)."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return [(_real(dot_git), "repo")]
    gitdir = _read_gitfile(dot_git)
    if gitdir is None:
        return []
    common = _read_line(os.path.join(gitdir, "commondir"))
    if common is None:
        return [(gitdir, "repo")]
    return [(gitdir, "worktree"), (_real(os.path.join(gitdir, common)), "repo")]


def _read_line(path: str) -> str | None:
    """The first line of a small file, stripped (None when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.readline(4096).strip() or None
    except OSError:
        return None


def _read_gitfile(dot_git: str) -> str | None:
    """Where a ``.git`` file (``gitdir: …``) points, resolved; None when it is no such file."""
    first = _read_line(dot_git) if os.path.isfile(dot_git) else None
    if first is None or not first.startswith("gitdir:"):
        return None
    return _real(os.path.join(os.path.dirname(dot_git), first[len("gitdir:") :].strip()))


def _config_value(path: str, section: str, key: str) -> str | None:
    """One value from a git config file (plain ``[section]`` and ``key = value`` lines)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(1 << 16)
    except OSError:
        return None
    current = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            current = line[1:].split("]", 1)[0].strip().lower()
        elif current == section and "=" in line:
            name, value = line.split("=", 1)
            if name.strip().lower() == key:
                return value.strip().strip('"')
    return None


def _is_git_dir(path: str) -> bool:
    return os.path.isdir(os.path.join(path, "objects")) or os.path.isfile(os.path.join(path, "HEAD"))


def _module_dirs(modules: str, depth: int = 3) -> list[str]:
    """Submodules' git folders below ``modules/`` (a submodule's name may hold slashes)."""
    found: list[str] = []
    try:
        names = sorted(os.listdir(modules))
    except OSError:
        return found
    for name in names:
        path = os.path.join(modules, name)
        if not os.path.isdir(path) or os.path.islink(path):
            continue
        if _is_git_dir(path):
            found.append(path)
        elif depth > 1:
            found.extend(_module_dirs(path, depth - 1))
    return found


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


class _Cover:
    """How each protected path is covered, collected for one plan (see ``Plan``)."""

    def __init__(self, write_roots: Sequence[str]) -> None:
        self.roots = write_roots
        self.readonly: dict[str, str] = {}
        self.create: dict[str, str] = {}
        self.watched: dict[str, tuple[str, str | None, str]] = {}
        self.stop: set[str] = set()
        self.rewritable: list[str] = []
        self.pinned: set[str] = set()
        self.seen: set[str] = set()

    def writable(self, path: str) -> bool:
        return any(_within(path, w) for w in self.roots)

    def name(self, path: str, why: str, *, missing: str) -> None:
        """One protected name: read-only when it exists; a link is watched itself and what
        it leads to is read-only. A missing name is covered as ``missing`` says: ``empty``
        (an empty read-only folder), ``watch`` (moved away after the run if created) or
        ``stop`` (watched, and its creation — or a link's replacement — stops the run)."""
        live = missing == "stop"
        if os.path.islink(path):
            self.watched[path] = (why, os.readlink(path), leads_to(path, self.roots))
            if live:
                self.stop.add(path)
            target = _real(path)
            if os.path.lexists(target):
                self.readonly[target] = why
            else:  # a dangling link: what it names is protected too
                self.watched[target] = (why, None, "")
        elif os.path.lexists(path):  # a file, or a folder or FIFO by that name: covered all the same
            self.readonly[_real(path)] = why
        elif missing == "empty":
            self.create[path] = why
        else:
            self.watched[path] = (why, None, "")
            if live:
                self.stop.add(path)

    def pin(self, path: str) -> None:
        """Make a writable folder a mount point: it cannot be renamed or removed, so what
        is mounted or watched inside it cannot be swapped for a fresh copy."""
        if os.path.isdir(path) and not os.path.islink(path) and self.writable(path):
            self.pinned.add(path)

    def git_dir(self, git_dir: str, where: str, depth: int = 0) -> None:
        """A git folder's control names (``GIT_CONTROL``), then its submodules' and linked
        worktrees' git folders and their checkouts' ``.git`` files."""
        if git_dir in self.seen or not self.writable(git_dir) or not os.path.isdir(git_dir):
            return
        self.seen.add(git_dir)
        self.pin(git_dir)
        if where == "repo":
            self.pin(os.path.join(git_dir, "objects"))
            self.pin(os.path.join(git_dir, "objects", "info"))
        for rel, (owner, why) in GIT_CONTROL.items():
            if owner not in (where, "both"):
                continue
            rel = rel.rstrip("/")
            path = os.path.join(git_dir, rel)
            reason = f".git/{rel} is protected ({why})"
            parent = os.path.dirname(path)
            if parent != git_dir and not os.path.lexists(parent):
                path = parent  # objects/info missing: creating it is the first step to alternates
            # missing: a watch, not an empty folder, so .git is left as it was
            self.name(path, reason, missing="stop")
        if where != "repo" or depth >= GIT_NESTING:
            return
        for module in _module_dirs(_real(os.path.join(git_dir, "modules"))):
            self.rewritable.append(module)  # its objects, refs and index stay writable
            self.git_dir(module, "repo", depth + 1)
            tree = _config_value(os.path.join(module, "config"), "core", "worktree")
            if tree:
                self.checkout(_real(os.path.join(module, tree)), depth + 1)
        worktrees = _real(os.path.join(git_dir, "worktrees"))
        try:
            names = sorted(os.listdir(worktrees))
        except OSError:
            names = []
        for name in names:
            admin = os.path.join(worktrees, name)
            if os.path.isdir(admin) and not os.path.islink(admin):
                self.rewritable.append(admin)
                self.git_dir(admin, "worktree", depth + 1)
                dot_git = _read_line(os.path.join(admin, "gitdir"))
                if dot_git:
                    self.checkout(os.path.dirname(_real(os.path.join(admin, dot_git))), depth + 1)

    def checkout(self, tree: str, depth: int) -> None:
        """A submodule's or worktree's checkout inside the write roots: its ``.git`` file
        says which git folder — hooks, config — git uses there."""
        if not self.writable(tree) or not os.path.isdir(tree):
            return
        dot_git = os.path.join(tree, ".git")
        if os.path.isdir(dot_git) and not os.path.islink(dot_git):
            self.git_dir(_real(dot_git), "repo", depth)
            return
        self.name(dot_git, ".git is protected (a .git file says which git folder, hooks and config git uses)",
                  missing="stop")
        self.pin(tree)

    def top(self, top: str) -> None:
        """What is protected at the top of a write root."""
        dot_git = os.path.join(top, ".git")
        if not (os.path.isdir(dot_git) and not os.path.islink(dot_git)):
            # a .git file, a link, or none: creating one would make (or move) a repository here
            self.name(dot_git, f".git is protected ({_PROTECTED_DIRS['.git']})", missing="stop")
        for git_dir, where in _git_dirs(top):
            self.git_dir(git_dir, where)
        for name in ROOT_PROTECTED_DIRS:
            self.name(os.path.join(top, name), f"{name} is protected ({_PROTECTED_DIRS[name]})",
                      missing="empty")
        for name in ROOT_PROTECTED_FILES:
            self.name(os.path.join(top, name), f"{name} is protected ({_PROTECTED_FILES[name]})",
                      missing="watch")
        for rel in REWRITABLE:
            path = os.path.join(top, rel)
            if os.path.isdir(path) and not os.path.islink(path):
                self.rewritable.append(path)


def _protected(write_roots: Sequence[str], home: str, own: Iterable[str]) -> _Cover:
    cover = _Cover(write_roots)
    tops = list(write_roots)
    if home and cover.writable(home) and home not in tops:
        tops.append(home)
    for top in tops:
        cover.top(top)
    for path in own:
        if os.path.lexists(path) and cover.writable(_real(path)):
            cover.readonly[_real(path)] = "bastion's own settings and state are protected"
    return cover


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
    cover = _protected(roots, home_real, own)
    writable = cover.writable
    watched = sorted((p, why, link, end) for p, (why, link, end) in cover.watched.items() if writable(os.path.dirname(p)))
    deny = [_real(os.path.join(cwd_real, os.path.expanduser(p))) for p in deny_read]
    return Plan(
        cwd=cwd_real,
        workspace=ws,
        write_roots=tuple(roots),
        readonly=tuple(sorted((p, why) for p, why in cover.readonly.items() if writable(p))),
        create_readonly=tuple(sorted((p, why) for p, why in cover.create.items() if writable(os.path.dirname(p)))),
        rewritable=tuple(sorted(set(cover.rewritable))),
        pinned=tuple(sorted(cover.pinned - set(cover.rewritable))),
        watched_protected=tuple(watched),
        stop_on_create=tuple(sorted(p for p in cover.stop if any(p == w[0] for w in watched))),
        hidden=tuple(_hidden(home_real, deny, credential_globs)),
        visible=tuple(_visible(home_real, roots, keep_visible)),
        home=home_real,
        notes=tuple(notes),
    )
