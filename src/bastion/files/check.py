"""One question per path: may this call read / write / delete / execute it without asking?

``check_access`` returns every concern about one resolved path, most serious first
(an empty list means the access is fine). The codes, their verdicts and examples are
the records in :data:`CODES`, in order of concern.

FS007 and FS008 are not made here: ``files.landing`` lists what a copy, an extraction or
a patch puts in place and the file layers judge each landed path with this function.

Reads and executions outside the workspace are fine, except credential stores and
``.env`` files; so are writes and deletes of files below a shared temp directory (scratch). FS004/FS005 are left out when FS002 or FS003 already names the path
(same fact, weaker ask), and "it contains bastion's files / a credential store" asks
about a deleted folder are left out when FS001 already denies it; FS006 is independent
and always reported. Every verdict about
a deletion sets ``no_grant``: "always allow" is never offered for removing files.

An unknown ``op`` fails closed: the path is checked as a deletion (the strictest op)
and an immune FS000 ask says why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..paths.match import is_temp, is_temp_dir
from .protected import (
    DEFAULT,
    ProtectionConfig,
    credential_reason,
    protected_reason,
    removal_reason,
    secret_file_reason,
    sensitive_reason,
)
from .workspace import Workspace, is_within, resolve_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from ..named_tuple import NamedTuple

__all__ = ["CodeRecord", "CODES", "PathVerdict", "check_access", "suggest_edit_scope", "OPS"]

#: The access kinds path producers use (file tools and ``shell.meaning.paths.PathAccess.op``).
OPS = frozenset({"read", "write", "delete", "exec"})

class CodeRecord(NamedTuple):
    """One file finding code: verdict, whether it is immune, the ops it concerns, what,
    why, and tool calls (``"Read ~/.aws/credentials"``, ``"Bash rm -rf ~/x"``; ``~`` is the
    home folder, relative paths are in the workspace) that must / must not raise it.
    ``tests/test_registry.py`` runs them through ``Guard.check``."""

    code: str
    verdict: str
    immune: bool
    ops: str
    title: str
    why: str
    match: tuple[str, ...]
    not_match: tuple[str, ...]


#: Order of concern: the first record that applies is the strongest verdict.
CODES: tuple[CodeRecord, ...] = (
    CodeRecord("FS001", "deny", True, "delete", "dangerous removal target",
               "removing the root, a system folder, the home folder or a workspace root cannot be undone",
               ("Bash rm /bin", "Bash mv /usr /tmp/x", "Bash rm ../project"), ("Bash rm -r build",)),
    CodeRecord("FS000", "ask", True, "any", "unusable input (unknown access kind, path not resolved)",
               "a path bastion cannot judge is asked about rather than allowed (fail closed)", (), ()),
    CodeRecord("FS002", "ask", True, "write, delete", "protected file or folder, bastion's own files",
               "these files decide what runs or what is allowed (agent settings, git config, shell startup files)",
               ("Write .bastion/settings.json", "Write ~/.claude/settings.json", "Edit .git/config", "Bash rm ~/.bashrc"),
               ("Write src/app.py", "Read .git/config")),
    CodeRecord("FS003", "ask", True, "every op", "credential store",
               "keys and tokens read into the agent's context can be leaked by any later step",
               ("Read ~/.aws/credentials", "Grep ~/.aws", "Bash ls ~/.ssh"), ("Read src/app.py",)),
    CodeRecord("FS004", "ask", False, "write, delete", "sensitive write target",
               "secret files and security settings written by an agent deserve a look",
               ("Write .env", "Bash chmod 600 secrets.txt"), ("Write src/app.py",)),
    CodeRecord("FS005", "ask", False, "read, exec", "secret file read (.env)",
               "project secret files hold tokens and passwords",
               ("Read .env",), ("Read .env.example",)),
    CodeRecord("FS006", "ask", False, "write, delete", "outside the workspace",
               "the agent was given a project; files elsewhere belong to the person or other projects",
               ("Write /opt/x.txt", "Write ~/notes.txt"), ("Write src/app.py", "Read /etc/hostname", "Write /tmp/fix.py")),
)

_VERB = {"read": "reading", "write": "writing", "delete": "deleting", "exec": "running"}


@dataclass(frozen=True)
class PathVerdict:
    """One concern about one path; the engine turns it into a layer result and a finding."""

    verdict: str  # "deny" | "ask"
    immune: bool  # no mode or broad allow rule may skip it
    code: str  # FS000 … FS006, see CODES
    reason: str  # one line naming the path and why
    path: str  # the resolved path
    no_grant: bool = False  # never offer "always allow" (removals)


def _show(path: str, home: str) -> str:
    """The path as a person reads it: ``~`` for home, control characters escaped."""
    home = home.rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home) :]
    return path if path.isprintable() else repr(path)


def check_access(
    op: str,
    resolved: str,
    *,
    workspace: Workspace,
    home: str,
    config: ProtectionConfig = DEFAULT,
) -> list[PathVerdict]:
    """Every concern about ``op`` on ``resolved`` (from ``resolve_path``), most serious first."""
    if not isinstance(resolved, str) or not resolved.startswith("/") or "\0" in resolved:
        shown = repr(resolved)
        return [PathVerdict("ask", True, "FS000", f"cannot check path {shown}: not a resolved absolute path", str(resolved), True)]
    path = os.path.normpath(resolved)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    home = home if isinstance(home, str) else ""
    name = op.strip().lower() if isinstance(op, str) else ""
    known = name in OPS
    op_ = name if known else "delete"
    deleting = op_ == "delete"
    writing = deleting or op_ == "write"
    verb = _VERB[op_]
    found: list[PathVerdict] = []

    def add(verdict: str, immune: bool, code: str, reason: str) -> None:
        found.append(PathVerdict(verdict, immune, code, reason, path, deleting))

    # the path as shown is worked out only for a concern: most paths raise none
    removal = deleting and (why := removal_reason(path, home=home, roots=workspace.roots))
    if removal:
        add("deny", True, "FS001", f"deleting {_show(path, home)} is blocked: {why}")
    # "it contains …" asks add nothing to a removal that is already denied
    contains = deleting and not removal
    if not known:
        add("ask", True, "FS000", f"unknown access kind {op!r} on {_show(path, home)}: checked as a deletion")
    special = False
    if writing and (why := protected_reason(path, home=home, config=config, deleting=contains)):
        add("ask", True, "FS002", f"{verb} {_show(path, home)} needs approval in every mode: {why}")
        special = True
    if why := credential_reason(path, home=home, config=config, deleting=contains):
        add("ask", True, "FS003", f"{verb} {_show(path, home)} needs approval in every mode: {why}")
        special = True
    if writing and not special and (why := sensitive_reason(path, home=home, config=config)):
        add("ask", False, "FS004", f"{verb} {_show(path, home)} needs approval: {why}")
    if not writing and not special and (why := secret_file_reason(path)):
        add("ask", False, "FS005", f"{verb} {_show(path, home)} needs approval: {why}")
    if writing and not workspace.contains(path) and not _scratch(path, home):
        where = _show(workspace.project_root, home)
        add("ask", False, "FS006", f"{verb} {_show(path, home)} needs approval: it is outside the workspace ({where})")
    return found


def _scratch(path: str, home: str) -> bool:
    """A file below a shared temp directory (``/tmp/fix.py``, ``/tmp/claude/…``): no
    project's and no person's file, and nothing there runs later, so writing or deleting it
    is not "outside the workspace". Protected names and credential stores are judged above
    as anywhere, the path arrives resolved (a link in /tmp into ``~/.ssh`` is judged as
    ``~/.ssh``), and the shell still asks before a recursive delete or a glob there (other
    programs' sockets and folders: ``shell.meaning.checks.files``). A home that lives in
    a temp directory (throw-away test users) is still a home."""
    home = home.rstrip("/")
    return is_temp(path) and not is_temp_dir(path) and not (home and is_within(path, home))


def _rule_escape(part: str) -> str:
    """Escape a literal path component for a gitignore-style rule inside ``Edit(…)``."""
    return "".join("\\" + c if c in "\\*?[()" else c for c in part)


def suggest_edit_scope(resolved: str, *, project_root: str) -> str | None:
    """The narrowest ``Edit`` rule to offer for an approved edit of ``resolved``.

    Files of a skill (``.claude/skills/NAME/…``) get ``Edit(/.claude/skills/NAME/**)``
    — never the whole ``.claude`` folder, which holds settings and hooks (spec 002
    §12.7). Any other file inside the project gets a rule for exactly that file
    (``Edit(/src/app.py)``). None outside the project, for the project root itself, and
    for names a rule cannot spell exactly (leading or trailing spaces, control characters).
    """
    if not isinstance(resolved, str) or not resolved.startswith("/"):
        return None
    root = resolve_path(project_root, cwd="/", home="")
    path = os.path.normpath(resolved)
    if path == root or not is_within(path, root):
        return None
    parts = path[len(root) :].strip("/").split("/")
    lower = [p.lower() for p in parts]
    suffix = ""
    if len(parts) >= 4 and lower[0] == ".claude" and lower[1] == "skills":
        parts, suffix = parts[:3], "/**"
    if any(not p or p != p.strip() or not p.isprintable() for p in parts):
        return None
    return "Edit(/" + "/".join(_rule_escape(p) for p in parts) + suffix + ")"
