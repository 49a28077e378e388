"""Protected files a mount cannot cover: after the run, what the command made of them is
moved out of the project.

A protected file that already exists is mounted read-only for the run. Two kinds cannot
be covered that way (the plan lists them as ``watched_protected``):

* a name that does not exist yet (``.envrc``, ``.mcp.json``, ``.bashrc`` in the project):
  covering it would leave an empty file behind, and the kernel cannot forbid creating
  one name in a writable folder;
* a name that is a symbolic link: the mount lands on its target, but the link itself can
  be removed and replaced, a dangling link's target can be created, and the links and
  folders between the name and its target can be swapped.

The names git obeys at once (``.git/commondir``, ``objects/info/alternates``, a missing
``hooks`` folder, a checkout's ``.git`` file …) also stop the run the moment they appear
(:mod:`bastion.sandbox.livewatch`); the sweep then moves them away like the others.

After the command has exited, each such name that the run created or changed is moved
into bastion's state folder — out of reach of direnv, the agent's MCP loader or a login
shell — and reported as a violation. A link the run replaced is put back; a link that
now leads somewhere else (or to a file the run changed) is itself moved away, since
nothing can tell which of the swapped parts to restore. Nothing is deleted: the file
can be inspected and restored by hand.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from .plan import Plan, leads_to

__all__ = ["sweep"]


def sweep(plan: Plan, store: Path) -> list[dict[str, str]]:
    """Move what the run made of each watched protected name into ``store``; one
    violation each."""
    found: list[dict[str, str]] = []
    # names that were absent first: a dangling link whose new target is moved away then
    # leads where it led before, and stays
    for path, why, link, end in sorted(plan.watched_protected, key=lambda entry: entry[2] is not None):
        if link is None:
            if os.path.realpath(os.path.dirname(path)) != os.path.dirname(path):
                continue  # its folder was swapped for a link: never move a file from elsewhere
            if os.path.lexists(path):
                found.append(_report(path, why, "created in the sandbox", _move_away(path, store)))
        elif os.path.islink(path) and os.readlink(path) == link:
            if leads_to(path, plan.write_roots) != end:  # a folder or a later link on the way was swapped
                found.append(_report(path, why, "what it leads to changed in the sandbox (the link itself)",
                                     _move_away(path, store)))
        else:
            found.append(_put_link_back(path, why, link, store))
    return found


def _put_link_back(path: str, why: str, link: str, store: Path) -> dict[str, str]:
    """The run removed or replaced a protected link: keep what it put there, restore the link."""
    moved = _move_away(path, store) if os.path.lexists(path) else None
    try:
        os.symlink(link, path)
        restored = f"; the link to {link} is back"
    except OSError as exc:
        restored = f"; the link to {link} could not be put back ({exc.strerror or exc})"
    if moved is None:
        return {"kind": "created", "target": path, "detail": f"{why}; removed in the sandbox{restored}"}
    item = _report(path, why, "replaced in the sandbox", moved)
    item["detail"] += restored
    return item


def _report(path: str, why: str, what: str, moved: Path | OSError) -> dict[str, str]:
    if isinstance(moved, OSError):
        detail = f"{why}; {what} and could not be moved away: {moved.strerror or moved}"
    else:
        detail = f"{why}; {what}, moved to {moved}"
    return {"kind": "created", "target": path, "detail": detail}


def _move_away(path: str, store: Path) -> Path | OSError:
    """Move ``path`` (the link itself when it is one) to a new name in ``store``."""
    try:
        store.mkdir(mode=0o700, parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%S")
        for attempt in range(1000):  # a new name every time: nothing quarantined is overwritten
            dest = store / f"{stamp}-{os.getpid()}-{attempt}-{os.path.basename(path)}"
            if not os.path.lexists(dest):
                break
        try:
            os.rename(path, dest)
        except OSError:
            shutil.move(path, dest)  # another file system
        return dest
    except OSError as exc:
        return exc
