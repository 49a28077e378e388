"""Core types shared by every layer: calls, verdicts, decisions and the tool catalog.

This module is imported on the hook's hot path, so it uses only the standard library
and builds nothing expensive at import time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping


class Verdict(str, Enum):
    """What the guard says about a call. ``REVIEW`` exists only inside the engine."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"
    REVIEW = "review"  # layer 7 for unknown shell: the LLM reviewer settles it, else ask


class Kind(str, Enum):
    """What a tool does, independent of how a client spells its name."""

    SHELL = "shell"
    FILE_READ = "file_read"
    FILE_WRITE = "file_write"
    FILE_EDIT = "file_edit"
    SEARCH = "search"
    WEB_FETCH = "web_fetch"
    MCP = "mcp"
    OTHER = "other"


class Tier(str, Enum):
    """Risk tiers of spec 000's PermissionGate, lowest first."""

    READ_ONLY = "read_only"
    LOW_RISK = "low_risk"
    HIGH_RISK = "high_risk"
    DESTRUCTIVE = "destructive"

    @property
    def rank(self) -> int:
        return _TIER_ORDER.index(self)

    def max(self, other: "Tier") -> "Tier":
        return self if _TIER_ORDER.index(self) >= _TIER_ORDER.index(other) else other


_TIER_ORDER = [Tier.READ_ONLY, Tier.LOW_RISK, Tier.HIGH_RISK, Tier.DESTRUCTIVE]


class Mode(str, Enum):
    """Permission modes, spelled as Claude Code spells them."""

    DEFAULT = "default"
    ACCEPT_EDITS = "acceptEdits"
    PLAN = "plan"
    BYPASS = "bypassPermissions"
    DONT_ASK = "dontAsk"

    @classmethod
    def parse(cls, value: str | None) -> "Mode":
        if not value:
            return cls.DEFAULT
        for mode in cls:
            if mode.value.lower() == value.lower():
                return mode
        raise ValueError(
            f"unknown permission mode {value!r} (expected one of: {', '.join(m.value for m in cls)})"
        )


class Source(str, Enum):
    """How a decision was reached (spec 002 §12.8)."""

    CONFIG = "config"
    BUILTIN = "builtin"
    USER_TEMPORARY = "user_temporary"
    USER_PERMANENT = "user_permanent"
    USER_REJECT = "user_reject"
    USER_ABORT = "user_abort"
    HOOK = "hook"
    CLASSIFIER = "classifier"
    MODE = "mode"


class Severity(str, Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


# --------------------------------------------------------------------------- catalog


@dataclass(frozen=True)
class ToolSpec:
    """How bastion understands one client tool name.

    ``canonical`` is the name rules use (``Bash``, ``Read``, ``Edit`` …), so one rule
    governs the same tool in every client. ``command_keys`` and ``path_keys`` name the
    input fields that carry the shell command or the file path.
    """

    name: str
    kind: Kind
    tier: Tier
    canonical: str
    command_keys: tuple[str, ...] = ()
    path_keys: tuple[str, ...] = ()
    #: Input fields naming the directory a shell command runs in (Codex ``workdir``,
    #: Gemini ``dir_path``): relative paths in the command resolve against it.
    workdir_keys: tuple[str, ...] = ()


def _spec(name: str, kind: Kind, tier: Tier, canonical: str | None = None, **kw: Any) -> ToolSpec:
    return ToolSpec(name, kind, tier, canonical or name, **kw)


_SHELL_KEYS = ("command", "cmd")
_WORKDIR_KEYS = ("workdir", "dir_path", "directory")
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "dir_path", "directory")

