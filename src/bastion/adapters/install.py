"""``bastion install|uninstall CLIENT [--user|--project|--local]``: the hook entry in a
client's settings.

Install merges bastion's hook into the client's JSON settings and changes nothing else:
other tools' hooks stay, an existing bastion entry is updated in place, running it twice
changes nothing the second time. Before the first change it copies the file to
``<file>.bastion-backup``. Uninstall removes exactly bastion's entries; when nothing else
changed since the install, it restores the backup byte for byte (or removes the file
again when install created it).

Two forms of the hook command, one per kind of file (:func:`hook_command`):

* a file only this machine reads (``--user``, Claude Code's ``--local``) names the
  interpreter that has bastion by its absolute path: no version-manager shim on every
  tool call, ``-I`` keeps a project's own folders off ``sys.path``, and ``-S`` runs no
  code of the environment's (``.pth`` files, ``sitecustomize``) before bastion decides
  (:func:`hook_argv`);
* a file a team commits (``--project``) names the ``bastion`` command, so it works for
  everyone who has bastion on ``PATH``, wherever their copy lives.

Both fail closed when bastion is missing: a client treats a hook command that is not
found (exit 127) as a non-blocking error and runs the tool, so the command checks first
and exits 2 — which blocks in Claude Code, Codex and Gemini CLI — saying "bastion is not
installed"; ``|| exit 2`` does the same for a hook that starts but cannot answer.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import state
from .client_files import (
    PROJECT_HOOK_FILES,
    InstallError,
    is_bastion_handler,
    user_hook_file,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

BACKUP_SUFFIX = ".bastion-backup"
#: What a client shows for bastion's hook where it can show a name (Codex's /hooks list,
#: Gemini CLI's hook messages).
HOOK_NAME = "bastion"
SCOPES = ("user", "project", "local")


@dataclass(frozen=True)
class ClientHooks:
    """Where a client keeps its hooks and what bastion adds there."""

    name: str
    #: How people call the client (in messages).
    title: str
    #: (event, matcher) pairs bastion registers.
    events: tuple[tuple[str, str], ...]
    #: Extra keys of bastion's hook handler (timeouts in the client's unit, a name).
    handler: Mapping[str, Any]
    user_file: Callable[[Mapping[str, str]], Path]
    project_file: Callable[[Path], Path]
    #: The project's file for one person, kept out of version control (Claude Code's
    #: ``settings.local.json``); None when the client has none.
    local_file: Callable[[Path], Path] | None = None
    #: Whether a hook can put bastion's question to a person; where it cannot, every
    #: file edit bastion would ask about is refused unless edits are let through.
    can_ask: bool = True


CLIENTS: dict[str, ClientHooks] = {
    "claude-code": ClientHooks(
        "claude-code", "Claude Code",
        events=(("PreToolUse", "*"), ("PostToolUse", "*")),
        handler={"timeout": 30},
        user_file=lambda env: Path(user_hook_file("claude-code", env)),
        project_file=lambda root: root / PROJECT_HOOK_FILES["claude-code"][0],
        local_file=lambda root: root / PROJECT_HOOK_FILES["claude-code"][1],
    ),
    "codex": ClientHooks(
        "codex", "Codex",
        events=(("PreToolUse", "*"), ("PostToolUse", "*")),
        handler={"timeout": 30, "statusMessage": HOOK_NAME},
        user_file=lambda env: Path(user_hook_file("codex", env)),
        project_file=lambda root: root / PROJECT_HOOK_FILES["codex"][0],
        can_ask=False,
    ),
    "gemini": ClientHooks(
        "gemini", "Gemini CLI",
        events=(("BeforeTool", ".*"), ("AfterTool", ".*")),
        handler={"name": HOOK_NAME, "timeout": 30000},
        user_file=lambda env: Path(user_hook_file("gemini", env)),
        project_file=lambda root: root / PROJECT_HOOK_FILES["gemini"][0],
        can_ask=False,
    ),
}


@dataclass
class Result:
    """What installing or removing bastion's hook did to one settings file."""

    path: Path
    changed: bool
    message: str


# --------------------------------------------------------------------------- the command


