"""``bastion replay``: what bastion would have decided on every tool call of a history.

Each call found by ``audit.transcripts`` is made by its client's adapter, as a live hook
call would be, and checked by a :class:`~bastion.engine.Guard` for its working directory
with the settings in force now (``Guard.check``: nothing is logged, counted or granted).
The report counts the verdicts, groups the asks by what they are about (with examples)
and lists every deny in full, secrets redacted. An ask that the client could not have
put to a person (Codex, Gemini CLI, a bypass mode) is counted apart: the hook refuses it.

What the calls touched is judged on the disk as it is now (a script read before it runs,
a file git tracks), not as it was then.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..precompiled import regex
from .targets import targets
from .transcripts import TITLES, FileResult, Recorded

#: Examples kept for each group of asks.
EXAMPLES_PER_GROUP = 3
#: Longest example shown for an ask (a deny is shown whole).
EXAMPLE_CHARS = 160


@dataclass
class Outcome:
    """One replayed call and bastion's answer to it."""

    recorded: Recorded
    tool: str
    verdict: str
    reason: str
    layer: str
    code: str = ""  # the finding the reason comes from, when one does
    target: str = ""
    refused: bool = False  # an ask the client could not have shown: the hook refuses it


@dataclass
class Report:
    """The counts, the asks by group and every deny."""

    files: int = 0
    skipped_files: list[str] = field(default_factory=list)
    unreadable: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: {"allow": 0, "ask": 0, "deny": 0})
    clients: dict[str, int] = field(default_factory=dict)
    refused_asks: int = 0
    asks: dict[str, dict[str, Any]] = field(default_factory=dict)
    denies: list[dict[str, Any]] = field(default_factory=list)

    @property
    def calls(self) -> int:
        return sum(self.verdicts.values())

    def add_file(self, result: FileResult) -> None:
        self.files += 1
        self.unreadable += result.unreadable
        if result.format is None:
            self.skipped_files.append(result.path)

    def add(self, outcome: Outcome) -> None:
        record = outcome.recorded
        self.verdicts[outcome.verdict] = self.verdicts.get(outcome.verdict, 0) + 1
        self.clients[record.client] = self.clients.get(record.client, 0) + 1
        where = {"file": record.file, "line": record.line}
        if outcome.verdict == "deny":
            self.denies.append({"tool": outcome.tool, "call": outcome.target, "reason": outcome.reason,
                                "layer": outcome.layer, "client": record.client,
                                "session": str(record.payload.get("session_id") or ""),
                                "cwd": str(record.payload.get("cwd") or ""), **where})
        elif outcome.verdict == "ask":
            self.refused_asks += outcome.refused
            label = _label(outcome.reason)
            group = self.asks.setdefault("\0".join((outcome.layer, label)), {
                "reason": label, "layer": outcome.layer, "code": outcome.code, "count": 0, "examples": []})
            group["count"] += 1
            example = _clip(outcome.target)
            if len(group["examples"]) < EXAMPLES_PER_GROUP and all(e["call"] != example for e in group["examples"]):
                group["examples"].append({"tool": outcome.tool, "call": example, "reason": outcome.reason, **where})

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls, "files": self.files, "skipped_files": self.skipped_files,
            "unreadable_records": self.unreadable, "verdicts": self.verdicts, "clients": self.clients,
            "asks_refused_by_the_client": self.refused_asks,
            "asks": sorted(self.asks.values(), key=lambda g: (-g["count"], g["reason"])),
            "denies": self.denies,
        }


_PARENTHESISED = regex(r"\([^()]*\)")  # innermost: no parenthesis inside
_MARKS = regex(r"\x00(?:\s*\x00)*")  # a run of marks that replaced them


def _label(reason: str) -> str:
    """What an ask is about, without the call's own words: ``deletes files: rm x`` →
    ``deletes files``; ``unknown command (npx); approval needed`` → ``unknown command (…); approval needed``."""
    head = reason.split(": ", 1)[0]
    while True:  # innermost parentheses first, each becoming one mark
        shorter = _PARENTHESISED.sub("\x00", head)
        if shorter == head:
            return _MARKS.sub("(…)", head).strip()
        head = shorter


def _clip(text: str) -> str:
    """An example on one line: newlines shown as ⏎, at most :data:`EXAMPLE_CHARS`."""
    text = " ⏎ ".join(line.strip() for line in text.strip().splitlines()) or text
    return text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 1] + "…"


# --------------------------------------------------------------------------- deciding


