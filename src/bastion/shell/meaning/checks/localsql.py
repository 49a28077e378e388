"""sqlite3 on a local database file, judged by what its SQL and dot-commands do.

``sqlite3 FILE [SQL …]`` opens a file, not a server: nothing reaches the network. So a
query that only reads (``SELECT``, ``.tables``, ``.schema``) is a read of that file,
judged by the path rules as ``cat FILE`` is (a browser's cookie store still asks); a
statement that changes data (``INSERT``, ``UPDATE``, ``CREATE``, ``.import``,
``VACUUM``) is a change of data (CAT036), and one that destroys (``DROP``, ``DELETE``
without ``WHERE``) is CAT016, as for the server clients (``admin.check_sql_client``).
A file a statement writes (``.output FILE``, ``.once FILE``, ``.backup FILE``, ``VACUUM
INTO 'FILE'``, ``ATTACH 'FILE'``, which creates it) is a write of that file; a program
it runs or code it loads (``.shell``, ``.system``, ``.load``, ``load_extension()``,
``writefile()``, ``edit()``) is CAT006 — the shell text itself is judged again as
shell (``syntax.embedded``). The SQL comes from the operands after the file, from
``-cmd``, or from stdin: a here-document, a here-string, or a ``<`` file that exists
or that the line writes from literal text first (``planned``). With no SQL to read
(interactive, or fed by a pipe), or a dot-command or statement it does not know, it
asks (CAT036): unknown is not harmless. Dot-commands live in
``catalog.SQLITE_DOT_COMMANDS``.
"""

from __future__ import annotations

from ...catalog import catalog as C
from ...syntax.lazyre import LazyPattern
from ...syntax.options import parse_args
from ..facts import Ctx, Facts
from ..inline import sql_risks
from ..paths import READ, WRITE, PathAccess, resolve

__all__ = ["check_local_sql"]

#: sqlite3's options that take a value (``-init FILE`` runs that file's SQL first).
_VALUE_OPTS = frozenset({"-cmd", "--cmd", "-separator", "-nullvalue", "-newline", "-init", "-vfs", "-mmap",
                         "-pagecache", "-lookaside", "-heap", "-maxsize", "-escape", "-nonce"})
#: Statements that only read, or only frame a transaction.
_READS = frozenset({"select", "with", "values", "explain", "detach", "begin", "commit", "end", "rollback",
                    "savepoint", "release"})
#: SQL functions of the sqlite3 shell that run or load code, or write a file.
_CODE_FUNCTIONS = LazyPattern(r"\b(?:load_extension|writefile|edit|fts3_tokenizer)\s*\(", 2)  # re.I
#: ``readfile('path')``: reads that file (judged as a read of it); a name built at run time asks.
_READFILE = LazyPattern(r"\breadfile\s*\(\s*(?:'([^']*)'\s*\))?", 2)
#: The literal file name of ``ATTACH 'f'`` or ``VACUUM INTO 'f'``.
_FILE_LITERAL = LazyPattern(r"^\s*(?:attach(?:\s+database)?|vacuum(?:\s+\w+)?\s+into)\s+'([^']*)'", 2)