def hook_command(client: str, python: str | None = None, *, by_name: bool = False, scope: str = "user") -> str:
    """The shell command a client runs for each hook call (``sh -c``): this machine's
    interpreter by its absolute path, or with ``by_name`` the ``bastion`` command found
    on ``PATH`` (for files a team commits). Either way a missing bastion blocks the call
    with "bastion is not installed" instead of the client's non-blocking "not found"."""
    if by_name:
        missing = (f"bastion is not installed: this project runs bastion hook {client} before every tool call, "
                   "so the call is blocked. Install bastion so that the bastion command is on PATH (see its README), "
                   "then run bastion doctor")
        return (f"if command -v bastion >/dev/null 2>&1; then bastion hook {client} || exit 2; "
                f"else echo {shlex.quote(missing)} >&2; exit 2; fi")
    python = python or sys.executable
    missing = (f"bastion is not installed at {python} (moved or removed?), so this tool call is blocked. "
               f"Install bastion again, then run: bastion install {client}{' --local' if scope == 'local' else ''}")
    quoted = shlex.quote(python)
    return (f"if [ -x {quoted} ]; then {shlex.join(hook_argv(client, python))} || exit 2; "
            f"else echo {shlex.quote(missing)} >&2; exit 2; fi")


#: What the interpreter runs for a hook call (``hook.client.cli``): ``-c`` skips the
#: ``runpy`` start of ``-m bastion``.
HOOK_CODE = "from bastion.hook.client import cli; cli()"


def hook_argv(client: str, python: str | None = None) -> list[str]:
    """The hook process as installed: ``PYTHON -I -S -c CODE bastion hook CLIENT``. With
    ``-S`` no ``site`` runs: no ``.pth`` file or ``sitecustomize`` of the environment runs
    inside the guard before it decides, and a fresh hook starts sooner (3% of its
    instructions). CODE first does what ``site`` would have done that matters to bastion,
    as it was when installed (:func:`site_code`), then :data:`HOOK_CODE`. An interpreter
    that cannot be asked, or whose bastion cannot be imported that way, gets ``-I -c
    HOOK_CODE``."""
    python = python or sys.executable
    site = site_code(python)
    if site is None:
        return [python, "-I", "-c", HOOK_CODE, "bastion", "hook", client]
    return [python, "-I", "-S", "-c", site + HOOK_CODE, "bastion", "hook", client]


#: Asked of an interpreter that starts with ``site``.
_SITE_FACTS = "import json, sys; print(json.dumps([sys.prefix, sys.exec_prefix, sys.path]))"


