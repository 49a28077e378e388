"""Agent instruction files that change while a session runs.

``AGENTS.md``, ``CLAUDE.md``, ``.cursorrules``, ``GEMINI.md`` (``weigh.INSTRUCTION_FILES``)
are meant to address agents, so the scanner judges them leniently (origin
``instructions``: only hidden content counts). That trust is in the file as the session
found it. Text that appears in it *during* the session — someone, or something the agent
was steered by, editing it under the agent — is no more the project's word than a web
page: it is judged with the ``strict`` origin, and the findings say the file changed.

What is judged strictly is the changed file's text *less the lines the session had seen
in it before* (blanked, so offsets hold): an instruction file addresses agents by design
("Notes for agents: always run …"), and judged whole and strictly most ordinary ones look
suspicious (8 of the 20 benign instruction files in ``tests/injection_sets``), so any
edit would taint the session. The old lines are still covered by the lenient scan of the
whole text, where hidden content counts as everywhere.

How a change is seen, from what the PostToolUse hook already has (no file is read):

* **A view's content differs.** The first time a session sees a view of an instruction
  file, the hash of the result text is kept (and the hashes of its lines); a later
  result of the same view with another hash is a change. A view is the ``Read`` of a
  path with its offset and limit, or a read-only shell command that reads that one file
  and talks to no host (``cat AGENTS.md``, ``sed -n 1,80p AGENTS.md``), keyed by its
  words. Different views are never compared: their texts differ anyway.
* **The agent edited it.** A ``Write``/``Edit`` (or a patch) of the file, or a shell
  command that writes it (``echo … >> CLAUDE.md``, ``sed -i``), marks it changed for the
  rest of the session. Decided so because the agent cannot vouch for its own edit: it may
  be writing what an injection told it to, and an instruction file is what every later
  session obeys. (The taint layer also treats such an edit in a tainted session as a
  planted file: ``taint._planted``.)

Once changed, a file stays changed for the session, and the lines seen before the change
are the only ones trusted (fail closed). State: a file beside the session's own
(:func:`state_file`), ``{path: {"views": {view: sha256}, "lines": [hash…], "changed":
why}}``, changed only through ``state.update_json``. What bastion cannot see: a change
between the client loading the file at session start and the session's first read of it.
"""

from __future__ import annotations

import dataclasses
import os

from ..model import Kind, Tier, ToolCall

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any, NamedTuple
else:
    from ..named_tuple import NamedTuple

__all__ = ["Changed", "View", "views_of", "written_by", "observe", "new_text", "mark_changed", "record_edit",
           "is_instruction_file", "state_file"]

#: Files and views kept per session; past this a new one is judged but not remembered.
MAX_FILES = 32
MAX_VIEWS = 16
#: Distinct lines remembered per file (an instruction file past this is unusually long).
MAX_LINES = 2000


class Changed(NamedTuple):
    """A file that changed during the session: why it counts as changed, and the hashes
    of the lines the session had seen in it before."""

    why: str
    known: frozenset[str]


@dataclasses.dataclass(frozen=True)
class View:
    """One way a result shows an instruction file: the file and how it was read."""

    path: str  # absolute, normalised
    view: str  # "Read", "Read 40:20", "`sed -n 1,80p AGENTS.md`"


def is_instruction_file(path: str) -> bool:
    """Whether ``path`` names an agent instruction file (``weigh.origin_of``'s rule)."""
    from .weigh import origin_of

    return origin_of(path) == "instructions"


def _absolute(path: str, cwd: str) -> str:
    return os.path.normpath(os.path.join(cwd or ".", os.path.expanduser(path)))


def views_of(call: ToolCall, analysis: Any) -> View | None:
    """The instruction-file view a call's result shows, or None (most calls: one basename
    check per path). ``analysis``: the shell analysis of a shell call."""
    if call.kind is Kind.FILE_READ:
        paths = call.paths
        if len(paths) != 1 or not is_instruction_file(paths[0]):
            return None
        window = [str(call.input.get(key)) for key in ("offset", "limit", "pages") if call.input.get(key) is not None]
        return View(_absolute(paths[0], call.cwd), " ".join([call.canonical_tool or call.tool, *window]))
    if call.kind is not Kind.SHELL or analysis is None or not call.command:
        return None
    accesses = list(getattr(analysis, "paths", ()) or ())
    files = {access.resolved or _absolute(access.path, call.cwd) for access in accesses}
    if (len(files) != 1 or any(access.op != "read" for access in accesses) or getattr(analysis, "hosts", None)
            or getattr(analysis, "tier", None) is not Tier.READ_ONLY):
        return None
    (path,) = files
    if not is_instruction_file(path):
        return None
    return View(os.path.normpath(path), "`" + " ".join(call.command.split()) + "`")


