"""Permission rule grammar (spec 002 §12.3): ``Tool`` or ``Tool(content)``, and matching.

A rule names a tool and optionally what the call must contain:

- ``Bash(...)``: a command pattern, matched against ONE simple command (the engine splits
  compound commands): exact (``npm install``), legacy prefix (``npm test:*``: the prefix
  followed by the end or a space), or wildcard (``git * --no-verify``; ``\\*`` is a literal
  star; a lone trailing `` *`` makes the tail optional, so ``git *`` matches bare ``git``).
- ``Read/Edit/Write/Glob/Grep(...)``: gitignore-style path patterns (see ``_PathPattern``).
- ``WebFetch(domain:example.com)`` (host and subdomains) or ``WebFetch(https://...)``
  (URL prefix, ending at a path boundary).
- ``Task(...)``, ``Skill(...)``, ``SlashCommand(...)``, ``WebSearch(...)``: a wildcard
  pattern on the one input field that names what the call does (``_INPUT_CONTENT``).
- ``mcp__server`` (every tool of a server), ``mcp__server__tool``, ``mcp__server__*``.

Client spellings map to canonical names (``run_shell_command`` → ``Bash``,
``MultiEdit`` → ``Edit``), so one rule governs a tool in every client. Matching is
case-sensitive for commands and paths (the caller normalises paths), case-insensitive
for URL schemes and hosts.

Patterns are compiled once, when the rule is built; wildcards go to RE2 (linear time, so
a rule with many stars can never stall the hook), plain and prefix rules need no regex.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from ..globs import glob_regex, literal
from ..model import CANONICAL_TOOLS, TOOL_CATALOG, Kind, ToolCall, tool_spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

BEHAVIORS = ("allow", "deny", "ask")


class RuleError(ValueError):
    """A rule string that cannot be parsed; the message is one line and names the rule."""


# --------------------------------------------------------------------------- tables

#: Call kinds governed by a rule on these canonical tools. Edit and Write govern every
#: file-modifying tool (whoever may rewrite a file may edit it, and the reverse); Read
#: also governs the search tools (Glob, Grep, LS), which reveal file contents and names.
_COVERS: dict[str, frozenset[Kind]] = {
    "Bash": frozenset({Kind.SHELL}),
    "Read": frozenset({Kind.FILE_READ, Kind.SEARCH}),
    "Edit": frozenset({Kind.FILE_EDIT, Kind.FILE_WRITE}),
    "Write": frozenset({Kind.FILE_EDIT, Kind.FILE_WRITE}),
    "WebFetch": frozenset({Kind.WEB_FETCH}),
}

#: Canonical tools whose content is a path pattern.
_PATH_TOOLS = frozenset({"Read", "Edit", "Write", "Glob", "Grep"})

#: Canonical tools whose content is a wildcard pattern on one input field.
_INPUT_CONTENT: dict[str, tuple[str, ...]] = {
    "Task": ("subagent_type",),
    "Skill": ("skill", "command", "name"),
    "SlashCommand": ("command",),
    "WebSearch": ("query",),
}

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.*")


# --------------------------------------------------------------------------- helpers


def normalize_command(command: str) -> str:
    """Collapse runs of whitespace to one space and trim (rules and commands alike)."""
    return " ".join(command.split())


def _re2(pattern: str) -> Any:
    """Compile with RE2 (imported lazily: plain rules never pay for it)."""
    import re2

    options = re2.Options()
    options.log_errors = False
    options.dot_nl = True
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:  # e.g. a reversed range in a path pattern's [z-a]
        msg = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise RuleError(f"cannot compile pattern: {msg}") from None
    except UnicodeEncodeError:
        raise RuleError("pattern is not valid UTF-8 text") from None




def _safe_text(text: str) -> str:
    """Replace lone surrogates (possible in JSON input) so RE2 can encode the text."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fullmatch(regex: Any, text: str) -> bool:
    try:
        return regex.fullmatch(text) is not None
    except UnicodeEncodeError:
        return regex.fullmatch(_safe_text(text)) is not None


def _star_positions(pattern: str) -> list[int]:
    """Indexes of unescaped ``*`` (``\\*`` and ``\\\\`` are escapes)."""
    stars, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern) and pattern[i + 1] in "*\\":
            i += 2
            continue
        if pattern[i] == "*":
            stars.append(i)
        i += 1
    return stars


