"""Protected files a sandboxed command created: moved out of the project after the run.

A protected file that already exists is mounted read-only for the run. One that does
not exist yet (``.envrc``, ``.mcp.json``, ``.bashrc`` in the project) cannot be covered
without leaving an empty file behind, and the kernel cannot forbid creating one name in
a writable folder. So the plan lists those names, and after the command has exited
every one that now exists is moved into bastion's state folder — out of reach of
direnv, the agent's MCP loader or a login shell — and reported as a violation. Nothing
is deleted: the file can be inspected and put back by hand.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from .plan import Plan

__all__ = ["sweep"]


def sweep(plan: Plan, store: Path) -> list[dict[str, str]]:
    """Move each protected file the run created into ``store``; one violation each."""
    found: list[dict[str, str]] = []
    for path, why in plan.absent_protected:
        if not os.path.lexists(path):
            continue
        stamp = time.strftime("%Y%m%dT%H%M%S")
        dest = store / f"{stamp}-{os.getpid()}-{os.path.basename(path)}"
        try:
            store.mkdir(mode=0o700, parents=True, exist_ok=True)
            try:
                os.rename(path, dest)  # the link itself when it is one, never its target
            except OSError:
                shutil.move(path, dest)  # another file system
        except OSError as exc:
            found.append({"kind": "created", "target": path,
                          "detail": f"{why}; created in the sandbox and could not be moved away: {exc.strerror or exc}"})
            continue
        found.append({"kind": "created", "target": path, "detail": f"{why}; created in the sandbox, moved to {dest}"})
    return found
