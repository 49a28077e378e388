"""Which files a simple command reads, writes, deletes or executes (spec 002 §12.10).

Purely lexical: a path is resolved against the command's tracked working directory
(``cd`` earlier in the script) or the call's, with ``~``, ``~user`` and a leading
``$HOME`` / ``$PWD`` expanded and ``..`` folded. No file-system access happens here;
the workspace layer resolves symlinks later (``files.workspace.resolve_path``).

Each command has an extractor: most are data (:data:`READERS` — every operand is read,
with the options that take a value so their value is skipped); a few need a small
function (``cp``'s last operand is the destination, ``dd`` has ``if=``/``of=``, ``tar``
depends on its mode, ``sed -i`` writes). Redirections add ``write`` for ``>``, ``>>``,
``&>``, ``>|`` and ``read`` for ``<``.
"""

from __future__ import annotations

import posixpath
from _collections_abc import Callable, Iterable  # collections.abc's classes, loaded with os
from dataclasses import replace

from ...precompiled import regex
from ...std_lite import lru_cache
from ..catalog.catalog import (
    AWKS,
    INTERPRETER_VALUE_OPTS,
    INTERPRETERS,
    SHELLS,
    STANDARD_BIN_DIRS,
    canonical_name,
    is_core,
)
from ..syntax.lazyre import LazyPattern
from ..syntax.options import parse_args
from ..syntax.script import SimpleCommand
from ..syntax.wildcards import fnmatchcase
from ..syntax.words import CALL_CWD, FOLDER_TILDES
from .targets import is_harmless_device

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NamedTuple
else:
    from ...named_tuple import NamedTuple

__all__ = ["PathAccess", "extract_paths", "resolve", "command_base", "find_roots", "within", "at_call_cwd"]

READ, WRITE, DELETE, EXEC = "read", "write", "delete", "exec"


class PathAccess(NamedTuple):
    """One file the command touches, as written and resolved (lexically). A named tuple:
    every command makes a few, on every call."""

    op: str  # "read" | "write" | "delete" | "exec"
    path: str  # as written (decoded)
    resolved: str  # absolute, lexically normalised, ~ and a leading $HOME expanded
    command: str  # the command's name


# --------------------------------------------------------------------------- resolution


#: ``resolve`` is a pure function of its three strings, and the same ones come back
#: (each command's working directory, a path checked by several rules, repeated calls
#: in one process): short inputs are answered from a small bounded cache.
_CACHED_LEN = 512


def resolve(path: str, base: str, home: str) -> str:
    """Absolute, normalised form of ``path`` written in a command running in ``base``."""
    if (isinstance(path, str) and isinstance(base, str) and isinstance(home, str)
            and len(path) + len(base) + len(home) <= _CACHED_LEN):
        return _resolve_cached(path, base, home)
    return _resolve(path, base, home)


def _resolve(path: str, base: str, home: str) -> str:
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    elif path.startswith("~") and len(path) > 1:
        user, _, rest = path[1:].partition("/")
        if user == "+":
            path = posixpath.join(base, rest)
        elif user[:1] in FOLDER_TILDES:  # ``~-``, ``~2``: the parser reads these where it can
            path = posixpath.join(UNKNOWN_FOLDER, rest)
        else:
            path = posixpath.join(_user_home(user, home), rest)
    elif path.startswith("$"):
        for prefix, value in _WELL_KNOWN_VARS(home, base):
            if path == prefix or path.startswith(prefix + "/"):
                path = value + path[len(prefix) :]
                break
    if not path.startswith("/"):  # ``posixpath.join(base or "/", path)``, without its checks and calls
        base = base or "/"
        path = base + path if base.endswith("/") else base + "/" + path
    if path.startswith("/") and _NOT_NORMAL.search(path) is None:
        return path  # already what normpath would return (the usual case)
    norm = posixpath.normpath(path)
    if norm.startswith("//"):
        norm = "/" + norm.lstrip("/")
    return norm


#: Where a tilde prefix points that no one can know here (``~-`` outside a parsed line):
#: absolute, so it is never taken for a file in the working folder.
UNKNOWN_FOLDER = "/<unknown>"


@lru_cache(maxsize=64)
def _user_home(user: str, home: str) -> str:
    """``~user``: that user's home from the account database; a user the machine does not
    know (bash then keeps ``~user`` as a name in the working folder, but the command may
    run where the user exists) is taken to live beside the agent's home, never in the
    working folder."""
    try:
        import pwd  # cold: only a ``~user`` word reaches here

        found = pwd.getpwnam(user).pw_dir
    except (ImportError, KeyError, OSError, ValueError):
        found = ""
    if found.startswith("/"):
        return found
    return posixpath.join(posixpath.dirname(home.rstrip("/")) or "/home", user)


#: What ``posixpath.normpath`` would change in an absolute path: a doubled slash, a
#: ``.`` or ``..`` component, a trailing slash.
_NOT_NORMAL = regex(r"//|/\.\.?(?:/|$)|./$")
_resolve_cached = lru_cache(maxsize=4096)(_resolve)


def _WELL_KNOWN_VARS(home: str, base: str) -> tuple[tuple[str, str], ...]:
    """Leading variables whose value is known by convention (``$TMPDIR`` is a temp dir:
    ``$TMPDIR/../etc`` is ``/etc``)."""
    return (
        ("${HOME}", home),
        ("$HOME", home),
        ("${PWD}", base),
        ("$PWD", base),
        ("${TMPDIR}", "/tmp"),
        ("$TMPDIR", "/tmp"),
        ("${TMP}", "/tmp"),
        ("$TMP", "/tmp"),
        ("${TEMP}", "/tmp"),
        ("$TEMP", "/tmp"),
    )


def at_call_cwd(commands: Sequence[SimpleCommand], cwd: str) -> Sequence[SimpleCommand]:
    """The commands with each word that names the call's own folder made absolute.

    The parser does not know the call's working directory; for ``~-`` after the line
    moved away from it (``mkdir -p /tmp/x && cd /tmp/x && rm -rf ~-``) it writes
    :data:`~bastion.shell.syntax.words.CALL_CWD` and the folder relative to it. Only
    such lines pay more than one prefix test per word."""
    out: list[SimpleCommand] | None = None
    for i, cmd in enumerate(commands):
        argv = cmd.argv
        if not (argv and CALL_CWD in " ".join(argv) and any(w.startswith(CALL_CWD) for w in argv)) and not (
                cmd.redirects and any(r.target.startswith(CALL_CWD) for r in cmd.redirects)):
            continue
        if out is None:
            out = list(commands)
        argv = tuple(cwd + w[len(CALL_CWD):] if w.startswith(CALL_CWD) else w for w in cmd.argv)
        redirects = tuple(replace(r, target=cwd + r.target[len(CALL_CWD):]) if r.target.startswith(CALL_CWD) else r
                          for r in cmd.redirects)
        out[i] = replace(cmd, argv=argv, redirects=redirects)
    return commands if out is None else out