def _unescape_stars(pattern: str) -> str:
    """``\\*`` → ``*``, ``\\\\`` → ``\\``; any other backslash stays literal."""
    out, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern) and pattern[i + 1] in "*\\":
            out.append(pattern[i + 1])
            i += 2
            continue
        out.append(pattern[i])
        i += 1
    return "".join(out)


def _wildcard_regex(pattern: str) -> str:
    """Wildcard pattern → regex text: unescaped ``*`` is ``.*``, all else literal."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern) and pattern[i + 1] in "*\\":
            out.append(literal(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else literal(ch))
        i += 1
    return "".join(out)


# --------------------------------------------------------------------------- matchers


@dataclass(frozen=True)
class _CommandPattern:
    """A compiled Bash (or input-field) pattern: exact, prefix or wildcard."""

    kind: str  # exact | prefix | regex
    text: str
    regex: Any = None

    @classmethod
    def compile(cls, content: str) -> _CommandPattern:
        pat = normalize_command(content)
        if pat.endswith(":*"):
            body = pat[:-2].rstrip()
            if not body:
                raise RuleError("empty prefix before ':*'")
            if not _star_positions(body):
                return cls("prefix", _unescape_stars(body))
            return cls("regex", pat, _re2(_wildcard_regex(body) + "(?: .*)?"))
        stars = _star_positions(pat)
        if not stars:
            return cls("exact", _unescape_stars(pat))
        if len(stars) == 1 and stars[0] == len(pat) - 1 and pat.endswith(" *"):
            # `git *` also matches bare `git`, like `git:*` (spec 002 §12.3).
            return cls("regex", pat, _re2(_wildcard_regex(pat[:-2]) + "(?: .*)?"))
        return cls("regex", pat, _re2(_wildcard_regex(pat)))

    def match(self, value: str) -> bool:
        value = normalize_command(value)
        if self.kind == "exact":
            return value == self.text
        if self.kind == "prefix":
            return value == self.text or value.startswith(self.text + " ")
        return _fullmatch(self.regex, value)




def _join_norm(base: str, rel: str) -> str:
    joined = posixpath.normpath(posixpath.join(base or "/", rel))
    return "/" + joined.lstrip("/")


def _glob_escape(text: str) -> str:
    """Make a literal directory safe to embed in a glob (``_glob_regex`` honours ``\\x``)."""
    return "".join("\\" + c if c in "\\*?[" else c for c in text)


@dataclass(frozen=True)
class _PathPattern:
    """A gitignore-style path pattern, anchored where its prefix says.

    ``//abs`` absolute; ``~/x`` under the home directory; ``/x`` and ``./x`` and any
    pattern with a ``/`` inside it are anchored at ``base_dir`` (the directory the settings
    file belongs to; empty means ``/``); a bare name such as ``.env`` or ``*.key`` matches
    at any depth below ``base_dir`` (gitignore semantics). A pattern also covers everything
    below what it names, so ``src`` and ``src/`` cover ``src/a/b.py``.
    """

    anchor: str  # abs | home | base | anywhere
    glob: str  # absolute glob for abs/base (base escaped), home-relative for home, a name for anywhere
    base_dir: str

    @classmethod
    def compile(cls, content: str, base_dir: str) -> _PathPattern:
        pat = content.strip()
        base = _glob_escape(base_dir or "/")
        if pat.startswith("//"):
            return cls("abs", _join_norm("/", pat[1:]), base_dir)
        if pat == "~" or pat.startswith("~/"):
            return cls("home", pat[2:], base_dir)
        if pat.startswith("/") or pat.startswith("./") or "/" in pat.rstrip("/") or pat in (".", ".."):
            return cls("base", _join_norm(base, pat.lstrip("/")), base_dir)
        name = pat.rstrip("/")
        if not name:
            raise RuleError("empty path pattern")
        return cls("anywhere", name, base_dir)

    def regex_text(self, home: str) -> str:
        below = "(?:/.*)?"  # a pattern covers everything below what it names
        if self.anchor == "anywhere":
            base = _join_norm(_glob_escape(self.base_dir or "/"), ".").rstrip("/")
            return glob_regex(base) + "(?:/.*)?/" + glob_regex(self.glob) + below
        full = _join_norm(_glob_escape(home), self.glob) if self.anchor == "home" else self.glob
        if full == "/":
            return "/.*"
        return glob_regex(full) + below

    def resolve_example(self, example: str, home: str) -> str:
        """Resolve an example path the way a pattern with the same prefix is anchored:
        ``//x`` absolute, ``~/x`` home, anything else (``/x``, ``./x``, ``x``) below base_dir."""
        if example.startswith("//"):
            return _join_norm("/", example[1:])
        if example == "~" or example.startswith("~/"):
            return _join_norm(home or "/", example[2:])
        return _join_norm(self.base_dir or "/", example.lstrip("/"))


