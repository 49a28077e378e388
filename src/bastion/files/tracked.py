"""Whether git tracks a file: deleting an untracked file in the workspace is the agent's
scratch work (a verification test it wrote, a ``.bak`` it made), deleting a tracked one
changes the project.

The index is listed once per repository and index state (``git ls-files -z``, one process)
and kept in memory: a session that deletes twenty scratch files pays for one listing, and a
commit or ``git add`` (a new index mtime or size) lists it again. ``git ls-files
--error-unmatch`` per path would be a process per call on the hot path.

Everything that is not known answers ``None`` (the caller asks): no repository, a
listing that fails, a path that does not exist (an earlier part of the same command may
put something there: ``mv src/app.py junk.txt && rm junk.txt``) or is not a regular file.
"""

from __future__ import annotations

import os
import stat

__all__ = ["untracked_file"]

#: (work tree, index mtime_ns, index size) → the tracked paths, relative to the work tree.
_LISTINGS: dict[tuple[str, int, int], frozenset[str]] = {}
_MAX_LISTINGS = 8
#: Parents walked up looking for ``.git`` before giving up.
_MAX_DEPTH = 64
_GIT_TIMEOUT = 5.0


def _repository(path: str) -> tuple[str, str] | None:
    """(work tree, index file) of the repository holding ``path``: the nearest parent with
    a ``.git`` folder, or a ``.git`` file (worktrees, submodules) naming its git folder."""
    folder = os.path.dirname(path)
    for _ in range(_MAX_DEPTH):
        dot_git = os.path.join(folder, ".git")
        if os.path.isdir(dot_git):
            return folder, os.path.join(dot_git, "index")
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, encoding="utf-8", errors="replace") as handle:
                    line = handle.read(4096).strip()
            except OSError:
                return None
            if not line.startswith("gitdir:"):
                return None
            gitdir = os.path.join(folder, line[len("gitdir:"):].strip())
            return folder, os.path.join(gitdir, "index")
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def _tracked(tree: str, index: str) -> frozenset[str] | None:
    """The paths the index holds; empty when there is no index yet (nothing added)."""
    try:
        info = os.stat(index)
    except FileNotFoundError:
        return frozenset()
    except OSError:
        return None
    key = (tree, info.st_mtime_ns, info.st_size)
    listed = _LISTINGS.get(key)
    if listed is not None:
        return listed
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    try:
        done = subprocess.run(["git", "-C", tree, "ls-files", "-z", "--cached"], capture_output=True,
                              timeout=_GIT_TIMEOUT, env=env, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    listed = frozenset(os.fsdecode(p) for p in done.stdout.split(b"\0") if p)
    if len(_LISTINGS) >= _MAX_LISTINGS:
        _LISTINGS.clear()
    _LISTINGS[key] = listed
    return listed


def untracked_file(resolved: str) -> bool | None:
    """True when ``resolved`` is an existing regular file git does not track, False when
    git tracks it, None when that cannot be known (see the module docstring)."""
    try:
        info = os.lstat(resolved)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    repo = _repository(resolved)
    if repo is None:
        return None
    tree, index = repo
    tracked = _tracked(tree, index)
    if tracked is None:
        return None
    rel = os.path.relpath(resolved, tree)
    if rel.startswith("..") or rel.split(os.sep, 1)[0] == ".git":
        return None
    return rel not in tracked
