"""Which string literals in inline code are commands or paths, and which are data.

``node -e "console.log('curl x | sh')"`` prints a string; ``os.system('curl x | sh')``
runs it. A literal counts as a command or a path only where a call that acts on it
receives it: a process call (``effects.PROCESS_CALLS``), a file call
(``effects.FILE_CALLS``), a write into a file (``effects.WRITE_CALLS``: it may run
later), a code call (``effects.CODE_CALLS``: eval, exec, require), or a path method
(``effects.PATH_METHODS``). A literal that is printed, logged,
compared, quoted or returned is data. :func:`live_code` returns the code with the data
literals (and comments) emptied, for the broad lexical scans of ``inline.code_intents``.

Values flow through plain assignments (``p = '~/.netrc'; open(p)`` keeps the literal);
a call fed by something the scan cannot follow (``open(sys.argv[1])``, a loop
variable), code whose literals cannot be delimited, and languages without a scanner
keep every literal: when in doubt, the code is read as before.
"""

from __future__ import annotations

from ...precompiled import pattern as compiled_pattern
from ...std_lite import cache
from .effects import CODE_CALLS, CONTENT_CALLS, FILE_CALLS, INDIRECT_CALLS, PATH_METHODS, PROCESS_CALLS, WRITE_CALLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

__all__ = ["LANGUAGES", "live_code"]

#: Interpreter name → the string syntax family the scanner knows.
LANGUAGES: dict[str, str] = {
    "python": "py", "pypy": "py", "jython": "py",
    "node": "js", "nodejs": "js", "bun": "js", "deno": "js", "ts-node": "js", "tsx": "js",
    "perl": "pl",
    "ruby": "rb", "irb": "rb",
    "php": "php", "php-cgi": "php",
}

_KEYWORDS = frozenset(
    "True False None null undefined true false nil self this NaN Infinity and or not in is new "
    "typeof await async return if else elif unless lambda function my our local const let var def "
    "end then do for while of as with from import yield print puts echo __FILE__ __dir__".split()
)
#: Attribute chains that carry outside input (``sys.argv[1]``, ``process.env.X``).
_INPUTS = frozenset({"argv", "ARGV", "env", "ENV", "environ", "stdin", "STDIN", "input", "getenv", "args", "params"})


@cache
def _re(pattern: str) -> re.Pattern[str]:
    """A pattern of this module's own text (never a command's): kept, built without re."""
    return compiled_pattern(pattern)


@cache
def _calls() -> re.Pattern[str]:
    """One pattern for every call that acts on a literal; the group names the kind:
    ``run`` (process), ``file``, ``write`` (text into a file), ``code`` (eval, require)."""
    groups = (("run", PROCESS_CALLS), ("file", FILE_CALLS), ("write", (WRITE_CALLS,)), ("code", CODE_CALLS))
    return compiled_pattern("|".join(f"(?P<{kind}>" + "|".join(f"(?:{r.pattern})" for r in rules) + ")" for kind, rules in groups))


def _module_load(name: str, args: str, lang: str) -> bool:
    """``require('fs')`` in node or ruby: a library by bare name, never a file from the
    working folder (python's ``__import__('x')`` does read ``./x.py``: not this)."""
    return lang in ("js", "rb") and name.startswith("require") and bool(_re(r"^\s*\(?\s*[\"'][\w@:-][\w@:/-]*[\"']\s*\)?\s*$").match(args))


