"""The questions every check asks of a path, answered from the one path table.

``rows_for`` finds the rows of ``table.ROWS`` that give a path its meaning (with the
``not_secret`` and ``structural`` exemptions applied); each reading below keeps the kinds
it cares about: ``secret_level`` and ``persistence_level`` for the shell analysis,
``credential_rows`` / ``secret_rows`` / ``sensitive_rows`` / ``protected_rows`` for the file
checks and taint, ``critical_reason`` / ``removal_reason`` for deletions, ``home_stores``
and ``system_stores`` for the sandbox's hidden set. Paths are absolute and lexically
resolved; they are compared lowercase (``.GiT/HoOkS`` is ``.git/hooks``), which on a
case-sensitive disk only widens what is caught.

The table is indexed on first use, never at import, and answers for short paths are
kept in a small bounded cache: the same paths come back on every call.
"""

from __future__ import annotations

from ..precompiled import DOTALL, pattern as _compiled
from ..re_escape import escape
from ..std_lite import lru_cache
from . import table as T
from .table import Row

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable
    from typing import NamedTuple
else:
    from ..named_tuple import NamedTuple

__all__ = [
    "Hit",
    "rows_for",
    "secret_level",
    "persistence_level",
    "credential_rows",
    "secret_rows",
    "sensitive_rows",
    "protected_rows",
    "critical_reason",
    "removal_reason",
    "contained_stores",
    "home_relative",
    "home_relatives",
    "home_stores",
    "system_stores",
    "protected_names",
    "structural_folders",
    "is_temp",
    "in_session_scratch",
    "is_temp_dir",
    "within",
    "strip_glob",
    "pattern_regex",
]

_GLOB_CHARS = frozenset("*?[")


class Hit(NamedTuple):
    """A row that applies to a path, and how: ``file`` (the pattern names this path),
    ``folder`` (the path is a folder the pattern names, or below it) or ``name`` (a file
    name or component sequence matched anywhere)."""

    row: Row
    via: str


# --------------------------------------------------------------------------- patterns


