"""Where the hook's environment came from: a project may not point bastion elsewhere.

Claude Code hands the ``env`` block of a project's ``.claude/settings.json`` and
``.claude/settings.local.json`` to every hook process; Gemini CLI loads a project's
``.gemini/.env`` or ``.env`` into its own environment, which its hooks inherit. So an
untrusted repository could set ``BASTION_CONFIG_DIR`` to a folder whose settings allow
everything, or ``BASTION_REVIEW_BASE_URL`` to a reviewer that answers "allow".

The rule: **a variable that points bastion elsewhere or loosens it is ignored when a
project's client settings define it** (the value in effect is the one a project file
sets), and bastion falls back to the user's own ``~/.claude/settings.json`` value for
it, or else to its default — with one warning line per variable naming the file.
Variables that only tighten or are harmless are kept. The user's own settings files and
the real environment are trusted. :data:`VARIABLES` is the one table of every variable
bastion reads, with its class and why; :data:`SOURCES` the one table of project files.

This module is imported by the hook's thin client (``hook.client``) before anything
else loads, so it imports only ``os`` at the top: no ``typing``, no ``json`` (loaded
only when a project file mentions a watched variable).
"""

import os  # only os: the hook's thin client imports this module (no __future__, no typing)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

POINTS = "points elsewhere"
LOOSENS = "loosens"
TIGHTENS = "tightens"
HARMLESS = "harmless"

_OFF = frozenset({"0", "false", "no", "off"})


def _is_off(value: str) -> bool:
    return value.strip().lower() in _OFF


def _never(value: str) -> bool:
    return False


def _always(value: str) -> bool:
    return True


def _not_off(value: str) -> bool:
    return not _is_off(value)


#: Every environment variable bastion reads: (name, class, kept from a project when …, why).
#: ``kept`` says which values a project may still set (a value that only tightens).
VARIABLES: tuple[tuple[str, str, "Callable[[str], bool]", str], ...] = (
    ("HOME", POINTS, _never,
     "user settings, Claude Code user settings, trust store, grants and the hook socket are found under it"),
    ("XDG_CONFIG_HOME", POINTS, _never, "user settings and guard plugins live in $XDG_CONFIG_HOME/bastion"),
    ("XDG_STATE_HOME", POINTS, _never, "trust store, session grants, denial counts, taint and audit log"),
    ("XDG_RUNTIME_DIR", POINTS, _never,
     "folder of the warm decision server's socket: whatever listens there answers every call"),
    ("BASTION_CONFIG_DIR", POINTS, _never, "user settings and guard plugins: a folder whose settings allow everything"),
    ("BASTION_STATE_DIR", POINTS, _never, "trust store and grants: a folder where the project is already trusted"),
    ("BASTION_MANAGED_SETTINGS", POINTS, _never, "the organisation's managed policy, swapped for the project's own"),
    ("BASTION_RUNTIME_DIR", POINTS, _never, "folder of the warm decision server's socket (see XDG_RUNTIME_DIR)"),
    ("BASTION_AUDIT_LOG", POINTS, _never, "decisions would be logged where the project chooses, or nowhere"),
    ("CLAUDE_CONFIG_DIR", POINTS, _never, "where the user's Claude Code hook entries are looked for"),
    ("CODEX_HOME", POINTS, _never, "where the user's Codex hook entries are looked for"),
    ("BASTION_REVIEW_BASE_URL", POINTS, _never, "a reviewer the project runs could answer allow"),
    ("BASTION_REVIEW_API", POINTS, _never, "another provider decides"),
    ("BASTION_REVIEW", LOOSENS, _is_off,
     "switching the reviewer on lets a model allow what would ask; switching it off is kept"),
    ("BASTION_REVIEW_MODEL", LOOSENS, _never, "another (weaker, or tuned to agree) model decides"),
    ("BASTION_REVIEW_CLASSIFIER", LOOSENS, _is_off, "lets the model settle ordinary asks; switching it off is kept"),
    ("BASTION_REVIEW_AGENT", LOOSENS, _never, "the single-turn reviewer investigates less"),
    ("BASTION_REVIEW_MAX_INPUT_BYTES", LOOSENS, _never, "the model could see less of the call than the user chose"),
    ("BASTION_REVIEW_MAX_TURNS", LOOSENS, _never, "the model could investigate less than the user chose"),
    ("BASTION_REVIEW_MAX_TOKENS", LOOSENS, _never, "the reviewer's limits are the user's choice"),
    ("BASTION_REVIEW_TIMEOUT", LOOSENS, _never, "the reviewer's limits are the user's choice"),
    ("BASTION_REVIEW_EXPLAIN", LOOSENS, _never, "what the person is shown about an ask is the user's choice"),
    ("BASTION_REVIEW_INJECTION_CHECK", LOOSENS, _never,
     "off gives up the model's second opinion on tool results; on sends the project's texts to the user's model"),
    ("BASTION_IMPORT_CLAUDE_SETTINGS", LOOSENS, _not_off,
     "0 drops Claude Code's permission rules, the user's own deny rules among them; other values are the default"),
    ("BASTION_AUDIT", LOOSENS, lambda value: value != "0", "0 switches the audit log off; other values are the default"),
    ("BASTION_PROMPT_GRACE_MS", TIGHTENS, _always, "only a longer wait than 200 ms before a prompt takes keys is honoured"),
    ("CI", TIGHTENS, _always, "CI variables mean nobody can be asked: asks become denies"),
    ("GITHUB_ACTIONS", TIGHTENS, _always, "as CI"),
    ("GITLAB_CI", TIGHTENS, _always, "as CI"),
    ("BUILDKITE", TIGHTENS, _always, "as CI"),
    ("JENKINS_URL", TIGHTENS, _always, "as CI"),
    ("TF_BUILD", TIGHTENS, _always, "as CI"),
    ("BASTION_HOOK_SERVER", HARMLESS, _always, "0 decides in the hook process: the same answer, slower"),
    ("BASTION_HOOK_IDLE", HARMLESS, _always, "how long the warm server waits for the next call"),
    ("BASTION_HOOK_DEADLINE", HARMLESS, _always,
     "seconds to decide a hook call before the fail-closed answer; capped at 20 s, below the hook timeout, "
     "so a longer value cannot leave the client without an answer"),
    ("BASTION_REVIEW_API_KEY", HARMLESS, _always,
     "a key decides who pays for a review, not where it goes or which model answers"),
    ("OPENAI_API_KEY", HARMLESS, _always, "as BASTION_REVIEW_API_KEY; sent only to api.openai.com"),
    ("ANTHROPIC_API_KEY", HARMLESS, _always, "as BASTION_REVIEW_API_KEY; sent only to api.anthropic.com"),
    ("CLAUDE_PROJECT_DIR", HARMLESS, _always, "only adds a folder to look for project files in"),
    ("BASTION_SESSION_ID", HARMLESS, _always,
     "which session the MCP proxy's results taint; the hooks also apply every live proxy's results in their folder"),
    # The OpenTelemetry export of decisions (audit.otel): where they go, with which credentials, under
    # which name; a project's value could send them to its own collector, or switch the team's record off.
    ("OTEL_LOGS_EXPORTER", POINTS, _never, "switches the export of decisions on (otlp) or off"),
    *((f"OTEL_EXPORTER_OTLP_{signal}{part}", POINTS, _never, f"the OTLP export of decisions: its {part.lower()}")
      for signal in ("", "LOGS_") for part in ("ENDPOINT", "PROTOCOL", "HEADERS", "TIMEOUT", "COMPRESSION",
                                                "CERTIFICATE", "CLIENT_CERTIFICATE", "CLIENT_KEY")),
    ("OTEL_SERVICE_NAME", POINTS, _never, "the name the team's collector files exported decisions under"),
    ("OTEL_RESOURCE_ATTRIBUTES", POINTS, _never, "the labels the team's collector files exported decisions under"),
)

