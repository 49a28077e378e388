"""What a person needs to decide: what the call does, what it touches, how bad it could be.

The explanation is deterministic (spec 002 §12.5's explainer, without a model): it is
built from bastion's own analysis in well under a millisecond, so the prompt shows it
immediately. It has the four parts of the spec — what the call does, the paths and
hosts it touches, a risk line of at most 15 words, and a level LOW / MEDIUM / HIGH:

* LOW — reading, searching, routine development work;
* MEDIUM — recoverable changes: editing files, installing dependencies, network use,
  commands bastion does not know;
* HIGH — hard to undo or beyond the project: deleting, publishing, privilege, system
  configuration, secrets, anything destructive or protected.

An optional LLM explanation (stage 8) may be added later by the prompt without
blocking it (``approve.terminal`` redraws when it arrives).

``edit_diff`` renders a short diff for Edit / MultiEdit / Write calls.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import Decision, Kind, Severity, Tier, ToolCall

MAX_RISK_WORDS = 15
MAX_DIFF_LINES = 16
#: A file bigger than this is not read to diff a Write against it.
MAX_DIFF_BYTES = 256 * 1024

#: What a risk-factor kind means for the call, in a few words ("it …").
DOES: dict[str, str] = {
    "network_access": "talks to the network",
    "network_exfil": "sends local data over the network",
    "delete_files": "deletes files",
    "recursive_delete": "deletes whole directories",
    "data_loss": "can discard work or data",
    "publishing": "publishes a package or release",
    "code_execution": "runs code",
    "privilege": "runs with elevated privileges",
    "system_modification": "changes system configuration",
    "modify_permissions": "changes permissions",
    "process_management": "signals or stops processes",
    "credential_access": "reads secrets or credentials",
    "env_access": "reads environment variables",
    "persistence": "writes something that runs automatically later",
    "obfuscation": "hides what it runs",
    "pipe_injection": "pipes data into a shell or interpreter",
    "file_write": "writes files",
}

#: What could go wrong, per risk-factor kind (at most 15 words each).
RISKS: dict[str, str] = {
    "network_exfil": "Local data, possibly secrets, could leave this machine.",
    "network_access": "Contacts remote hosts: could send data out or fetch untrusted content.",
    "delete_files": "Deleted files are gone unless version control or a backup has them.",
    "recursive_delete": "A whole directory tree could be deleted irreversibly.",
    "data_loss": "Work, history or remote resources could be lost for good.",
    "publishing": "Publishes to the outside world; a release cannot easily be taken back.",
    "code_execution": "Runs code bastion cannot inspect; it can do anything you can.",
    "privilege": "Runs as another user, possibly root; mistakes affect the whole system.",
    "system_modification": "Changes how this machine is configured, beyond this project.",
    "modify_permissions": "Wrong permissions can expose files or break programs.",
    "process_management": "Could stop programs that are running.",
    "credential_access": "Secrets could be exposed to the agent and its model provider.",
    "env_access": "Environment variables often hold tokens and passwords.",
    "persistence": "Plants something that runs later, every time, without asking.",
    "obfuscation": "What actually runs is hidden; treat it as untrusted code.",
    "pipe_injection": "Whatever text arrives on the pipe runs as code.",
    "file_write": "Writes files; outside the workspace this can affect other programs.",
}

#: Factor kinds that make the level HIGH on their own.
HIGH_KINDS = frozenset(
    {"recursive_delete", "data_loss", "publishing", "privilege", "system_modification", "persistence",
     "network_exfil", "delete_files", "credential_access", "obfuscation", "pipe_injection"}
)

#: Risk lines for calls without shell analysis, by tool kind.
KIND_RISKS: dict[Kind, str] = {
    Kind.FILE_WRITE: "Replaces the file's content; the old content is lost unless versioned.",
    Kind.FILE_EDIT: "Changes the file as shown; check the diff before allowing.",
    Kind.FILE_READ: "The file's content goes to the agent and its model provider.",
    Kind.SEARCH: "File names and contents go to the agent and its model provider.",
    Kind.WEB_FETCH: "Fetched pages may carry instructions aimed at the agent.",
    Kind.MCP: "The MCP server's tool can do whatever that server is allowed to.",
    Kind.OTHER: "bastion has no detail about what this tool does.",
    Kind.SHELL: "bastion cannot tell what this command does; it could do anything you can.",
}
PROTECTED_RISK = "Touches a protected location: settings, hooks, credentials or startup files."


@dataclass
class Explanation:
    """The four parts the prompt shows, plus the optional model explanation."""

    what: str
    risk: str
    level: str  # LOW | MEDIUM | HIGH
    paths: list[str] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    #: Filled in later by an LLM explainer, if there is one.
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "risk": self.risk, "level": self.level, "paths": list(self.paths),
                "hosts": list(self.hosts), "detail": self.detail}


def clip_words(text: str, limit: int = MAX_RISK_WORDS) -> str:
    """At most ``limit`` words (the risk line is read at a glance)."""
    words = text.split()
    return text if len(words) <= limit else " ".join(words[:limit]).rstrip(",;:.") + " …"


def _show_path(path: str, cwd: str) -> str:
    """A path relative to the call's directory when it is inside it, else absolute."""
    if cwd and (path == cwd or path.startswith(cwd.rstrip("/") + "/")):
        rel = os.path.relpath(path, cwd)
        return rel if rel != "." else "./"
    return path