def _glob_to_regex(glob: str) -> str:
    """A one-component-or-more glob (``*`` and ``?`` stay within a component) as regex text."""
    out, i, n = [], 0, len(glob)
    while i < n:
        ch = glob[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and (end := glob.find("]", i + 2)) != -1:
            body = glob[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + escape(body).replace("\\-", "-") + "]")
            i = end + 1
            continue
        else:
            out.append(escape(ch))
        i += 1
    return "".join(out)


def pattern_regex(pattern: str, home: str) -> str | None:
    """A table pattern as regex text over a lowercase absolute path (``~/`` under
    ``home``; a name or sequence anywhere); None for ``~/`` without a home."""
    pat = pattern.lower()
    folder = pat.endswith("/") and pat != "/"
    body = pat.rstrip("/") if folder else pat
    below = "(?:/.*)?" if folder else ""
    if body.startswith("~/"):
        if not home or home == "/":
            return None
        return escape(home.lower().rstrip("/")) + "/" + _glob_to_regex(body[2:]) + below
    if body.startswith("/"):
        return _glob_to_regex(body) + below
    return ".*/" + _glob_to_regex(body) + below


class _Index:
    """The table split by anchor, built once."""

    def __init__(self, rows: Iterable[Row]) -> None:
        self.absolute: dict[str, list[tuple[Row, bool]]] = {}
        self.home: dict[str, list[tuple[Row, bool]]] = {}
        self.names: dict[str, list[tuple[Row, bool]]] = {}
        self.sequences: list[tuple[str, bool, Row]] = []
        self.sequence_globs: list[tuple[re.Pattern[str], Row]] = []
        self.sequence_glob_needles: list[str] = []
        self.absolute_globs: list[tuple[str, re.Pattern[str], bool, Row]] = []
        #: name globs as plain string tests: ``*.pem`` (suffix), ``id_rsa*`` (prefix),
        #: ``*secret*`` (substring), each ``(how, text, row)``; anything else a regex
        self.name_globs: list[tuple[str, str, Row]] = []
        self.name_regexes: list[tuple[re.Pattern[str], Row, str]] = []
        self.name_regex_heads: list[str] = []
        self.structural: set[tuple[str, str]] = set()
        self.removal: dict[str, Row] = {}
        self.removal_children: dict[str, Row] = {}
        self.temp: list[str] = []
        self.scratch: set[str] = set()
        self.session_scratch: list[str] = []
        self.home_exact: list[str] = []
        self.home_parents: list[str] = []
        for row in rows:
            for pattern in row.patterns:
                self._add(row, pattern)
        self.suffixes = tuple(text for how, text, _ in self.name_globs if how == "suffix")
        self.prefixes = tuple(text for how, text, _ in self.name_globs if how == "prefix")
        self.infixes = tuple(text for how, text, _ in self.name_globs if how == "infix")
        self.absolute_glob_prefixes = tuple(prefix for prefix, _, _, _ in self.absolute_globs)
        #: What every path with a row in ``absolute`` starts with (its first component).
        self.absolute_heads = tuple({"/" + key.split("/")[1] for key in self.absolute})
        #: ``sequences`` with the text each looks for: ``/body/`` in the path plus ``/``
        #: for a folder, the path's end ``/body`` for a file.
        self.sequence_texts = [("/" + body + ("/" if folder else ""), folder, row) for body, folder, row in self.sequences]
        #: What every path below a home (other than the agent's own) starts with.
        self.home_heads = tuple(self.home_exact) + tuple(self.home_parents)
        #: The first letters any name regex can match from (an empty head matches any).
        self.regex_heads = tuple(self.name_regex_heads)
        self.sequence_globs_needled = list(zip(self.sequence_glob_needles, self.sequence_globs, strict=True))
        #: The folder names the sequences start with: each text a sequence looks for is
        #: ``/name/…``, so a path with one of their rows has ``name`` as a component. None
        #: when a sequence starts with a wildcard (then every path is tried).
        heads: set[str] | None = set()
        for needle in self.sequence_glob_needles + [needle for needle, _, _ in self.sequence_texts]:
            head, slash, _ = needle[1:].partition("/")
            if heads is not None and slash and head and not any(c in _GLOB_CHARS for c in head):
                heads.add(head)
            else:
                heads = None
        self.sequence_heads = frozenset(heads) if heads is not None else None
        self.name_regexes_headed = list(zip(self.name_regex_heads, self.name_regexes, strict=True))

    def _add(self, row: Row, pattern: str) -> None:
        kind = row.kind
        pat = pattern.lower()
        if kind in (T.REMOVAL, T.RECURSIVE, T.DELETE_ONLY):
            if pat.endswith("/*"):
                self.removal_children[pat[:-2] or "/"] = row
            else:
                self.removal[pat] = row
            return
        if kind == T.TEMP:
            self.temp.append(pattern)
            return
        if kind == T.SCRATCH:
            self.scratch.add(pattern)
            return
        if kind == T.SESSION_SCRATCH:
            self.session_scratch.append(pattern)
            return
        if kind == T.HOME:
            (self.home_parents if pat.endswith("/*") else self.home_exact).append(pat[:-2] + "/" if pat.endswith("/*") else pat)
            return
        folder = pat.endswith("/")
        body = pat.rstrip("/")
        if kind == T.STRUCTURAL:
            first, _, second = body.partition("/")
            self.structural.add((first, second))
            return
        glob = any(c in _GLOB_CHARS for c in body)
        if body.startswith("~/"):
            rel = body[2:]
            self.home.setdefault(rel, []).append((row, folder))
            if kind == T.STARTUP:  # protected by name wherever it is
                self.names.setdefault(rel, []).append((row, False))
        elif body.startswith("/"):
            if glob:
                prefix = body[: min(body.index(c) for c in _GLOB_CHARS if c in body)]
                regex = _compiled(_glob_to_regex(body) + ("(?:/.*)?" if folder else ""), DOTALL)
                self.absolute_globs.append((prefix, regex, folder, row))
            else:
                self.absolute.setdefault(body, []).append((row, folder))
        elif "/" in body and glob:
            below = "(?:/.*)?" if folder else ""
            self.sequence_globs.append((_compiled("(?:.*/)?" + _glob_to_regex(body) + below, DOTALL), row))
            # the regex needs ``/`` and the literal text before the first wildcard in the
            # path (which starts with ``/``): a path without it is not tried
            self.sequence_glob_needles.append("/" + body[: min(body.index(c) for c in _GLOB_CHARS if c in body)])
        elif "/" in body:
            self.sequences.append((body, folder, row))
        elif glob:
            inner = body.strip("*")
            plain = not any(c in _GLOB_CHARS for c in inner)
            if plain and body == "*" + inner + "*":
                self.name_globs.append(("infix", inner, row))
            elif plain and body == "*" + inner:
                self.name_globs.append(("suffix", inner, row))
            elif plain and body == inner + "*":
                self.name_globs.append(("prefix", inner, row))
            else:
                stem = "".join(c for c in body if c not in "*?")
                self.name_regexes.append((_compiled(_glob_to_regex(body) + r"\Z", DOTALL), row, stem))
                # ``match`` is anchored at the name's start: the text before the first
                # wildcard must begin the name
                self.name_regex_heads.append(body[: min(body.index(c) for c in _GLOB_CHARS if c in body)])
        else:
            self.names.setdefault(body, []).append((row, folder))


@lru_cache(maxsize=1)
def _index() -> _Index:
    return _Index(T.ROWS)


# --------------------------------------------------------------------------- homes


def home_relatives(lower: str, home_lower: str) -> list[str]:
    """``lower`` relative to every home directory it is below (the agent's, root's, any
    user's), each without the leading ``/``; ``""`` for a home itself."""
    index = _index()
    own = bool(home_lower) and home_lower != "/"
    if not lower.startswith(index.home_heads) and not (own and lower.startswith(home_lower)):
        return []  # below no home at all: most paths of a project outside /home
    found: list[str] = []
    homes = [home_lower] if own else []
    homes.extend(index.home_exact)
    for h in homes:
        if lower == h:
            found.append("")
        elif lower.startswith(h + "/"):
            found.append(lower[len(h) + 1 :])
    for parent in index.home_parents:
        if lower.startswith(parent):
            user, sep, below = lower[len(parent) :].partition("/")
            if user:
                found.append(below if sep else "")
    return found


def home_relative(path: str, home: str) -> str | None:
    """The part of ``path`` below a home directory, lowercase (``""`` for a home itself),
    or None when it is below none."""
    found = home_relatives(path.lower(), home.lower().rstrip("/") if isinstance(home, str) else "")
    return min(found, key=len) if found else None


# --------------------------------------------------------------------------- rows for a path


_CACHED_PATH_LEN = 512


def rows_for(path: str, home: str) -> tuple[Hit, ...]:
    """Every row that gives ``path`` (absolute, resolved) its meaning, exemptions applied."""
    if not isinstance(path, str) or not path.startswith("/"):
        return ()
    home = home if isinstance(home, str) else ""
    if len(path) <= _CACHED_PATH_LEN and len(home) <= _CACHED_PATH_LEN:
        return _rows_cached(path, home)
    return _rows(path, home)


def _rows(path: str, home: str) -> tuple[Hit, ...]:
    # Every new path of every call comes here (the cache below answers repeats). The
    # file checks ask for each path twice, with the agent's home and without one: the
    # part that does not depend on the home is worked out once (:func:`_unhomed`).
    lower = path.lower().rstrip("/") or "/"
    home_lower = home.lower().rstrip("/")
    if home_lower and not within(lower, home_lower):
        # The agent's home adds rows only to paths below it (``home_relatives``): any
        # other path has the rows it has without one, worked out and kept once for both.
        return rows_for(path, "")
    anchored, named = _unhomed(lower)
    homed: list[Hit] = []
    for rel in home_relatives(lower, home_lower):
        if rel:
            _anchored(_index().home, rel, homed)
    if not homed:
        if not anchored and not named:
            return ()
        out = [*anchored, *named]
    else:
        out = [*anchored, *homed, *named]
    if any(hit.row.kind == T.NOT_SECRET for hit in out):
        out = [h for h in out if h.via == "folder" or h.row.kind not in (T.CREDENTIAL, T.SECRET, T.SENSITIVE)]
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=2048)
def _unhomed(lower: str) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
    """The rows a lowercase path has whatever the home: ``(absolute, by name)``, each in
    the order :func:`_rows` reports them. Each test that cannot match is skipped on a
    cheap string test."""
    index = _index()
    out: list[Hit] = []
    aliases = [lower]
    if lower.startswith(("/private/etc/", "/private/var/")) or lower in ("/private/etc", "/private/var"):
        aliases.append(lower[8:])
    absolute = index.absolute
    for alias in aliases:
        if alias.startswith(index.absolute_heads):
            _anchored(absolute, alias, out)
        if alias.startswith(index.absolute_glob_prefixes):
            for prefix, regex, _folder, row in index.absolute_globs:
                if alias.startswith(prefix) and regex.fullmatch(alias):
                    out.append(Hit(row, "file"))
    named: list[Hit] = []
    parts = lower[1:].split("/")
    if "" in parts:
        parts = [p for p in parts if p]
    if parts:
        names = index.names
        last = parts[-1]
        if not names.keys().isdisjoint(parts):
            for row, folder in names.get(last, ()):
                named.append(Hit(row, "folder" if folder else "name"))
            for i, part in enumerate(parts[:-1]):
                entries = names.get(part)
                if entries and (part, parts[i + 1]) not in index.structural:
                    named.extend(Hit(row, "folder") for row, folder in entries if folder)
        padded = lower + "/"
        if index.sequence_heads is None or not index.sequence_heads.isdisjoint(parts):
            for needle, (regex, row) in index.sequence_globs_needled:
                if needle in lower and regex.fullmatch(lower):
                    named.append(Hit(row, "name"))
            for needle, folder, row in index.sequence_texts:
                if folder:
                    if needle in padded:
                        named.append(Hit(row, "folder"))
                elif lower.endswith(needle):
                    named.append(Hit(row, "name"))
        if last.endswith(index.suffixes) or last.startswith(index.prefixes) or any(t in last for t in index.infixes):
            named.extend(Hit(row, "name") for how, text, row in index.name_globs if _name_glob_hit(how, text, last))
        if index.name_regexes and last.startswith(index.regex_heads):
            named.extend(Hit(row, "name") for head, (regex, row, _) in index.name_regexes_headed
                         if last.startswith(head) and regex.match(last))
    return tuple(out), tuple(named)


