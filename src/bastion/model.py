"""Core types shared by every layer: calls, verdicts, decisions and the tool catalog.

This module is imported on the hook's hot path, so it uses only the standard library
and builds nothing expensive at import time.
"""

from __future__ import annotations

from .precompiled import dataclass, field, replace  # dataclasses' own, with their code compiled once
from .str_enum import StrEnum  # (str, Enum) classes without importing enum

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


class Verdict(StrEnum):
    """What the guard says about a call. ``REVIEW`` exists only inside the engine."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"
    REVIEW = "review"  # layer 7 for unknown shell: the LLM reviewer settles it, else ask


class Kind(StrEnum):
    """What a tool does, independent of how a client spells its name."""

    SHELL = "shell"
    FILE_READ = "file_read"
    FILE_WRITE = "file_write"
    FILE_EDIT = "file_edit"
    SEARCH = "search"
    WEB_FETCH = "web_fetch"
    MCP = "mcp"
    OTHER = "other"


class Tier(StrEnum):
    """Risk tiers of spec 000's PermissionGate, lowest first."""

    READ_ONLY = "read_only"
    LOW_RISK = "low_risk"
    HIGH_RISK = "high_risk"
    DESTRUCTIVE = "destructive"

    @property
    def rank(self) -> int:
        return _TIER_ORDER.index(self)

    def max(self, other: Tier) -> Tier:
        return self if _TIER_ORDER.index(self) >= _TIER_ORDER.index(other) else other


_TIER_ORDER = [Tier.READ_ONLY, Tier.LOW_RISK, Tier.HIGH_RISK, Tier.DESTRUCTIVE]


class Mode(StrEnum):
    """Permission modes, spelled as Claude Code spells them."""

    DEFAULT = "default"
    ACCEPT_EDITS = "acceptEdits"
    PLAN = "plan"
    BYPASS = "bypassPermissions"
    DONT_ASK = "dontAsk"

    @classmethod
    def parse(cls, value: str | None) -> Mode:
        if not value:
            return cls.DEFAULT
        for mode in cls:
            if mode.value.lower() == value.lower():
                return mode
        raise ValueError(
            f"unknown permission mode {value!r} (expected one of: {', '.join(m.value for m in cls)})"
        )


class Source(StrEnum):
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


class Severity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


# --------------------------------------------------------------------------- catalog


@dataclass(frozen=True)
class ToolSpec:
    """How bastion understands one client tool name.

    ``canonical`` is the name rules use (``Bash``, ``Read``, ``Edit`` …), so one rule
    governs the same tool in every client. ``command_keys``, ``workdir_keys`` and
    ``patch_keys`` name **exactly** the input fields the client executes: a shell call
    carrying another command or directory field is refused (``validate``), never guessed.
    ``path_keys`` name the fields holding file paths (every one found is checked).
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
    #: Input fields carrying a patch whose files the call changes (Codex ``apply_patch``).
    patch_keys: tuple[str, ...] = ()
    #: The input field naming the shell program that runs the command (Codex
    #: ``exec_command``'s ``shell``): anything but a known shell is refused.
    program_key: str = ""
    #: Input fields holding a resource URI (an MCP resource read): a ``file://`` one is a
    #: local file the call reads, checked like a ``Read``'s path.
    uri_keys: tuple[str, ...] = ()
    #: The clients whose tool this is (``claude-code``, ``codex``, ``gemini``).
    clients: tuple[str, ...] = ()
    #: For a client's own harmless tool (planning, its todo list, waiting, asking the
    #: user, listing or reading its own background work): why it is harmless. Such a
    #: tool is read-only and allowed; a tool that creates or schedules work is not one.
    internal: str = ""


def _spec(name: str, kind: Kind, tier: Tier, canonical: str | None = None, **kw: Any) -> ToolSpec:
    return ToolSpec(name, kind, tier, canonical or name, **kw)


def _own(name: str, client: str, why: str, canonical: str | None = None) -> ToolSpec:
    """A client's own harmless tool: read-only, allowed, with why."""
    return ToolSpec(name, Kind.OTHER, Tier.READ_ONLY, canonical or name, clients=(client,), internal=why)


_CLAUDE, _CODEX, _GEMINI = ("claude-code",), ("codex",), ("gemini",)
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "dir_path", "directory")

