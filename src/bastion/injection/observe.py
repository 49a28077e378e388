"""What the PostToolUse / AfterTool hooks do with a tool's result.

``Guard.check`` is pure: it decides before a call runs and writes nothing. Reading a
secret and receiving injected text happen *during* the call, so the hook that sees the
result records them here, for the ``taint`` layer to use on the session's later calls.
"""

from __future__ import annotations

import os

from ..model import Finding, Kind, Severity, ToolCall
from .scanner import InjectionFinding, is_injection, scan
from .taint import record_injection, record_read, record_secret, record_untrusted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = [
    "observe_tool_result",
    "result_text",
    "warning_for",
    "model_findings",
    "provenance_of",
    "source_kind_of",
    "from_network",
]

#: Environment dumps and secret variables: a shell factor of this kind at least medium.
_ENV_ACCESS = "env_access"
#: Keys of result JSON that label content rather than carry it (MCP ``{"type": "text"}``).
_METADATA_KEYS = frozenset({"type", "mimeType", "mime_type"})


def provenance_of(call: ToolCall) -> str:
    """Where a result came from, for messages: the file, URL, command or tool."""
    if call.kind in (Kind.FILE_READ, Kind.SEARCH) and call.paths:
        return ", ".join(call.paths)
    if call.kind is Kind.WEB_FETCH and isinstance(call.input.get("url"), str):
        return call.input["url"]
    if call.kind is Kind.SHELL and call.command:
        command = " ".join(call.command.split())
        return f"`{command if len(command) <= 60 else command[:59] + '…'}`"
    return call.tool


def source_kind_of(call: ToolCall) -> str:
    """The ``wrap_untrusted`` source kind of a call's result."""
    return {Kind.SHELL: "command", Kind.WEB_FETCH: "web", Kind.MCP: "mcp"}.get(call.kind, "file")


def observe_tool_result(
    call: ToolCall, result_text: str, env: Mapping[str, str] | None = None, *, config: Any = None, facts: Any = None
) -> list[InjectionFinding]:
    """Scan a tool result, record secret reads and injection taint for the session,
    and return the findings (``scanner.is_injection`` says whether to warn).

    A result below the injection threshold that still shows signs of instructions
    taints the session as ``suspicious`` (no warning); a clean result from the network
    as ``untrusted`` (``levels``, ``taint.GUARDS``). With ``review.injectionCheck`` on, a
    grey-zone result's level may then be raised one step by the LLM reviewer.

    Secret reads come from the call itself — a ``Read`` (or ``Grep``) of a credential
    store or a ``.env`` file, a shell command that reads one or dumps the environment —
    and from search output that shows lines of such a file (``.env:3:API_KEY=…``). Nothing is recorded for calls without a session id. Raises
    ``OSError`` when the session state cannot be written — a hook should report that,
    since the session's later calls would otherwise go unguarded. ``facts``: the call's
    check's facts (``Decision.facts``), whose shell analysis is used when they have one.
    """
    env = env if env is not None else os.environ
    text = result_text if isinstance(result_text, str) else str(result_text or "")
    provenance = provenance_of(call)
    if not call.session_id:
        return _reconsidered(call, text, scan(text, provenance), env)
    analysis = _analysis(call, env, facts) if call.kind is Kind.SHELL else None
    findings = _scan_in_session(call, text, provenance, analysis, env)
    paths = _paths_read(call, analysis)
    if call.kind in (Kind.SEARCH, Kind.SHELL):
        paths += _paths_in_output(text)
    for path in dict.fromkeys(paths):
        record_read(call.session_id, path, env, cwd=call.cwd, config=config)
    if analysis is not None and _dumps_environment(analysis):
        record_secret(call.session_id, "the environment", "the command prints environment variables", env)
    from .levels import level_of

    level = level_of(findings)
    if level is not None:  # an injection, or a suspicious text (tainted without a warning)
        record_injection(call.session_id, provenance, env, findings=findings, level=level)
    elif from_network(call, analysis):
        record_untrusted(call.session_id, provenance, env)
    return _reconsidered(call, text, findings, env)


def _scan_in_session(call: ToolCall, text: str, provenance: str, analysis: Any, env: Mapping[str, str]) -> Any:
    """The scan of a session's tool result. A view of an agent instruction file is judged
    as one (lenient); once the file changed during the session, what the session had not
    seen in it is judged strictly too, the findings saying the file changed; an edit of
    one by the agent marks it changed (``instruction_files``). Only calls that name such a
    file touch that state."""
    from .instruction_files import mark_changed, new_text, observe, record_edit, views_of, written_by
    from .weigh import LEVELS

    view = views_of(call, analysis)
    if view is None:
        edited = written_by(call, analysis)
        if edited:
            record_edit(call.session_id, edited, provenance if call.kind is Kind.SHELL else call.tool, env)
        return scan(text, provenance)
    changed = observe(call.session_id, view, text, env)
    trusted = scan(text, provenance, origin="instructions")
    if changed is None:
        return trusted
    strict = scan(new_text(text, changed), provenance, origin="strict")
    if LEVELS.index(trusted.level) > LEVELS.index(strict.level):  # hidden content among the old lines
        return trusted
    return mark_changed(strict, view.path, changed.why)