#: Project files whose variables reach the hook: (path in a project folder, format,
#: clients, why). Codex hands hooks no project environment.
SOURCES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    (".claude/settings.json", "json", ("claude-code",), "its env block is set for every hook process"),
    (".claude/settings.local.json", "json", ("claude-code",), "as .claude/settings.json (not committed, but "
     "written by whatever ran in the project)"),
    (".gemini/.env", "dotenv", ("gemini",), "Gemini CLI loads it into its environment, which hooks inherit"),
    (".env", "dotenv", ("gemini",), "as .gemini/.env (Gemini settings.json has no env block)"),
)

#: Names a project may not set (the points-elsewhere and loosening rows).
WATCHED: dict[str, "Callable[[str], bool]"] = {
    name: kept for name, kind, kept, _ in VARIABLES if kind in (POINTS, LOOSENS)
}

_FALLBACK_NOTE = "a project's settings may not point bastion elsewhere or loosen it"


# --------------------------------------------------------------------------- finding the files


_HOME: list[str] = []


def _real_home() -> str:
    """The user's home folder from the password database (not ``$HOME``), looked up once."""
    if not _HOME:
        import pwd

        try:
            _HOME.append(os.path.normpath(pwd.getpwuid(os.getuid()).pw_dir))
        except (KeyError, OSError):
            _HOME.append(os.path.normpath(os.path.expanduser("~")))
    return _HOME[0]


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def _folders(start: str, home: str) -> "Iterable[str]":
    """``start`` and its parents, up to the git root; the home folder is the user's own
    (its ``.claude`` is user settings), so the walk stops below it."""
    current = os.path.normpath(os.path.abspath(start))
    while current != home:
        yield current
        if _exists(current + "/.git"):
            return
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