@dataclass(frozen=True)
class _WebPattern:
    """``domain:HOST`` (host and its subdomains) or a URL prefix / wildcard."""

    domain: str | None
    url: str | None
    regex: Any = None

    @classmethod
    def compile(cls, content: str) -> _WebPattern:
        text = content.strip()
        if text.startswith("domain:"):
            host = text[len("domain:") :].strip().lower().lstrip("*").strip(".")
            if not host or any(c in host for c in "/:@ *?"):
                raise RuleError(f"invalid domain {text[len('domain:'):]!r}")
            return cls(host, None)
        if "://" in text:
            url = _normalize_url(text)
            if _star_positions(url):
                return cls(None, url, _re2(_wildcard_regex(url)))
            return cls(None, url)
        raise RuleError("WebFetch content must be 'domain:HOST' or a URL such as 'https://example.com/docs'")

    def match_host(self, host: str) -> bool:
        if self.domain is None:
            return False
        host = host.lower().rstrip(".")
        return host == self.domain or host.endswith("." + self.domain)

    def match_url(self, url: str) -> bool:
        if self.domain is not None:
            return self.match_host(_host_of(url) or "")
        url = _normalize_url(url)
        assert self.url is not None
        if self.regex is not None:
            return _fullmatch(self.regex, url)
        if not url.startswith(self.url):
            return False
        rest = url[len(self.url) :]
        return not rest or self.url.endswith("/") or rest[0] in "/?#"


def _host_of(url: str) -> str | None:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url.strip()).hostname
    except ValueError:
        return None


def _normalize_url(url: str) -> str:
    """Lower-case scheme and host (they are case-insensitive); keep the rest as is."""
    url = url.strip()
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    cut = min((i for i in (rest.find(c) for c in "/?#") if i != -1), default=len(rest))
    return scheme.lower() + "://" + rest[:cut].lower() + rest[cut:]


# --------------------------------------------------------------------------- the rule


