"""What a command prints when its output follows from its words alone.

A shell that reads its commands from a pipe, a here-document or a file runs whatever
text arrives there, so the parser must know that text to judge it: ``printf '%s\\n'
'rm -rf ~' | sh`` runs ``rm -rf ~`` just as ``bash -c 'rm -rf ~'`` does. This module
holds bash's rules for the commands whose output is literal:

* ``echo`` (the bash builtin: ``-n``, ``-e``, ``-E`` in any combination; ``-e`` escapes
  such as ``\\x72``, ``\\0162``, ``\\c``);
* ``printf`` (the format's escapes, ``%s``, ``%b``, ``%c``, ``%d`` and friends with
  flags, width and precision, the format reused while arguments remain; ``%q``, floats
  and dates are not modelled: None);
* ``cat`` and ``tee`` pass their input through;
* decoders (:data:`LITERAL_DECODERS`): ``base64``/``base32``/``basenc -d``, ``xxd -r -p``,
  ``openssl base64 -d``, ``rev``, ``tr`` with plain sets (rot13), ``gunzip``/``zcat`` of
  their input: ``echo cm0gLXJmIH4= | base64 -d | sh`` runs ``rm -rf ~``;
* commands that print their own path operands (:data:`PATH_PRINTERS`): ``ls -d``,
  ``realpath``, ``readlink -f``, ``dirname``, ``basename``, ``pwd`` (given the folder
  it runs in) and ``find START -maxdepth 0`` / ``find START -prune``. Their operands
  are written as the shell handed them over (``~`` stands for the home it expanded
  to; ``realpath build`` prints ``build``, which names the same file to a command
  running in the same folder), so ``realpath ~ | xargs rm -rf`` is ``rm -rf ~``.

:data:`OUTPUT_WRAPPERS` are the wrappers that run a command without changing what it
prints (``nice``, ``stdbuf``, ``exec``, ``env`` …). ``xargs_items`` splits ``xargs``'s
input the way ``xargs`` does, and :func:`xargs_commands` says what it then runs. Every function returns None when the output is not
known; callers then treat the text as unknown (never as empty).
"""

from __future__ import annotations

from .lazyre import LazyPattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["OUTPUT_WRAPPERS", "PATH_PRINTERS", "PRODUCERS", "LITERAL_DECODERS", "output", "tee_files", "xargs_items", "xargs_commands", "string_escapes",
           "MAX_OUTPUT"]

#: Longer outputs are not computed (the parser caps what it parses again anyway).
MAX_OUTPUT = 20_000
#: Commands that print their path operands (or the folder they run in): their output
#: is known when the operands are.
PATH_PRINTERS = frozenset({"ls", "realpath", "readlink", "dirname", "basename", "pwd", "find"})
#: Decoders whose output follows from a literal input (``echo … | base64 -d``): name →
#: the options that make it decode (empty: it always does). :func:`output` decodes;
#: the catalog's ``DECODERS`` adds the ones bastion cannot run itself (gpg, uudecode).
LITERAL_DECODERS: dict[str, frozenset[str]] = {
    "base64": frozenset({"-d", "--decode", "-D"}),
    "base32": frozenset({"-d", "--decode"}),
    "basenc": frozenset({"-d", "--decode"}),
    "xxd": frozenset({"-r", "-revert"}),
    "rev": frozenset(),
    "tr": frozenset(),
    "openssl": frozenset({"-d", "base64", "enc"}),
    "zcat": frozenset(),
    "gunzip": frozenset(),
    "gzip": frozenset({"-d", "--decompress"}),
}
#: Commands whose output :func:`output` can know.
PRODUCERS = frozenset({"echo", "printf", "cat", "tee"}) | PATH_PRINTERS | frozenset(LITERAL_DECODERS)
#: Wrappers that run their command with the same stdout (timing, priority, buffering,
#: privileges, environment, sessions, tracing to stderr). Not ``xargs``/``parallel``
#: (they change the arguments), ``watch``/``script`` (they redraw the output),
#: ``chronic`` (it hides the output of commands that succeed).
OUTPUT_WRAPPERS = frozenset(
    {"command", "builtin", "exec", "nice", "ionice", "nohup", "timeout", "time", "stdbuf", "env", "sudo",
     "doas", "setsid", "unbuffer", "eatmydata", "nocache", "caffeinate", "fakeroot", "firejail", "strace",
     "ltrace", "catchsegv", "flock", "busybox", "pkexec", "chroot", "torsocks", "proxychains",
     "proxychains4"}
)