def _level(decision: Decision, kinds: Sequence[str], worst: Severity | None) -> str:
    if decision.immune or decision.no_grant or decision.risk is Tier.DESTRUCTIVE:
        return "HIGH"
    if worst in (Severity.HIGH, Severity.CRITICAL) or any(kind in HIGH_KINDS for kind in kinds):
        return "HIGH"
    if decision.risk is Tier.READ_ONLY and worst in (None, Severity.LOW):
        return "LOW"
    return "MEDIUM"


_RANK = {Severity.LOW: 0, Severity.MEDIUM: 1, Severity.HIGH: 2, Severity.CRITICAL: 3}


def _short_name(argv: Sequence[str]) -> str:
    """What runs, in at most three words: ``git push``, ``npm run build``, ``frobnicate``."""
    from ..policy.suggest import identity_length

    try:
        length = identity_length(argv)
    except Exception:  # noqa: BLE001 - shells and interpreters: their own name is enough
        length = 1
    words = [argv[0].rsplit("/", 1)[-1], *argv[1:min(length, 3)]]
    return " ".join(w for w in words if not w.startswith("-")) or argv[0]


def _shell_facts(call: ToolCall, decision: Decision, home: str) -> tuple[Any, Any]:
    """``(parsed, analysis)`` of the call's command: the ones the check computed when the
    decision carries them, else computed here."""
    facts = decision.facts_about(call)
    if facts is not None:
        try:
            parsed, analysis = facts.parsed, facts.analysis
        except Exception:  # noqa: BLE001 - the check failed on it already; try afresh below
            parsed = analysis = None
        if parsed is not None and analysis is not None:
            return parsed, analysis
    from ..shell.meaning.analyse import analyse
    from ..shell.syntax.parse import parse

    parsed = parse(call.command or "")
    return parsed, analyse(parsed, cwd=call.cwd, home=home, workspace_roots=(call.cwd,))


def _shell(call: ToolCall, decision: Decision, home: str) -> Explanation:
    parsed, analysis = _shell_facts(call, decision, home)
    from ..shell.catalog.catalog import PRIVILEGE

    names = list(dict.fromkeys(
        " ".join([*(w for w in cmd.wrappers if w in PRIVILEGE), _short_name(cmd.argv)])
        for cmd in parsed.commands if cmd.name
    ))
    factors = [f for f in analysis.factors if f.severity is not Severity.LOW] or list(analysis.factors)
    ranked = sorted(factors, key=lambda f: (-_RANK[f.severity], f.kind not in HIGH_KINDS))
    kinds = list(dict.fromkeys(f.kind for f in ranked))
    if not names:
        what = "Runs a shell command bastion could not break into simple commands."
    elif len(names) == 1:
        what = f"Runs {names[0]}"
    else:
        what = f"Runs {len(parsed.commands)} commands: {', '.join(names[:6])}{' …' if len(names) > 6 else ''}"
    does = [DOES[k] for k in kinds if k in DOES]
    if does:
        what += f"; it {', '.join(does[:3])}"
    if parsed.complex:
        what += f" (too complex to analyse fully: {parsed.reason})"
    if not what.endswith("."):
        what += "."
    worst = max((f.severity for f in factors), key=lambda s: _RANK[s], default=None)
    if kinds:
        risk = RISKS.get(kinds[0], KIND_RISKS[Kind.SHELL])
    elif decision.immune:
        risk = PROTECTED_RISK
    else:
        risk = KIND_RISKS[Kind.SHELL]
    paths = [f"{access.op} {_show_path(access.resolved, call.cwd)}" for access in analysis.paths]
    return Explanation(what, clip_words(risk), _level(decision, kinds, worst), list(dict.fromkeys(paths)), list(analysis.hosts))