@dataclass(frozen=True)
class Rule:
    """One permission rule from one settings source.

    ``tool`` is canonical (``Bash``, ``Edit`` …) or the MCP name as written; ``content``
    is the part inside the parentheses with ``\\(``/``\\)`` unescaped (``None``: the whole
    tool). ``source`` is the settings source (``user``, ``project`` …), ``origin`` the
    file, ``base_dir`` the directory relative path patterns are anchored at.
    """

    text: str
    behavior: str
    tool: str
    content: str | None
    source: str
    origin: str = ""
    base_dir: str = ""
    _matcher: Any = field(init=False, repr=False, compare=False, default=None)
    _mcp: tuple[str, str | None] | None = field(init=False, repr=False, compare=False, default=None)
    _regex_cache: dict[str, Any] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.behavior not in BEHAVIORS:
            raise RuleError(f"invalid rule {self.text!r}: behavior must be allow, deny or ask, not {self.behavior!r}")
        try:
            self._compile()
        except RuleError as exc:
            raise RuleError(f"invalid rule {self.text!r}: {exc}") from None
        except Exception as exc:  # never let odd input escape as another exception type
            raise RuleError(f"invalid rule {self.text!r}: {type(exc).__name__}: {exc}") from None

    def _compile(self) -> None:
        set_ = object.__setattr__
        for text in (self.content, self.base_dir):
            if text and not _encodable(text):
                raise RuleError("not valid UTF-8 text (lone surrogate)")
        if self.tool.startswith("mcp__"):
            server, sep, name = self.tool[len("mcp__") :].partition("__")
            if not server or (sep and not name):
                raise RuleError("MCP rules look like mcp__server or mcp__server__tool")
            if self.content is not None:
                raise RuleError("MCP rules take no content in parentheses")
            set_(self, "_mcp", (server, name or None))
            return
        if self.content is None:
            return
        if self.tool == "Bash":
            set_(self, "_matcher", _CommandPattern.compile(self.content))
        elif self.tool in _PATH_TOOLS:
            matcher = _PathPattern.compile(self.content, self.base_dir)
            if "[" in self.content:  # the one glob construct that can be invalid: check it now
                _re2(matcher.regex_text("/"))
            set_(self, "_matcher", matcher)
        elif self.tool == "WebFetch":
            set_(self, "_matcher", _WebPattern.compile(self.content))
        elif self.tool in _INPUT_CONTENT:
            set_(self, "_matcher", _CommandPattern.compile(self.content))
        else:
            raise RuleError(f"{self.tool} rules take no content in parentheses")

    # ---- presentation

    @property
    def display(self) -> str:
        """The rule in canonical spelling, e.g. ``Bash(npm test:*)``."""
        if self.content is None:
            return self.tool
        escaped = self.content.replace("(", "\\(").replace(")", "\\)")
        return f"{self.tool}({escaped})"

    # ---- the tool part

    def applies_to(self, call: ToolCall) -> bool:
        """Does the tool part of the rule cover this call (ignoring content)?"""
        if self._mcp is not None:
            names = call.mcp_server_tool
            if names is None:
                return False
            server, name = self._mcp
            from fnmatch import fnmatchcase  # only MCP rules match by glob: off the path of most decisions

            if not fnmatchcase(names[0], server):
                return False
            return name is None or fnmatchcase(names[1], name)
        covers = _COVERS.get(self.tool)
        if covers is not None:
            return call.kind in covers
        return call.canonical_tool == self.tool

    # ---- content matchers

    def matches_command(self, command: str) -> bool:
        """Bash content against one simple command (whitespace-normalised)."""
        if self.tool != "Bash":
            return False
        if self.content is None or self._matcher is None:
            return True
        return self._matcher.match(command)

    def matches_path(self, path: str, *, home: str) -> bool:
        """Path content against an absolute, normalised path (case-sensitive)."""
        if not isinstance(self._matcher, _PathPattern):
            return self.content is None and self.tool in _PATH_TOOLS
        home = home or "/"
        regex = self._regex_cache.get(home)
        if regex is None:
            text = self._matcher.regex_text(home)
            try:
                regex = _re2(text)
            except RuleError:  # a HOME that is not valid UTF-8 (surrogate-escaped bytes)
                regex = _re2(_safe_text(text))
            self._regex_cache[home] = regex
        return _fullmatch(regex, path)

    def matches_domain(self, host: str) -> bool:
        """``domain:`` rules: the host or one of its subdomains. URL rules never match a bare host."""
        if not isinstance(self._matcher, _WebPattern):
            return self.content is None and self.tool == "WebFetch"
        return self._matcher.match_host(host)

    def matches_url(self, url: str) -> bool:
        """WebFetch content against a URL (domain rules compare its host)."""
        if not isinstance(self._matcher, _WebPattern):
            return self.content is None and self.tool == "WebFetch"
        return self._matcher.match_url(url)

    def matches_example(self, example: str, *, home: str) -> bool:
        """Check one self-test example: a command, a path (anchored like the rule), a URL or
        host, an input value, or — for rules without content — a tool name."""
        matcher = self._matcher
        if isinstance(matcher, _PathPattern):
            return self.matches_path(matcher.resolve_example(example, home), home=home)
        if isinstance(matcher, _WebPattern):
            return self.matches_url(example) if "://" in example else self.matches_domain(example)
        if isinstance(matcher, _CommandPattern):
            return matcher.match(example)
        return self.applies_to(ToolCall(tool=example, input={}))

    # ---- the whole call

    def matches(self, call: ToolCall, *, home: str, path: str | None = None) -> bool:
        """Tool part and content against a whole call.

        Shell: the whole command string (the engine does the per-sub-command work). Path
        rules: ``path`` when the caller passes a resolved one; otherwise the call's own
        paths resolved against ``call.cwd`` — an allow rule must cover all of them, a
        deny or ask rule any one (so several paths can never loosen a decision).
        """
        if not self.applies_to(call):
            return False
        matcher = self._matcher
        if self.content is None or matcher is None:
            return True
        if self.tool == "Bash":
            command = call.command
            return command is not None and self.matches_command(command)
        if isinstance(matcher, _PathPattern):
            if path is not None:
                return self.matches_path(path, home=home)
            paths = [_resolve(p, call.cwd, home) for p in call.paths]
            if not paths:
                return False
            combine: Callable[[Any], bool] = all if self.behavior == "allow" else any
            return combine(self.matches_path(p, home=home) for p in paths)
        if isinstance(matcher, _WebPattern):
            url = call.input.get("url")
            return isinstance(url, str) and self.matches_url(url)
        values = [call.input.get(key) for key in _INPUT_CONTENT.get(self.tool, ())]
        return any(isinstance(v, str) and matcher.match(v) for v in values)