def command_base(cmd: SimpleCommand, cwd: str, home: str) -> str:
    """The directory ``cmd`` runs in: its tracked ``cd`` target, else the call's cwd."""
    base = resolve(cwd or "/", "/", home) if cwd else "/"
    if cmd.cwd:
        base = resolve(cmd.cwd, base, home)
    return base


# --------------------------------------------------------------------------- data


@lru_cache(maxsize=256)
def _opts(spec: str) -> frozenset[str]:
    """The options of ``spec`` (a literal in this module); extractors call it on every
    command, so each literal is split once (fewer than 256 of them exist)."""
    return frozenset(spec.split())


#: Commands whose every operand is read → options that take a value.
READERS: dict[str, frozenset[str]] = {
    "cat": frozenset(),
    "tac": _opts("-s --separator"),
    "head": _opts("-n -c --lines --bytes"),
    "tail": _opts("-n -c --lines --bytes -s --sleep-interval --pid --max-unchanged-stats"),
    "sort": _opts("-k --key -t --field-separator -S --buffer-size -T --temporary-directory --parallel --batch-size --compress-program --random-source"),
    "wc": frozenset(),
    "cut": _opts("-b -c -d -f --bytes --characters --delimiter --fields --output-delimiter"),
    "paste": _opts("-d --delimiters"),
    "column": _opts("-s -c -o -N -O -R -E -H -W -l -d --separator --output-separator --table-columns --output-width"),
    "file": _opts("-m -e -F -P --magic-file --exclude --separator --parameter -f --files-from"),
    "stat": _opts("-c --format --printf"),
    "strings": _opts("-n -t -e -T --bytes --radix --encoding --target"),
    "hexdump": _opts("-n -s -e -f"),
    "hd": _opts("-n -s -e -f"),
    "od": _opts("-A -j -N -t -w -S --address-radix --skip-bytes --read-bytes --format --width --strings"),
    "base64": _opts("-w --wrap"),
    "base32": _opts("-w --wrap"),
    "nl": _opts("-b -d -f -h -i -l -n -s -v -w --body-numbering --section-delimiter --number-separator --starting-line-number --number-width --number-format"),
    "ls": _opts("-I --ignore --hide -w --width -T --tabsize --format --sort --time --time-style --block-size --color --indicator-style --quoting-style"),
    "dir": _opts("-I --ignore -w -T"),
    "du": _opts("-d --max-depth -B --block-size -t --threshold --exclude -X --exclude-from --time-style --files0-from"),
    "tree": _opts("-L -P -I -o --filelimit --charset --sort --timefmt"),
    "diff": _opts("-C -U -I -F -x -X --context --unified --ignore-matching-lines --label --from-file --to-file --exclude --exclude-from -W --width --tabsize --horizon-lines --line-format --ifdef -D"),
    "cmp": _opts("-i -n --ignore-initial --bytes"),
    "comm": _opts("--output-delimiter"),
    "sha1sum": frozenset(),
    "sha224sum": frozenset(),
    "sha256sum": frozenset(),
    "sha384sum": frozenset(),
    "sha512sum": frozenset(),
    "md5sum": frozenset(),
    "b2sum": _opts("-l --length"),
    "shasum": _opts("-a --algorithm"),
    "cksum": _opts("-a --algorithm -l --length"),
    "md5": _opts("-s"),
    "less": _opts("-b -h -j -k -o -O -p -P -t -T -x -y -z --pattern --prompt --tag --tag-file --log-file"),
    "more": _opts("-n"),
    "bat": _opts("-l --language -H --highlight-line --tabs --theme --style -r --line-range --color --paging --wrap --terminal-width --pager --map-syntax"),
    "batcat": _opts("-l --language -H --highlight-line --tabs --theme --style -r --line-range"),
    "xxd": _opts("-c -g -l -s -o -n --cols --len --seek --name"),
    "zcat": frozenset(),
    "bzcat": frozenset(),
    "xzcat": frozenset(),
    "rev": frozenset(),
    "fold": _opts("-w --width"),
    "fmt": _opts("-w -p -g --width --prefix --goal"),
    "expand": _opts("-t --tabs"),
    "unexpand": _opts("-t --tabs"),
    "readlink": frozenset(),
    "realpath": _opts("--relative-to --relative-base"),
    "source": frozenset(),
    "zgrep": frozenset(),
    "diff3": _opts("-L --label"),
}

#: Commands whose every operand is written.
WRITERS: dict[str, frozenset[str]] = {
    "touch": _opts("-d -r -t --date --reference --time"),
    "mkdir": _opts("-m --mode --context"),
    "tee": frozenset(),
    "sponge": frozenset(),  # moreutils: soaks up stdin, then writes the file (`jq … f | sponge f`)
    "truncate": _opts("-s -r --size --reference"),
}
#: Commands whose every operand is deleted.
DELETERS: dict[str, frozenset[str]] = {
    "rm": frozenset(),
    "rmdir": frozenset(),
    "shred": _opts("-n -s --iterations --size --random-source"),
    "unlink": frozenset(),
    "srm": frozenset(),
    "wipe": frozenset(),
}

# --------------------------------------------------------------------------- extractors

Pair = tuple[str, str]
Extractor = Callable[[tuple[str, ...]], Iterable[Pair]]


def _all(op: str, value_opts: frozenset[str]) -> Extractor:
    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        return [(op, a) for a in parse_args(args, value_opts).operands]

    return extract


def _copy_like(source_op: str, value_opts: str, *, dir_flag: bool = False) -> Extractor:
    """cp / mv / install: sources, then a destination (or ``-t DIR``); ``install -d``
    creates every operand (``dir_flag``)."""
    vo = _opts(value_opts)

    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        parsed = parse_args(args, vo)
        ops = parsed.operands
        target = parsed.value("-t", "--target-directory")
        out: list[Pair] = []
        if target is not None:
            out.extend((source_op, a) for a in ops)
            out.append((WRITE, target))
        elif dir_flag and parsed.has("-d", "--directory"):
            out.extend((WRITE, a) for a in ops)
        elif len(ops) >= 2:
            out.extend((source_op, a) for a in ops[:-1])
            out.append((WRITE, ops[-1]))
        elif len(ops) == 1:
            out.append((source_op, ops[0]))
        return out

    return extract