def _other(call: ToolCall, decision: Decision) -> Explanation:
    kind = call.kind
    paths = [_show_path(os.path.normpath(os.path.join(call.cwd, p)), call.cwd) for p in call.paths]
    hosts: list[str] = []
    target = ", ".join(paths) or "a file"
    if kind is Kind.FILE_WRITE:
        exists = any(os.path.exists(os.path.join(call.cwd, p)) for p in call.paths)
        what = f"{'Overwrites' if exists else 'Creates'} {target}."
    elif kind is Kind.FILE_EDIT:
        what = f"Edits {target}."
    elif kind is Kind.FILE_READ:
        what = f"Reads {target}."
    elif kind is Kind.SEARCH:
        what = f"Searches {target if paths else 'the working directory'}."
    elif kind is Kind.WEB_FETCH:
        from urllib.parse import urlsplit

        url = str(call.input.get("url", ""))
        try:
            host = urlsplit(url).hostname
        except ValueError:
            host = None
        hosts = [host] if host else []
        what = f"Fetches {url or 'a web page'}."
    elif kind is Kind.MCP:
        server, tool = call.mcp_server_tool or ("?", "?")
        what = f"Calls tool {tool} of MCP server {server}."
    else:
        what = f"Uses the {call.tool} tool."
    risk = PROTECTED_RISK if decision.immune else KIND_RISKS.get(kind, KIND_RISKS[Kind.OTHER])
    worst = max((f.severity for f in decision.findings), key=lambda s: _RANK[s], default=None)
    level = _level(decision, (), worst)
    if level == "LOW" and kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
        level = "MEDIUM"
    return Explanation(what, clip_words(risk), level, paths, hosts)


def explain(call: ToolCall, decision: Decision, *, home: str | None = None) -> Explanation:
    """The deterministic explanation of an ask (never raises: a failure is explained)."""
    home = home or os.environ.get("HOME") or os.path.expanduser("~")
    try:
        if call.kind is Kind.SHELL and call.command is not None:
            return _shell(call, decision, home)
        return _other(call, decision)
    except Exception as exc:  # noqa: BLE001 - the prompt must still appear
        return Explanation(f"Uses the {call.tool} tool.", f"bastion could not analyse it ({type(exc).__name__}).", "HIGH")


# --------------------------------------------------------------------------- diffs


def _diff(old: str, new: str, name: str) -> list[str]:
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{name}", f"b/{name}", n=1, lineterm="")
    return [line for line in lines if not line.startswith(("---", "+++"))]


def _read_existing(path: str) -> str | None:
    try:
        if os.path.getsize(path) > MAX_DIFF_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def edit_diff(call: ToolCall, *, limit: int = MAX_DIFF_LINES) -> list[str]:
    """A short unified diff of what an Edit, MultiEdit or Write would change ([] for
    other calls). Lines start with ``+``, ``-``, `` `` or ``@@``; long diffs are cut."""
    if call.kind not in (Kind.FILE_EDIT, Kind.FILE_WRITE):
        return []
    data = call.input
    name = (call.paths or ["file"])[0]
    lines: list[str] = []
    edits = data.get("edits")
    if isinstance(edits, list):
        for edit in edits:
            if isinstance(edit, dict):
                lines += _diff(str(edit.get("old_string", "")), str(edit.get("new_string", "")), name)
    elif "old_string" in data or "new_string" in data:
        lines = _diff(str(data.get("old_string", "")), str(data.get("new_string", "")), name)
        if data.get("replace_all"):
            lines.insert(0, "@@ every occurrence @@")
    elif isinstance(data.get("content"), str):
        path = os.path.join(call.cwd, name)
        existing = _read_existing(path) if os.path.isfile(path) else None
        if existing is None and os.path.exists(path):
            lines = ["@@ the existing file is too large to compare @@"]
        lines += _diff(existing or "", data["content"], name)
    elif isinstance(data.get("new_source"), str):  # NotebookEdit
        lines = _diff("", data["new_source"], name)
    elif isinstance(data.get("patch") or data.get("input"), str):  # Codex apply_patch
        lines = str(data.get("patch") or data.get("input")).splitlines()
    if len(lines) > limit:
        lines = lines[:limit] + [f"… {len(lines) - limit} more lines"]
    return lines