_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                   "v": "\v", "\\": "\\"}
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")


class _Stop(Exception):
    """``\\c``: no more output at all."""


def _byte(code: int) -> str:
    """One byte written by ``\\xHH`` or ``\\NNN``: ASCII as itself; a byte above 0x7F is
    half a character at best, kept as U+FFFD (an ordinary word character to a shell)."""
    return chr(code) if code < 0x80 else "\ufffd"


def _escapes(text: str, mode: str) -> tuple[str, bool]:
    """Expand backslash escapes. ``mode`` is ``format`` (printf's format: ``\\NNN``),
    ``echo`` (``echo -e``: ``\\0NNN`` only) or ``b`` (``%b``: both). Returns the text and
    whether ``\\c`` cut it short (``\\c`` only stops output for ``echo`` and ``%b``)."""
    if "\\" not in text:
        return text, False
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 == n:
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt in "\"'?" and mode == "format":
            out.append(nxt)
            i += 2
        elif nxt == "c" and mode != "format":
            return "".join(out), True
        elif nxt in "xuU":
            most = {"x": 2, "u": 4, "U": 8}[nxt]
            j = i + 2
            while j < n and j - (i + 2) < most and text[j] in _HEX:
                j += 1
            if j == i + 2:
                out.append("\\" + nxt)
            else:
                code = int(text[i + 2 : j], 16)
                if nxt == "x":
                    out.append(_byte(code))
                else:
                    out.append(chr(code) if code <= 0x10FFFF else "?")
            i = j
        elif nxt in _OCTAL and (mode != "echo" or nxt == "0"):
            start = i + 2 if (nxt == "0" and mode != "format") else i + 1
            j = start
            while j < n and j - start < 3 and text[j] in _OCTAL:
                j += 1
            out.append(_byte(int(text[start:j] or "0", 8) & 0xFF))
            i = j
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out), False


def string_escapes(text: str) -> str:
    """``text`` with C-style escapes (``\\n``, ``\\t``, ``\\x41``, ``\\\\``) expanded, as a
    string literal in most languages reads them (``os.system("cat <<E | sh\\n…")``)."""
    return _escapes(text, "format")[0]


def _echo(args: tuple[str, ...], exact: bool) -> str | None:
    escapes = False
    newline = True
    index = 0
    for index, arg in enumerate(args):  # noqa: B007 - the index is used after the loop
        if len(arg) < 2 or arg[0] != "-" or not set(arg[1:]) <= {"n", "e", "E"}:
            break
        for letter in arg[1:]:
            if letter == "n":
                newline = False
            else:
                escapes = letter == "e"
    else:
        index = len(args)
    text = " ".join(args[index:])
    if escapes:
        text, stopped = _escapes(text, "echo")
        if stopped:
            return text
    elif "\\" in text and not exact:
        # sh (dash) and some /bin/echo expand escapes without -e: both readings
        expanded, _stopped = _escapes(text, "echo")
        return text + "\n" + expanded + "\n"
    return text + "\n" if newline else text


_CONVERSION = LazyPattern(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%])")
_NUMERIC = frozenset("diouxXc")


#: An octal number ``int(arg, 0)`` refuses (``010``): printf reads it as octal.
_OCTAL_NUMBER = LazyPattern(r"[+-]?0[0-7]+")