def _reconsidered(call: ToolCall, text: str, findings: Any, env: Mapping[str, str]) -> Any:
    """The scan's result, or one level up when the LLM reviewer, asked about a grey-zone
    text (``review.injectionCheck``, ``model_check``), says it is an injection — then
    recorded again at that level. Asked only after the scanner's own level is recorded,
    so a model that is slow past the hook's deadline cannot lose it."""
    if not findings or getattr(findings, "level", "") == "injection":
        return findings
    from .model_check import second_opinion

    raised = second_opinion(findings, text, call.cwd, call.session_id, env)
    if raised is not findings and call.session_id:
        record_injection(call.session_id, provenance_of(call), env, findings=raised, level=raised.level)
    return raised


#: Tools whose result is text from the network, besides ``WebFetch`` and MCP tools.
_NETWORK_TOOLS = frozenset({"WebSearch", "ReadMcpResourceTool"})


def from_network(call: ToolCall, analysis: Any = None) -> bool:
    """Whether the call's result is content from the network: a fetched page, a search,
    an MCP result, the output of a shell command that names a host (``curl URL``)."""
    if call.kind in (Kind.WEB_FETCH, Kind.MCP) or call.canonical_tool in _NETWORK_TOOLS:
        return True
    return call.kind is Kind.SHELL and bool(getattr(analysis, "hosts", None))


def _paths_read(call: ToolCall, analysis: Any) -> list[str]:
    if call.kind in (Kind.FILE_READ, Kind.SEARCH):
        return list(call.paths)
    if analysis is None:
        return []
    return [access.resolved or access.path for access in analysis.paths if access.op == "read"]


#: Search output names the file of each hit: "path:line:text" or a bare path per line.
_MAX_OUTPUT_PATHS = 200


def _paths_in_output(text: str) -> list[str]:
    """File names a search result shows lines of (``grep -r``, ``Grep``), so a grep
    that prints a ``.env`` line counts as reading it. At most a few hundred names."""
    import re2

    found: dict[str, None] = {}
    for match in re2.finditer(r"(?m)^([^\s:][^:\n]{0,300}?)(?::\d+)?(?::|$)", text):
        found.setdefault(match.group(1).strip(), None)
        if len(found) >= _MAX_OUTPUT_PATHS:
            break
    return [path for path in found if path and not any(ch.isspace() for ch in path)]


def _dumps_environment(analysis: Any) -> bool:
    return any(
        factor.kind == _ENV_ACCESS and factor.severity is not Severity.LOW for factor in getattr(analysis, "factors", ())
    )


def _analysis(call: ToolCall, env: Mapping[str, str], facts: Any = None) -> Any:
    """The shell analysis of the call's command (None if there is none to be had): the
    check's, when ``facts`` carry it, else computed here."""
    if not call.command:
        return None
    if facts is not None:
        try:
            analysis = facts.analysis
        except Exception:  # noqa: BLE001 - the check could not analyse it either; try afresh
            analysis = None
        if analysis is not None:
            return analysis
    from ..shell.meaning.analyse import analyse
    from ..shell.syntax.parse import parse

    home = env.get("HOME") or os.path.expanduser("~")
    try:
        return analyse(parse(call.command or ""), cwd=call.cwd, home=home)
    except Exception:  # noqa: BLE001 - an unanalysable command reads nothing we can name
        return None


def result_text(result: Any) -> str:
    """The text in a tool result as a client reports it (a string, or JSON such as
    ``{"stdout": …, "stderr": …}``, ``{"file": {"content": …}}`` or MCP ``content``
    blocks): every string in it, in order, one per line."""
    parts: list[str] = []
    stack: list[Any] = [result]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed([v for k, v in item.items() if k not in _METADATA_KEYS]))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return "\n".join(parts)


def warning_for(call: ToolCall, text: str, findings: list[InjectionFinding]) -> str | None:
    """The warning to give the model for this result, or None when it is not an injection."""
    if not is_injection(findings):
        return None
    from .tagging import format_warning

    return format_warning(provenance_of(call), text, findings, tainted=bool(call.session_id))


def model_findings(findings: list[InjectionFinding], text: str) -> list[Finding]:
    """The scanner's findings as ``model.Finding`` (codes ``INJ001``… by kind)."""
    from .kinds import KIND_CODES, UNKNOWN_KIND

    return [
        Finding(KIND_CODES.get(f.kind, UNKNOWN_KIND.code), f.severity, f'{f.message}: "{f.excerpt(text, 60)}"') for f in findings
    ]
