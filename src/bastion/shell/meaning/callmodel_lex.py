"""Tokens for the C-like languages of ``callmodel`` (perl, ruby, php, lua, awk, R, julia,
AppleScript): strings with their escapes and interpolation, perl ``q{}``/``qq{}``/``qw``/
``qx``/``s///e``, ruby ``%q()``/``%x{}``, lua long brackets, regex literals, sigil
variables, names (with ``::`` and, where the language has them, dotted paths).

A string that interpolates is kept as :class:`Interp` parts, resolved when the walk
reaches it (variables get their values in program order).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...precompiled import pattern as compiled_pattern
from ...std_lite import cache
from .callmodel_tables import Syntax
from .callmodel_values import HOME, Tok

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["lex", "Interp"]

_PAIRS = {"{": "}", "(": ")", "[": "]", "<": ">"}
_ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "e": "\x1b", "a": "\a", "f": "\f", "v": "\v", "b": "\b"}
_OPS = ("<=>", "===", "...", "**=", "||=", "&&=", "//=", "|&", "<<", ">>", "=>", "->", "..", "::", "==", "!=", "<=", ">=", "=~", "!~", "&&", "||", ".=", "+=", "-=", "*=", "/=", "<-", ":=", "**", "++", "--")
#: Tokens after which a ``/`` starts a regex rather than a division.
_REGEX_AFTER = frozenset("if unless and or not split grep map join return when while until print push x lt gt le ge eq ne cmp".split())


@dataclass
class Interp:
    """An interpolating string: ``("lit", text)``, ``("var", name)``, ``("expr", code)``."""

    parts: list[tuple[str, str]]


@cache
def _re(pattern: str) -> re.Pattern[str]:
    """A pattern of this module's own text or its tables' (never a command's): kept, built without re."""
    return compiled_pattern(pattern)


def _body(code: str, i: int, close: str, open_: str | None) -> tuple[str, int] | None:
    """Raw text up to the unescaped ``close`` (nesting ``open_``), and the index after."""
    depth = 0
    j = i
    n = len(code)
    while j < n:
        c = code[j]
        if c == "\\" and j + 1 < n:
            j += 2
            continue
        if open_ is not None and c == open_:
            depth += 1
        elif c == close:
            if depth == 0:
                return code[i:j], j + 1
            depth -= 1
        j += 1
    return None


def unescape(raw: str, quote: str) -> str:
    """Backslash escapes of a double-quoted string (the home mark reads as ``~``)."""
    return _unescape(raw).replace(HOME, "~")


def _unescape(raw: str) -> str:
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\" and i + 1 < n:
            d = raw[i + 1]
            m = _re(r"x\{?([0-9a-fA-F]{1,6})\}?|u\{?([0-9a-fA-F]{4,6})\}?|([0-7]{1,3})").match(raw, i + 1)
            if m and (d in "xu" or d in "01234567" and d != "0" or m.group(3) and len(m.group(3)) > 1):
                out.append(chr(int(m.group(1) or m.group(2) or m.group(3), 16 if (m.group(1) or m.group(2)) else 8)))
                i = m.end()
                continue
            out.append(_ESC.get(d, d))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def raw_single(raw: str, quote: str) -> str:
    """A single-quoted string: only ``\\\\`` and the quote are escapes."""
    import re  # the quote is the code's own delimiter: a pattern built from the command, never kept

    return re.compile(r"\\([\\" + re.escape(quote) + "])").sub(r"\1", raw).replace(HOME, "~")


def interpolate(raw: str, style: str) -> str | Interp:
    """The parts of a double-quoted string in ``style`` (perl, ruby, php, julia)."""
    parts: list[tuple[str, str]] = []
    lit: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\" and i + 1 < n:
            lit.append(raw[i : i + 2])
            i += 2
            continue
        m = None
        if style == "perl" and c in "$@":
            m = _re(r"[$@](?:\{\s*(\w+)\s*\}|(\w+(?:::\w+)*)((?:\[[^\]]*\]|\{[^}]*\}|->\S)?))").match(raw, i)
            if m:
                kind = "var" if not m.group(3) and c == "$" else "unknown"
                name = "$" + (m.group(1) or m.group(2))
            elif c == "$" and i + 1 < n and raw[i + 1] not in " \t\n)|\"'":
                m = _re(r"\$\W").match(raw, i)
                kind, name = "unknown", ""
        elif style == "ruby" and raw.startswith("#{", i):
            found = _body(raw, i + 2, "}", "{")
            if found:
                parts.append(("lit", unescape("".join(lit), '"')))
                lit = []
                parts.append(("expr", found[0]))
                i = found[1]
                continue
        elif style == "php" and c == "$":
            m = _re(r"\$(\w+)((?:\[[^\]]*\]|->\w+)?)").match(raw, i)
            if m:
                kind, name = ("var" if not m.group(2) else "unknown"), "$" + m.group(1)
        elif style == "php" and raw.startswith("{$", i):
            found = _body(raw, i + 1, "}", "{")
            if found:
                parts.append(("lit", unescape("".join(lit), '"')))
                lit = []
                parts.append(("expr", found[0]))
                i = found[1]
                continue
        elif style == "julia" and c == "$":
            if raw.startswith("$(", i):
                found = _body(raw, i + 2, ")", "(")
                if found:
                    parts.append(("lit", unescape("".join(lit), '"')))
                    lit = []
                    parts.append(("expr", found[0]))
                    i = found[1]
                    continue
            m = _re(r"\$(\w+)").match(raw, i)
            if m:
                kind, name = "var", m.group(1)
        if m:
            parts.append(("lit", unescape("".join(lit), '"')))
            lit = []
            parts.append((kind, name))
            i = m.end()
            continue
        lit.append(c)
        i += 1
    text = unescape("".join(lit), '"')
    if not parts:
        return text
    parts.append(("lit", text))
    return Interp([p for p in parts if p != ("lit", "")])


def _prev_is_value(out: list[Tok]) -> bool:
    if not out:
        return False
    t = out[-1]
    if t.kind in "snvx" or t.op(")", "]", "}"):
        return True
    return t.kind == "i" and t.text not in _REGEX_AFTER


def lex(code: str, syn: Syntax) -> list[Tok]:
    """The tokens of ``code``; raises ValueError on an unterminated string."""
    out: list[Tok] = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "\n":
            if syn.nl and out and out[-1].kind != ";" and not (out[-1].kind == "o" and out[-1].text in (",", "(", "[", "{", ".", "..", "+", "&", "|", "||", "&&", "=", "<-", "\\")):
                out.append(Tok(";", "\n"))
            i += 1
            continue
        if c in " \t\r\f":
            i += 1
            continue
        if c == HOME:
            out.append(Tok("s", "~", "~"))
            i += 1
            continue
        if c == "\\" and i + 1 < n and code[i + 1] == "\n":
            i += 2
            continue
        block = next((b for b in syn.block_comments if code.startswith(b[0], i)), None)
        if block:
            end = code.find(block[1], i + len(block[0]))
            i = n if end < 0 else end + len(block[1])
            continue
        if any(code.startswith(s, i) for s in syn.line_comments) and not (c == "#" and syn.interp == "ruby" and code.startswith("#{", i)):
            end = code.find("\n", i)
            i = n if end < 0 else end
            continue
        if syn.php_tags and (code.startswith("<?php", i) or code.startswith("<?=", i) or code.startswith("?>", i)):
            i += 5 if code.startswith("<?php", i) else (3 if code.startswith("<?=", i) else 2)
            out.append(Tok(";", "?>"))
            continue
        if syn.perl and code.startswith("__END__", i) or syn.perl and code.startswith("__DATA__", i):
            break
        # strings
        if c == '"' or (c == "'" and syn.sq) or (c == "`" and syn.backtick):
            triple = syn.interp == "julia" and code.startswith('"""', i)
            if triple:
                end = code.find('"""', i + 3)
                if end < 0:
                    raise ValueError("unterminated string")
                raw, j = code[i + 3 : end], end + 3
            else:
                found = _body(code, i + 1, c, None)
                if found is None:
                    raise ValueError("unterminated string")
                raw, j = found
            if c == "'" and syn.sq == "char":
                value: object = unescape(raw, c)
            elif c == "'" and syn.sq == "raw":
                value = raw_single(raw, c)
            elif c == "`" and syn.backtick == "name":
                out.append(Tok("i", raw))
                i = j
                continue
            elif syn.interp and c != "'":
                value = interpolate(raw, syn.interp)
            else:
                value = unescape(raw, c)
            out.append(Tok("x" if c == "`" else "s", raw, value))
            i = j
            continue
        if syn.long_brackets and c == "[":
            m = _re(r"\[(=*)\[").match(code, i)
            if m:
                close = "]" + m.group(1) + "]"
                end = code.find(close, m.end())
                if end < 0:
                    raise ValueError("unterminated long string")
                body = code[m.end() : end]
                body = body.replace(HOME, "~")
                out.append(Tok("s", body, body[1:] if body.startswith("\n") else body))
                i = end + len(close)
                continue
        if syn.pct and c == "%" and not _prev_is_value(out):
            m = _re(r"%([qQwWiIxr]?)([^\w\s=])").match(code, i)
            if m:
                kind, open_ = m.group(1), m.group(2)
                close = _PAIRS.get(open_, open_)
                found = _body(code, m.end(), close, open_ if close != open_ else None)
                if found is None:
                    raise ValueError("unterminated %-literal")
                raw, j = found
                if kind in "wWiI" and kind:
                    out.append(Tok("s", raw, raw.split()))
                elif kind == "x":
                    out.append(Tok("x", raw, interpolate(raw, "ruby")))
                elif kind == "r":
                    out.append(Tok("r", raw))
                    j = _re(r"[a-z]*").match(code, j).end()  # type: ignore[union-attr]
                else:
                    out.append(Tok("s", raw, raw_single(raw, close) if kind == "q" else interpolate(raw, "ruby")))
                i = j
                continue
        if syn.regex and c == "/" and not _prev_is_value(out):
            found = _body(code, i + 1, "/", None)
            if found is not None and "\n" not in found[0]:
                j = _re(r"[a-z]*").match(code, found[1]).end()  # type: ignore[union-attr]
                out.append(Tok("r", found[0]))
                i = j
                continue
        # sigil variables
        if c in syn.sigils and i + 1 < n:
            m = _re(r"[$@%&](?:#?\{\s*\^?\w+\s*\}|#?[A-Za-z_]\w*(?:::\w+)*|\d+|[_~/\\!@0.;,&$<>()\[\]|+^-](?![\w{]))").match(code, i)
            if syn.interp == "ruby":
                m = _re(r"(?:\$|@@?)(?:[A-Za-z_]\w*|[~!@&`'+0-9*$?:\"<>,./\\;])").match(code, i)
            elif syn.interp == "php":
                m = _re(r"\$\$?[A-Za-z_]\w*").match(code, i)
            if m and not (c in "%&" and _prev_is_value(out)) and not (c == "@" and syn.interp == "ruby" and not m):
                text = m.group(0).replace("{", "").replace("}", "").replace(" ", "")
                out.append(Tok("v", text))
                i = m.end()
                continue
        if c == "$" and syn.field_dollar:
            out.append(Tok("v", "$"))
            i += 1
            continue
        # numbers
        m = _re(r"0[xX][0-9a-fA-F_]+|0[oObB][0-7_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?[LijfF]?").match(code, i)
        if m and not (i and (code[i - 1].isalpha() or code[i - 1] == "_")):
            out.append(Tok("n", m.group(0).rstrip("LijfF")))
            i = m.end()
            continue
        # names (and perl quote-like operators)
        m = _re(syn.name).match(code, i)
        if m:
            word = m.group(0)
            if syn.perl and word in ("q", "qq", "qw", "qx", "m", "s", "tr", "y", "qr"):
                done = _perl_quote(code, m.end(), word, out)
                if done is not None:
                    i = done
                    continue
            if syn.sym and i and code[i - 1] == ":" and out and out[-1].op(":") and (len(out) < 2 or out[-2].kind not in "iv" or out[-2].text in ("(", ",")):
                out.pop()
                out.append(Tok("s", word, word))
                i = m.end()
                continue
            out.append(Tok("i", word))
            i = m.end()
            continue
        if c == ";":
            out.append(Tok(";", ";"))
            i += 1
            continue
        op = next((o for o in _OPS if code.startswith(o, i)), c)
        out.append(Tok("o", op))
        i += len(op)
    return out


def _perl_quote(code: str, i: int, word: str, out: list[Tok]) -> int | None:
    """``q{…}``, ``qq{…}``, ``qw(…)``, ``qx{…}``, ``m/…/``, ``s/…/…/e``, ``tr/…/…/``."""
    n = len(code)
    j = i
    while j < n and code[j] in " \t":
        j += 1
    if j >= n:
        return None
    open_ = code[j]
    if open_.isalnum() or open_ in "_,;)=" or (open_ == "#" and j != i) or code.startswith("=>", j):
        return None
    close = _PAIRS.get(open_, open_)
    found = _body(code, j + 1, close, open_ if close != open_ else None)
    if found is None:
        return None
    first, k = found
    second = None
    if word in ("s", "tr", "y"):
        if close != open_:
            while k < n and code[k] in " \t\n":
                k += 1
            if k >= n:
                return None
            open2 = code[k]
            close2 = _PAIRS.get(open2, open2)
            found = _body(code, k + 1, close2, open2 if close2 != open2 else None)
        else:
            found = _body(code, k, close, None)
        if found is None:
            return None
        second, k = found
    flags_m = _re(r"[a-z]*").match(code, k)
    flags = flags_m.group(0) if flags_m else ""
    k += len(flags)
    if word == "q":
        out.append(Tok("s", first, raw_single(first, close)))
    elif word == "qq":
        out.append(Tok("s", first, interpolate(first, "perl")))
    elif word == "qw":
        out.append(Tok("s", first, first.split()))
    elif word == "qx":
        out.append(Tok("x", first, raw_single(first, close) if open_ == "'" else interpolate(first, "perl")))
    elif word == "s" and "e" in flags:
        out.append(Tok("r", "s:" + first, second))
    elif word in ("s", "tr", "y"):
        out.append(Tok("r", word + ":" + first))
    else:
        out.append(Tok("r", first, "(?{" if "(?{" in first or "(??{" in first else None))
    return k
