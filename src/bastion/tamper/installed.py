"""bastion's installed code and the client settings files that hold its hook."""

from __future__ import annotations

import os

from ..std_lite import lru_cache
from .commands import base_name
from .scene import CHANGES, Scene

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@lru_cache(maxsize=1)
def package_dir() -> str:
    """The folder bastion's code runs from (symlinks resolved)."""
    return os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@lru_cache(maxsize=1)
def install_paths() -> tuple[str, ...]:
    """bastion's installed code: its package folder; when there is one, the ``bastion``
    command beside the interpreter (a hook written as ``bastion hook …`` runs it); and the
    interpreter's own library folders on ``sys.path`` (its standard library, its zip and
    ``site-packages``). Code written there runs inside the guard before it decides: a
    ``.pth`` or ``sitecustomize.py`` file runs at every interpreter start, and bastion's
    dependencies and the standard library are imported while it decides."""
    import sys

    script = os.path.join(os.path.dirname(sys.executable), "bastion")
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    libraries = [os.path.realpath(entry) for entry in sys.path
                 if isinstance(entry, str) and os.path.isabs(entry) and any(within(entry, p) for p in prefixes if p)]
    found = (package_dir(), *((os.path.realpath(script),) if os.path.isfile(script) else ()), *libraries)
    return tuple(dict.fromkeys(found))


def within(path: str, root: str) -> bool:
    path, root = path.lower().rstrip("/") or "/", root.lower().rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


def changes_install(scene: Scene) -> str | None:
    """A write into bastion's installed code, or a delete of it or a folder holding it.
    A copy inside the workspace is the project being worked on (bastion's own source
    tree), not the guard that is installed."""
    for use in scene.path_uses:
        if use.op not in CHANGES:
            continue
        for installed in install_paths():
            if within(use.path, installed) or (use.op == "delete" and within(installed, use.path)):
                if _leaves(scene, use):
                    continue  # rm -- -rf /: a plain delete fails on the folder that holds it
                if use.op == "delete" and _named_by_the_file_layer(scene, use.path):
                    continue  # mv ~ /dev/null: the file layer denies it, naming what it deletes
                if not scene.workspace.contains(installed):
                    verb = "deletes" if use.op == "delete" else "changes"
                    return f"{verb} {use.raw or use.path} (code bastion runs from: {installed})"
    return None


def _named_by_the_file_layer(scene: Scene, path: str) -> bool:
    """A delete the file layer denies in every mode as a removal target (FS001: the root,
    the home folder or a folder holding it, the workspace …), whose reason says what it
    deletes; that bastion's code goes with it is the lesser part."""
    from ..paths.match import removal_reason

    return removal_reason(path, home=scene.home, roots=getattr(scene.workspace, "roots", ())) is not None


def changes_command(scene: Scene) -> str | None:
    """A change to the ``bastion`` command a client's hook runs: a file of that name in a
    ``bin`` folder (wherever ``$(command -v bastion)`` finds it: the parse folds that to
    a bin folder's path) or the interpreter's own ``bin`` folder, made not executable
    (``chmod -x``), replaced, linked over or removed. Only an immune ask: which copy the
    hook runs is not known here (the installed one is :func:`changes_install`'s)."""
    venv = _interpreter_bin()
    for use in scene.path_uses:
        if use.op not in CHANGES:
            continue
        path = use.path.rstrip("/")
        folder, _, name = path.rpartition("/")
        ours = (name == "bastion" and folder.rpartition("/")[2] == "bin") or (venv and within(path, venv))
        if ours and not scene.workspace.contains(path):
            verb = "deletes" if use.op == "delete" else "changes"
            return f"{verb} {use.raw or use.path} (the bastion command, or the interpreter that runs it)"
    return None


@lru_cache(maxsize=1)
def _interpreter_bin() -> str:
    """The ``bin`` folder of the virtual environment bastion runs in ('' outside one)."""
    import sys

    if sys.prefix == sys.base_prefix:
        return ""
    return os.path.join(os.path.realpath(sys.prefix), "bin")


def _leaves(scene: Scene, use: Any) -> bool:
    from ..files.folder_deletes import leaves_folder

    return leaves_folder(use, [cmd for _, cmd in scene.named], scene.home)


def hook_files(env: Any, home: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(relative, absolute)`` paths of the client settings files that hold hook
    entries: each client's project file (plus Claude Code's local one) and user file."""
    env = env or {}
    return _hook_files(env.get("HOME") or home, env.get("CLAUDE_CONFIG_DIR") or "", env.get("CODEX_HOME") or "")


@lru_cache(maxsize=16)
def _hook_files(home: str, claude_dir: str, codex_home: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from ..adapters.client_files import PROJECT_HOOK_FILES, user_hook_file

    user_env = {k: v for k, v in (("HOME", home), ("CLAUDE_CONFIG_DIR", claude_dir), ("CODEX_HOME", codex_home)) if v}
    relative = {name for names in PROJECT_HOOK_FILES.values() for name in names}
    absolute = {os.path.realpath(user_hook_file(client, user_env)) for client in PROJECT_HOOK_FILES}
    return tuple(sorted(relative)), tuple(sorted(absolute))


def _holds_bastion_hook(path: str) -> bool:
    from ..adapters.client_files import MARKER

    try:
        with open(path, "rb") as handle:
            text = handle.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return False
    return MARKER in text or "bastion hook" in text


def deletes_hook_entries(scene: Scene) -> str | None:
    """Deleting a settings file that holds bastion's hook entry (or a folder holding one)."""
    deletes = [use for use in scene.path_uses if use.op == "delete"]
    if not deletes:
        return None
    relative, absolute = hook_files(scene.env, scene.home)
    for use in deletes:
        if use.command == "rmdir":
            continue  # removes empty folders only
        target = use.path.rstrip("/") or "/"
        lower = target.lower()
        candidates = [path for path in absolute if within(path, target)]
        if any(lower.endswith("/" + rel) for rel in relative):
            candidates.append(target)
        elif os.path.isdir(target):  # a folder: the hook files it holds
            for rel in relative:
                folder, name = rel.split("/", 1)
                candidates.append(f"{target}/{name}" if base_name(lower) == folder else f"{target}/{rel}")
        for candidate in dict.fromkeys(candidates):
            if os.path.isfile(candidate) and _holds_bastion_hook(candidate):
                return f"deletes {use.raw or use.path}, which holds bastion's hook ({candidate})"
    return None