def _number(arg: str) -> int | None:
    if not arg:
        return 0
    if arg[0] in "'\"":
        return ord(arg[1]) if len(arg) > 1 else 0
    try:
        return int(arg, 0)
    except ValueError:
        return int(arg, 8) if _OCTAL_NUMBER.fullmatch(arg) else None


def _printf(args: tuple[str, ...]) -> str | None:
    if args and args[0] == "-v":
        return ""  # assigns a variable, prints nothing
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0].startswith("-") and args[0] != "-":
        return None  # an option bash's printf does not have: an error
    if not args:
        return None
    fmt, rest = args[0], list(args[1:])
    out: list[str] = []
    try:
        while True:
            used = _printf_pass(fmt, rest, out)
            if not rest or not used:
                break
            if sum(map(len, out)) > MAX_OUTPUT:
                return None
    except _Stop:
        pass
    except (ValueError, OverflowError):
        return None
    text = "".join(out)
    return text if len(text) <= MAX_OUTPUT else None


def _printf_pass(fmt: str, rest: list[str], out: list[str]) -> int:
    """One pass over the format, taking arguments from ``rest``; returns how many."""
    used = 0
    pos = 0
    value: str | int  # text for %s/%b/%c, a number for the numeric conversions
    for match in _CONVERSION.finditer(fmt):
        out.append(_literal_part(fmt[pos : match.start()]))
        pos = match.end()
        flags, width, precision, conv = match.groups()
        if conv == "%":
            if flags or width or precision is not None:
                raise ValueError("%")
            out.append("%")
            continue
        if width == "*":
            width = rest.pop(0) if rest else "0"
            used += 1
        if precision == "*":
            precision = rest.pop(0) if rest else "0"
            used += 1
        arg = rest.pop(0) if rest else None
        if arg is not None:
            used += 1
        if conv == "s":
            value = arg or ""
        elif conv == "b":
            value, stopped = _escapes(arg or "", "b")
            if stopped:
                out.append(value)
                raise _Stop
            conv = "s"
        elif conv in _NUMERIC:
            if conv == "c":
                value = arg[:1] if arg else "\0"  # bash prints NUL for an empty or missing %c
                conv = "s"
                precision = None
            elif precision is not None:
                raise ValueError("precision")  # C and Python differ on "%.0d" of 0
            else:
                number = _number(arg or "")
                if number is None:
                    raise ValueError(arg)
                if conv in "ouxX":  # unsigned: C wraps negatives and ignores the sign flags
                    number %= 1 << 64
                    flags = flags.replace(" ", "").replace("+", "")
                value = number
                conv = "d" if conv in "iu" else conv
        else:
            raise ValueError(conv)  # %q, floats, %(…)T: not modelled
        if abs(int(width or 0)) > 1000 or int(precision or 0) > 1000:
            raise ValueError("width")
        spec = f"%{flags}{width or ''}{'.' + precision if precision is not None else ''}{conv}"
        out.append(spec % value)
    out.append(_literal_part(fmt[pos:]))
    return used


def _literal_part(text: str) -> str:
    """Format text between conversions; a ``%`` left here is an incomplete conversion,
    which bash reports as an error."""
    if "%" in text:
        raise ValueError("format")
    return _escapes(text, "format")[0]


def output(argv: tuple[str, ...], stdin: str | None = None, exact: bool = False, cwd: str | None = None) -> str | None:
    """What ``argv`` writes to stdout, given the literal text on its stdin (or None) and
    the folder it runs in (``cwd``, for ``pwd``; None when not known).

    Which ``echo`` runs depends on the shell: bash's prints backslashes as written
    unless given ``-e``, sh's (dash) expands them. Unless ``exact`` (bash's output
    only), an ``echo`` text holding a backslash gives both readings, one after the other:
    a shell reading it sees every command either one could hold."""
    if not argv:
        return None
    name = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if name == "echo":
        return _echo(args, exact)
    if name == "printf":
        return _printf(args)
    if name in PATH_PRINTERS:
        return _paths_printed(name, args, cwd)
    if stdin is None:
        return None
    if name == "cat":
        return stdin if all(a in ("-", "-u") for a in args) else None
    if name == "tee":
        return stdin
    if name in LITERAL_DECODERS:
        return _decoded(name, args, stdin)
    return None