def _ln(args: tuple[str, ...]) -> Iterable[Pair]:
    """A link is a door to its target: whatever later writes through the link writes the
    target (``ln -s ~/.bashrc n && echo x >> n``), so the targets count as written."""
    parsed = parse_args(args, _opts("-t --target-directory -S --suffix"))
    ops = parsed.operands
    target = parsed.value("-t", "--target-directory")
    if target is not None:
        return [(WRITE, a) for a in ops] + [(WRITE, target)]
    if len(ops) >= 2:
        return [(WRITE, a) for a in ops[:-1]] + [(WRITE, ops[-1])]
    if len(ops) == 1:
        return [(WRITE, ops[0]), (WRITE, posixpath.basename(ops[0].rstrip("/")) or ".")]
    return []


def _cd(args: tuple[str, ...]) -> Iterable[Pair]:
    ops = parse_args(args).operands
    return [(READ, ops[0])] if ops and ops[0] != "-" else []


_FIND_VALUE = _opts(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -user -group -uid -gid -perm -size "
    "-mtime -atime -ctime -mmin -amin -cmin -maxdepth -mindepth -newer -anewer -cnewer -samefile -links -inum -fstype "
    "-printf -fprint -fprint0 -fls -used -context -lname -ilname -regextype -newerXY -D -O -files0-from"
)
_FIND_FILE_READ = _opts("-newer -anewer -cnewer -samefile -files0-from")
_FIND_FILE_WRITE = _opts("-fprint -fprint0 -fls")


def _find(args: tuple[str, ...]) -> Iterable[Pair]:
    """Start points come before the first expression token. ``-delete`` (or ``-exec rm``)
    deletes what the expression matches *below* each start point, written ``dir/*``;
    the start point itself only when it can match too (see :func:`_find_start_deleted`).
    """
    out: list[Pair] = []
    roots, i = _find_start(args)
    n = len(args)
    expression = args[i:]
    deletes = False
    while i < n:
        tok = args[i]
        if tok in _FIND_FILE_READ and i + 1 < n:
            out.append((READ, args[i + 1]))
        elif tok in _FIND_FILE_WRITE and i + 1 < n:
            out.append((WRITE, args[i + 1]))
        elif tok == "-fprintf" and i + 1 < n:
            out.append((WRITE, args[i + 1]))
            i += 1
        elif tok == "-delete":
            deletes = True
        elif tok in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < n and args[j] not in (";", "+", "\\;"):
                j += 1
            if i + 1 < n and canonical_name(posixpath.basename(args[i + 1])) in ("rm", "shred", "unlink", "rmdir"):
                deletes = True
            i = j
        if tok in _FIND_VALUE:
            i += 1
        i += 1
    for root in roots or ["."]:
        out.append((READ, root))
        if deletes:
            out.append((DELETE, root if _find_start_deleted(root, expression) else within(root)))
    return out


def _find_start(args: tuple[str, ...]) -> tuple[list[str], int]:
    """``find``'s start points and the index where its expression begins."""
    roots: list[str] = []
    i, n = 0, len(args)
    while i < n and args[i] in ("-H", "-L", "-P") or (i < n and args[i].startswith("-O")):
        i += 1
    while i < n and not args[i].startswith("-") and args[i] not in ("(", "!", ","):
        roots.append(args[i])
        i += 1
    return roots, i


def find_roots(args: tuple[str, ...]) -> list[str]:
    """The start points of ``find ARGS`` as written (``.`` when none is given)."""
    return _find_start(args)[0] or ["."]


def within(path: str) -> str:
    """The written form of "entries inside ``path``" (``.`` → ``./*``, ``/`` → ``/*``).

    Deleting inside a directory is a ``delete`` of ``dir/*``: the files layer then
    judges the children (``/*`` is a removal target, ``<workspace>/*`` is not) instead
    of the directory itself.
    """
    return "/*" if path.rstrip("/") == "" else path.rstrip("/") + "/*"


#: Start points that are never deleted themselves (``find`` and ``rm`` refuse them).
_NEVER_DELETED = frozenset({".", "./", "..", "../"})


def _find_start_deleted(root: str, expression: tuple[str, ...]) -> bool:
    """Whether ``find ROOT EXPR -delete`` can delete ROOT itself.

    The start point is tested like every other file, so it goes when nothing excludes
    it: ``-mindepth 1`` or more, or (in a plain conjunction, without ``-o``, ``,`` or
    negation) ``-type`` without ``d``, or a ``-name``/``-path`` pattern it does not match.
    """
    if root in _NEVER_DELETED or root.endswith(("/.", "/..")):
        return False
    tokens = list(expression)
    for k, tok in enumerate(tokens[:-1]):
        if tok == "-mindepth" and tokens[k + 1].isdigit() and int(tokens[k + 1]) >= 1:
            return False
    if any(t in ("-o", "-or", ",", "!", "-not") for t in tokens):
        return True
    name = posixpath.basename(root.rstrip("/")) or root
    for k, tok in enumerate(tokens[:-1]):
        value = tokens[k + 1]
        if tok == "-type" and "d" not in value:
            return False
        if tok == "-name" and not fnmatchcase(name, value):
            return False
        if tok == "-iname" and not fnmatchcase(name.lower(), value.lower()):
            return False
        if tok in ("-path", "-wholename") and not fnmatchcase(root, value):
            return False
    return True


_GREP_VALUE = _opts(
    "-e -f -m -A -B -C -d -D --regexp --file --max-count --after-context --before-context --context --label --include "
    "--exclude --exclude-dir --exclude-from --color --colour --binary-files --devices --directories --group-separator"
)
_RG_VALUE = _opts(
    "-e -f -g -t -T -m -A -B -C -M -j -E --regexp --file --glob --iglob --type --type-not --max-count --after-context "
    "--before-context --context --max-columns --threads --encoding --pre --pre-glob --type-add --type-clear --colors "
    "--color --sort --sortr --max-depth --maxdepth -d --max-filesize --replace -r --path-separator --context-separator "
    "--field-match-separator --field-context-separator --engine --ignore-file --dfa-size-limit --regex-size-limit "
    "--hostname-bin --hyperlink-format --generate"
)