def _first_argument(bare: str, span: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """``(path, text)`` → the span of ``path`` and the span of the rest (None without a comma)."""
    start, end = span
    depth = 0
    for j in range(start, end):
        ch = bare[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth <= 1:
            return (start, j), (j, end)
    return span, None


def _prefix(code: str, i: int, lang: str) -> tuple[int, str, bool] | None:
    """At ``i``: (index of the opening delimiter, kind, f-string) for a literal, else None.
    kind is ``str`` or ``run`` (backticks, perl qx, ruby %x: a command)."""
    c = code[i]
    if i and (code[i - 1].isalnum() or code[i - 1] in "_$@"):
        if c not in "\"'`":
            return None
        if lang != "py":  # python prefixes are letters: f"…", rb'…'
            return (i, "str", False) if c != "`" else None
    if c in "\"'":
        return i, "str", False
    if c == "`":
        return (i, "str", False) if lang == "js" else (i, "run", False)
    if lang == "py":
        m = _re(r"[rbuRBUfF]{1,2}(?=[\"'])").match(code, i)
        return (m.end(), "str", "f" in m.group(0).lower()) if m else None
    if lang == "pl":
        m = _re(r"(q[qwx]?)\s*(?=[{(\[<|!/#~^])").match(code, i)
        return (m.end(), "run" if m.group(1) == "qx" else "str", False) if m else None
    if lang == "rb":
        m = _re(r"%([qQwWiIx])(?=[{(\[<|!/])").match(code, i)
        return (m.end(), "run" if m.group(1) == "x" else "str", False) if m else None
    return None


_PAIRS = {"{": "}", "(": ")", "[": "]", "<": ">"}


def _scan(code: str, lang: str) -> list[tuple[int, int, int, int, str]] | None:
    """(start, end, body start, body end, kind) for each literal and comment; None
    when one does not close (the scan cannot be trusted)."""
    out: list[tuple[int, int, int, int, str]] = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "#" and lang in ("py", "pl", "rb", "php") and (i == 0 or code[i - 1] in " \t\n;"):
            j = code.find("\n", i)
            j = n if j < 0 else j
            out.append((i, j, i, j, "comment"))
            i = j
            continue
        if c == "/" and lang in ("js", "php") and code.startswith("//", i) and (i == 0 or code[i - 1] in " \t\n;{}()"):
            j = code.find("\n", i)
            j = n if j < 0 else j
            out.append((i, j, i, j, "comment"))
            i = j
            continue
        if c == "/" and lang in ("js", "php") and code.startswith("/*", i):
            j = code.find("*/", i + 2)
            if j < 0:
                return None
            out.append((i, j + 2, i, j + 2, "comment"))
            i = j + 2
            continue
        start = _prefix(code, i, lang)
        if start is None:
            i += 1
            continue
        k, kind, fstr = start
        open_ = code[k]
        triple = lang == "py" and code.startswith(open_ * 3, k)
        close = _PAIRS.get(open_, open_)
        j = k + (3 if triple else 1)
        depth = 0
        while j < n:
            ch = code[j]
            if ch == "\\":
                j += 2
                continue
            if triple:
                if code.startswith(open_ * 3, j):
                    break
            elif ch == close and depth == 0:
                break
            elif close != open_:
                depth += (ch == open_) - (ch == close)
            j += 1
        if j >= n:
            return None
        end = j + (3 if triple else 1)
        body = code[k + (3 if triple else 1) : j]
        if _re(r"(?:\$\{|#\{|@\{|\{\$)[^}]*\(").search(body) or (fstr and _re(r"\{[^}]*\(").search(body)):
            kind = "run"  # an interpolation that calls something runs code: keep it
        out.append((i, end, k + (3 if triple else 1), j, kind))
        i = end
    return out


def _span(bare: str, i: int, lang: str) -> tuple[int, int] | None:
    """The argument text of a call whose name ends at ``i``: up to the matching ``)``,
    or (perl, ruby, php without parentheses) to the end of the statement."""
    n = len(bare)
    while i < n and bare[i] in " \t":
        i += 1
    if i < n and bare[i] == "(":
        depth = 0
        for j in range(i, n):
            ch = bare[j]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0:
                    return i, j + 1
        return i, n
    if lang not in ("pl", "rb", "php"):
        return None
    depth = 0
    for j in range(i, n):
        ch = bare[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0 and ch != ")":
                return i, j
        elif ch in ";\n" and depth <= 0:
            return i, j
    return i, n


_NAME = r"[$@%]?[A-Za-z_]\w*"


def _assignments(bare: str) -> dict[str, list[tuple[int, int]]]:
    """name → spans of the expressions assigned to it (``x = …``, ``my $x = …``,
    ``for x in …``)."""
    out: dict[str, list[tuple[int, int]]] = {}
    # each run of blanks is one ``\s*`` (``\s*(?:\(\s*)?``, not ``\s*\(?\s*``): literals are
    # blanked out, and two ``\s*`` side by side try every split of a long blank run
    pattern = _re(
        rf"(?:^|(?<=[;\n{{(]))\s*(?:(?:my|our|local|const|let|var|for|foreach)\s+)?(?:\(\s*)?((?:{_NAME}\s*,\s*)*{_NAME})\s*(?:\)\s*)?(?:[+.]?=(?!=)|\bin\b|\bof\b)"
    )
    for m in pattern.finditer(bare):
        start, depth, end = m.end(), 0, len(bare)
        for j in range(start, len(bare)):
            ch = bare[j]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth < 0:
                    end = j
                    break
            elif ch in ";\n" and depth <= 0:
                end = j
                break
            elif ch == ":" and depth == 0 and m.group(0).lstrip().startswith("for"):
                end = j
                break
        for name in _re(_NAME).findall(m.group(1)):
            out.setdefault(name.lstrip("$@%"), []).append((start, end))
    return out


def _names(bare: str, start: int, end: int, constants: bool = False) -> tuple[set[str], set[str], bool]:
    """Variables whose values flow into ``bare[start:end]``: (names, plain names that
    must be assigned in the code, outside input that the scan cannot follow). With
    ``constants``, an upper-case name (``FILE_APPEND``) need not be assigned."""
    names: set[str] = set()
    plain: set[str] = set()
    unknown = False
    text = bare[start:end]
    for m in _re(rf"(?<![\w.$@%>:]){_NAME}(?:\s*(?:\.|::|->)\s*\w+)*").finditer(text):
        token = m.group(0)
        head = _re(_NAME).match(token).group(0)  # type: ignore[union-attr]
        after = text[m.end() :].lstrip()
        before = text[: m.start()].rstrip()
        if head.lstrip("$@%") in _KEYWORDS or before.endswith(("my", "local", "our")):
            continue
        if after.startswith("(") or (after.startswith("=") and not after.startswith("==")) or (after.startswith(":") and not after.startswith("::")) or after.startswith("=>"):
            continue  # a call (its arguments are in the span), a keyword argument, a key
        parts = set(_re(r"\w+").findall(token))
        if parts & _INPUTS:
            unknown = True
        names.add(head.lstrip("$@%"))
        if token == head and not (constants and _re(r"^[A-Z][A-Z0-9_]+$").match(head)):
            plain.add(head.lstrip("$@%"))
    return names, plain, unknown


def _follow(bare: str, spans: list[tuple[int, int]], assigned: dict[str, list[tuple[int, int]]],
            constants: bool = False) -> list[tuple[int, int]] | None:
    """``spans`` and the spans of the assignments whose values flow into them; None when
    outside input or a name the code never assigns flows in (cannot follow)."""
    pending = list(spans)
    ranges: list[tuple[int, int]] = []
    seen: set[str] = set()
    while pending:
        span = pending.pop()
        ranges.append(span)
        names, plain, unknown = _names(bare, *span, constants)
        if unknown or plain - assigned.keys():
            return None  # outside input, a parameter, a loop variable: cannot follow
        for name in names - seen:
            seen.add(name)
            pending.extend(assigned.get(name, ()))  # unassigned chain heads are modules
    return ranges


def live_code(code: str, lang: str, ordinary: Callable[[str], bool] | None = None) -> str:
    """``code`` with every literal that no process, file or code call receives emptied
    (``""``) and comments removed; ``code`` itself when the scan cannot tell.

    Text written into a file (``WRITE_CALLS``, the text argument of ``CONTENT_CALLS``)
    is kept, since the file may run later, unless ``ordinary`` is given, says yes to
    every literal a file call receives (the caller's test: a plain workspace file that
    nothing runs by itself), and the code neither starts a process nor evaluates code
    (it could run what it wrote): then the written text is data, like ``echo … > notes.md``."""
    if lang not in ("py", "js", "pl", "rb", "php") or not any(q in code for q in "\"'`"):
        return code
    spans = _scan(code, lang)
    if spans is None:
        return code
    if lang == "pl" and _re(r"=~|!~|(?<![\w$@%])(?:s|m|y|tr|qr)\s*[/{|!#]").search(code):
        return code  # perl regexes may hold quotes the scanner would misread
    chars = list(code)
    for _start, _end, b0, b1, _kind in spans:
        for k in range(b0, b1):
            if chars[k] != "\n":
                chars[k] = " "
    bare = "".join(chars)
    if _re(INDIRECT_CALLS.pattern).search(bare):
        return code  # a callee picked at run time: any literal may reach it
    assigned = _assignments(bare)
    acting: list[tuple[int, int]] = []
    written: list[tuple[int, int]] = []
    runs = False
    for m in _calls().finditer(bare):
        span = _span(bare, m.end(), lang)
        if span is None:
            return code  # ``f = os.system``, ``map(os.system, cmds)``: the call is elsewhere
        kind = m.lastgroup
        if kind == "run" or (kind == "code" and not _module_load(m.group(0), code[span[0] : span[1]], lang)):
            runs = True
        if kind == "write":
            written.append(span)
        elif kind == "file" and _re(CONTENT_CALLS.pattern).search(m.group(0)):
            path, text = _first_argument(bare, span)
            acting.append(path)
            if text is not None:
                written.append(text)
        else:
            acting.append(span)
    live_ranges = _follow(bare, acting, assigned)
    text_ranges = _follow(bare, written, assigned, constants=True)  # a flag: FILE_APPEND
    if live_ranges is None or text_ranges is None:
        return code
    live_flags: list[bool] = []
    for start, end, b0, b1, kind in spans:
        live = kind == "run" or any(a <= start and end <= b for a, b in live_ranges)
        if kind == "comment":
            live = False
        elif not live:
            body = code[b0:b1]
            live = bool(_re(r"^[a-z][\w+.-]*://").match(body)) or bool(_re(PATH_METHODS.pattern).match(code[end : end + 200]))
        live_flags.append(live)
    data_writes = ordinary is not None and not runs and all(
        kind not in ("run", "comment") and ordinary(code[b0:b1])
        for (_s, _e, b0, b1, kind), live in zip(spans, live_flags, strict=True)
        if live
    )
    if not data_writes and text_ranges and _follow(bare, written, assigned) is None:
        return code  # a constant defined elsewhere (php ``define``) may carry the text
    out: list[str] = []
    last = 0
    for (start, end, b0, b1, kind), live in zip(spans, live_flags, strict=True):
        if not live and kind != "comment" and not data_writes:
            live = any(a <= start and end <= b for a, b in text_ranges)
        out.append(code[last:start])
        if live and kind != "comment":
            out.append(code[start:end] if not (lang == "js" and code[start] == "`") else '"' + code[b0:b1] + '"')
        elif kind != "comment":
            out.append('""')
        last = end
    out.append(code[last:])
    return "".join(out)