def _decoded(name: str, args: tuple[str, ...], stdin: str) -> str | None:
    """What a decoder prints for a literal input, as text whose characters are its bytes
    (latin-1, so a gzip stream survives a ``base64 -d | gunzip``); None when unsure."""
    import base64
    import binascii
    import zlib

    flags = set(a for a in args if a.startswith("-") or name == "openssl")
    clusters = {"-" + c for a in args if a.startswith("-") and not a.startswith("--") for c in a[1:]}
    text: str | None
    try:
        data = stdin.encode("latin-1")
        if name == "rev":
            text = "\n".join(line[::-1] for line in stdin.split("\n"))
        elif name == "tr":
            text = _translate(args, stdin)
        elif name in ("base64", "base32", "basenc", "openssl"):
            if name == "openssl":  # ``openssl base64 -d``, ``openssl enc -d -base64`` / ``-a``
                decoding = "-d" in flags and ("base64" in flags or "-base64" in flags or "-a" in flags or "-A" in flags)
            else:
                decoding = bool(LITERAL_DECODERS[name] & (flags | clusters))
            if not decoding:
                return None
            compact = b"".join(data.split())
            if name == "base32" or "--base32" in flags:
                raw = base64.b32decode(compact + b"=" * (-len(compact) % 8))
            elif "--base16" in flags:
                raw = base64.b16decode(compact.upper())
            else:
                raw = base64.b64decode(compact + b"=" * (-len(compact) % 4), altchars=b"-_" if "--base64url" in flags else None)
            text = raw.decode("latin-1")
        elif name == "xxd":
            if not ({"-r", "-revert"} & (flags | clusters)) or not ({"-p", "-ps", "-plain", "-postscript"} & (flags | clusters)):
                return None
            text = binascii.unhexlify(b"".join(data.split())).decode("latin-1")
        else:  # zcat, gunzip, gzip -d
            if name == "gzip" and not ({"-d", "--decompress"} & (flags | clusters)):
                return None
            if any(a for a in args if not a.startswith("-")):
                return None  # files, not stdin
            text = zlib.decompress(data, 47).decode("latin-1")
    except (ValueError, binascii.Error, zlib.error, UnicodeError):
        return None
    return text if text is not None and len(text) <= MAX_OUTPUT else None


def _translate(args: tuple[str, ...], text: str) -> str | None:
    """``tr SET1 SET2`` with plain characters and ``a-z`` ranges (rot13 and friends)."""
    if len(args) != 2 or any(a.startswith("-") for a in args):
        return None
    sets = [_expand_set(a) for a in args]
    if sets[0] is None or sets[1] is None or not sets[1]:
        return None
    first, second = sets[0], sets[1]
    second = second + second[-1] * (len(first) - len(second))
    table = {ord(a): b for a, b in zip(first, second, strict=False)}
    return text.translate(table)