#: Every client tool bastion knows, by client. Internal rows (``_own``) were read from
#: the clients' own bundles: Claude Code 2.1.197, Codex 0.169, Gemini CLI 0.61.
TOOL_CATALOG: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in [
        # Claude Code
        _spec("Bash", Kind.SHELL, Tier.HIGH_RISK, command_keys=("command",), clients=_CLAUDE),
        _spec("KillShell", Kind.OTHER, Tier.LOW_RISK, clients=_CLAUDE),
        _spec("KillBash", Kind.OTHER, Tier.LOW_RISK, "KillShell", clients=_CLAUDE),
        _spec("Read", Kind.FILE_READ, Tier.READ_ONLY, path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("NotebookRead", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("Write", Kind.FILE_WRITE, Tier.LOW_RISK, path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("Edit", Kind.FILE_EDIT, Tier.LOW_RISK, path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("MultiEdit", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("NotebookEdit", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("Glob", Kind.SEARCH, Tier.READ_ONLY, path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("Grep", Kind.SEARCH, Tier.READ_ONLY, path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("LS", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS, clients=_CLAUDE),
        _spec("WebFetch", Kind.WEB_FETCH, Tier.LOW_RISK, clients=_CLAUDE),
        _spec("WebSearch", Kind.OTHER, Tier.READ_ONLY, clients=_CLAUDE),
        _spec("Task", Kind.OTHER, Tier.LOW_RISK, clients=_CLAUDE),
        _spec("Agent", Kind.OTHER, Tier.LOW_RISK, "Task", clients=_CLAUDE),
        _spec("SlashCommand", Kind.OTHER, Tier.LOW_RISK, clients=_CLAUDE),
        _spec("Skill", Kind.OTHER, Tier.LOW_RISK, clients=_CLAUDE),
        _spec("ListMcpResourcesTool", Kind.OTHER, Tier.READ_ONLY, clients=_CLAUDE),
        _spec("ReadMcpResourceTool", Kind.OTHER, Tier.READ_ONLY, uri_keys=("uri",), clients=_CLAUDE),
        _spec("ReadMcpResourceDirTool", Kind.OTHER, Tier.READ_ONLY, "ReadMcpResourceTool", uri_keys=("uri",),
              clients=_CLAUDE),
        _own("TodoWrite", "claude-code", "keeps the session's todo list"),
        _own("TodoRead", "claude-code", "reads the session's todo list"),
        _own("TaskCreate", "claude-code", "adds an item to the session's task list (a todo, not a process)"),
        _own("TaskUpdate", "claude-code", "updates an item of the session's task list"),
        _own("TaskList", "claude-code", "lists the session's task list"),
        _own("TaskGet", "claude-code", "reads one item of the session's task list"),
        _own("TaskOutput", "claude-code", "reads the output of a background task the session started"),
        _own("BashOutput", "claude-code", "reads the output of a background shell the session started", "TaskOutput"),
        _own("CronList", "claude-code", "lists the jobs the session scheduled (creating one is not harmless)"),
        _own("EnterPlanMode", "claude-code", "switches the session into planning, which only restricts it"),
        _own("ExitPlanMode", "claude-code", "shows the plan to the user for approval"),
        _own("AskUserQuestion", "claude-code", "asks the user a question"),
        _own("WaitForMcpServers", "claude-code", "waits for the session's MCP servers to connect"),
        _own("ToolSearch", "claude-code", "looks up the definitions of Claude Code's deferred tools"),
        _own("StructuredOutput", "claude-code", "returns the run's final answer in the requested JSON shape"),
        _own("SendUserMessage", "claude-code", "writes a message to the user"),
        _own("ReportFindings", "claude-code", "reports a review's findings to the user"),
        # Codex CLI (its hooks name shell calls ``Bash`` and patches ``apply_patch``)
        _spec("exec_command", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("cmd",), workdir_keys=("workdir",),
              program_key="shell", clients=_CODEX),
        _spec("unified_exec", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("cmd",), workdir_keys=("workdir",),
              program_key="shell", clients=_CODEX),
        _spec("shell_command", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("command",), workdir_keys=("workdir",),
              clients=_CODEX),
        _spec("shell", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("command",), workdir_keys=("workdir",),
              clients=_CODEX),
        _spec("local_shell", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("command",), workdir_keys=("workdir",),
              clients=_CODEX),
        _spec("container.exec", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("command",), workdir_keys=("workdir",),
              clients=_CODEX),
        _spec("write_stdin", Kind.OTHER, Tier.HIGH_RISK, clients=_CODEX),
        _spec("apply_patch", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", patch_keys=("command", "input", "patch"),
              clients=_CODEX),
        _spec("view_image", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=_PATH_KEYS, clients=_CODEX),
        _spec("list_dir", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS, clients=_CODEX),
        _spec("grep_files", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS, clients=_CODEX),
        _spec("web_search", Kind.OTHER, Tier.READ_ONLY, "WebSearch", clients=_CODEX),
        _spec("list_mcp_resources", Kind.OTHER, Tier.READ_ONLY, "ListMcpResourcesTool", clients=("codex", "gemini")),
        _spec("list_mcp_resource_templates", Kind.OTHER, Tier.READ_ONLY, "ListMcpResourcesTool", clients=_CODEX),
        _spec("read_mcp_resource", Kind.OTHER, Tier.READ_ONLY, "ReadMcpResourceTool", uri_keys=("uri",),
              clients=("codex", "gemini")),
        _own("update_plan", "codex", "updates the plan checklist shown to the user"),
        _own("request_user_input", "codex", "asks the user a question"),
        _own("get_goal", "codex", "reads the thread's goal (setting one makes Codex keep working: not harmless)"),
        _own("wait_agent", "codex", "waits for sub-agents the session started (starting one is not harmless)"),
        # Gemini CLI
        _spec("run_shell_command", Kind.SHELL, Tier.HIGH_RISK, "Bash", command_keys=("command",),
              workdir_keys=("dir_path",), clients=_GEMINI),
        _spec("read_file", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=_PATH_KEYS, clients=("gemini", "codex")),
        _spec("read_many_files", Kind.FILE_READ, Tier.READ_ONLY, "Read", path_keys=("paths", "include"), clients=_GEMINI),
        _spec("write_file", Kind.FILE_WRITE, Tier.LOW_RISK, "Write", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("replace", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("edit", Kind.FILE_EDIT, Tier.LOW_RISK, "Edit", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("list_directory", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("glob", Kind.SEARCH, Tier.READ_ONLY, "Glob", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("search_file_content", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("grep_search", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("grep", Kind.SEARCH, Tier.READ_ONLY, "Grep", path_keys=_PATH_KEYS, clients=_GEMINI),
        _spec("web_fetch", Kind.WEB_FETCH, Tier.LOW_RISK, "WebFetch", clients=_GEMINI),
        _spec("google_web_search", Kind.OTHER, Tier.READ_ONLY, "WebSearch", clients=_GEMINI),
        _spec("save_memory", Kind.OTHER, Tier.LOW_RISK, clients=_GEMINI),
        _own("write_todos", "gemini", "keeps the session's todo list", "TodoWrite"),
        _own("enter_plan_mode", "gemini", "switches the session into planning, which only restricts it"),
        _own("exit_plan_mode", "gemini", "shows the plan to the user for approval"),
        _own("ask_user", "gemini", "asks the user a question"),
        _own("list_background_processes", "gemini", "lists the background commands the session started"),
        _own("read_background_output", "gemini", "reads the output of a background command the session started"),
        _own("tracker_create_task", "gemini", "adds an item to the session's task tracker (a todo, not a process)"),
        _own("tracker_update_task", "gemini", "updates an item of the session's task tracker"),
        _own("tracker_add_dependency", "gemini", "links two items of the session's task tracker"),
        _own("tracker_get_task", "gemini", "reads one item of the session's task tracker"),
        _own("tracker_list_tasks", "gemini", "lists the session's task tracker"),
        _own("tracker_visualize", "gemini", "shows the session's task tracker to the user"),
        _own("update_topic", "gemini", "sets the chapter title shown to the user"),
        _own("complete_task", "gemini", "hands a sub-agent's report back to the session"),
        _own("get_internal_docs", "gemini", "reads Gemini CLI's own documentation"),
    ]
}

#: Arguments naming the directory an MCP tool's command runs in (``mcp_args``).
_MCP_WORKDIR_KEYS = ("cwd", "workdir", "working_directory", "workingDirectory", "dir_path", "directory")

#: Canonical tool names that rules may name (besides ``mcp__…``).
CANONICAL_TOOLS = frozenset(spec.canonical for spec in TOOL_CATALOG.values())


def internal_tools(client: str) -> dict[str, str]:
    """A client's own harmless tools, each with why it is harmless (from the catalog)."""
    return {name: spec.internal for name, spec in TOOL_CATALOG.items() if spec.internal and client in spec.clients}


def tool_spec(name: str) -> ToolSpec:
    """The catalog entry for a tool name; MCP tools and unknown tools get a generic one.

    Unknown tools are ``high_risk`` (spec 000: default deny for what we do not know).
    """
    spec = TOOL_CATALOG.get(name) or _MADE.get(name)
    if spec is not None:
        return spec
    if name.startswith("mcp__"):
        spec = ToolSpec(name, Kind.MCP, Tier.HIGH_RISK, name, workdir_keys=_MCP_WORKDIR_KEYS)
    else:
        spec = ToolSpec(name, Kind.OTHER, Tier.HIGH_RISK, name)
    if len(_MADE) < 4096:  # a spec is frozen: made once per name, not on every property read
        _MADE[name] = spec
    return spec


#: The generic specs :func:`tool_spec` made for MCP and unknown tool names.
_MADE: dict[str, ToolSpec] = {}


# --------------------------------------------------------------------------- the call


def __getattr__(name: str) -> Any:
    """``patch_files`` lives in ``files.patch`` (one reader for every form of a patch);
    it is found here too, without importing it on every call."""
    if name == "patch_files":
        from .files.patch import patch_files

        return patch_files
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class ToolCall:
    """One tool call as an agent asked for it, before it runs."""

    tool: str
    input: Mapping[str, Any]
    cwd: str = "."
    session_id: str = ""
    mode: Mode | None = None
    agent: str = ""

    # ``spec``, ``kind`` … are asked dozens of times a call: each is one catalog lookup,
    # with no function call for a catalog tool. Nothing is kept on the call, whose input
    # a caller may change between checks.

    @property
    def spec(self) -> ToolSpec:
        return TOOL_CATALOG.get(self.tool) or tool_spec(self.tool)

    @property
    def kind(self) -> Kind:
        return (TOOL_CATALOG.get(self.tool) or tool_spec(self.tool)).kind

    @property
    def tier(self) -> Tier:
        return (TOOL_CATALOG.get(self.tool) or tool_spec(self.tool)).tier

    @property
    def canonical_tool(self) -> str:
        return self.spec.canonical

    @property
    def command(self) -> str | None:
        """The shell command string, from the one field the client executes.

        Codex sends ``cmd`` as a string or ``command`` as an argv list such as
        ``["bash", "-lc", "ls"]``; a list is joined with shell quoting so the analyser
        sees exactly what would run.
        """
        spec = TOOL_CATALOG.get(self.tool) or tool_spec(self.tool)
        for key in spec.command_keys:
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
        keys = (TOOL_CATALOG.get(self.tool) or tool_spec(self.tool)).workdir_keys
        if not keys:
            return self.cwd
        import os.path

        for key in keys:
            value = self.input.get(key)
            if isinstance(value, str) and value.strip():
                return os.path.normpath(os.path.join(self.cwd, os.path.expanduser(value)))
        return self.cwd

    @property
    def patch(self) -> str | None:
        """The patch text of a patch tool (Codex ``apply_patch``), or None."""
        return next((v for k in self.spec.patch_keys if isinstance(v := self.input.get(k), str)), None)

    @property
    def paths(self) -> list[str]:
        """File paths the call names (for file and search tools); for a Codex
        ``apply_patch``, the files its patch text adds, updates, deletes or moves to."""
        found: list[str] = []
        patch = self.patch
        if patch:
            from .files.patch import patch_files

            found.extend(patch_files(patch))
        for key in self.spec.path_keys:
            value = self.input.get(key)
            if isinstance(value, str) and value:
                found.append(value)
            elif isinstance(value, list):
                found.extend(v for v in value if isinstance(v, str) and v)
        for key in self.spec.uri_keys:
            value = self.input.get(key)
            if isinstance(value, str):
                from .uris import file_uri_path

                local = file_uri_path(value)
                if local:
                    found.append(local)
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


def trace_entry(layer: str, verdict: str, reason: str, duration_us: int) -> TraceEntry:
    """A :class:`TraceEntry` made without the frozen ``__init__`` (which sets each field
    through ``object.__setattr__``): the engine makes one per layer on every call."""
    entry = _new_object(TraceEntry)
    fields = entry.__dict__
    fields["layer"] = layer
    fields["verdict"] = verdict
    fields["reason"] = reason
    fields["duration_us"] = duration_us
    return entry


_new_object = object.__new__


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


#: What :meth:`Decision.revise` may change (findings and trace only grow, through it).
_REVISABLE = frozenset({
    "verdict", "reason", "layer", "risk", "source", "immune", "no_grant", "suggestions", "interrupt", "updated_input",
})


@dataclass(frozen=True)
class Decision:
    """The guard's answer for one call, with everything needed to explain it.

    Frozen: a layer's post-step, an approver or the session changes a decision only
    through :meth:`revise`, which returns a new one, so two approvers racing on one ask
    never write to the same object and a decision already logged never changes."""

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
    #: What the check derived about the call (the engine's Context: the memoised shell
    #: parse and analysis), so the explainer, the saved rule's examples and the post-tool
    #: scan reuse it instead of parsing again. Not part of the answer: never compared,
    #: printed or serialised.
    facts: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def made(
        cls,
        verdict: Verdict,
        reason: str,
        layer: str,
        risk: Tier,
        findings: list[Finding],
        suggestions: list[str] | Deferred,
        immune: bool,
        source: Source,
        trace: list[TraceEntry] | Deferred,
        no_grant: bool,
        facts: Any,
    ) -> Decision:
        """The engine's decision, made without the frozen ``__init__`` (which sets each of
        its thirteen fields through ``object.__setattr__``): one per call. Every field is
        given, in the order of the class, ``interrupt`` and ``updated_input`` at their
        defaults; ``suggestions`` and ``trace`` may be :class:`Deferred` (worked out when
        first read)."""
        decision = _new_object(cls)
        decision.__dict__.update(
            verdict=verdict, reason=reason, layer=layer, risk=risk, findings=findings, suggestions=suggestions,
            immune=immune, source=source, trace=trace, interrupt=False, no_grant=no_grant, updated_input=None,
            facts=facts,
        )
        return decision

    @property
    def allowed(self) -> bool:
        return self.verdict is Verdict.ALLOW

    def facts_about(self, call: ToolCall) -> Any:
        """The check's :attr:`facts` when they were derived for ``call`` (the same tool,
        input and folder), else None: a permission hook changed the input, or the
        decision was made elsewhere."""
        facts = self.facts
        seen = getattr(facts, "call", None)
        if seen is None:
            return None
        if seen is not call and (seen.tool, dict(seen.input), seen.cwd) != (call.tool, dict(call.input), call.cwd):
            return None
        return facts

    def revise(self, *, note: TraceEntry | None = None, finding: Finding | None = None, **changes: Any) -> Decision:
        """The one way a decision changes: a copy with ``changes`` (only the fields in
        ``_REVISABLE``), ``note`` added to its trace and ``finding`` to its findings (once).
        The lists are copied: the new decision shares nothing mutable with this one."""
        unknown = set(changes) - _REVISABLE
        if unknown:
            raise TypeError(f"a decision's {', '.join(sorted(unknown))} cannot be revised")
        findings = list(self.findings)
        if finding is not None and finding not in findings:
            findings.append(finding)
        trace = [*self.trace, note] if note is not None else _copied(self.__dict__["trace"])
        suggestions = list(changes.pop("suggestions")) if "suggestions" in changes \
            else _copied(self.__dict__["suggestions"])
        return replace(self, findings=findings, trace=trace, suggestions=suggestions, **changes)

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


class Deferred:
    """A field of a decision not worked out yet: ``compute()`` runs when someone first
    reads it. The engine defers what explains a decision, not what decides it: an ask's
    suggested allow rules and the per-layer trace are read by the hook's answer, a
    prompt, ``explain`` and the audit log, never by batch evaluation or a library caller
    that reads the verdict. A failing ``compute`` gives an empty list: a suggestion or a
    trace line is a convenience, never a risk."""

    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[], list[Any]]) -> None:
        self.compute = compute


class _WorkedOutWhenRead:
    """A list field of :class:`Decision` that may hold a :class:`Deferred`: worked out
    on first read, then kept on the decision. The frozen ``__init__`` sets the field
    through :meth:`__set__`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, decision: Decision | None, owner: type) -> Any:
        if decision is None:
            return self
        value = decision.__dict__[self.name]
        if type(value) is Deferred:
            try:
                value = list(value.compute())
            except Exception:  # noqa: BLE001 - see Deferred
                value = []
            decision.__dict__[self.name] = value
        return value

    def __set__(self, decision: Decision, value: Any) -> None:
        decision.__dict__[self.name] = value


def _copied(value: Any) -> Any:
    """A revised decision's copy of a list field: a :class:`Deferred` stays deferred
    (each decision then works out a list of its own), a list is copied."""
    return value if type(value) is Deferred else list(value)


Decision.suggestions = _WorkedOutWhenRead("suggestions")  # type: ignore[assignment]
Decision.trace = _WorkedOutWhenRead("trace")  # type: ignore[assignment]
