"""Settings sources, merging, trust and error handling.

Sources, highest priority first: managed (``state.managed_settings_path``), user
(``config_dir/settings.json``), project (``<root>/.bastion/settings.json``), local
(``<root>/.bastion/settings.local.json``) and flags (``--settings FILE``). The
``permissions`` block of Claude Code's files is imported next to its bastion sibling:
``~/.claude/settings.json`` (claude_user), ``<root>/.claude/settings.json``
(claude_project) and ``<root>/.claude/settings.local.json`` (claude_local).

Merging: rule lists and ``additionalDirectories`` are unions; a scalar (``defaultMode``,
a section key) comes from managed settings when they set it, else from the most
specific file (flags > local > project > user; a bastion file beats the Claude Code file
of the same level). Sections (``sandbox``, ``review`` …) merge key by key, dicts
recursively; lists inside sections are scalars (the more specific file replaces them).

Never loosen by accident: a project's own files (and its guard plugins) only tighten
until the user trusts the project; a broken file, or one over the size limits (see
"limits" below), loses its allow rules, never its deny rules when they can be salvaged;
every problem is a one-line error naming the file.

The warm decision server keeps each project's loaded settings while every file they
came from is unchanged (:func:`cache_policies`, ``policy.cache``): a call then stats
the files and reads none.
"""

from __future__ import annotations

import os
import posixpath
import stat
import time
from dataclasses import dataclass, field, replace

from .. import fastjson, state
from ..core.mode import parse_mode
from ..model import Mode
from ..precompiled import DOTALL, regex
from ..shell.syntax.lazyre import LazyPattern
from .plugins import PluginGuard, load_plugins
from .rules import BEHAVIORS, Rule, RuleError, parse_rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from .cache import PolicyCache

#: Sections bastion's own files may carry; other layers read them from ``Policy.sections``.
#: Sections that can only add protection (``files``: more protected, credential and
#: sensitive paths), so even an untrusted project's own files may set them.
TIGHTEN_ONLY_SECTIONS = frozenset({"files"})
KNOWN_SECTIONS = ("sandbox", "review", "injection", "audit", "hooks", "files", "integrations")
#: Top-level switches, and the sources allowed to set them.
_FLAG_SOURCES = {
    "allowManagedPermissionRulesOnly": ("managed",),
    "importClaudeCodeSettings": ("managed", "user"),
}
_FLAGS = tuple(_FLAG_SOURCES)
_IGNORED_KEYS = frozenset({"$schema"})
_PERMISSION_KEYS = frozenset({"allow", "deny", "ask", "defaultMode", "additionalDirectories"})
_EXAMPLE_KEYS = frozenset({"rule", "match", "not_match", "reason", "comment"})

# --------------------------------------------------------------------------- limits
#
# Every hook call reads every settings file and builds every rule in it, and matches each
# call against the deny, ask and allow rules, so the size of a file is time on every tool
# call. An untrusted repository controls its own ``.bastion/settings.json`` and
# ``.claude/settings*.json``: without a bound, a 1 MB file of 63,000 deny rules kept the
# hook busy past its client's timeout, and Codex and Gemini then run the tool unchecked.
# Real files hold tens of rules, a few hundred where "always allow" answers pile up in a
# local file. A file over a limit is reported (one line naming the file and the limit)
# and loses its allow rules, defaultMode, directories and sections — an oversized file
# grants nothing — while its deny and ask rules are kept as far as they were read.

#: Bytes read from one settings file; the rest is not read at all.
MAX_SETTINGS_BYTES = 1 << 20
#: Rules (allow, deny and ask together) built from one settings file; the largest real
#: lists seen hold a few hundred to 850 accumulated "always allow" rules. Over the limit,
#: deny rules are built first, then ask rules, up to the limit.
MAX_RULES_PER_FILE = 5000
#: Patterns in one file's ``files`` section (protected, credentials and sensitive
#: together). They are compiled into one matcher for the protected-path checks: 5,000
#: cost the hook a second, and RE2 refuses the matcher near 20,000 (every file call then
#: asks). Real sections list a handful. Over the limit, the first ones are kept.
MAX_PATTERNS_PER_FILE = 1000

#: Markers of a project root, nearest ancestor of the working directory first.
ROOT_MARKERS = (".bastion", ".claude", ".git")