def _expand_set(spec: str) -> str | None:
    if "[" in spec or "\\" in spec:
        return None  # classes and escapes: not modelled
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = ord(spec[i]), ord(spec[i + 2])
            if hi < lo:
                return None
            out.extend(chr(c) for c in range(lo, hi + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


def _paths_printed(name: str, args: tuple[str, ...], cwd: str | None) -> str | None:
    """What a :data:`PATH_PRINTERS` command prints, or None (an option that changes the
    output, a word the shell expands at run time, a result that needs the home)."""
    if any("$" in a or "`" in a for a in args):
        return None
    if name == "pwd":
        return cwd + "\n" if cwd is not None and all(a in ("-L", "-P") for a in args) else None
    if name == "find":
        return _find_printed(args)
    flags, operands, values = _split_options(args, _PRINTER_VALUES.get(name, frozenset()))
    if flags is None or not flags <= _PRINTER_FLAGS[name] or (not operands and name != "ls"):
        return None
    end = "\0" if "z" in flags else "\n"
    if name == "ls":
        items: Sequence[str | None] | None = (operands or ["."]) if "d" in flags else None
    elif name == "realpath":
        items = [o.rstrip("/") or "/" for o in operands]
    elif name == "readlink":
        if not flags & {"f", "e", "m"}:
            return None  # without -f/-e/-m readlink prints a link's target
        items = [o.rstrip("/") or "/" for o in operands]
        if "n" in flags and len(items) == 1:
            end = ""
    elif name == "dirname":
        items = [_dirname(o) for o in operands]
    else:  # basename
        suffix = values.get("s", "")
        if "a" not in flags and "s" not in flags:
            if len(operands) > 2:
                return None
            suffix = operands[1] if len(operands) == 2 else ""
            operands = operands[:1]
        items = [_basename(o, suffix) for o in operands]
    printed = [i for i in items if i is not None] if items is not None else []
    if items is None or len(printed) != len(items):
        return None
    return "".join(f"{i}{end}" for i in printed)


#: The short options each printer may carry without changing what it prints (``z``:
#: NUL-separated; ``n``: no newline), by their one-letter form.
_PRINTER_FLAGS = {
    "ls": frozenset("d1"),
    "realpath": frozenset("emsqLPz"),
    "readlink": frozenset("femnqsvz"),
    "dirname": frozenset("z"),
    "basename": frozenset("asz"),
}
_PRINTER_VALUES = {"basename": frozenset("s")}
_LONG_FLAGS = {
    "--directory": "d", "--canonicalize-existing": "e", "--canonicalize-missing": "m", "--canonicalize": "f",
    "--strip": "s", "--no-symlinks": "s", "--quiet": "q", "--silent": "q", "--logical": "L", "--physical": "P",
    "--zero": "z", "--no-newline": "n", "--verbose": "v", "--multiple": "a", "--suffix": "s",
}


def _split_options(args: tuple[str, ...], takes_value: frozenset[str]) -> tuple[set[str] | None, list[str], dict[str, str]]:
    """Short and long options (as letters), operands, and option values; None for an
    option this module does not know."""
    flags: set[str] = set()
    operands: list[str] = []
    values: dict[str, str] = {}
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            key, eq, value = arg.partition("=")
            letter = _LONG_FLAGS.get(key)
            if letter is None:
                return None, [], {}
            flags.add(letter)
            if letter in takes_value:
                if not eq:
                    if i == n:
                        return None, [], {}
                    value, i = args[i], i + 1
                values[letter] = value
            continue
        if arg.startswith("-") and arg != "-":
            for k, letter in enumerate(arg[1:], 1):
                flags.add(letter)
                if letter in takes_value:
                    value = arg[k + 1 :]
                    if not value:
                        if i == n:
                            return None, [], {}
                        value, i = args[i], i + 1
                    values[letter] = value
                    break
            continue
        operands.append(arg)
    return flags, operands, values


def _dirname(path: str) -> str | None:
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else "."
    if "/" not in stripped:
        return None if stripped.startswith("~") else "."  # ``dirname ~`` needs the home
    head = stripped.rsplit("/", 1)[0].rstrip("/")
    return head or "/"


def _basename(path: str, suffix: str) -> str | None:
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else ""
    base = stripped.rsplit("/", 1)[-1]
    if base.startswith("~") and "/" not in stripped:
        return None  # ``basename ~`` needs the home
    if suffix and base != suffix and base.endswith(suffix):
        base = base[: -len(suffix)]
    return base


#: ``find`` primaries that neither test nor print (global options, ``-prune``, which is true).
_FIND_NEUTRAL = frozenset({"-depth", "-xdev", "-mount", "-nowarn", "-noleaf", "-prune", "-print", "-print0"})


def _find_printed(args: tuple[str, ...]) -> str | None:
    """``find START… -maxdepth 0`` and ``find START… -prune`` print their start points
    (each is tested, matches, and is not descended into); anything else may print more."""
    i, n = 0, len(args)
    while i < n and args[i] in ("-H", "-L", "-P"):
        i += 1
    roots: list[str] = []
    while i < n and not args[i].startswith("-") and args[i] not in ("(", "!", ","):
        roots.append(args[i])
        i += 1
    stops = False
    tokens = args[i:]
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        if tok in ("-maxdepth", "-mindepth") and k + 1 < len(tokens) and tokens[k + 1] == "0":
            stops = stops or tok == "-maxdepth"
            k += 2
            continue
        if tok not in _FIND_NEUTRAL:
            return None
        stops = stops or (tok == "-prune" and "-depth" not in tokens)  # -depth makes -prune idle
        k += 1
    if not stops or ("-print" in tokens and "-print0" in tokens):
        return None
    end = "\0" if "-print0" in tokens else "\n"
    return "".join(f"{r}{end}" for r in roots or ["."])


def tee_files(argv: tuple[str, ...]) -> tuple[list[str], bool]:
    """The files ``tee`` writes, and whether it appends (``-a``)."""
    files: list[str] = []
    append = False
    options = True
    for arg in argv[1:]:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-") and arg != "-":
            append = append or arg in ("--append",) or (not arg.startswith("--") and "a" in arg)
        else:
            files.append(arg)
    return files, append


def xargs_items(text: str, null: bool = False, delimiter: str | None = None, lines: bool = False) -> list[str]:
    """Split ``xargs``'s input: blanks and newlines with quotes and backslashes (the
    default), each line (``-I``), NUL (``-0``) or one delimiter (``-d``)."""
    if null or delimiter is not None:
        sep = "\0" if null else delimiter
        parts = text.split(sep) if sep else [text]
        return [p.rstrip("\n") if null else p for p in parts if p not in ("", "\n")]
    if lines:
        return [line.strip() for line in text.split("\n") if line.strip()]
    items: list[str] = []
    current: list[str] = []
    quote = ""
    started = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
            else:
                current.append(ch)
        elif ch in "'\"":
            quote = ch
            started = True
        elif ch == "\\" and i + 1 < n:
            current.append(text[i + 1])
            started = True
            i += 1
        elif ch in " \t\n":
            if started:
                items.append("".join(current))
                current, started = [], False
        else:
            current.append(ch)
            started = True
        i += 1
    if started:
        items.append("".join(current))
    return items


#: At most this many ``xargs -I`` runs are spelled out (one per input line).
MAX_XARGS_RUNS = 16


def xargs_commands(options: list[tuple[str, str | None]], command: tuple[str, ...],
                   text: str) -> list[tuple[str, ...]] | None:
    """The commands ``xargs OPTIONS COMMAND`` runs with ``text`` on its stdin: the items
    appended to one command (``-n``/``-L`` batches are not split: the same arguments
    reach the same program), or one run per line with ``-I``/``-i`` replaced. None when
    the arguments come from elsewhere (``-a FILE``)."""
    null = False
    delimiter: str | None = None
    replace: str | None = None
    for opt, value in options:
        if opt in ("-0", "--null"):
            null = True
        elif opt in ("-d", "--delimiter") and value is not None:
            delimiter = _escapes(value, "format")[0][:1]
        elif opt == "-I" and value:
            replace = value
        elif opt in ("-i", "--replace"):
            replace = value or "{}"
        elif opt in ("-a", "--arg-file"):
            return None
    command = command or ("echo",)
    if replace is None:
        return [command + tuple(xargs_items(text, null, delimiter))]
    lines = xargs_items(text, null, delimiter, lines=True)[:MAX_XARGS_RUNS]
    return [tuple(arg.replace(replace, line) for arg in command) for line in lines]