def _grep_like(value_opts: frozenset[str], pattern_opts: tuple[str, ...], file_opts: tuple[str, ...]) -> Extractor:
    """grep / rg: files named by a pattern-file option, then the operands after the
    pattern (the first operand is the pattern unless an option gave one)."""
    pattern_or_file = frozenset(pattern_opts) | frozenset(file_opts)
    file_set = frozenset(file_opts)

    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        parsed = parse_args(args, value_opts)
        ops = parsed.operands
        options = parsed.options
        out = [(READ, value) for opt, value in options if opt in file_set and value is not None] if options else []
        if ops and not any(opt in pattern_or_file for opt, _ in options):
            ops = ops[1:]  # the pattern
        out.extend((READ, a) for a in ops)
        return out

    return extract


_SED_VALUE = _opts("-e -f -l --expression --file --line-length")


def _sed(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _SED_VALUE, optional_value_opts=_opts("--in-place"))
    in_place = any(opt in ("-i", "--in-place") for opt, _ in parsed.options) or any(
        a.startswith("-i") for a in args if not a.startswith("--")
    )
    ops = list(parsed.operands)
    if not parsed.has("-e", "--expression", "-f", "--file") and ops:
        ops = ops[1:]
    out = [(READ, f) for f in parsed.values("-f", "--file")]
    out.extend((WRITE if in_place else READ, a) for a in ops)
    return out


def _awk(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _opts("-f -v -F --file --assign --field-separator -i --include -l --load -E --exec"))
    ops = list(parsed.operands)
    if not parsed.has("-f", "--file", "-E", "--exec") and ops:
        ops = ops[1:]
    out = [(READ, f) for f in parsed.values("-f", "--file", "-E", "--exec", "-i", "--include")]
    out.extend((READ, a) for a in ops if "=" not in a or a.startswith("/") or a.startswith("."))
    return out


def _jq(args: tuple[str, ...]) -> Iterable[Pair]:
    out: list[Pair] = []
    ops: list[str] = []
    i, n = 0, len(args)
    from_file = False
    while i < n:
        a = args[i]
        if a in ("-f", "--from-file") and i + 1 < n:
            out.append((READ, args[i + 1]))
            from_file = True
            i += 2
            continue
        if a in ("--rawfile", "--slurpfile") and i + 2 < n:
            out.append((READ, args[i + 2]))
            i += 3
            continue
        if a in ("--arg", "--argjson") and i + 2 < n:
            i += 3
            continue
        if a in ("--indent", "-L") and i + 1 < n:
            i += 2
            continue
        if a == "--args" or a == "--jsonargs":
            break
        if a.startswith("-") and a != "-":
            i += 1
            continue
        ops.append(a)
        i += 1
    if not from_file and ops:
        ops = ops[1:]
    out.extend((READ, a) for a in ops)
    return out


def _chmod_like(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _opts("--reference --from"))
    ops = list(parsed.operands)
    if parsed.value("--reference") is None and ops and not any(_DASH_MODE.fullmatch(a) for a in args):
        ops = ops[1:]  # the mode or the owner (``chmod -x f``: the mode looks like an option)
    return [(WRITE, a) for a in ops]


#: A chmod mode that starts with a dash (``-x``, ``-rwx``): chmod takes it as the mode.
_DASH_MODE = regex(r"-[rwxXst]+")


def _dd(args: tuple[str, ...]) -> Iterable[Pair]:
    out: list[Pair] = []
    for a in args:
        key, eq, val = a.partition("=")
        if eq and key == "if":
            out.append((READ, val))
        elif eq and key == "of":
            out.append((WRITE, val))
    return out


_TAR_VALUE = _opts(
    "-f -C -T -X -b -H -K -L -N -V -g --file --directory --files-from --exclude-from --exclude --blocking-factor --format "
    "--starting-file --tape-length --newer --label --listed-incremental --to-command --use-compress-program -I "
    "--checkpoint-action --rsh-command --transform --xform --owner --group --mode --mtime --strip-components --suffix"
)


def tar_args(args: tuple[str, ...]) -> tuple[str, ...]:
    """``tar``'s arguments with an old-style bundled first argument spelled out
    (``tar czf out.tgz dir`` → ``-c -z -f out.tgz dir``)."""
    if args and not args[0].startswith("-") and args[0] and all(c.isalpha() for c in args[0]):
        letters = args[0]
        rest = list(args[1:])
        expanded: list[str] = []
        for ch in letters:
            expanded.append("-" + ch)
            if ch in "fCTXbHKLNVg" and rest:
                expanded.append(rest.pop(0))
        args = tuple(expanded + rest)
    return args