def _anchored(table: dict[str, list[tuple[Row, bool]]], path: str, out: list[Hit]) -> None:
    """The rows ``table`` holds for ``path`` or a folder above it (``a/b/c``, ``a/b``, ``a``)."""
    cut = len(path)
    while cut > 0:
        entries = table.get(path[:cut] if cut < len(path) else path)
        if entries:
            for row, folder in entries:
                if folder:
                    out.append(Hit(row, "folder"))
                elif cut == len(path):
                    out.append(Hit(row, "file"))
        cut = path.rfind("/", 0, cut)


_rows_cached = lru_cache(maxsize=2048)(_rows)


def _name_glob_hit(how: str, text: str, name: str) -> bool:
    if how == "suffix":
        return name.endswith(text)
    if how == "prefix":
        return name.startswith(text)
    return text in name


def _glob_name_hits(glob: str, index: _Index) -> list[Hit]:
    """A glob in a file name that is a secret's name plus a wildcard (``cat .env*``,
    ``cat id_rsa*``) names that secret. Nothing else is guessed: ``.git*`` is no
    ``.git-credentials``, and ``*`` names nothing in particular."""
    first = min(glob.index(c) for c in _GLOB_CHARS if c in glob)
    prefix = glob[:first]
    if len(prefix) < 2:
        return []
    hits = [Hit(row, "name") for row, folder in index.names.get(prefix, ())
            if not folder and row.kind in (T.CREDENTIAL, T.SECRET)]
    hits.extend(Hit(row, "name") for how, text, row in index.name_globs
                if how == "prefix" and text == prefix and row.kind in (T.CREDENTIAL, T.SECRET))
    return hits


