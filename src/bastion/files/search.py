"""Grep and Glob over a credential store are judged like Read of it.

A search tool names a folder (``path``) and often a file glob (Grep's ``glob`` or
``include``, Glob's ``pattern``). The folder itself is checked like any read (the engine
passes it as a path use). This module adds what the folder alone does not show:

- the glob joined to the folder is read as a path (``~/**/.netrc``, ``~/.aws/*``,
  ``**/*.pem``): a name row of the path table (``.netrc``, ``id_rsa*``, ``.env``) or a
  store it can reach (``~/.a*/credentials``) makes it a read of that store;
- a content search (Grep) with no glob reads every file below its folder that ripgrep
  does not skip: hidden names (``.ssh``, ``.netrc``) are skipped unless a glob asks for
  them, so ``Grep ~`` reads none of the dot-folder stores, while ``Grep /etc`` reads
  ``/etc/shadow`` and ``Grep /run`` the mounted secrets.

Glob lists names only, so a folder holding a store is not read by it; its pattern still is
judged. The stores a search can reach are the agent's home stores and the system stores
of ``bastion.paths.table``.
"""

from __future__ import annotations

import os

from ..paths import match as paths
from ..shell.syntax.wildcards import fnmatchcase
from .check import PathVerdict, _show, check_access
from .protected import ProtectionConfig
from .workspace import Workspace, resolve_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

__all__ = ["search_verdicts", "search_globs"]

#: Per canonical tool: the input keys that hold a file glob.
_GLOB_KEYS = {"Grep": ("glob", "include"), "Glob": ("pattern",)}


def search_globs(call: Any) -> list[str]:
    """The file globs a search call names (Grep's ``glob``/``include``, Glob's ``pattern``)."""
    keys = _GLOB_KEYS.get(call.canonical_tool, ())
    found: list[str] = []
    for key in keys:
        value = call.input.get(key)
        if isinstance(value, str) and value.strip():
            # ``*.{ts,tsx}`` and ``a,b`` lists: each alternative on its own
            found.extend(part for part in _alternatives(value.strip()) if part)
    return found


def _alternatives(glob: str) -> list[str]:
    """``*.{ts,tsx}`` → ``*.ts``, ``*.tsx``; ``a b`` / ``a,b`` lists split (one level)."""
    if "{" in glob and "}" in glob:
        head, _, rest = glob.partition("{")
        body, _, tail = rest.partition("}")
        return [head + alt + tail for alt in body.split(",")]
    return [p for chunk in glob.split(",") for p in chunk.split()]


def _candidates(glob: str, root: str, *, home: str) -> list[str]:
    """The glob as absolute patterns: ``~/`` expanded, a relative one below ``root``; a
    glob with no ``/`` matches right there and at any depth (ripgrep's rule); an
    exclusion (``!x``) reads nothing."""
    if glob.startswith("!"):
        return []
    if glob == "~" or glob.startswith("~/"):
        return [home.rstrip("/") + glob[1:]]
    if glob.startswith("/"):
        return [glob]
    body = glob[2:] if glob.startswith("./") else glob
    base = root.rstrip("/") + "/"
    return [base + body] if "/" in body.strip("/") else [base + body, base + "**/" + body]


def _covers(glob: list[str], store: list[str], folder: bool) -> str | None:
    """``"exact"`` when a path the glob matches is the store itself, ``"below"`` when it
    lies below a folder store, else None.

    As ripgrep walks: ``**`` crosses no hidden folder (``**/*.py`` skips ``~/.ssh``), but a
    component that names one does (``.aws``, ``.a*``, ``*``), and a trailing ``**`` takes
    everything."""
    if not glob:
        return "exact" if not store else None
    head, rest = glob[0], glob[1:]
    if head == "**":
        if not rest:
            return "exact" if store or not folder else "below"
        for i in range(len(store) + 1):
            if i and store[i - 1].startswith("."):
                break
            found = _covers(rest, store[i:], folder)
            if found:
                return found
        return None
    if not store:
        return "below" if folder else None  # more components below a folder store
    return _covers(rest, store[1:], folder) if fnmatchcase(store[0], head) else None


def _stores(home: str) -> list[tuple[str, bool, str]]:
    """``(path, is_folder, title)``: the agent's home stores and the system stores, lowercase."""
    home_lower = home.lower().rstrip("/")
    out = [(f"{home_lower}/{rel}", folder, row.title) for rel, folder, row in paths.home_stores()] if home_lower else []
    out.extend((pattern.lower(), folder, row.title) for pattern, folder, row in paths.system_stores())
    return out


def _exists(store: str) -> bool:
    """A store that is not there is not read (one spelled with ``*`` is assumed there).
    The table is lowercase and disks may not be (``~/.config/BraveSoftware``)."""
    if "*" in store or os.path.lexists(store):
        return True
    current = "/"
    for part in (p for p in store.split("/") if p):
        try:
            name = next((n for n in os.listdir(current) if n.lower() == part), None)
        except OSError:
            return False
        if name is None:
            return False
        current = os.path.join(current, name)
    return True


def _hidden_between(store: str, root: str) -> bool:
    below = store[len(root.rstrip("/")) + 1 :]
    return any(part.startswith(".") for part in below.split("/"))


def search_verdicts(
    call: Any, roots: Iterable[str], *, workspace: Workspace, home: str, config: ProtectionConfig
) -> list[PathVerdict]:
    """What a search reads beyond its folders: the stores its globs reach and, for a
    content search without a glob, the unhidden stores below its folders."""
    globs = search_globs(call)
    content = call.canonical_tool == "Grep"
    out: list[PathVerdict] = []
    stores: list[tuple[str, bool, str]] | None = None
    for root in roots:
        root_lower = root.lower().rstrip("/") or "/"
        for glob in globs:
            candidates = _candidates(glob, root, home=home)
            hits = [v for candidate in candidates
                    for v in check_access("read", candidate if "*" in candidate else resolve_path(candidate, cwd=call.cwd, home=home),
                                          workspace=workspace, home=home, config=config)
                    if v.code in ("FS003", "FS005")]
            if candidates and not any(v.code == "FS003" for v in hits):
                stores = stores if stores is not None else _stores(home)
                candidate = candidates[-1]
                parts = [p for p in candidate.lower().split("/") if p]
                for store, folder, title in stores:
                    how = _covers(parts, [p for p in store.split("/") if p], folder)
                    if how == "exact" or (how == "below" and _exists(store)):
                        hits.insert(0, PathVerdict("ask", True, "FS003", f"searching {_show(candidate, home)} reads "
                                                   f"{_show(store, home)}, which needs approval in every mode: "
                                                   f"credential store: {title}", candidate))
                        break
            out.extend(hits)
        if content and not globs:
            stores = stores if stores is not None else _stores(home)
            for store, _folder, title in stores:
                if (paths.within(store, root_lower) and store != root_lower and not _hidden_between(store, root_lower)
                        and _exists(store)):
                    out.append(PathVerdict("ask", True, "FS003", f"searching {_show(root, home)} reads "
                                           f"{_show(store, home)}, which needs approval in every mode: credential "
                                           f"store: {title}", root))
                    break
    return out