def _tar(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(tar_args(args), _TAR_VALUE)
    names = parsed.names
    archive = parsed.value("-f", "--file")
    directory = parsed.value("-C", "--directory")
    create = bool(names & {"-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate"})
    extract = bool(names & {"-x", "--extract", "--get"})
    delete = "--delete" in names
    out: list[Pair] = []
    if archive and archive != "-" and ":" not in archive.split("/", 1)[0]:
        out.append((WRITE if create or delete else READ, archive))
    for f in parsed.values("-T", "--files-from", "-X", "--exclude-from"):
        out.append((READ, f))
    if extract:
        out.append((WRITE, directory or "."))
    elif create:
        if directory:
            out.extend((READ, posixpath.join(directory, a)) for a in parsed.operands)
        else:
            out.extend((READ, a) for a in parsed.operands)
    return out


def _git(args: tuple[str, ...]) -> Iterable[Pair]:
    out: list[Pair] = []
    where = ""  # ``-C dir``: later paths are relative to it
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        a = args[i]
        if a == "-C" and i + 1 < n:
            where = posixpath.join(where, args[i + 1]) if where else args[i + 1]
            out.append((READ, where))
            i += 2
            continue
        if a in ("-c", "--git-dir", "--work-tree", "--namespace", "--config-env") and i + 1 < n:
            if a in ("--git-dir", "--work-tree"):
                out.append((READ, args[i + 1]))
            i += 2
            continue
        i += 1
    sub = args[i] if i < n else ""
    rest = args[i + 1 :]
    op = {"checkout": WRITE, "restore": WRITE, "rm": DELETE, "clean": DELETE, "mv": WRITE, "reset": WRITE}.get(sub, READ)
    if sub in ("rm", "clean"):
        out.extend(_git_removals(sub, rest))
    elif "--" in rest:
        out.extend((op, p) for p in rest[rest.index("--") + 1 :])
    elif sub in ("add", "mv", "stage"):
        out.extend((op if sub != "add" else READ, a) for a in parse_args(rest, _opts("--chmod --pathspec-from-file")).operands)
    elif sub == "config":
        out.extend(_git_config_files(rest))
    elif sub == "diff" and "--no-index" in rest:  # compares any two files, printing both
        out.extend((READ, a) for a in parse_args(rest, _opts("-U --unified -O --inter-hunk-context")).operands)
    elif sub == "clone":
        ops = parse_args(rest, _GIT_CLONE_VALUE).operands
        if len(ops) >= 2:
            out.append((WRITE, ops[1]))
        elif ops and (name := clone_name(ops[0])):
            out.append((WRITE, name))  # ``git clone URL`` makes a folder named after the repository
    if where:
        out = [out[0]] + [(op, posixpath.join(where, p)) for op, p in out[1:]]
    return out


_GIT_CLONE_VALUE = _opts(
    "-b --branch -o --origin --depth --reference --reference-if-able -c --config --template -u --upload-pack "
    "--separate-git-dir --filter --jobs -j --bundle-uri --shallow-since --shallow-exclude --server-option --revision"
)


#: What ends a clone URL's last component (``host:owner/repo``): only ``git clone`` needs it.
_PATH_SEPARATORS = LazyPattern(r"[/:]")


def clone_name(url: str) -> str:
    """The folder ``git clone URL`` (or ``gh repo clone OWNER/REPO``) creates when none is
    named: the repository's last path component without ``.git`` (``/.git`` and a
    trailing slash dropped first), as git's ``guess_dir_name`` does."""
    name = url.rstrip("/")
    if name.endswith("/.git"):
        name = name[:-5]
    name = _PATH_SEPARATORS.split(name)[-1]
    for suffix in (".git", ".bundle"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return "" if name in ("", ".", "..") or name.startswith("-") else name


def url_name(url: str) -> str:
    """The file name a fetch saves ``url`` under by default (``curl -O``, ``wget URL``):
    the last component of its path, without query or fragment; "" when it has none."""
    rest = url.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    if "/" not in rest or rest.endswith("/"):
        return ""  # no file name: curl -O refuses, wget saves index.html
    return rest.rsplit("/", 1)[-1]


#: ``git config`` forms that only read.
_GIT_CONFIG_READS = frozenset({
    "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--get-color", "--get-colorbool",
})


def _git_config_files(rest: tuple[str, ...]) -> list[Pair]:
    """The file a ``git config`` write changes: ``--file X``, ``--global`` (``~/.gitconfig``),
    ``--system``, else the repository's ``.git/config`` — all protected, so a write asks
    in every mode whatever the key."""
    parsed = parse_args(rest, _opts("-f --file --blob --type --default --comment"))
    if set(rest) & _GIT_CONFIG_READS or parsed.operands[:1] in (["get"], ["list"]) or (
        len(parsed.operands) <= 1 and not set(rest) & {"--unset", "--unset-all", "--add", "--replace-all",
                                                      "--remove-section", "--rename-section", "-e", "--edit"}
    ):
        target = parsed.value("-f", "--file")
        return [(READ, target)] if target else []
    target = parsed.value("-f", "--file")
    if target:
        return [(WRITE, target)]
    if "--global" in rest:
        return [(WRITE, "~/.gitconfig")]
    if "--system" in rest:
        return [(WRITE, "/etc/gitconfig")]
    return [(WRITE, ".git/config")]


def _git_removals(sub: str, rest: tuple[str, ...]) -> list[Pair]:
    """``git rm`` and ``git clean`` delete files *inside* their pathspecs (``git rm -r .``
    and ``git clean -f`` empty the work tree but never remove its root): a directory
    pathspec such as ``.`` becomes ``./*``. A dry run (``-n``), and ``git rm --cached``
    (index only), only read."""
    parsed = parse_args(rest, _opts("-e --exclude --pathspec-from-file"))
    dry = parsed.has("-n", "--dry-run") or (sub == "rm" and parsed.has("--cached"))
    specs = parsed.operands or ["."]
    if dry:
        return [(READ, p) for p in specs]
    return [(DELETE, within(p) if p in _NEVER_DELETED or p.endswith(("/.", "/..")) or sub == "clean" else p) for p in specs]


def _install(args: tuple[str, ...]) -> Iterable[Pair]:
    return _copy_like(READ, "-m --mode -o --owner -g --group -t --target-directory -S --suffix", dir_flag=True)(args)


def _script_exec(value_opts: frozenset[str], code_opts: frozenset[str]) -> Extractor:
    """Interpreters and shells: the first operand is a script that runs (unless inline code)."""

    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        parsed = parse_args(args, value_opts | code_opts, stop_at_operand=True)
        if parsed.has(*code_opts) or not parsed.operands:
            return []
        first = parsed.operands[0]
        if first == "-" or first.startswith(("http://", "https://")):
            return []
        return [(EXEC, first)]

    return extract


#: Letters that end a short-option cluster of perl/ruby because the rest is their value
#: (``-Mstrict``, ``-F:``, ``-I lib``, ``-i.bak``); digits after ``-l``/``-0``/``-W`` are
#: theirs too, and the cluster goes on after them (``-lane``, ``-0777``).
_FILTER_VALUE_LETTERS = {"perl": "MmIxCdDFi", "ruby": "IrCEFKxi"}
_FILTER_DIGIT_LETTERS = {"perl": "l0", "ruby": "0WT"}


def _line_filter(name: str) -> Extractor:
    """perl and ruby: with inline code, the operands after it are input files read line
    by line, and ``-i`` rewrites each of them in place (``perl -pi -e 's/a/b/' f``
    writes ``f``); without inline code the first operand is a script that runs."""
    letters_with_value, digit_letters = _FILTER_VALUE_LETTERS[name], _FILTER_DIGIT_LETTERS[name]
    value_opts = INTERPRETER_VALUE_OPTS.get(name, frozenset())
    fallback = _script_exec(value_opts, INTERPRETERS[name] | _opts("-m"))

    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        inplace, code, i, n = False, False, 0, len(args)
        while i < n and not code:
            arg = args[i]
            if arg == "--" or not arg.startswith("-") or arg == "-":
                return fallback(args)
            if arg in value_opts:
                i += 2
                continue
            letters = arg[1:]
            for k, letter in enumerate(letters):
                if letter.isdigit() and k and letters[k - 1] in digit_letters + "0123456789":
                    continue
                if letter == "i":
                    inplace = True
                if letter in "eE" and not (name == "ruby" and letter == "E"):
                    code = True
                    i += k + 2 == len(arg)  # the code is the next word unless attached
                    break
                if letter in letters_with_value:
                    break
            i += 1
        if not code:
            return fallback(args)
        files = [a for a in args[i:] if a != "-"]
        return [(READ, a) for a in files] + ([(WRITE, a) for a in files] if inplace else [])

    return extract


def _curl(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(
        args,
        _opts(
            "-o --output -T --upload-file -d --data --data-binary --data-raw --data-ascii --data-urlencode -F --form "
            "--form-string -K --config -b --cookie -c --cookie-jar -H --header -u --user -X --request -A --user-agent "
            "-e --referer --cacert --cert --key -E --capath --output-dir -w --write-out -D --dump-header --trace "
            "--trace-ascii --stderr -x --proxy --resolve --connect-to -r --range -m --max-time --retry -C --continue-at "
            "--json --url"
        ),
    )
    out: list[Pair] = []
    folder = parsed.value("--output-dir")  # where -o and -O files go
    for opt, val in parsed.options:
        if val is None:
            continue
        if opt in ("-o", "--output") and val != "-":
            out.append((WRITE, posixpath.join(folder, val) if folder else val))
        elif opt in ("-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr"):
            if val != "-":
                out.append((WRITE, val))
        elif opt in ("-T", "--upload-file", "-K", "--config"):
            out.append((READ, val))
        elif opt in ("-d", "--data", "--data-binary", "--data-ascii", "--json", "--data-urlencode") and "@" in val:
            # ``-d @FILE`` sends the file; ``-d '{"email":"a@b.c"}'`` sends the text itself.
            # ``--data-urlencode`` also takes ``NAME@FILE`` (an ``@`` before any ``=``)
            at = val.find("@")
            if at == 0 or opt == "--data-urlencode" and "=" not in val[:at]:
                path = val[at + 1 :]
                if path and path != "-":
                    out.append((READ, path))
        elif opt in ("-F", "--form") and "=@" in val or opt in ("-F", "--form") and "=<" in val:
            path = val.split("=", 1)[1][1:].split(";", 1)[0]
            if path and path != "-":
                out.append((READ, path))
    if parsed.has("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        # each URL saved under its own name (-J: the server's name, else this one)
        out.extend((WRITE, posixpath.join(folder or "", name)) for name in _url_names(parsed.operands + parsed.values("--url")))
    return out


def _url_names(words: list[str]) -> list[str]:
    return [name for w in words if "://" in w and not w.startswith("-") and (name := url_name(w))]


def _wget(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(
        args,
        _opts("-O --output-document -o --output-file -a --append-output -i --input-file -P --directory-prefix --post-file --body-file --load-cookies --save-cookies -e --execute -U --user-agent --header -t --tries -T --timeout --user --password"),
    )
    out: list[Pair] = []
    for opt, val in parsed.options:
        if val is None:
            continue
        if opt in ("-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "--save-cookies"):
            if val != "-":
                out.append((WRITE, val))
        elif opt in ("-i", "--input-file", "--post-file", "--body-file", "--load-cookies"):
            out.append((READ, val))
    if not parsed.has("-O", "--output-document"):
        # each URL saved under its own name, in the -P folder (a name taken gets .1, .2 …)
        folder = parsed.value("-P", "--directory-prefix")
        names = _url_names(parsed.operands)
        out.extend((WRITE, posixpath.join(folder or "", name)) for name in names)
        if folder and not names:
            out.append((WRITE, folder))
    return out


def _gh(args: tuple[str, ...]) -> Iterable[Pair]:
    """``gh repo clone OWNER/REPO [DIR]``: the folder it clones into (named after the
    repository when not given)."""
    ops = parse_args(args, _opts("-R --repo -u --upstream-remote-name")).operands
    if ops[:2] != ["repo", "clone"] or len(ops) < 3:
        return []
    if len(ops) >= 4 and ops[3] != "--":
        return [(WRITE, ops[3])]
    name = clone_name(ops[2])
    return [(WRITE, name)] if name else []


#: The files ``pip download`` saves (``NAME-VERSION.tar.gz``, ``NAME-VERSION-….whl``).
_PIP_ARTIFACT = "*-[0-9]*"


def _pip(args: tuple[str, ...]) -> Iterable[Pair]:
    """``pip download``: its ``-d`` folder, or the distributions it saves in the current
    one (a glob: their names hold versions only the index knows)."""
    parsed = parse_args(args, _opts("-d --dest -r --requirement -c --constraint -i --index-url --extra-index-url -f "
                                    "--find-links --platform --python-version --implementation --abi --no-binary "
                                    "--only-binary --progress-bar --src --cache-dir --log --proxy --timeout --python"))
    if parsed.operands[:1] != ["download"]:
        return []
    dest = parsed.value("-d", "--dest")
    return [(WRITE, dest)] if dest else [(WRITE, _PIP_ARTIFACT)]


def _npm(args: tuple[str, ...]) -> Iterable[Pair]:
    """``npm pack SPEC``: the tarball of a package fetched from the registry (or a URL,
    or a git repository), ``NAME-VERSION.tgz`` in ``--pack-destination`` or here. ``npm
    pack`` of the project itself (no spec, or a local path) fetches nothing."""
    parsed = parse_args(args, _opts("--pack-destination -w --workspace --registry --prefix -C"))
    ops = parsed.operands
    if ops[:1] != ["pack"] or parsed.has("--dry-run"):
        return []
    folder = parsed.value("--pack-destination") or ""
    out: list[Pair] = []
    for spec in ops[1:]:
        if spec.startswith(("/", "./", "../", "~", "file:")) or spec in (".", ".."):
            continue
        name = spec.rsplit("@", 1)[0] if spec.rfind("@") > 0 else spec
        if "://" in name or name.startswith(("git+", "github:")) or name.count("/") > 1:
            name = ""
        name = name.lstrip("@").replace("/", "-")
        out.append((WRITE, posixpath.join(folder, f"{name}-[0-9]*.tgz" if name else "*.tgz")))
    return out


def _remote_copy(args: tuple[str, ...]) -> Iterable[Pair]:
    """scp / rsync: local operands (no ``host:`` part) are read, a local last operand written."""
    parsed = parse_args(args, _opts("-i -P -o -F -c -l -S -J -e --rsh --rsync-path --exclude --include --exclude-from --include-from --files-from --filter -f --port --password-file --log-file --chmod --chown --timeout --bwlimit --partial-dir --temp-dir -T --backup-dir --suffix --compare-dest --link-dest --copy-dest"))
    ops = parsed.operands
    if len(ops) < 2:
        return []

    def local(p: str) -> bool:
        head = p.split("/", 1)[0]
        return ":" not in head and not p.startswith("rsync://")

    out: list[Pair] = [(READ, a) for a in ops[:-1] if local(a)]
    if local(ops[-1]):
        out.append((WRITE, ops[-1]))
    return out


def _unzip(args: tuple[str, ...]) -> Iterable[Pair]:
    """``unzip ARCHIVE`` writes into ``-d DIR`` (or ``.``); listing (``-l``, ``-v``, ``-Z``),
    testing (``-t``), the comment (``-z``) and ``-p`` (to stdout) write nothing."""
    parsed = parse_args(args, _opts("-d -x -P -I -O"))
    out: list[Pair] = []
    if parsed.operands:
        out.append((READ, parsed.operands[0]))
    if not parsed.has("-l", "-t", "-v", "-Z", "-z", "-p"):
        out.append((WRITE, parsed.value("-d") or "."))
    return out


def _7z(args: tuple[str, ...]) -> Iterable[Pair]:
    """``7z x ARCHIVE -oDIR`` (and ``e``) reads the archive and writes DIR (or ``.``);
    ``7z a ARCHIVE FILES`` writes the archive; other commands only read."""
    ops = [a for a in args if not a.startswith("-")]
    if len(ops) < 2:
        return []
    command, archive = ops[0], ops[1]
    if command in ("x", "e"):
        out = next((a[2:] for a in args if a.startswith("-o") and len(a) > 2), ".")
        if "-o" in args:  # 7z wants ``-oDIR``; ``-o DIR`` is read as the output folder too (fail closed)
            at = args.index("-o")
            out = args[at + 1] if at + 1 < len(args) else out
        return [(READ, archive), (WRITE, out)]
    if command in ("a", "u", "d"):
        return [(WRITE, archive)] + [(READ, a) for a in ops[2:]]
    return [(READ, archive)]


def _zip(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _opts("-x -i -P -b -n -t -tt -O --out -Z -s -sp"))
    ops = parsed.operands
    if not ops:
        return []
    return [(WRITE, ops[0])] + [(READ, a) for a in ops[1:]]


def _uniq(args: tuple[str, ...]) -> Iterable[Pair]:
    ops = parse_args(args, _opts("-f -s -w --skip-fields --skip-chars --check-chars --group --all-repeated")).operands
    out: list[Pair] = []
    if ops:
        out.append((READ, ops[0]))
    if len(ops) > 1:
        out.append((WRITE, ops[1]))
    return out


_SORT_VALUE = READERS["sort"] | _opts("-o --output")


def _sort(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _SORT_VALUE)
    out = [(READ, a) for a in parsed.operands]
    out.extend((WRITE, v) for v in parsed.values("-o", "--output"))
    return out


def _base64(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _opts("-w --wrap -i --input -o --output"))
    out = [(READ, a) for a in parsed.operands]
    out.extend((READ, v) for v in parsed.values("-i", "--input"))
    out.extend((WRITE, v) for v in parsed.values("-o", "--output") if v != "-")
    return out


def _xxd(args: tuple[str, ...]) -> Iterable[Pair]:
    ops = parse_args(args, READERS["xxd"]).operands
    out: list[Pair] = []
    if ops:
        out.append((READ, ops[0]))
    if len(ops) > 1:
        out.append((WRITE, ops[1]))
    return out


def _iconv(args: tuple[str, ...]) -> Iterable[Pair]:
    parsed = parse_args(args, _opts("-f -t --from-code --to-code -o --output"))
    return [(READ, a) for a in parsed.operands] + [(WRITE, v) for v in parsed.values("-o", "--output")]


def _compress(args: tuple[str, ...]) -> Iterable[Pair]:
    """gzip and friends replace their operands (unless writing to stdout)."""
    parsed = parse_args(args, _opts("-S --suffix -b -T --threads -L"))
    op = READ if parsed.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") else WRITE
    return [(op, a) for a in parsed.operands]


#: Compilers that write their output beside each source file unless told where:
#: name → (source suffixes, output suffix, options that send the output elsewhere or
#: stop it, options that take a value). ``tsc ~/x.ts`` writes ``~/x.js``.
EMIT_BESIDE: dict[str, tuple[tuple[str, ...], str, frozenset[str], frozenset[str]]] = {
    "tsc": ((".ts", ".tsx", ".mts", ".cts"), ".js",
            frozenset({"--noEmit", "--outDir", "--outFile", "--out", "-p", "--project", "-b", "--build"}),
            _opts("--target -t --module -m --lib --jsx --moduleResolution --rootDir --baseUrl --types --typeRoots")),
    "javac": ((".java",), ".class", frozenset({"-d", "--directory"}),
              _opts("-cp -classpath --class-path -sourcepath --source-path -encoding -source --source -target --target "
                    "--release -s -h -processorpath --processor-path -p --module-path")),
}


def _emit_beside(name: str) -> Extractor:
    sources, output, elsewhere, values = EMIT_BESIDE[name]

    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        parsed = parse_args(args, values | elsewhere)
        out: list[Pair] = [(READ, a) for a in parsed.operands]
        if not parsed.has(*elsewhere):
            out.extend((WRITE, a.rsplit(".", 1)[0] + output) for a in parsed.operands if a.endswith(sources))
        return out

    return extract


EXTRACTORS: dict[str, Extractor] = {
    **{name: _emit_beside(name) for name in EMIT_BESIDE},
    **{name: _all(READ, vo) for name, vo in READERS.items()},
    **{name: _all(WRITE, vo) for name, vo in WRITERS.items()},
    **{name: _all(DELETE, vo) for name, vo in DELETERS.items()},
    "cd": _cd,
    "pushd": _cd,
    "cp": _copy_like(READ, "-t --target-directory -S --suffix --sparse --reflink --no-preserve"),
    "mv": _copy_like(DELETE, "-t --target-directory -S --suffix"),
    "install": _install,
    "ln": _ln,
    "find": _find,
    "bfs": _find,
    "grep": _grep_like(_GREP_VALUE, ("-e", "--regexp"), ("-f", "--file")),
    "egrep": _grep_like(_GREP_VALUE, ("-e", "--regexp"), ("-f", "--file")),
    "fgrep": _grep_like(_GREP_VALUE, ("-e", "--regexp"), ("-f", "--file")),
    "rg": _grep_like(_RG_VALUE, ("-e", "--regexp"), ("-f", "--file")),
    "ag": _grep_like(_opts("-A -B -C -G -m --context --file-search-regex --ignore --ignore-dir --max-count --depth"), (), ()),
    "ack": _grep_like(_opts("-A -B -C -m --type --ignore-dir --max-count --output -g"), (), ()),
    "sed": _sed,
    "gsed": _sed,
    "jq": _jq,
    "gojq": _jq,
    "chmod": _chmod_like,
    "chown": _chmod_like,
    "chgrp": _chmod_like,
    "dd": _dd,
    "tar": _tar,
    "bsdtar": _tar,
    "git": _git,
    "curl": _curl,
    "wget": _wget,
    "scp": _remote_copy,
    "rsync": _remote_copy,
    "unzip": _unzip,
    "zip": _zip,
    "7z": _7z,
    "7za": _7z,
    "7zr": _7z,
    "uniq": _uniq,
    "sort": _sort,
    "base64": _base64,
    "xxd": _xxd,
    "iconv": _iconv,
    "gzip": _compress,
    "gunzip": _compress,
    "bzip2": _compress,
    "bunzip2": _compress,
    "xz": _compress,
    "unxz": _compress,
    "zstd": _compress,
    ".": _all(EXEC, frozenset()),
    "source": _all(EXEC, frozenset()),
}
#: Tools whose file operations are not modelled, except the outputs of one fetching
#: sub-command (``gh repo clone``, ``pip download``, ``npm pack SPEC``): not in
#: :data:`EXTRACTORS`, so the words of their other sub-commands are still scanned for
#: paths as those of any command whose files bastion does not know.
FETCH_OUTPUTS: dict[str, Extractor] = {"gh": _gh, "pip": _pip, "pip3": _pip, "npm": _npm}

for _awk_name in AWKS:
    EXTRACTORS[_awk_name] = _awk
for _shell in SHELLS:
    EXTRACTORS[_shell] = _script_exec(_opts("-o +o -O +O --rcfile --init-file"), _opts("-c"))
for _filter in _FILTER_VALUE_LETTERS:
    EXTRACTORS[_filter] = _line_filter(_filter)
for _interp, _code in INTERPRETERS.items():
    if _interp not in EXTRACTORS:
        EXTRACTORS[_interp] = _script_exec(INTERPRETER_VALUE_OPTS.get(_interp, frozenset()), _code | _opts("-m"))

@lru_cache(maxsize=1024)
def _cli_extractor(name: str) -> Extractor | None:
    """Files a long-tail tool writes, as its spec declares (``>last``, ``>-o``)."""
    from ..catalog.catalog_cli import cli_spec

    spec = None if is_core(name) else cli_spec(name)
    if spec is None or not (spec.writes_last or spec.writes_all or spec.write_opts or spec.writes_final):
        return None

    def extract(args: tuple[str, ...]) -> Iterable[Pair]:
        parsed = parse_args(args, spec.value_opts | spec.write_opts)
        out: list[Pair] = [(WRITE, v) for v in parsed.values(*spec.write_opts)] if spec.write_opts else []
        ops = parsed.operands
        if spec.subs and ops and ops[0] in spec.subs:
            ops = ops[1:]  # the sub-command
        if spec.writes_all:
            out.extend((WRITE, o) for o in ops)
        elif spec.writes_last and len(ops) >= 2:
            out.append((WRITE, ops[-1]))
        if spec.writes_final and args and not args[-1].startswith("-") and (len(args) < 2 or not args[-2].startswith("-")):
            out.append((WRITE, args[-1]))
        return out

    return extract


# --------------------------------------------------------------------------- entry point

_WRITE_REDIRECTS = frozenset({">", ">>", "&>", "&>>", ">|", ">&"})


def _skip(path: str) -> bool:
    """Not a file: empty, stdin (``-``), ``find``'s ``{}``, a harmless or network device."""
    if path.startswith("/dev/"):
        return is_harmless_device(path) or path.startswith(("/dev/tcp/", "/dev/udp/"))
    return not path or path in ("-", "{}")


def extract_paths(cmd: SimpleCommand, *, cwd: str, home: str) -> list[PathAccess]:
    """Every file ``cmd`` reads, writes, deletes or executes, as far as its argv says."""
    base = resolve(cwd or "/", "/", home) if cwd else "/"
    cmd = at_call_cwd((cmd,), base)[0]
    return extract_paths_in(cmd, canonical_name(cmd.name) if cmd.argv else "", command_base(cmd, cwd, home), home)


def extract_paths_in(cmd: SimpleCommand, name: str, base: str, home: str) -> list[PathAccess]:
    """:func:`extract_paths` for a caller that already knows the command's canonical
    ``name`` and its ``base`` (:func:`command_base`); the classifier has both."""
    pairs: list[Pair] = []
    argv = cmd.argv
    if argv:
        extractor = EXTRACTORS.get(name) or FETCH_OUTPUTS.get(name) or _cli_extractor(name)
        if extractor is not None:
            try:
                pairs.extend(extractor(argv[1:]))
            except (IndexError, ValueError):  # malformed argv: nothing lexical to say
                pass
        head = argv[0]
        if "/" in head and posixpath.dirname(head) not in STANDARD_BIN_DIRS:
            pairs.append((EXEC, head))
    for redirect in cmd.redirects:
        target = redirect.target
        if redirect.op in ("<<", "<<-", "<<<") or not target:
            continue
        if redirect.op in (">&", "<&") and (target.isdigit() or target == "-"):
            continue
        if redirect.op == "<>":
            pairs.append((READ, target))
            pairs.append((WRITE, target))
        elif redirect.writes or redirect.op in _WRITE_REDIRECTS:
            pairs.append((WRITE, target))
        elif redirect.reads or redirect.op in ("<", "<&"):
            pairs.append((READ, target))
    out: list[PathAccess] = []
    if not pairs:
        return out
    seen: set[tuple[str, str]] = set()
    label = name or "redirect"
    for op, path in pairs:
        if _skip(path) or (op, path) in seen:
            continue
        seen.add((op, path))
        out.append(PathAccess(op, path, resolve(path, base, home), label))
    return out