# --------------------------------------------------------------------------- readings


def secret_level(path: str, home: str) -> int:
    """How secret the file at ``path`` is: 0 no, 1 sensitive (reading asks), 2 high
    value (printing it is a hard block). Any level sent over the network is exfiltration."""
    hits = rows_for(path, home)
    name = path.rpartition("/")[2]
    if "*" in name or "?" in name or "[" in name:  # ``cat .env*`` prints the .env file
        hits = hits + tuple(_glob_name_hits(name.lower(), _index()))
    level = 0
    for hit in hits:
        kind = hit.row.kind
        if kind == T.NOT_SECRET:
            return 0
        if kind == T.CREDENTIAL or kind == T.SECRET:
            level = max(level, hit.row.level)
    return level


def persistence_level(path: str, home: str) -> int:
    """Whether writing ``path`` plants something that runs later: 0, 1 (ask in every
    mode), 2 (a backdoor: denied)."""
    level = 0
    for hit in rows_for(path, home):
        kind = hit.row.kind
        if kind == T.RUNS_LATER or (kind == T.STARTUP and hit.via == "file"):
            level = max(level, hit.row.level)
    return level


def planted_only(path: str, home: str) -> bool:
    """Whether ``path`` runs later but is edited as ordinary project work (a level-0
    runs-later row: ``vite.config.ts``, ``setup.py``): only a catastrophic plant there is
    stopped, any other write keeps the verdict it would get anyway."""
    return any(hit.row.kind == T.RUNS_LATER and hit.row.level == 0 for hit in rows_for(path, home))