def project_files(env: "Mapping[str, str]", cwd: str, client: str | None = None) -> list[tuple[str, str]]:
    """``(path, format)`` of the project files (:data:`SOURCES`) that exist for this
    call: in ``cwd`` and its parents, and in ``$CLAUDE_PROJECT_DIR`` and its parents.
    One ``stat`` per folder and source directory (``.claude``, ``.gemini``) when absent."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for rel, fmt, clients, _ in SOURCES:
        if client is None or client in clients:
            top = rel.split("/", 1)[0] if "/" in rel else ""
            groups.setdefault(top, []).append((rel, fmt))
    if not groups:
        return []
    # The walk stops at the home folder from the password database: $HOME may itself
    # be what a project set (to end the walk before its own folder).
    home = _real_home()
    starts = [cwd] + ([env["CLAUDE_PROJECT_DIR"]] if env.get("CLAUDE_PROJECT_DIR") else [])
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for start in starts:
        for folder in _folders(start, home):
            if folder in seen:
                continue
            seen.add(folder)
            for top, sources in groups.items():
                if top and not _exists(f"{folder}/{top}"):
                    continue
                for rel, fmt in sources:
                    path = f"{folder}/{rel}" if folder != "/" else f"/{rel}"
                    if os.path.isfile(path):
                        found.append((path, fmt))
    return found


def _read(path: str) -> bytes:
    """A project file's first megabyte (settings and .env files are small)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(65536)
            return data + handle.read((1 << 20) - len(data)) if len(data) == 65536 else data
    except OSError:
        return b""


def _mentions(data: bytes, fmt: str, name: str) -> bool:
    """A cheap test without parsing: could this file define ``name``?"""
    if fmt == "json":
        return f'"{name}"'.encode() in data
    key = name.encode()
    for line in data.splitlines():
        line = line.strip()
        if line.startswith(b"export "):
            line = line[7:].lstrip()
        if line.startswith(key) and line[len(key) :].lstrip().startswith(b"="):
            return True
    return False


def _defined(data: bytes, fmt: str) -> dict[str, str]:
    """The variables a project file sets (a JSON ``env`` block, or ``NAME=value`` lines)."""
    text = data.decode("utf-8", "replace")
    if fmt == "json":
        import json

        try:
            block = json.loads(text).get("env")
        except (ValueError, AttributeError):
            return {}
        if not isinstance(block, dict):
            return {}
        return {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in block.items()}
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[7:].lstrip()
        name, sep, value = line.partition("=")
        if sep:
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            elif " #" in value:
                value = value.split(" #", 1)[0].rstrip()
            values[name.strip()] = value
    return values


def defined_by_project(env: "Mapping[str, str]", cwd: str, client: str | None, names: "Iterable[str]") -> list[tuple[str, str]]:
    """``(name, file)`` for each of ``names`` a project file may set (a textual test,
    for the hook's thin client: no JSON parsing)."""
    hits: list[tuple[str, str]] = []
    wanted = [name for name in names if env.get(name)]
    if not wanted:
        return []
    for path, fmt in project_files(env, cwd, client):
        data = _read(path)
        hits.extend((name, path) for name in wanted if _mentions(data, fmt, name))
    return hits


def _user_value(name: str, home: str) -> str | None:
    """The value the user's own ``~/.claude/settings.json`` gives ``name``, if any."""
    path = os.path.join(home, ".claude", "settings.json")
    if not os.path.isfile(path):
        return None
    data = _read(path)
    if not _mentions(data, "json", name):
        return None
    return _defined(data, "json").get(name)


# --------------------------------------------------------------------------- the rule


def trusted_env(
    env: "Mapping[str, str]", cwd: str, client: str | None = None
) -> "tuple[Mapping[str, str], list[str]]":
    """``env`` without what a project set to point bastion elsewhere or loosen it, and
    one warning line per variable ignored. Costs a few ``stat`` calls when no project
    file exists; a file is parsed only when it names a watched variable that is set."""
    present = [name for name in WATCHED if env.get(name) is not None]
    if not present:
        return env, []
    ignored: dict[str, str] = {}
    for path, fmt in project_files(env, cwd, client):
        data = _read(path)
        names = [name for name in present if name not in ignored and _mentions(data, fmt, name)]
        if not names:
            continue
        defined = _defined(data, fmt)
        for name in names:
            value = env[name]
            if defined.get(name) == value and not WATCHED[name](value):
                if name == "HOME" and os.path.normpath(value) == _real_home():
                    continue  # the project names the real home: nothing to undo
                ignored[name] = path
    if not ignored:
        return env, []
    out = dict(env)
    home = _real_home() if "HOME" in ignored else out.get("HOME") or _real_home()
    notes = []
    for name, path in ignored.items():
        user = _user_value(name, home) if client in (None, "claude-code") else None
        if user is not None and name != "HOME":
            out[name] = user
            instead = "the value in your ~/.claude/settings.json"
        elif name == "HOME":
            out[name] = home
            instead = home
        else:
            del out[name]
            instead = "the default"
        notes.append(f"bastion: ignoring {name} set by {path} ({_FALLBACK_NOTE}); using {instead}")
    return out, notes


def client_name(client: object) -> str | None:
    """The user-facing name (``claude-code``) of an adapter module, or None."""
    module = getattr(client, "__name__", "")
    if not module.startswith("bastion.adapters."):
        return None
    return module.rsplit(".", 1)[-1].replace("_", "-")