#: Scalar precedence, lowest first (managed is applied last, so it wins when it sets one).
_SCALAR_ORDER = ("claude_user", "user", "claude_project", "project", "claude_local", "local", "flags", "managed")
#: Sources that belong to the project and only tighten until it is trusted.
PROJECT_SOURCES = frozenset({"project", "local", "claude_project", "claude_local"})

TRUST_HINT = "(run 'bastion trust' to accept it)"


# --------------------------------------------------------------------------- the result


@dataclass
class Policy:
    """Everything the settings say, merged, with what went wrong and what was ignored."""

    rules: tuple[Rule, ...] = ()
    default_mode: Mode | None = None
    additional_directories: tuple[str, ...] = ()
    plugins: tuple[PluginGuard, ...] = ()
    sections: dict[str, Any] = field(default_factory=dict)
    errors: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    trusted: bool = False
    project_root: str = ""
    files: tuple[str, ...] = ()
    #: Managed settings set ``allowManagedPermissionRulesOnly``.
    managed_rules_only: bool = False

    def rules_for(self, behavior: str) -> tuple[Rule, ...]:
        """The rules with one behavior (``allow``, ``deny`` or ``ask``), in priority order."""
        return tuple(rule for rule in self.rules if rule.behavior == behavior)

    def section(self, name: str) -> dict[str, Any]:
        """One merged section (``{}`` when no file sets it)."""
        value = self.sections.get(name)
        return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class SettingsFile:
    """One settings file and how to read it."""

    source: str  # managed | user | project | local | flags | claude_user | claude_project | claude_local
    path: str  # written as ``str(Path(...))`` would (``state.path_text``): messages and rule origins name it
    base_dir: str  # where relative path rules and directories are anchored
    own: bool  # a bastion file (sections, self-testing rules) or a Claude Code file (permissions only)
    required: bool = False  # a missing file is an error (``--settings FILE``)


@dataclass
class _Loaded:
    """What one file contributes, after validation and trust gating."""

    file: SettingsFile
    exists: bool = False
    rules: list[Rule] = field(default_factory=list)
    default_mode: Mode | None = None
    directories: list[str] = field(default_factory=list)
    sections: dict[str, Any] = field(default_factory=dict)
    flags: dict[str, bool] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- project root and trust


def _home(env: Mapping[str, str], home: str | None) -> str:
    return home or env.get("HOME") or os.path.expanduser("~")