@lru_cache(maxsize=8)
def site_code(python: str) -> str | None:
    """The statements that set for ``python`` what its ``site`` sets: the environment's
    prefixes (a virtual environment's, which bastion's tamper checks read) and ``sys.path``
    as ``site`` leaves it (``site-packages``, and the folders its ``.pth`` files name, such
    as an editable install's, where they put them). None when ``python`` cannot be asked,
    or cannot import bastion's hook with them alone (an install found only by code a
    ``.pth`` file runs)."""
    try:
        done = subprocess.run([python, "-I", "-c", _SITE_FACTS], capture_output=True, text=True, timeout=60,
                              check=True)
        prefix, exec_prefix, path = json.loads(done.stdout.splitlines()[-1])  # after anything a .pth printed
    except (OSError, subprocess.SubprocessError, ValueError, TypeError, IndexError):
        return None
    if not all(isinstance(entry, str) for entry in (prefix, exec_prefix, *path)):
        return None
    code = (f"import sys; sys.prefix, sys.exec_prefix = {_literal(prefix)}, {_literal(exec_prefix)}; "
            f"sys.path[:] = [{', '.join(map(_literal, path))}]; ")
    try:
        subprocess.run([python, "-I", "-S", "-c", code + "import bastion.hook.client"], capture_output=True,
                       timeout=60, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return code


def _literal(text: str) -> str:
    """A Python string literal for ``text`` in ASCII and double quotes, whatever the path
    holds (other scripts' letters, emoji, bytes the file system name could not decode):
    the shell's single quotes and the settings file carry it unchanged."""
    return '"' + "".join(f"\\x{ord(c):02x}" if c in "\"'\\" else c if " " <= c <= "~" else ascii(c)[1:-1]
                         for c in text) + '"'


def stale_hook(command: str, client: str, python: str) -> bool:
    """Whether an installed command of the ``-I -S`` form sets other folders or prefixes
    than ``python``'s ``site`` sets now (bastion reinstalled elsewhere, an editable install
    pointed at another checkout): its hook would decide with another copy of bastion than
    the decision server and the ``bastion`` commands use."""
    written = getattr(parse_hook_command(command), "code", None)
    if written is None or written == HOOK_CODE:  # not the -S form: site sets the folders
        return False
    current = hook_argv(client, python)
    return current[2] == "-S" and written != current[4]


@dataclass(frozen=True)
class HookCommand:
    """What an installed hook command runs: the client it answers for, the interpreter
    by its path (None: the ``bastion`` command on ``PATH``) and the code it gives it with
    ``-c`` (None: another form)."""

    client: str
    python: str | None
    code: str | None = field(default=None, compare=False)


def parse_hook_command(command: str) -> HookCommand | None:
    """The interpreter and client of a command :func:`hook_command` wrote (``PYTHON -I -S
    -c CODE bastion hook CLIENT``, or the earlier ``PYTHON -I -c HOOK_CODE bastion hook
    CLIENT`` and ``PYTHON -I -m bastion hook CLIENT``); None for anything else."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return None
    for i, word in enumerate(words[:-2]):
        if word == "bastion" and words[i + 1] == "hook":
            client = words[i + 2]
            option = i - 2 if i >= 2 and words[i - 2] == "-c" else i - 1  # -c CODE bastion, or -m bastion
            if option >= 0 and words[option] in ("-m", "-c"):
                python_at = option - 1
                while python_at >= 0 and words[python_at] in ("-I", "-S"):
                    python_at -= 1
                code = words[option + 1] if words[option] == "-c" else None
                return HookCommand(client, words[python_at], code) if python_at >= 0 else None
            return HookCommand(client, None)
    return None


def install_hint(extra: str) -> str:
    """A command that adds an optional extra's packages (``mcp``, ``agent-sdk``…) to the
    environment bastion runs in, as it was installed: bastion-guard is not on the package
    index, so ``pip install 'bastion-guard[mcp]'`` would find nothing."""
    from importlib import metadata

    try:
        wanted = [r.split(";")[0].strip() for r in metadata.requires("bastion-guard") or ()
                  if f'extra == "{extra}"' in r]
    except metadata.PackageNotFoundError:
        wanted = []
    packages = " ".join(shlex.quote(r) for r in wanted) or shlex.quote(extra)
    prefix = sys.prefix.replace(os.sep, "/")
    if "/pipx/venvs/" in prefix:
        return f"pipx inject {Path(sys.prefix).name} {packages}"
    if "/uv/tools/" in prefix:
        return f"uv pip install --python {shlex.quote(sys.executable)} {packages}"
    return f"{shlex.quote(sys.executable)} -m pip install {packages}"


# --------------------------------------------------------------------------- JSON editing


def _load(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not UTF-8 text; fix or remove it, then run again") from None
    except json.JSONDecodeError as exc:
        raise InstallError(
            f"{path}:{exc.lineno}:{exc.colno}: not plain JSON ({exc.msg}); bastion will not rewrite it — "
            "fix it (comments are not kept) or add the hook by hand"
        ) from None
    if not isinstance(data, dict):
        raise InstallError(f"{path}: settings must be a JSON object, not {type(data).__name__}")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InstallError(f"{path}: 'hooks' must be an object, not {type(hooks).__name__}")
    return raw, data


def _indent(raw: bytes | None) -> int | str:
    """Keep the file's own indentation (2 spaces when there is nothing to go by)."""
    if raw:
        for line in raw.decode("utf-8", "replace").splitlines()[1:]:
            stripped = line.lstrip(" \t")
            if stripped and len(stripped) < len(line):
                lead = line[: len(line) - len(stripped)]
                return lead if "\t" in lead else len(lead)
    return 2


def _dump(data: dict[str, Any], raw: bytes | None) -> str:
    return json.dumps(data, indent=_indent(raw), ensure_ascii=False) + "\n"


def add_hooks(data: dict[str, Any], spec: ClientHooks, command: str) -> dict[str, Any]:
    """``data`` with bastion's handler in each of the client's events (a copy)."""
    data = strip_hooks(data)
    hooks = data.setdefault("hooks", {})
    for event, matcher in spec.events:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise InstallError(f"'hooks.{event}' must be a list, not {type(groups).__name__}")
        groups.append({"matcher": matcher, "hooks": [{"type": "command", "command": command, **spec.handler}]})
    return data


def strip_hooks(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without bastion's handlers, dropping the groups, events and ``hooks``
    object that only held them; containers that were empty before stay (a copy)."""
    data = copy.deepcopy(data)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    removed_any = False
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(handlers, list) and any(is_bastion_handler(h) for h in handlers):
                removed_any = True
                rest = [h for h in handlers if not is_bastion_handler(h)]
                if not rest:
                    continue
                group = {**group, "hooks": rest}
            kept.append(group)
        if len(kept) == len(groups) and kept == groups:
            continue
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    if removed_any and not hooks:
        del data["hooks"]
    return data


def has_bastion(data: dict[str, Any]) -> bool:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return False
    return any(
        is_bastion_handler(handler)
        for groups in hooks.values() if isinstance(groups, list)
        for group in groups if isinstance(group, dict) and isinstance(group.get("hooks"), list)
        for handler in group["hooks"]
    )


# --------------------------------------------------------------------------- install


def target_file(client: str, scope: str, *, cwd: str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The settings file ``install`` edits for a client and a scope (``user``,
    ``project`` or ``local``)."""
    env = env if env is not None else os.environ
    spec = _spec(client)
    if scope == "user":
        return spec.user_file(env)
    if scope not in SCOPES:
        raise InstallError(f"unknown scope {scope!r} (expected one of: {', '.join(SCOPES)})")
    if scope == "local" and spec.local_file is None:
        raise InstallError(f"{spec.title} has no settings file of its own per person and project; "
                           f"use --user for a hook that names this machine's interpreter, or --project")
    root = project_root(cwd, env)
    return spec.local_file(root) if scope == "local" and spec.local_file else spec.project_file(root)


def project_root(cwd: str | None, env: Mapping[str, str]) -> Path:
    from ..policy.settings import find_project_root

    return Path(find_project_root(os.path.abspath(cwd or os.getcwd()), env=env))


def _spec(client: str) -> ClientHooks:
    try:
        return CLIENTS[client]
    except KeyError:
        raise InstallError(f"unknown client {client!r} (expected one of: {', '.join(CLIENTS)})") from None


def command_for(client: str, scope: str, python: str | None = None) -> str:
    """The hook command for a scope: the project's committed file names ``bastion``,
    files only this machine reads name the interpreter."""
    return hook_command(client, python, by_name=scope == "project", scope=scope)


def install(client: str, scope: str = "user", *, cwd: str | None = None, env: Mapping[str, str] | None = None,
            python: str | None = None, accept_edits: bool = False, trust: bool = False) -> Result:
    """Add (or update) bastion's hook in the client's settings. ``accept_edits`` lets
    ordinary edits inside the project through where the client cannot ask (bastion's
    ``defaultMode``); ``trust`` trusts Codex's hook the way its /hooks review does."""
    env = env if env is not None else os.environ
    spec = _spec(client)
    path = target_file(client, scope, cwd=cwd, env=env)
    if trust and client != "codex":
        raise InstallError(f"--trust is for Codex, which runs a hook only once it is trusted; {spec.title} needs no trust step")
    with _lock(env):
        raw, data = _load(path)
        new = add_hooks(data, spec, command_for(client, scope, python))
        changed = raw is None or new != data
        backup = Path(str(path) + BACKUP_SUFFIX)
        if changed:
            if raw is not None and not has_bastion(data):
                state.write_atomic(backup, raw.decode("utf-8"), mode=path.stat().st_mode & 0o777)
            state.write_atomic(path, _dump(new, raw), mode=0o644 if raw is None else 0o600)
        lines = [f"installed bastion's hook for {spec.title} in {path}" + (f" (backup: {backup})" if backup.exists() else "")
                 if changed else f"bastion is already installed for {spec.title} in {path}"]
        lines += _runs_line(client, scope, python)
        if client == "codex":
            lines += _codex_lines(path, new, scope, cwd, env, trust)
    if client == "gemini" and scope == "project":
        lines.append("Gemini CLI runs a project's hooks only in folders you trust; --user hooks run everywhere.")
    if not spec.can_ask:
        lines += _edits_lines(spec, env, accept_edits)
    elif accept_edits:
        lines.append(f"--accept-edits changes nothing for {spec.title}: it asks you itself, in the mode you choose there.")
    lines.append(f"Check it: bastion doctor {client}")
    return Result(path, changed or trust or accept_edits, "\n".join(lines))


def _runs_line(client: str, scope: str, python: str | None) -> list[str]:
    if scope == "project":
        return ["It runs the bastion command found on PATH, so the file is safe to commit: everyone with bastion "
                "installed is guarded, and for anyone without it every tool call is blocked with "
                "\"bastion is not installed\"."]
    return [f"It runs {python or sys.executable} (this machine only; after moving or removing it, every tool call "
            f"is blocked with \"bastion is not installed\" until you install bastion again and rerun this)."]


def _codex_lines(path: Path, data: dict[str, Any], scope: str, cwd: str | None, env: Mapping[str, str],
                 trust: bool) -> list[str]:
    from . import codex_trust

    lines = []
    if scope == "project":
        lines.append("Codex reads a project's .codex/hooks.json only in a project it trusts (it asks when you "
                     "first open codex there); each person then trusts the hook on their own machine.")
    if trust:
        config, _ = codex_trust.trust(path, data, env)
        lines.append(f"Trusted bastion's hooks for Codex in {config} (what /hooks in codex writes when you press t); "
                     "a changed hook command needs trusting again: rerun this command.")
    else:
        lines.append("Codex runs a hook only once you trust it, and again after any change to its command; until "
                     "then it runs WITHOUT bastion. Trust it: open codex, type /hooks, select each bastion hook and "
                     f"press t — or run: bastion install codex{' --project' if scope == 'project' else ''} --trust")
    return lines


def _edits_lines(spec: ClientHooks, env: Mapping[str, str], accept_edits: bool) -> list[str]:
    if accept_edits:
        path = set_default_mode("acceptEdits", env)
        return [f"File edits inside the project now pass without a question (defaultMode acceptEdits in {path}); "
                "protected files, edits outside the project and shell commands are judged as before. "
                f"{spec.title} sends bastion no mode of its own, so this is the mode bastion uses for it."]
    return [f"File edits: {spec.title} cannot show bastion's questions, so every edit bastion would ask about is "
            "refused (default mode). To let ordinary edits inside the project through, run: "
            f"bastion install {spec.name} --accept-edits"]


def set_default_mode(mode: str, env: Mapping[str, str]) -> Path:
    """Set ``permissions.defaultMode`` in bastion's user settings (the mode used where a
    client sends none: Codex, Gemini CLI), keeping everything else in the file."""
    path = state.config_dir(env) / "settings.json"
    raw, data = _load(path)
    permissions = data.setdefault("permissions", {})
    if not isinstance(permissions, dict):
        raise InstallError(f"{path}: 'permissions' must be an object, not {type(permissions).__name__}")
    if permissions.get("defaultMode") != mode:
        permissions["defaultMode"] = mode
        state.write_atomic(path, _dump(data, raw), mode=0o600)
    return path


def uninstall(client: str, scope: str = "user", *, cwd: str | None = None,
              env: Mapping[str, str] | None = None) -> Result:
    """Remove bastion's hook; restore the file exactly when nothing else changed."""
    env = env if env is not None else os.environ
    spec = _spec(client)
    path = target_file(client, scope, cwd=cwd, env=env)
    backup = Path(str(path) + BACKUP_SUFFIX)
    with _lock(env):
        raw, data = _load(path)
        if raw is None or not has_bastion(data):
            return Result(path, False, f"bastion's hook is not installed for {spec.title} in {path}")
        untrusted = ""
        if client == "codex":
            from . import codex_trust

            config = codex_trust.untrust(path, data, env)
            untrusted = f"; removed its trust entries from {config}" if config else ""
        stripped = strip_hooks(data)
        original = _read_backup(backup)
        before = _loads_or_none(original) if original is not None else None
        if original is not None and before is not None and _normal(strip_hooks(before)) == _normal(stripped):
            state.write_atomic(path, original.decode("utf-8"), mode=path.stat().st_mode & 0o777)
            backup.unlink()
            how = "restored the file as it was before install"
        elif original is None and stripped == {}:
            path.unlink()
            _remove_empty_dir(path.parent)
            how = "removed the file install had created"
        else:
            state.write_atomic(path, _dump(stripped, raw), mode=path.stat().st_mode & 0o777)
            how = "removed bastion's entries" + (f" (the pre-install copy is still at {backup})" if original is not None else "")
    return Result(path, True, f"uninstalled bastion's hook for {spec.title} from {path}: {how}{untrusted}")


def _normal(data: dict[str, Any]) -> dict[str, Any]:
    """Settings compared without empty hook containers (install may have filled them)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    hooks = {event: groups for event, groups in hooks.items() if groups != []}
    rest = {key: value for key, value in data.items() if key != "hooks"}
    return {**rest, "hooks": hooks} if hooks else rest


def _read_backup(backup: Path) -> bytes | None:
    try:
        return backup.read_bytes()
    except OSError:
        return None


def _loads_or_none(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def _remove_empty_dir(folder: Path) -> None:
    """Remove a client folder (``.claude``…) that only the install had put there."""
    if folder.name.startswith("."):
        try:
            folder.rmdir()  # only succeeds when it is empty
        except OSError:
            pass


def _lock(env: Mapping[str, str] | None) -> Any:
    """One install at a time; the lock lives in bastion's state folder, not the client's,
    and only while held: an uninstall leaves no lock behind."""
    return state.passing_lock(state.state_dir(env) / "install")