def check_local_sql(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    parsed = parse_args(args, _VALUE_OPTS, long_single_dash=True)
    if any(name.startswith(("-A", "--archive", "-init")) for name, _ in parsed.options):
        f.hit("CAT036", f"{f.label} (archive mode, or SQL from an -init file)")
    operands = parsed.operands
    db = operands[0] if operands else ""
    pieces = parsed.values("-cmd", "--cmd") + operands[1:]
    if len(operands) <= 1:
        stdin = _stdin_sql(f, ctx)
        if stdin is None:
            f.hit("CAT036", f.label)  # interactive, or SQL from a pipe: not known here
        else:
            _judge(f, stdin, ctx, stdin=True)
    if db and db != ":memory:" and not db.startswith("file:"):
        _access(f, READ, db, ctx)
    elif db.startswith("file:"):
        f.hit("CAT036", f"{f.label} (URI file name)")
    for piece in pieces:
        _judge(f, piece, ctx)


def _stdin_sql(f: Facts, ctx: Ctx) -> str | None:
    """The SQL on sqlite3's stdin: a here-document, a here-string, or the text of a
    ``<`` file (there, or written from literal text earlier on the line); None when
    stdin is not known (a terminal, a pipe)."""
    if f.cmd.pipe_index > 0:
        return None
    for redirect in f.cmd.redirects:
        if redirect.op in ("<<", "<<-", "<<<"):
            from ..inline import heredoc_bodies

            bodies = heredoc_bodies(ctx.source, f.cmd.name) if redirect.op != "<<<" else [redirect.target]
            if not bodies:
                return None
            f.roles.update(("exec_stdin", "program_read"))  # SH026 answered: the body was read
            return "\n".join(bodies)
        if redirect.op == "<":
            return _file_sql(f, resolve(redirect.target, f.base, ctx.home), ctx)
    return None


def _file_sql(f: Facts, path: str, ctx: Ctx) -> str | None:
    from ..planned import planned_files
    from ..scripts import Unreadable, script_of

    planned = planned_files(f, path, ctx) if "<<" in ctx.source else None
    if planned is not None:
        f.roles.add("runs_planned")  # the defaults layer: what reads the written file is known
        return planned[path]
    read = script_of(path, ctx, "sh")  # bounded, cached; "sh" only to read it whole
    return read[1] if isinstance(read, tuple) and not isinstance(read, Unreadable) else None


def _judge(f: Facts, text: str, ctx: Ctx, stdin: bool = False) -> None:
    """One operand or stdin text: dot-commands line by line, the rest as SQL. The shell
    of a ``.shell``/``.system`` line on stdin is judged again as shell (``Facts.nested``;
    ``syntax.embedded`` does so for operands)."""
    sql: list[str] = []
    for line in text.splitlines() or [""]:
        stripped = line.strip()
        if stripped.startswith("."):
            _dot(f, stripped, ctx)
            words = stripped[1:].split(None, 1)
            if stdin and len(words) == 2 and words[0].lower() in ("shell", "system"):
                f.nested.append(words[1])
        else:
            sql.append(line)
    for statement in "\n".join(sql).split(";"):
        if statement.strip():
            _statement(f, statement, ctx)


def _dot(f: Facts, line: str, ctx: Ctx) -> None:
    words = line[1:].split()
    name = words[0].lower() if words else ""
    value = C.SQLITE_DOT_COMMANDS.get(name)
    if value is None:
        f.hit("CAT036", f"{f.label} (.{name}: a dot-command bastion does not know)")
    elif value == "r":
        return
    elif value in ("write", "open"):
        files = [w.strip("'\"") for w in words[1:] if not w.startswith("-")]
        if any(w.startswith("-") for w in words[1:]) and name in ("once", "output"):
            f.hit("CAT006", f"{f.label} (.{name} {' '.join(words[1:])}: opens a program)")
        if files and not files[-1].startswith("|"):
            _access(f, WRITE, files[-1], ctx)
    else:
        f.hit(value, f"{f.label} (.{name})")
    if name in ("import", "read") and "|" in line:
        # ``.import '|cmd' t`` and ``.read '|cmd'`` read what a shell command prints: it runs
        f.hit("CAT006", f"{f.label} (.{name} from a command)")
        try:
            import shlex

            args = [w for w in shlex.split(line)[1:] if not w.startswith("-")]
        except ValueError:
            args = []
        source = args[0] if args else line.split("|", 1)[1]
        if source.startswith("|") or not args:
            f.nested.append(source.lstrip("|"))

def _statement(f: Facts, statement: str, ctx: Ctx) -> None:
    words = statement.split()
    first = words[0].lower() if words else ""
    if _CODE_FUNCTIONS.search(statement):
        f.hit("CAT006", f"{f.label} (SQL that loads code or writes a file)")
    for match in _READFILE.finditer(statement):
        if match.group(1):
            _access(f, READ, match.group(1), ctx)
        else:
            f.hit("CAT006", f"{f.label} (readfile of a name built at run time)")
    literal = _FILE_LITERAL.match(statement)
    if first in ("attach", "vacuum") and (first == "attach" or literal):
        if literal and literal.group(1) not in ("", ":memory:"):
            _access(f, WRITE, literal.group(1), ctx)  # opened read-write: created if missing
        elif not literal:
            f.hit("CAT036", f"{f.label} (ATTACH of a name built at run time)")
        return
    risks = sql_risks(statement)
    if "destroy" in risks:
        f.hit("CAT016", f"{f.label} (destructive SQL)")
    if "exec" in risks:
        f.hit("CAT006", f"{f.label} (SQL that runs commands or writes files)")
    if first in _READS and not risks:
        return
    if first == "pragma" and "=" not in statement and not risks:
        return  # ``PRAGMA table_info(t)`` reads; ``PRAGMA journal_mode=WAL`` changes the file
    if "destroy" not in risks:
        f.hit("CAT036", f.label)


def _access(f: Facts, op: str, path: str, ctx: Ctx) -> None:
    f.paths.append(PathAccess(op, path, resolve(path, f.base, ctx.home), f.name))