class Replayer:
    """Decides recorded calls: one Guard per working directory, the client's adapter per call."""

    def __init__(self, *, env: Mapping[str, str], isolated: bool = False, settings_files: Iterable[str] = (),
                 mode: str | None = None) -> None:
        self.env = env
        self.isolated = isolated
        self.settings_files = tuple(settings_files)
        self.mode = mode
        self._guards: dict[str, Any] = {}
        self.notices: list[str] = []

    def guard(self, cwd: str) -> Any:
        from ..engine import Guard

        guard = self._guards.get(cwd)
        if guard is None:
            guard = Guard.from_settings(cwd, env=self.env, isolated=self.isolated,
                                        settings_files=self.settings_files, mode=self.mode)
            self._guards[cwd] = guard
            self.notices.extend(line for line in [*guard.policy.errors, *guard.policy.notices]
                                if line not in self.notices)
        return guard

    def decide(self, recorded: Recorded) -> Outcome:
        """bastion's answer to one recorded call; a failure is an ask (never an allow)."""
        from .redact import redact_text

        payload = recorded.payload
        tool = str(payload.get("tool_name") or "")
        shown = targets(payload.get("tool_input"))
        target = redact_text(shown.get("command") or shown.get("path") or shown.get("url") or _compact(payload))
        try:
            adapter, call = self._call(recorded)
            guard = self.guard(call.cwd)
            decision = guard.check(call)
        except Exception as exc:  # noqa: BLE001 - an unreadable call or a failure asks, as the hook does
            detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
            return Outcome(recorded, tool, "ask", f"bastion could not check this call ({detail})", "input",
                           target=target)
        verdict = decision.verdict.value if decision.verdict.value in ("allow", "deny") else "ask"
        refused = verdict == "ask" and adapter is not None and _unattended(adapter, guard, call)
        label = _label(decision.reason)
        code = next((f.code for f in decision.findings if _label(f.message) == label), "")
        return Outcome(recorded, tool, verdict, decision.reason, decision.layer, code, target, refused)

    def _call(self, recorded: Recorded) -> tuple[Any, Any]:
        from ..adapters import claude_code
        from ..hook.run import client_module

        if recorded.client == "calls":
            return None, claude_code.to_call(recorded.payload, agent=str(recorded.payload.get("agent") or ""))
        adapter = client_module(recorded.client)
        return adapter, adapter.to_call(recorded.payload)


def _unattended(adapter: Any, guard: Any, call: Any) -> bool:
    from ..hook.run import unattended_reason

    return unattended_reason(adapter, guard, call) is not None


def _compact(payload: Mapping[str, Any]) -> str:
    try:
        return json.dumps(payload.get("tool_input"), ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return ""


def replay(files: Iterable[tuple[Path, str | None]], replayer: Replayer, *, cwd: str,
           progress: Callable[[int, int], None] | None = None) -> Report:
    """Read each ``(file, format or None)``, decide every call, and report. ``progress``
    is told (files done, calls so far) after each file."""
    from .transcripts import read

    report = Report()
    for done, (path, fmt) in enumerate(files, 1):
        result = read(path, fmt, cwd=cwd)
        report.add_file(result)
        for recorded in result.calls:
            report.add(replayer.decide(recorded))
        if progress is not None:
            progress(done, report.calls)
    return report


# --------------------------------------------------------------------------- the text


def render(report: Report, *, home: str = "") -> str:
    """The report for a person: counts, the asks by group with examples, every deny."""

    def where(item: Mapping[str, Any]) -> str:
        path = str(item["file"])
        if home and path.startswith(home + "/"):
            path = "~" + path[len(home):]
        return f"{path}:{item['line']}"

    total = report.calls
    clients = ", ".join(f"{TITLES.get(name, name)} {count:,}" for name, count in sorted(report.clients.items()))
    lines = [f"bastion replay: {total:,} tool call{'s' if total != 1 else ''} in {report.files:,} "
             f"file{'s' if report.files != 1 else ''}" + (f" ({clients})" if clients else "")]
    if report.skipped_files:
        lines.append(f"  {len(report.skipped_files):,} file(s) in no known format were skipped")
    if report.unreadable:
        lines.append(f"  {report.unreadable:,} record(s) could not be read")
    lines.append("")
    for verdict in ("allow", "ask", "deny"):
        count = report.verdicts.get(verdict, 0)
        share = f"{100 * count / total:5.1f}%" if total else "    -"
        lines.append(f"  {verdict:<6}{count:>8,}  {share}")
    if report.refused_asks:
        lines.append(f"  ({report.refused_asks:,} of the asks would be refused: the client cannot show bastion's "
                     "question — Codex, Gemini CLI, or a bypass mode)")
    groups = report.to_dict()["asks"]
    if groups:
        lines += ["", "Asks, by what they are about:"]
        for group in groups:
            code = f" {group['code']}" if group["code"] else ""
            lines.append(f"  {group['count']:>6,}  {group['reason']}  [{group['layer']}{code}]")
            for example in group["examples"]:
                lines.append(f"          {example['tool']}: {example['call']}")
                lines.append(f"            {where(example)}")
    if report.denies:
        lines += ["", f"Denies (all {len(report.denies):,}):"]
        for deny in report.denies:
            lines.append(f"  {deny['tool']}: " + "\n    ".join(deny["call"].splitlines() or [""]))
            lines.append(f"      {deny['reason']}")
            lines.append(f"      {where(deny)}" + (f"  session {deny['session']}" if deny["session"] else ""))
    elif total:
        lines += ["", "No call would have been denied."]
    return "\n".join(lines)