def _resolve(path: str, cwd: str, home: str) -> str:
    """A call's path made absolute and normalised: ``~/`` is home, relative joins ``cwd``."""
    if path == "~" or path.startswith("~/"):
        return _join_norm(home or "/", path[2:])
    if path.startswith("/"):
        return _join_norm("/", path)
    return _join_norm(cwd if cwd.startswith("/") else "/", path)


# --------------------------------------------------------------------------- parsing


def _split(text: str) -> tuple[str, str | None]:
    """``Tool(content)`` → (tool, content with ``\\(``/``\\)`` unescaped)."""
    open_ = text.find("(")
    if open_ == -1:
        if ")" in text:
            raise RuleError("unbalanced parentheses")
        return text.strip(), None
    if not text.endswith(")"):
        raise RuleError("unbalanced parentheses" if text.count("(") != text.count(")") else "text after the closing ')'")
    trailing = len(text) - 1 - len(text[:-1].rstrip("\\"))
    if trailing % 2:
        raise RuleError("unbalanced parentheses (the closing ')' is escaped)")
    inner, out, depth, i = text[open_ + 1 : -1], [], 0, 0
    while i < len(inner):
        ch = inner[i]
        if ch == "\\" and i + 1 < len(inner) and inner[i + 1] in "()\\":
            out.append(inner[i + 1] if inner[i + 1] != "\\" else "\\\\")
            i += 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise RuleError("unbalanced parentheses")
        out.append(ch)
        i += 1
    if depth:
        raise RuleError("unbalanced parentheses")
    content = "".join(out)
    return text[:open_].strip(), (content if content.strip() else None)


def _canonical_tool(name: str) -> str:
    if not name:
        raise RuleError("empty tool name")
    if not set(name) <= _NAME_CHARS:
        raise RuleError(f"invalid tool name {name!r}")
    if name.startswith("mcp__"):
        return name
    if "*" in name:
        raise RuleError(f"wildcards are only allowed in MCP tool names, not {name!r}")
    if name in TOOL_CATALOG or name in CANONICAL_TOOLS:
        return tool_spec(name).canonical
    near = _near_miss(name)
    if near is not None:
        raise RuleError(f"unknown tool {name!r} (did you mean {near}?)")
    return name  # a client's own tool bastion does not know yet: the rule names exactly it


#: ``(name, lower-case name, its letters)`` of every known tool, filled on first use.
_KNOWN_TOOLS: list[tuple[str, str, frozenset[str]]] = []


def _near_miss(name: str) -> str | None:
    """A known tool ``name`` is probably a typo of (``bash``, ``Bahs``, ``WebSerch``): a
    rule naming a tool nobody has must not quietly replace the one meant. Tools bastion
    has never met (a client's new ``CronCreate``) may be named as they are."""
    folded = name.lower()
    best: tuple[int, str] | None = None
    letters = set(name)
    if not _KNOWN_TOOLS:  # built whole, then added in one step: another thread never sees half of it
        _KNOWN_TOOLS.extend([(known, known.lower(), frozenset(known)) for known in sorted(set(TOOL_CATALOG) | CANONICAL_TOOLS)])
    for known, known_folded, known_letters in _KNOWN_TOOLS:
        if known_folded == folded:
            return known
        # Two edits change at most 4 letters of the set of letters used: a cheap test
        # first, so a settings file of thousands of tool names loads in linear time.
        if len(name) >= 4 and len(letters ^ known_letters) <= 4:  # ``LSP`` is not a typo of ``LS``
            distance = _distance(name, known, 2)
            if distance <= 2 and (best is None or distance < best[0]):
                best = (distance, known)
    return best[1] if best else None


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance of ``a`` and ``b`` (adjacent swaps count once), or ``limit + 1``
    when it is larger than ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return previous[-1]


def parse_rule(text: str, behavior: str, *, source: str, origin: str = "", base_dir: str = "") -> Rule:
    """Parse ``Tool`` or ``Tool(content)``; raises ``RuleError`` (one line) when malformed."""
    if not isinstance(text, str):
        raise RuleError(f"a rule must be a string, not {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise RuleError("empty rule")
    try:
        tool, content = _split(stripped)
        tool = _canonical_tool(tool)
    except RuleError as exc:
        raise RuleError(f"invalid rule {stripped!r}: {exc}") from None
    if tool == "Bash" and content is not None and content.strip() == "*":
        content = None  # `Bash(*)` is the whole tool
    return Rule(stripped, behavior, tool, content, source, origin, base_dir)