def _of(path: str, home: str, kinds: tuple[str, ...]) -> list[Hit]:
    hits = rows_for(path, home)
    return [hit for hit in hits if hit.row.kind in kinds] if hits else []  # most paths have no row at all


def _level(hit: Hit) -> int:
    return -hit.row.level


def credential_rows(path: str, home: str) -> list[Hit]:
    """Credential-store rows for ``path``, the highest level first."""
    found = _of(path, home, (T.CREDENTIAL,))
    return sorted(found, key=_level) if len(found) > 1 else found


def secret_rows(path: str, home: str = "") -> list[Hit]:
    """Secret-file rows (reading asks): ``.env``, key files."""
    return _of(path, home, (T.SECRET,))


def sensitive_rows(path: str, home: str = "") -> list[Hit]:
    """Rows that make writing ``path`` sensitive: secret files, secret-like names, and
    credential stores (which ask in every mode anyway)."""
    return _of(path, home, (T.SECRET, T.SENSITIVE, T.CREDENTIAL))


def protected_rows(path: str, home: str = "") -> list[Hit]:
    """Protected files and folders, startup files by name: writing asks in every mode."""
    hits = _of(path, home, (T.PROTECTED, T.STARTUP))
    return sorted(hits, key=_not_folder) if len(hits) > 1 else hits  # a protected folder names the reason first


def _not_folder(hit: Hit) -> bool:
    return hit.via != "folder"


@lru_cache(maxsize=1)
def _home_store_rels() -> tuple[tuple[str, bool, Row], ...]:
    """Credential stores as paths below a home: ``~/`` rows, and name rows (``.netrc``,
    ``.ssh/``) as they sit directly in a home; globbed ones (``id_rsa*``) left out."""
    out: list[tuple[str, bool, Row]] = []
    for row in T.ROWS:
        if row.kind != T.CREDENTIAL:
            continue
        for pattern in row.patterns:
            body = pattern.lower()
            if any(c in _GLOB_CHARS for c in body) or body.startswith("/"):
                continue
            rel = body[2:] if body.startswith("~/") else body
            out.append((rel.rstrip("/"), rel.endswith("/"), row))
    return tuple(out)


def home_stores() -> tuple[tuple[str, bool, Row], ...]:
    """``(path below a home, is_folder, row)`` for every credential store the sandbox hides
    in each home and a search can reach in the agent's."""
    return _home_store_rels()


def system_stores() -> tuple[tuple[str, bool, Row], ...]:
    """``(absolute pattern, is_folder, row)`` of system credential stores (``/proc`` left
    out: a search does not walk it and the sandbox has its own)."""
    return tuple((p.rstrip("/"), p.endswith("/"), row) for row in T.ROWS if row.kind == T.CREDENTIAL
                 for p in row.patterns if p.startswith("/") and not p.startswith("/proc/"))


def contained_stores(path: str, home: str) -> list[Row]:
    """Credential stores in the agent's home that lie below ``path`` (deleting ``~/.config``
    takes ``~/.config/gcloud`` with it)."""
    home_lower = home.lower().rstrip("/") if isinstance(home, str) else ""
    if not home_lower:
        return []
    prefix = path.lower().rstrip("/") + "/"
    return [row for rel, _folder, row in _home_store_rels() if f"{home_lower}/{rel}".startswith(prefix)]


def structural_folders() -> tuple[str, ...]:
    """Folders inside protected ones that are structure (``.claude/worktrees``): they stay writable."""
    return tuple(p.rstrip("/") for row in T.ROWS if row.kind == T.STRUCTURAL for p in row.patterns)