def find_project_root(cwd: str, *, home: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The nearest ancestor of ``cwd`` (itself included) holding ``.bastion``, ``.claude``
    or ``.git``; else ``cwd``. ``~/.claude`` is Claude Code's user folder, not a project
    marker, so it never makes the home directory a project root.
    """
    env = env if env is not None else os.environ
    home_dir = posixpath.normpath(_home(env, home))
    start = posixpath.normpath(os.path.abspath(cwd))
    current = start
    while True:
        for marker in ROOT_MARKERS:
            if marker == ".claude" and current == home_dir:
                continue
            if os.path.exists(os.path.join(current, marker)):
                return current
        parent = posixpath.dirname(current)
        if parent == current:
            return start
        current = parent


def _trust_file(env: Mapping[str, str] | None) -> str:
    return state.path_text(state.state_folder(env), "trusted.json")


def _trust_key(root: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(root))


def _trusted_map(value: Any) -> dict[str, Any]:
    roots = value.get("roots") if isinstance(value, dict) else None
    return dict(roots) if isinstance(roots, dict) else {}


def is_trusted(root: str | os.PathLike[str], env: Mapping[str, str] | None = None) -> bool:
    """Has the user trusted this exact project root (symlinks resolved)?"""
    return _trust_key(root) in _trusted_map(state.read_json(_trust_file(env), {}))


def trusted_roots(env: Mapping[str, str] | None = None) -> list[str]:
    """Every trusted project root."""
    return sorted(_trusted_map(state.read_json(_trust_file(env), {})))


def trust(root: str | os.PathLike[str], env: Mapping[str, str] | None = None) -> None:
    """Trust a project: its own settings may then allow, set modes and sections."""
    key = _trust_key(root)

    def change(value: Any) -> Any:
        roots = _trusted_map(value)
        roots[key] = {"since": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        return {"roots": roots}

    state.update_json(_trust_file(env), change, {})


def untrust(root: str | os.PathLike[str], env: Mapping[str, str] | None = None) -> None:
    """Withdraw trust: the project's files go back to tighten-only."""
    key = _trust_key(root)

    def change(value: Any) -> Any:
        roots = _trusted_map(value)
        roots.pop(key, None)
        return {"roots": roots}

    state.update_json(_trust_file(env), change, {})


# --------------------------------------------------------------------------- reading JSON


#: A JSON string literal (an unterminated one runs to the end of its line) or a comment:
#: one left-to-right pass finds every literal without ever rescanning text.
_TOKENS = regex(r'"(?:[^"\\\n]|\\.)*+"?|//[^\n]*|/\*(?:.*?\*/|.*)', DOTALL)
_NEWLINE = LazyPattern("\n")  # only an error's line:col needs it


class _Text:
    """A settings file's raw text, and where its string literals are (for ``line:col`` in
    error lines). The text is indexed once, on the first error that needs a position, so
    reading stays linear in the file's size however many of its rules are wrong — and a
    file without errors is never indexed."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self._literals: dict[str, int] | None = None
        self._lines: list[int] = []

    def _index(self) -> dict[str, int]:
        if self._literals is None:
            literals: dict[str, int] = {}
            for match in _TOKENS.finditer(self.raw):
                if match.group().startswith('"'):
                    literals.setdefault(match.group(), match.start())
            self._literals = literals
            self._lines = [0, *(match.end() for match in _NEWLINE.finditer(self.raw))]
        return self._literals

    def position(self, literal: str) -> str | None:
        """``line:col`` of the first occurrence of a JSON string ``literal``, quotes
        included (best effort: a literal spelled with other escapes is not found)."""
        index = self._index().get(literal)
        if index is None:
            return None
        from bisect import bisect_right  # only for an error line

        line = bisect_right(self._lines, index)
        return f"{line}:{index - self._lines[line - 1] + 1}"


def _where(path: str, text: _Text, value: str | None, key_path: str) -> str:
    """``FILE:LINE:COL: key.path`` (the position of the string ``value``), for an error
    line; only called once there is an error to report."""
    pos = text.position(fastjson.dumps(value, ensure_ascii=False)) if value is not None else None
    return f"{path}:{pos}: {key_path}" if pos else f"{path}: {key_path}"


def _lenient_json(text: str) -> str:
    """Strip ``//`` and ``/* */`` comments and trailing commas, outside strings."""
    out: list[str] = []
    i, n, in_string = 0, len(text), False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            in_string = ch != '"'
            i += 1
            continue
        if ch == '"':
            in_string = True
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end == -1 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end == -1 else end + 2
            out.append(" ")
            continue
        elif ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "}]":
                i += 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


_RULE_LIST = regex(r'"(deny|ask)"\s*:\s*\[')
_LIST_TOKENS = regex(r'"(?:[^"\\\n]|\\.)*+"?|//[^\n]*|/\*(?:.*?\*/|.*)|[\[\]{}:]', DOTALL)


def _salvage_rules(raw: str) -> dict[str, Any] | None:
    """The deny and ask rules of a file too broken even for the lenient reader (a
    missing brace, a cut-off write, a file read only up to :data:`MAX_SETTINGS_BYTES`):
    every string of a `"deny": [...]` or `"ask": [...]` list, and the ``rule`` of each
    rule object in it, up to the list's end or the end of the text. Losing a deny rule
    would loosen the guard. One pass over the text: each list is scanned once, and the
    search for the next list resumes where the last one ended."""
    found: dict[str, list[str]] = {}
    pos = 0
    while (start := _RULE_LIST.search(raw, pos)) is not None:
        behavior, depth, after_rule_key, pos = start.group(1), 0, False, start.end()
        for token in _LIST_TOKENS.finditer(raw, pos):
            pos, text = token.end(), token.group()
            if text in "[{":
                depth += 1
            elif text in "]}":
                depth -= 1
                if depth < 0:
                    break
            elif text.startswith('"') and (depth == 0 or after_rule_key):
                try:
                    value = fastjson.loads(text)
                except ValueError:
                    value = None
                if isinstance(value, str):
                    found.setdefault(behavior, []).append(value)
            after_rule_key = (after_rule_key or text == '"rule"') and text in ('"rule"', ":")
    return {"permissions": found} if found else None


def _read_bytes(path: str) -> bytes:
    """At most ``MAX_SETTINGS_BYTES + 1`` bytes of a regular file (one more than allowed
    tells an oversized file). Opened without blocking and checked after opening, so a
    FIFO swapped in after a ``stat`` can neither block nor feed bytes forever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or device would block or never end
            raise OSError(0, "not a regular file")
        chunks, left = [], MAX_SETTINGS_BYTES + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _read(file: SettingsFile, out: _Loaded) -> tuple[dict[str, Any] | None, _Text, bool]:
    """``(data, raw text, salvaged)``; ``data`` is None when nothing can be used. A file
    over :data:`MAX_SETTINGS_BYTES`, or not UTF-8, is salvaged: its deny and ask rules
    as far as they can be read, nothing else."""
    path = file.path
    try:
        data_bytes = _read_bytes(path)
        out.exists = True
    except FileNotFoundError:
        out.exists = False
        if file.required:
            out.errors.append(f"{path}: settings file not found")
        return None, _Text(""), False
    except OSError as exc:
        out.exists = True
        out.errors.append(f"{path}: cannot read settings: {exc.strerror or exc}")
        return None, _Text(""), False
    problem = None
    if len(data_bytes) > MAX_SETTINGS_BYTES:
        problem = f"larger than {MAX_SETTINGS_BYTES} bytes, the limit for a settings file"
        data_bytes = data_bytes[:MAX_SETTINGS_BYTES]
    try:
        raw = data_bytes.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raw = data_bytes.decode("utf-8-sig", "replace")
        problem = problem or f"not UTF-8 ({exc.reason} at byte {exc.start})"
    text = _Text(raw)
    if problem is not None:
        salvaged = _salvage_rules(raw)
        if salvaged is None:
            out.errors.append(f"{path}: {problem}; the file is ignored")
            return None, text, False
        out.errors.append(f"{path}: {problem}; only the deny and ask rules read from it are used")
        return salvaged, text, True
    if not raw.strip():
        return {}, text, False
    try:
        data = fastjson.loads(raw)
    except (fastjson.JSONDecodeError, RecursionError) as exc:
        place = f"{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}" if isinstance(exc, fastjson.JSONDecodeError) else "1:1: invalid JSON: nested too deeply"
        where = f"{path}:{place}"
        try:
            data = fastjson.loads(_lenient_json(raw))
        except (ValueError, RecursionError):
            data = _salvage_rules(raw)
        if not isinstance(data, dict) or not data:
            out.errors.append(f"{where}; the file is ignored")
            return None, text, False
        out.errors.append(f"{where}; read leniently, only its deny and ask rules are used")
        return data, text, True
    if not isinstance(data, dict):
        out.errors.append(f"{path}:1:1: settings must be a JSON object, not {type(data).__name__}")
        return None, text, False
    return data, text, False


# --------------------------------------------------------------------------- one file


def _check_examples(rule: Rule, entry: dict[str, Any], where: Callable[[], str], home: str, out: _Loaded) -> bool:
    """Run a self-testing rule's ``match`` / ``not_match`` examples; True when all pass."""
    passed = True
    for key, want in (("match", True), ("not_match", False)):
        examples = entry.get(key, [])
        if isinstance(examples, str):
            examples = [examples]
        if not isinstance(examples, list) or not all(isinstance(e, str) for e in examples):
            out.errors.append(f"{where()}: '{key}' must be a list of strings")
            passed = False
            continue
        for example in examples:
            if rule.matches_example(example, home=home) is not want:
                verb = "should match but does not" if want else "should not match but does"
                kept = "the allow rule is dropped" if rule.behavior == "allow" else f"the {rule.behavior} rule is kept"
                out.errors.append(f"{where()}: rule {rule.text}: example {example!r} {verb}; {kept}")
                passed = False
    return passed


def rule_count(data: dict[str, Any]) -> int:
    """How many rules a settings file's ``permissions`` lists hold (allow, deny and ask)."""
    perms = data.get("permissions")
    if not isinstance(perms, dict):
        return 0
    return sum(len(entries) for behavior in BEHAVIORS if isinstance(entries := perms.get(behavior), list))


def pattern_count(data: dict[str, Any]) -> int:
    """How many path patterns a settings file's ``files`` section lists."""
    files = data.get("files")
    if not isinstance(files, dict):
        return 0
    return sum(len(patterns) for patterns in files.values() if isinstance(patterns, list))


def _first_patterns(files: dict[str, Any]) -> dict[str, Any]:
    """The ``files`` section cut to its first :data:`MAX_PATTERNS_PER_FILE` patterns."""
    budget, kept = MAX_PATTERNS_PER_FILE, {}
    for key, patterns in files.items():
        if isinstance(patterns, list):
            patterns, budget = patterns[:budget], budget - min(budget, len(patterns))
        kept[key] = patterns
    return kept


def _over_limits(data: dict[str, Any], file: SettingsFile, out: _Loaded) -> bool:
    """Report a file over :data:`MAX_RULES_PER_FILE` or :data:`MAX_PATTERNS_PER_FILE`
    (one line each); True when it is over either."""
    rules, patterns = rule_count(data), pattern_count(data) if file.own else 0
    if rules > MAX_RULES_PER_FILE:
        out.errors.append(
            f"{file.path}: {rules} rules, more than the {MAX_RULES_PER_FILE} a settings file may hold; "
            f"only its first {MAX_RULES_PER_FILE} deny and ask rules are used"
        )
    if patterns > MAX_PATTERNS_PER_FILE:
        out.errors.append(
            f"{file.path}: {patterns} patterns in 'files', more than the {MAX_PATTERNS_PER_FILE} a settings file "
            f"may hold; only its first {MAX_PATTERNS_PER_FILE} patterns and its deny and ask rules are used"
        )
    return rules > MAX_RULES_PER_FILE or patterns > MAX_PATTERNS_PER_FILE


def _rules(data: dict[str, Any], text: _Text, file: SettingsFile, home: str, gated: bool, salvage: bool, out: _Loaded) -> None:
    """Build the file's rules; a salvaged file (broken, or over a limit) gives only deny
    and ask rules, and never more than :data:`MAX_RULES_PER_FILE` in all."""
    perms = data.get("permissions", {})
    if not isinstance(perms, dict):
        out.errors.append(f"{_where(file.path, text, 'permissions', 'permissions')} must be an object")
        return
    budget = MAX_RULES_PER_FILE
    for behavior in BEHAVIORS:
        if behavior not in perms or (salvage and behavior == "allow"):
            continue
        entries = perms[behavior]
        if not isinstance(entries, list):
            where = _where(file.path, text, behavior, f"permissions.{behavior}")
            out.errors.append(f"{where} must be a list of rules, not {type(entries).__name__}")
            continue
        for index, entry in enumerate(entries[:budget]):
            _one_rule(entry, index, behavior, text, file, home, gated, out)
        budget -= min(budget, len(entries))


def _one_rule(entry: Any, index: int, behavior: str, text: _Text, file: SettingsFile, home: str, gated: bool, out: _Loaded) -> None:
    key_path = f"permissions.{behavior}[{index}]"
    if isinstance(entry, dict) and file.own:
        rule_text = entry.get("rule")
        if not isinstance(rule_text, str):
            out.errors.append(f"{_where(file.path, text, None, key_path)}: a rule object needs a 'rule' string")
            return
        unknown = sorted(set(entry) - _EXAMPLE_KEYS)
        if unknown:
            out.notices.append(f"{file.path}: {key_path}: unknown keys {', '.join(unknown)} ignored")
    elif isinstance(entry, str):
        rule_text, entry = entry, {}
    else:
        kind = "a rule string or a {\"rule\": ...} object" if file.own else "a rule string"
        out.errors.append(f"{_where(file.path, text, None, key_path)}: expected {kind}, not {type(entry).__name__}")
        return

    def where() -> str:  # positions are looked up only for a rule that has a problem
        return _where(file.path, text, rule_text, key_path)

    try:
        rule = parse_rule(rule_text, behavior, source=file.source, origin=file.path, base_dir=file.base_dir)
    except RuleError as exc:
        out.errors.append(f"{where()}: {exc}; rule ignored")
        return
    if entry and not _check_examples(rule, entry, where, home, out) and behavior == "allow":
        return
    if gated and behavior == "allow":
        out.notices.append(f"ignored allow rule {rule.text} from untrusted project file {file.path} {TRUST_HINT}")
        return
    out.rules.append(rule)


def _resolve_dir(value: str, base_dir: str, home: str) -> str:
    if value == "~" or value.startswith("~/"):
        value = os.path.join(home, value[2:])
    return posixpath.normpath(os.path.join(base_dir or "/", value))


def _scalars(data: dict[str, Any], text: _Text, file: SettingsFile, home: str, gated: bool, out: _Loaded) -> None:
    def at(value: str, key_path: str) -> str:  # only for an error line: no position lookups otherwise
        return _where(file.path, text, value, key_path)

    perms = data.get("permissions", {})
    perms = perms if isinstance(perms, dict) else {}
    if file.own:
        for key in sorted(set(perms) - _PERMISSION_KEYS):
            out.notices.append(f"{file.path}: unknown key permissions.{key} ignored")

    mode = perms.get("defaultMode")
    if mode is not None:
        try:
            parsed = parse_mode(mode) if isinstance(mode, str) else None
        except ValueError as exc:
            out.errors.append(f"{at('defaultMode', 'permissions.defaultMode')}: {exc}")
            parsed = None
        else:
            if parsed is None:
                out.errors.append(f"{at('defaultMode', 'permissions.defaultMode')} must be a string")
        if parsed is not None and gated:
            out.notices.append(f"ignored defaultMode {parsed.value} from untrusted project file {file.path} {TRUST_HINT}")
        elif parsed is not None:
            out.default_mode = parsed

    dirs = perms.get("additionalDirectories")
    if dirs is not None:
        if not isinstance(dirs, list) or not all(isinstance(d, str) and d for d in dirs):
            out.errors.append(f"{at('additionalDirectories', 'permissions.additionalDirectories')} must be a list of directory names")
        elif gated:
            for d in dirs:
                out.notices.append(f"ignored additional directory {d} from untrusted project file {file.path} {TRUST_HINT}")
        else:
            out.directories.extend(_resolve_dir(d, file.base_dir, home) for d in dirs)

    if not file.own:
        return  # from Claude Code files bastion imports only the permissions block
    for key, value in data.items():
        if key == "permissions" or key in _IGNORED_KEYS:
            continue
        if key in _FLAGS:
            if not isinstance(value, bool):
                out.errors.append(f"{at(key, key)} must be true or false")
            else:
                out.flags[key] = value
        elif key in KNOWN_SECTIONS:
            if not isinstance(value, dict):
                out.errors.append(f"{at(key, key)} must be an object, not {type(value).__name__}")
            elif gated and key not in TIGHTEN_ONLY_SECTIONS:
                out.notices.append(f"ignored '{key}' settings from untrusted project file {file.path} {TRUST_HINT}")
            else:
                out.sections[key] = value
        else:
            out.notices.append(f"{file.path}: unknown setting '{key}' ignored")


def load_file(file: SettingsFile, *, home: str, trusted: bool = True) -> _Loaded:
    """Read, validate and (for an untrusted project file) gate one settings file.

    Never raises: the hook must not crash on settings (a crashed hook can let a call
    through), so even an unexpected failure becomes an error line.
    """
    out = _Loaded(file)
    try:
        data, text, salvaged = _read(file, out)
        if data is None:
            return out
        over = _over_limits(data, file, out)
        gated = file.source in PROJECT_SOURCES and not trusted
        # a file over a limit grants nothing: no allow rules, modes, directories or
        # sections; what only tightens (deny and ask rules, 'files') is kept up to the limits
        _rules(data, text, file, home, gated, salvaged or over, out)
        if not (salvaged or over):
            _scalars(data, text, file, home, gated, out)
        elif over and not salvaged and file.own and isinstance(data.get("files"), dict):
            out.sections["files"] = _first_patterns(data["files"])
    except Exception as exc:  # last resort; keeps what was loaded before the failure
        out.errors.append(f"{file.path}: cannot load settings: {type(exc).__name__}: {' '.join(str(exc).split())}")
    return out


# --------------------------------------------------------------------------- all files


def settings_files(
    cwd: str,
    *,
    root: str,
    home: str,
    env: Mapping[str, str],
    isolated: bool,
    extra_files: Sequence[str],
    import_claude: bool,
) -> list[SettingsFile]:
    """The files to read, highest priority first (managed and user lead the list)."""
    path = state.path_text
    files: list[SettingsFile] = []
    if not isolated:
        files.append(SettingsFile("managed", state.managed_settings_file(env), root, True))
        files.append(SettingsFile("user", path(state.config_folder(env), "settings.json"), home, True))
        if import_claude:
            files.append(SettingsFile("claude_user", path(home, ".claude", "settings.json"), home, False))
        files.append(SettingsFile("project", path(root, ".bastion", "settings.json"), root, True))
        if import_claude:
            files.append(SettingsFile("claude_project", path(root, ".claude", "settings.json"), root, False))
        files.append(SettingsFile("local", path(root, ".bastion", "settings.local.json"), root, True))
        if import_claude:
            files.append(SettingsFile("claude_local", path(root, ".claude", "settings.local.json"), root, False))
    for extra in extra_files:
        named = os.path.join(home, extra[2:]) if extra.startswith("~/") else extra
        files.append(SettingsFile("flags", path(cwd, named), root, True, required=True))  # an absolute name stays
    return files


def _deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _union_lists(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Merge a tighten-only section: its lists add up across sources, so no source —
    an untrusted project least of all — can drop another's protections."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, list) and isinstance(merged.get(key), list):
            merged[key] = list(dict.fromkeys([*merged[key], *value]))
        else:
            merged.setdefault(key, value)
    return merged


def _claude_import_off(env: Mapping[str, str], *flag_sets: dict[str, bool]) -> bool:
    if env.get("BASTION_IMPORT_CLAUDE_SETTINGS", "").strip().lower() in ("0", "false", "no", "off"):
        return True
    return any(flags.get("importClaudeCodeSettings") is False for flags in flag_sets)


def load_policy(
    cwd: str,
    *,
    isolated: bool = False,
    extra_files: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    home: str | None = None,
) -> Policy:
    """Read every settings source that applies in ``cwd`` and merge them into a Policy.

    ``isolated``: only built-in defaults and ``extra_files`` — managed, user, project,
    local and Claude Code files and all guard plugins are ignored, so an evaluation gives
    the same answer on every machine. Never raises for bad settings: problems are in
    ``Policy.errors`` (broken) and ``Policy.notices`` (ignored on purpose).
    """
    env = env if env is not None else os.environ
    home = _home(env, home)
    cwd = posixpath.normpath(os.path.abspath(cwd))
    root = find_project_root(cwd, home=home, env=env)
    cache = _CACHE
    if cache is None:
        return _load_policy(cwd, root=root, home=home, env=env, isolated=isolated, extra_files=extra_files)
    extra_files = tuple(extra_files)
    key = (root, os.path.realpath(root), home, isolated, extra_files, cwd if extra_files else "",
           state.managed_settings_file(env), state.config_folder(env), state.state_folder(env),
           env.get("BASTION_IMPORT_CLAUDE_SETTINGS", ""))
    return cache.get(
        key,
        lambda: _watched_paths(cwd, root=root, home=home, env=env, isolated=isolated, extra_files=extra_files),
        lambda: _load_policy(cwd, root=root, home=home, env=env, isolated=isolated, extra_files=extra_files),
    )


#: The warm decision server's settings cache (:func:`cache_policies`); None elsewhere, so
#: a library user or a one-shot hook reads the files on every load.
_CACHE: PolicyCache[Policy] | None = None


def cache_policies(on: bool = True) -> PolicyCache[Policy] | None:
    """Keep loaded settings while their files are unchanged (``policy.cache``); the warm
    decision server turns this on. Returns the cache (None when turned off)."""
    global _CACHE
    if not on:
        _CACHE = None
    elif _CACHE is None:
        from .cache import PolicyCache

        _CACHE = PolicyCache()
    return _CACHE


def _watched_paths(cwd: str, *, root: str, home: str, env: Mapping[str, str], isolated: bool,
                   extra_files: Sequence[str]) -> list[str]:
    """Every file and folder a load in ``cwd`` may read: each settings file (Claude
    Code's too, whether imported or not), the trust list, the guard folders (a guard
    added or removed changes its folder) and the guard files in them (an edit inside one
    does not)."""
    from .plugins import guard_files

    files = settings_files(cwd, root=root, home=home, env=env, isolated=isolated, extra_files=extra_files,
                           import_claude=True)
    paths = [file.path for file in files]
    paths.append(_trust_file(env))
    if not isolated:
        for folder, _trusted in guard_dirs(root, env, trusted=False):
            paths += [str(folder), *(str(path) for path in guard_files(folder))]
    return paths


def _load_policy(cwd: str, *, root: str, home: str, env: Mapping[str, str], isolated: bool,
                 extra_files: Sequence[str]) -> Policy:
    """:func:`load_policy` without the cache: read and merge every file."""
    trusted = is_trusted(root, env)

    files = settings_files(cwd, root=root, home=home, env=env, isolated=isolated, extra_files=extra_files, import_claude=True)
    loaded: list[_Loaded] = []
    seen: set[str] = set()
    # managed and user settings come first: they decide whether Claude Code files are read
    for file in files:
        if file.source in ("managed", "user"):
            loaded.append(load_file(file, home=home, trusted=trusted))
            seen.add(os.path.realpath(file.path))
    import_claude = not _claude_import_off(env, *(item.flags for item in loaded))
    for file in files:
        if file.source in ("managed", "user") or (file.source.startswith("claude_") and not import_claude):
            continue
        real = os.path.realpath(file.path)
        if real in seen and file.source != "flags":
            continue  # the same file reached twice (e.g. the project root is the home directory)
        seen.add(real)
        loaded.append(load_file(file, home=home, trusted=trusted))

    return _merge(loaded, root=root, trusted=trusted, isolated=isolated, env=env)


def _merge(loaded: list[_Loaded], *, root: str, trusted: bool, isolated: bool, env: Mapping[str, str]) -> Policy:
    errors: list[str] = []
    notices: list[str] = []
    rules: list[Rule] = []
    directories: list[str] = []
    managed_only = any(
        item.file.source == "managed" and item.flags.get("allowManagedPermissionRulesOnly") for item in loaded
    )
    for item in loaded:
        errors.extend(item.errors)
        notices.extend(item.notices)
        if managed_only and item.file.source != "managed" and item.rules:
            notices.append(
                f"ignored {len(item.rules)} permission rule(s) from {item.file.path}: managed settings set "
                "allowManagedPermissionRulesOnly"
            )
        else:
            rules.extend(item.rules)
        for directory in item.directories:
            if directory not in directories:
                directories.append(directory)
        for key in item.flags:
            honoured = _FLAG_SOURCES[key]
            if item.file.source not in honoured:
                where = " and ".join(honoured)
                notices.append(f"{item.file.path}: {key} is honoured only in {where} settings")

    by_precedence = sorted(loaded, key=lambda item: _SCALAR_ORDER.index(item.file.source))  # stable: later flags win
    default_mode: Mode | None = None
    sections: dict[str, Any] = {}
    for item in by_precedence:
        if item.default_mode is not None:
            default_mode = item.default_mode
        sections = _deep_merge(sections, {k: v for k, v in item.sections.items() if k not in TIGHTEN_ONLY_SECTIONS})
        for key in TIGHTEN_ONLY_SECTIONS & item.sections.keys():
            sections[key] = _union_lists(sections.get(key, {}), item.sections[key])

    plugins: tuple[PluginGuard, ...] = ()
    if not isolated:
        plugins, plugin_errors, plugin_notices = load_plugins(guard_dirs(root, env, trusted=trusted))
        errors.extend(plugin_errors)
        notices.extend(plugin_notices)
        if managed_only:
            plugins = _without_allows(plugins, notices)

    return Policy(
        rules=tuple(rules),
        default_mode=default_mode,
        additional_directories=tuple(directories),
        plugins=plugins,
        sections=sections,
        errors=tuple(errors),
        notices=tuple(notices),
        trusted=trusted,
        project_root=root,
        files=tuple(item.file.path for item in loaded if item.exists),
        managed_rules_only=managed_only,
    )


def guard_dirs(root: str, env: Mapping[str, str], *, trusted: bool) -> list[tuple[str, bool]]:
    """The guard plugin folders, lowest precedence first, each with whether its guards
    may allow: the user's always, the project's once it is trusted."""
    return [(state.path_text(state.config_folder(env), "guards"), True),
            (state.path_text(root, ".bastion", "guards"), trusted)]


def _without_allows(plugins: tuple[PluginGuard, ...], notices: list[str]) -> tuple[PluginGuard, ...]:
    """Under allowManagedPermissionRulesOnly a guard plugin may still ask or deny, not allow."""
    kept = []
    for guard in plugins:
        patterns = tuple(p for p in guard.patterns if p.verdict != "allow")
        if len(patterns) != len(guard.patterns):
            notices.append(f"ignored allow patterns of guard {guard.id} ({guard.origin}): managed settings set allowManagedPermissionRulesOnly")
        kept.append(replace(guard, patterns=patterns))
    return tuple(kept)


# --------------------------------------------------------------------------- rule self-tests


def test_rules_file(path: str, *, env: Mapping[str, str] | None = None, home: str | None = None) -> tuple[bool, list[str]]:
    """Check one settings file the way it would load (``bastion rules test FILE``).

    Returns ``(ok, lines)``: ok is False when the file has any error, including a failing
    rule example.
    """
    from pathlib import Path  # a person testing a file, not the decision path

    env = env if env is not None else os.environ
    home = _home(env, home)
    file_path = Path(path).expanduser().absolute()
    root = find_project_root(str(file_path.parent), home=home, env=env)
    item = load_file(SettingsFile("flags", str(file_path), root, True, required=True), home=home)
    lines = [f"error: {e}" for e in item.errors] + [f"note: {n}" for n in item.notices]
    if not item.errors:
        lines.append(f"ok: {len(item.rules)} rule(s) in {file_path}")
    return not item.errors, lines


test_rules_file.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
