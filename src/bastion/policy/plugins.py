"""Guard plugins (spec 001): small YAML / Markdown files of regex and glob patterns.

A guard file lives in a ``guards/`` directory (the user's, then the project's)::

    id: block-docker          # optional, defaults to the file name without extension
    tool: Bash                # comma separated canonical or client names; empty = all
    patterns:
      - match: "\\bdocker\\b"  # RE2 regex searched in the shell command
        verdict: ask
        reason: Docker commands require approval
      - file_match: ".env*"   # glob on the basename of each file the call names
        verdict: deny
        reason: environment files

Markdown files carry the same mapping as YAML front matter between ``---`` lines.
Patterns are checked in order; the first that matches gives the verdict. A file that
cannot be loaded (bad YAML, an RE2 error, a bad verdict) is reported with its name and
skipped whole, never half-applied. PyYAML is imported only when a guard file exists.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field

from ..model import CANONICAL_TOOLS, TOOL_CATALOG, Kind, ToolCall, tool_spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

VERDICTS = ("allow", "ask", "deny")
GUARD_SUFFIXES = (".yaml", ".yml", ".md")
MAX_GUARD_BYTES = 1 << 20

#: Call kinds whose paths a ``file_match`` pattern looks at.
_FILE_KINDS = frozenset({Kind.FILE_READ, Kind.FILE_WRITE, Kind.FILE_EDIT})


class PluginError(ValueError):
    """A guard file that cannot be loaded; the message names the file."""


@dataclass(frozen=True)
class PluginPattern:
    """One pattern: a regex on the shell command and/or a glob on file basenames."""

    verdict: str
    reason: str
    match: str | None = None
    file_match: str | None = None
    _regex: Any = field(default=None, compare=False, repr=False)

    def hits(self, call: ToolCall, command: str | None = None) -> bool:
        if call.kind is Kind.SHELL:
            text = command if command is not None else call.command
            if self.match is None or text is None:
                return False
            try:
                return self._regex.search(text) is not None
            except UnicodeEncodeError:
                return self._regex.search(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")) is not None
        if call.kind in _FILE_KINDS and self.file_match is not None:
            names = [posixpath.basename(p.rstrip("/")) for p in call.paths]
            if not names:
                return False
            from fnmatch import fnmatchcase  # only a guard with a file_match reaches here

            # an allow must cover every file of the call, a deny or ask any one of them
            combine = all if self.verdict == "allow" else any
            return combine(fnmatchcase(name, self.file_match) for name in names)
        return False


@dataclass(frozen=True)
class PluginGuard:
    """A loaded guard file. ``tools`` holds canonical names (empty: every tool)."""

    id: str
    tools: frozenset[str]
    patterns: tuple[PluginPattern, ...]
    origin: str
    trusted: bool

    def covers(self, call: ToolCall) -> bool:
        return not self.tools or call.canonical_tool in self.tools or call.tool in self.tools

    def evaluate(self, call: ToolCall, *, command: str | None = None) -> tuple[str, str] | None:
        """``(verdict, reason)`` of the first matching pattern, or ``None``.

        ``command`` lets the engine test one sub-command of a compound shell command.
        """
        if not self.covers(call):
            return None
        for pattern in self.patterns:
            if pattern.hits(call, command):
                return pattern.verdict, pattern.reason or f"guard {self.id}"
        return None


# --------------------------------------------------------------------------- loading


def _yaml_error(path: Path, exc: Exception, line_offset: int = 0) -> PluginError:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    problem = " ".join(str(problem).split())
    if mark is not None:
        return PluginError(f"{path}:{mark.line + 1 + line_offset}:{mark.column + 1}: invalid YAML: {problem}")
    return PluginError(f"{path}: invalid YAML: {problem}")


def _read_mapping(path: Path) -> dict[str, Any]:
    """The guard's YAML mapping (front matter for Markdown)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if path.stat().st_size > MAX_GUARD_BYTES:
            raise PluginError(f"{path}: cannot read: larger than {MAX_GUARD_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PluginError(f"{path}: cannot read: {exc}") from None
    offset = 0
    if path.suffix == ".md":
        lines = text.splitlines()
        if not lines or lines[0].strip() != "---":
            raise PluginError(f"{path}: no YAML front matter (the file must start with a '---' line)")
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is None:
            raise PluginError(f"{path}: front matter is not closed by a '---' line")
        text, offset = "\n".join(lines[1:end]), 1
    try:
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        raise _yaml_error(path, exc, offset) from None
    if not isinstance(data, dict):
        raise PluginError(f"{path}: a guard must be a mapping with 'patterns'")
    return data


def _tools(path: Path, value: Any) -> frozenset[str]:
    if value is None or value == "":
        return frozenset()
    if isinstance(value, str):
        names = [n.strip() for n in value.split(",") if n.strip()]
    elif isinstance(value, list) and all(isinstance(n, str) for n in value):
        names = [n.strip() for n in value if n.strip()]
    else:
        raise PluginError(f"{path}: 'tool' must be a comma separated string")
    out = set()
    for name in names:
        if not (name in TOOL_CATALOG or name in CANONICAL_TOOLS or name.startswith("mcp__")):
            raise PluginError(f"{path}: unknown tool {name!r}")
        out.add(tool_spec(name).canonical)
    return frozenset(out)


def _compile_regex(path: Path, index: int, pattern: str) -> Any:
    import re2

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except (re2.error, UnicodeEncodeError) as exc:
        raw = exc.args[0] if exc.args else exc
        msg = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
        raise PluginError(f"{path}: patterns[{index}]: match {pattern!r} is not a valid RE2 regex: {msg}") from None


def _pattern(path: Path, index: int, raw: Any) -> PluginPattern:
    where = f"{path}: patterns[{index}]"
    if not isinstance(raw, dict):
        raise PluginError(f"{where}: must be a mapping")
    verdict = raw.get("verdict")
    if not isinstance(verdict, str) or verdict.strip().lower() not in VERDICTS:
        raise PluginError(f"{where}: verdict must be allow, ask or deny, not {verdict!r}")
    match, file_match, reason = raw.get("match"), raw.get("file_match"), raw.get("reason", "")
    if match is None and file_match is None:
        raise PluginError(f"{where}: needs 'match' (a regex) or 'file_match' (a glob)")
    for key, value in (("match", match), ("file_match", file_match), ("reason", reason)):
        if value is not None and not isinstance(value, str):
            raise PluginError(f"{where}: {key} must be a string")
    regex = _compile_regex(path, index, match) if match is not None else None
    return PluginPattern(verdict.strip().lower(), " ".join(str(reason).split()), match, file_match, regex)


def load_guard(path: Path, trusted: bool) -> tuple[PluginGuard, list[str]]:
    """Load one guard file; raises ``PluginError``. Returns the guard and its notices.

    An untrusted (project) guard keeps only its ask and deny patterns: a repository
    cannot approve anything on its own until the user trusts it.
    """
    data = _read_mapping(path)
    ident = data.get("id", path.stem)
    if not isinstance(ident, str) or not ident.strip():
        raise PluginError(f"{path}: 'id' must be a non-empty string")
    raw_patterns = data.get("patterns")
    if not isinstance(raw_patterns, list) or not raw_patterns:
        raise PluginError(f"{path}: 'patterns' must be a non-empty list")
    tools = _tools(path, data.get("tool"))
    patterns = [_pattern(path, i, raw) for i, raw in enumerate(raw_patterns)]
    notices = []
    if not trusted:
        for i, p in enumerate(patterns):
            if p.verdict == "allow":
                notices.append(
                    f"ignored allow pattern {i} of guard {ident.strip()} from untrusted project file {path}"
                    " (run 'bastion trust' to accept it)"
                )
        patterns = [p for p in patterns if p.verdict != "allow"]
    guard = PluginGuard(ident.strip(), tools, tuple(patterns), str(path), trusted)
    return guard, notices


def guard_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Guard files of one directory, in name order (missing or empty directory: none,
    found without ``pathlib``, which only a folder with files in it loads)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    if not names:
        return []
    from pathlib import Path

    entries = sorted(Path(directory) / name for name in names)
    return [p for p in entries if p.suffix in GUARD_SUFFIXES and p.is_file()]


def load_plugins(dirs: Sequence[tuple[str | os.PathLike[str], bool]]) -> tuple[tuple[PluginGuard, ...], tuple[str, ...], tuple[str, ...]]:
    """Load guards from ``(directory, trusted)`` pairs, lowest precedence first.

    A later file with the same id replaces an earlier one — except that an untrusted
    guard never replaces a trusted one (that would let a repository switch off the
    user's guard); both then apply. Returns ``(guards, errors, notices)``.
    """
    guards: dict[str, PluginGuard] = {}
    errors: list[str] = []
    notices: list[str] = []
    for directory, trusted in dirs:
        for path in guard_files(directory):
            try:
                guard, more = load_guard(path, trusted)
            except PluginError as exc:
                errors.append(str(exc))
                continue
            except Exception as exc:  # e.g. RecursionError on absurd nesting: report, never crash
                errors.append(f"{path}: cannot load guard: {type(exc).__name__}: {' '.join(str(exc).split())}")
                continue
            notices.extend(more)
            previous = guards.get(guard.id)
            if previous is not None and previous.trusted and not guard.trusted:
                notices.append(
                    f"untrusted project guard {guard.id} ({path}) does not replace {previous.origin}; both apply"
                )
                guards[f"{guard.id}@{path}"] = guard
                continue
            guards[guard.id] = guard
    return tuple(guards.values()), tuple(errors), tuple(notices)