def protected_names() -> tuple[dict[str, str], dict[str, str]]:
    """``(folders, files)``: protected names that apply anywhere, each with its why (the
    sandbox keeps them read-only at the top of every write root)."""
    folders: dict[str, str] = {}
    files: dict[str, str] = {}
    for row in T.ROWS:
        if row.kind not in (T.PROTECTED, T.STARTUP):
            continue
        for pattern in row.patterns:
            body = pattern.lower()
            if body.startswith("~/"):
                body = body[2:]
            if "/" in body.rstrip("/") or body.startswith("/"):
                continue
            (folders if body.endswith("/") else files)[body.rstrip("/")] = row.why
    return folders, files


# --------------------------------------------------------------------------- removal


def within(path: str, root: str) -> bool:
    """Component-wise containment on lexical absolute paths (``/a/bc`` is not in ``/a/b``)."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root + "/")


def is_temp(path: str) -> bool:
    """In a shared temporary directory (``/tmp``, ``/var/tmp`` …)."""
    return any(within(path, t) for t in _index().temp)


def in_session_scratch(path: str) -> bool:
    """Below the agent's own scratch folder (``/tmp/claude/…``), not the folder itself."""
    return any(path.startswith(folder + "/") for folder in _index().session_scratch)


def is_temp_dir(path: str) -> bool:
    """One of the shared temporary directories itself."""
    return path in _index().temp


def strip_glob(path: str) -> str:
    """``/etc/*`` → ``/etc``; ``/home/*/`` → ``/home``: a pure glob component means "everything in"."""
    while path not in ("", "/"):
        head, _, last = path.rpartition("/")
        if last and last.strip("*?") == "" or last in (".*", "*.*", "{*,.*}", ".[!.]*", "..?*"):
            path = head or "/"
            continue
        break
    return path


def _removal_rows(lower: str) -> list[Row]:
    index = _index()
    found = []
    named = index.removal.get(lower)
    if named is not None:
        found.append(named)
    if lower != "/":
        child_of = index.removal_children.get(lower.rpartition("/")[0] or "/")
        if child_of is not None:
            found.append(child_of)
    return found


def _category(row: Row, lower: str) -> str:
    """The shell's words for a removal row: root, home, top-level or system directory."""
    if lower == "/":
        return "root directory"
    if row.kind == T.DELETE_ONLY:
        return "home directory" if row.id == "homes" else "top-level directory"
    return "system directory"


def critical_reason(path: str, home: str, roots: tuple[str, ...] = (), *, others: bool = True) -> str | None:
    """Why a *recursive* delete (or chmod/chown) of ``path`` would be catastrophic, or None.

    The removal rows of the table (all three kinds), any home directory, the agent's home
    and its parents, and any workspace root or parent of one. A glob whose directory part
    is critical (``/*``, ``~/*``) counts as the directory itself — except for emptying
    scratch or temp space (``/tmp/*``). ``others=False`` leaves out ``delete_only`` rows
    (other users' homes, arbitrary top-level folders): handing those to their owner is
    administration (chmod/chown).
    """
    stripped = strip_glob(path)
    lower = stripped.lower()
    index = _index()
    emptying_scratch = stripped != path and (stripped in index.scratch or stripped in index.temp)
    if not emptying_scratch:
        for row in _removal_rows(lower):
            if others or row.kind != T.DELETE_ONLY:
                return _category(row, lower)
    if home and home != "/" and (stripped == home or within(home, stripped)):
        return "home directory"
    for root in roots:
        if root and (stripped == root or within(root, stripped)):
            return "workspace root" if stripped == root else "ancestor of the workspace"
    return None


def removal_reason(resolved: str, *, home: str, roots: Iterable[str] = ()) -> str | None:
    """Why deleting ``resolved`` in any way would be catastrophic (FS001), or None.

    ``removal`` and ``delete_only`` rows, the home directory and its parents, each
    workspace root and its parents; compared lowercase (``/USERS/me`` is home on macOS).
    """
    lower = resolved.lower().rstrip("/") or "/"
    if lower == "/":
        return f"it is {_index().removal['/'].title}"
    home_lower = home.lower().rstrip("/") if isinstance(home, str) else ""
    if home_lower and lower == home_lower:
        return "it is your home directory"
    if home_lower and home_lower.startswith(lower + "/"):
        return "it contains your home directory"
    for root in roots:
        root_lower = root.lower().rstrip("/") or "/"
        if lower == root_lower:
            return "it is the workspace root"
        if root_lower.startswith(lower + "/"):
            return "it contains the workspace"
    for row in _removal_rows(lower):
        if row.kind != T.RECURSIVE:
            return f"it is {row.title}"
    return None