TOOL_CATALOG: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in [
        # Claude Code
        _spec("Bash", Kind.SHELL, Tier.HIGH_RISK, command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("BashOutput", Kind.OTHER, Tier.READ_ONLY),
        _spec("KillShell", Kind.OTHER, Tier.LOW_RISK),
        _spec("KillBash", Kind.OTHER, Tier.LOW_RISK, "KillShell"),
        _spec("Read", Kind.FILE_READ, Tier.READ_ONLY, path_keys=_PATH_KEYS),
        _spec("NotebookRead", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=_PATH_KEYS),
        _spec("Write", Kind.FILE_WRITE, Tier.LOW_RISK, path_keys=_PATH_KEYS),
        _spec("Edit", Kind.FILE_EDIT, Tier.LOW_RISK, path_keys=_PATH_KEYS),
        _spec("MultiEdit", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS),
        _spec("NotebookEdit", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS),
        _spec("Glob", Kind.SEARCH, Tier.READ_ONLY, path_keys=_PATH_KEYS),
        _spec("Grep", Kind.SEARCH, Tier.READ_ONLY, path_keys=_PATH_KEYS),
        _spec("LS", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS),
        _spec("WebFetch", Kind.WEB_FETCH, Tier.LOW_RISK),
        _spec("WebSearch", Kind.OTHER, Tier.READ_ONLY),
        _spec("Task", Kind.OTHER, Tier.LOW_RISK),
        _spec("TodoWrite", Kind.OTHER, Tier.READ_ONLY),
        _spec("TodoRead", Kind.OTHER, Tier.READ_ONLY),
        _spec("ExitPlanMode", Kind.OTHER, Tier.READ_ONLY),
        _spec("AskUserQuestion", Kind.OTHER, Tier.READ_ONLY),
        _spec("SlashCommand", Kind.OTHER, Tier.LOW_RISK),
        _spec("Agent", Kind.OTHER, Tier.LOW_RISK, "Task"),
        _spec("TaskCreate", Kind.OTHER, Tier.READ_ONLY),
        _spec("TaskUpdate", Kind.OTHER, Tier.READ_ONLY),
        _spec("TaskList", Kind.OTHER, Tier.READ_ONLY),
        _spec("TaskGet", Kind.OTHER, Tier.READ_ONLY),
        _spec("TaskOutput", Kind.OTHER, Tier.READ_ONLY),
        _spec("EnterPlanMode", Kind.OTHER, Tier.READ_ONLY),
        _spec("ListMcpResourcesTool", Kind.OTHER, Tier.READ_ONLY),
        _spec("ReadMcpResourceTool", Kind.OTHER, Tier.READ_ONLY),
        _spec("Skill", Kind.OTHER, Tier.LOW_RISK),
        # Codex CLI
        _spec("shell", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("exec_command", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("local_shell", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("container.exec", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("unified_exec", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("write_stdin", Kind.OTHER, Tier.HIGH_RISK),
        _spec("apply_patch", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS),
        _spec("update_plan", Kind.OTHER, Tier.READ_ONLY),
        _spec("view_image", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=_PATH_KEYS),
        _spec("list_dir", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS),
        _spec("grep_files", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS),
        _spec("web_search", Kind.OTHER, Tier.READ_ONLY, "WebSearch"),
        # Gemini CLI
        _spec("run_shell_command", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=_SHELL_KEYS, workdir_keys=_WORKDIR_KEYS),
        _spec("read_file", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=_PATH_KEYS),
        _spec("read_many_files", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=("paths", "include")),
        _spec("write_file", Kind.FILE_WRITE, Tier.LOW_RISK, "Write", path_keys=_PATH_KEYS),
        _spec("replace", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS),
        _spec("edit", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS),
        _spec("list_directory", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS),
        _spec("glob", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS),
        _spec("search_file_content", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS),
        _spec("grep_search", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS),
        _spec("grep", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS),
        _spec("web_fetch", Kind.WEB_FETCH, Tier.LOW_RISK, "WebFetch"),
        _spec("google_web_search", Kind.OTHER, Tier.READ_ONLY, "WebSearch"),
        _spec("save_memory", Kind.OTHER, Tier.LOW_RISK),
        _spec("write_todos", Kind.OTHER, Tier.READ_ONLY, "TodoWrite"),
    ]
}

#: Canonical tool names that rules may name (besides ``mcp__…``).
CANONICAL_TOOLS = frozenset(spec.canonical for spec in TOOL_CATALOG.values())


def tool_spec(name: str) -> ToolSpec:
    """The catalog entry for a tool name; MCP tools and unknown tools get a generic one.

    Unknown tools are ``high_risk`` (spec 000: default deny for what we do not know).
    """
    spec = TOOL_CATALOG.get(name)
    if spec is not None:
        return spec
    if name.startswith("mcp__"):
        return ToolSpec(name, Kind.MCP, Tier.HIGH_RISK, name)
    return ToolSpec(name, Kind.OTHER, Tier.HIGH_RISK, name)


# --------------------------------------------------------------------------- the call

#: ``apply_patch`` headers that name a file the patch writes, adds, deletes or moves to.
_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


def patch_files(patch: str) -> list[str]:
    """The files a Codex patch touches, so the workspace boundary, protected paths and
    ``acceptEdits`` judge it like any other edit (the patch text names no path field)."""
    files: list[str] = []
    for line in patch.splitlines():
        for header in _PATCH_HEADERS:
            if line.startswith(header) and line[len(header):].strip():
                files.append(line[len(header):].strip())
    return list(dict.fromkeys(files))



@dataclass
class ToolCall:
    """One tool call as an agent asked for it, before it runs."""

    tool: str
    input: Mapping[str, Any]
    cwd: str = "."
    session_id: str = ""
    mode: Mode | None = None
    agent: str = ""

    @property
    def spec(self) -> ToolSpec:
        return tool_spec(self.tool)

    @property
    def kind(self) -> Kind:
        return self.spec.kind

    @property
    def tier(self) -> Tier:
        return self.spec.tier

    @property
    def canonical_tool(self) -> str:
        return self.spec.canonical

    @property
    def command(self) -> str | None:
        """The shell command string, however the client spells it.

        Codex sends ``cmd`` as a string or ``command`` as an argv list such as
        ``["bash", "-lc", "ls"]``; a list is joined with shell quoting so the analyser
        sees exactly what would run.
        """
        for key in self.spec.command_keys:
            value = self.input.get(key)
            if isinstance(value, str):
                return value
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                import shlex

                return shlex.join(value)
        return None

    @property
    def run_dir(self) -> str:
        """Where a shell command runs: the call's directory, or the one its input names
        (``workdir``/``dir_path``). The workspace stays the call's directory either way."""
        import os.path

        for key in self.spec.workdir_keys:
            value = self.input.get(key)
            if isinstance(value, str) and value.strip():
                return os.path.normpath(os.path.join(self.cwd, os.path.expanduser(value)))
        return self.cwd

    @property
    def paths(self) -> list[str]:
        """File paths the call names (for file and search tools); for a Codex
        ``apply_patch``, the files its patch text adds, updates, deletes or moves to."""
        found: list[str] = []
        if self.tool == "apply_patch":
            patch = next((v for k in ("input", "patch", "command") if isinstance(v := self.input.get(k), str)), "")
            found.extend(patch_files(patch))
        for key in self.spec.path_keys:
            value = self.input.get(key)
            if isinstance(value, str) and value:
                found.append(value)
            elif isinstance(value, list):
                found.extend(v for v in value if isinstance(v, str) and v)
        return found

    @property
    def mcp_server_tool(self) -> tuple[str, str] | None:
        """``(server, tool)`` for ``mcp__server__tool`` names."""
        if not self.tool.startswith("mcp__"):
            return None
        rest = self.tool[len("mcp__") :]
        server, _, tool = rest.partition("__")
        return server, tool


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class Finding:
    """A typed fact a layer noticed, such as ``SH006`` for a dangerous variable."""

    code: str
    severity: Severity
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "severity": self.severity.value, "message": self.message}


@dataclass(frozen=True)
class TraceEntry:
    """One layer's part in a decision, with how long it took in microseconds."""

    layer: str
    verdict: str  # allow | ask | deny | review | abstain | skipped | error
    reason: str
    duration_us: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "layer": self.layer,
            "verdict": self.verdict,
            "reason": self.reason,
            "duration_us": self.duration_us,
        }


@dataclass
class LayerResult:
    """What a layer returns when it has an opinion (``None`` means it abstains)."""

    verdict: Verdict
    reason: str
    immune: bool = False
    risk: Tier | None = None
    source: Source = Source.BUILTIN
    findings: list[Finding] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    #: Set when the call is destructive: no session or "always" grant may be offered.
    no_grant: bool = False


@dataclass
class Decision:
    """The guard's answer for one call, with everything needed to explain it."""

    verdict: Verdict
    reason: str
    layer: str
    risk: Tier
    findings: list[Finding] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    immune: bool = False
    source: Source = Source.BUILTIN
    trace: list[TraceEntry] = field(default_factory=list)
    #: The session tripped denial tracking; adapters should stop the agent's turn.
    interrupt: bool = False
    #: No session or "always" grant may be offered for this call.
    no_grant: bool = False
    #: A permission hook's changed tool input (already re-checked); run this instead.
    updated_input: dict[str, Any] | None = None

    @property
    def allowed(self) -> bool:
        return self.verdict is Verdict.ALLOW

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``bastion check`` (a CLI contract: keep it stable)."""
        return {
            "decision": self.verdict.value,
            "reason": self.reason,
            "layer": self.layer,
            "risk": self.risk.value,
            "source": self.source.value,
            "immune": self.immune,
            "interrupt": self.interrupt,
            "findings": [f.to_dict() for f in self.findings],
            "suggestions": list(self.suggestions),
            "trace": [t.to_dict() for t in self.trace],
        } | ({"updated_input": dict(self.updated_input)} if self.updated_input is not None else {})