def written_by(call: ToolCall, analysis: Any) -> list[str]:
    """Instruction files the call wrote (file tools, patches, shell writes), absolute."""
    if call.kind in (Kind.FILE_WRITE, Kind.FILE_EDIT):
        return [_absolute(path, call.cwd) for path in call.paths if is_instruction_file(path)]
    if call.kind is Kind.SHELL and analysis is not None:
        return [os.path.normpath(access.resolved or _absolute(access.path, call.cwd))
                for access in getattr(analysis, "paths", ()) or ()
                if access.op != "read" and is_instruction_file(access.resolved or access.path)]
    return []


def state_file(session_id: str, env: Mapping[str, str]) -> str:
    """This module's file beside the session's own (``state.session_path``): kept apart so
    the taint layer, which reads the session file on most calls, never parses line hashes."""
    from .. import state

    return os.path.splitext(state.session_path(session_id, env))[0] + ".instructions.json"


def _entry(data: dict[str, Any], path: str) -> dict[str, Any] | None:
    """The file's record in the state, made when there is room (None when full)."""
    entry = data.get(path)
    if not isinstance(entry, dict):
        if len(data) >= MAX_FILES:
            return None
        entry = data[path] = {}
    return entry


def _line_hashes(text: str) -> list[str]:
    from ..digest import sha256

    return [sha256(line.encode("utf-8", "replace")).hexdigest()[:12] for line in (raw.strip() for raw in text.splitlines())
            if line]


def observe(session_id: str, view: View, text: str, env: Mapping[str, str]) -> Changed | None:
    """Record this view's content; when the file changed during the session, what
    changed (``Changed``), else None (the first sight of a view is recorded as it is)."""
    from .. import state
    from ..digest import sha256

    digest = sha256(text.encode("utf-8", "replace")).hexdigest()
    found: list[Changed] = []

    def change(data: Any) -> Any:
        data = data if isinstance(data, dict) else {}
        entry = _entry(data, view.path)
        if entry is None:
            return data
        views: dict[str, Any] = entry["views"] if isinstance(entry.get("views"), dict) else {}
        known = [h for h in entry.get("lines") or () if isinstance(h, str)]
        seen = views.get(view.view)
        if isinstance(seen, str) and seen != digest and not entry.get("changed"):
            entry["changed"] = "changed since this session first read it"
        why = entry.get("changed")
        if not (isinstance(why, str) and why):  # as first seen: its lines are the project's word
            if seen is None and len(views) < MAX_VIEWS:
                views[view.view] = digest
            entry["lines"] = list(dict.fromkeys(known + _line_hashes(text)))[:MAX_LINES]
        else:
            found.append(Changed(why, frozenset(known)))
        entry["views"] = views
        return data

    state.update_json(state_file(session_id, env), change, {})
    return found[0] if found else None


def record_edit(session_id: str, paths: Iterable[str], how: str, env: Mapping[str, str]) -> None:
    """Mark ``paths`` changed by the agent (``how``: the tool or command that wrote them)."""
    paths = list(dict.fromkeys(paths))
    if not paths:
        return
    from .. import state

    def change(data: Any) -> Any:
        data = data if isinstance(data, dict) else {}
        for path in paths:
            entry = _entry(data, path)
            if entry is not None and not entry.get("changed"):
                entry["changed"] = f"edited by the agent in this session ({how})"
        return data

    state.update_json(state_file(session_id, env), change, {})


def new_text(text: str, changed: Changed) -> str:
    """``text`` with every line the session saw before the change blanked out (spaces,
    so a finding's offsets still point into ``text``): what the session did not find there."""
    from ..digest import sha256

    out = []
    for raw in text.splitlines(keepends=True):
        line = raw.strip()
        if line and sha256(line.encode("utf-8", "replace")).hexdigest()[:12] in changed.known:
            body = raw.rstrip("\r\n")
            raw = " " * len(body) + raw[len(body):]
        out.append(raw)
    return "".join(out)


def mark_changed(findings: Any, path: str, why: str) -> Any:
    """The scan result with every finding saying that the instruction file changed, so
    the warning and the taint's reason name it."""
    from .scanner import ScanResult

    note = f" [{os.path.basename(path)} {why}]"
    marked = [dataclasses.replace(f, message=f.message + note) for f in findings]
    if not isinstance(findings, ScanResult):
        return marked
    return ScanResult(marked, level=findings.level, probability=findings.probability, signals=findings.signals,
                      origin=findings.origin, features=findings.features)
