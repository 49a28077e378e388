"""Turn shell words into the strings the program will actually receive.

Every matcher in bastion sees decoded words, never source text: ``\\rm``, ``'r'm``,
``r""m`` and ``$'\\x72\\x6d'`` are all ``rm``; ``$'-rf'`` is ``-rf``; ``src/{a,b}`` is two
arguments. Decoding follows bash: backslash escapes outside quotes, the few escapes
double quotes honour, ANSI-C ``$'…'`` escapes (``\\xHH``, ``\\NNN``, ``\\uHHHH``,
``\\UHHHHHHHH``, ``\\cX``, ``\\n`` …), ``$"…"`` as a double-quoted string, concatenation, and
brace expansion.

Expansions whose value is known are resolved by a :class:`~bastion.shell.syntax.values.Scope`
(the values this command line set, see :mod:`bastion.shell.syntax.values`): ``$HOME`` /
``${HOME}`` at the start of a word (followed by ``/`` or nothing) becomes the literal
``~`` prefix, so path checks see ``~/.ssh`` whether the command spelled ``~/.ssh`` or
``"$HOME/.ssh"``; ``$PWD`` is ``.`` where the command runs. Every other expansion is not
a literal: the decoder reports it as an *issue* and keeps the source text (``$X``) so that
deny checks on a too-complex script still see ``rm -rf $X``.

The second half of the module holds the character tables (invisible, bidi, Unicode
spaces, control characters, confusable letters) and :func:`word_findings`, which reports
words that look like something they are not.
"""

from __future__ import annotations

from ...model import Finding, Severity
from ...precompiled import pattern as compiled_pattern
from ...re_escape import escape
from .lazyre import LazyPattern
from .values import Scope, Value, default_scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any, NamedTuple
else:
    from ...named_tuple import NamedTuple

__all__ = [
    "CALL_CWD",
    "FOLDER_TILDES",
    "folder_text",
    "Word",
    "unescape_unquoted",
    "unescape_double_quoted",
    "decode_ansi_c",
    "expand_braces",
    "decode_word",
    "BraceLimit",
    "MAX_BRACE_WORDS",
    "skeleton",
    "char_class",
    "word_findings",
    "cat_heredoc_literal",
    "literal_dollar",
    "INVISIBLE_CHARS",
    "BIDI_CHARS",
    "UNICODE_SPACES",
    "CONFUSABLES",
]



class Word(NamedTuple):
    """One word as written and as decoded, for validators.

    ``position`` is 0 for a command name, its index in argv for an argument, and -1 for
    an assignment value or a redirection target; ``expands_to`` is how many words it
    became (brace expansion). (Not ``count``: that would hide ``tuple.count``.)
    """

    raw: str
    value: str
    position: int
    expands_to: int = 1


# --------------------------------------------------------------------------- escapes


def _unescape(raw: str, escapes: LazyPattern) -> str:
    """Drop the backslash of every escape ``escapes`` finds (a backslash and the one
    character it escapes there, read left to right); backslash-newline vanishes; any
    other backslash stays."""
    if "\\" not in raw:
        return raw
    return escapes.sub(_escaped, raw)


def _escaped(match: Any) -> str:
    char: str = match.group(1)
    return "" if char == "\n" else char


#: Outside quotes a backslash escapes any character; inside double quotes only
#: ``$ ` " \\`` and newline; in an unquoted here-document ``$ ` \\`` and newline.
_ANY_ESCAPE = LazyPattern(r"(?s)\\(.)")
_DQ_ESCAPE = LazyPattern(r'''\\([$`"\\\n])''')
_HEREDOC_ESCAPE = LazyPattern(r"\\([$`\\\n])")


def unescape_unquoted(raw: str) -> str:
    """Backslash rules outside quotes: ``\\X`` is ``X``; backslash-newline vanishes."""
    return _unescape(raw, _ANY_ESCAPE)


def unescape_double_quoted(raw: str) -> str:
    """Backslash rules inside double quotes: only ``$ ` " \\`` and newline are escapable;
    any other backslash stays."""
    return _unescape(raw, _DQ_ESCAPE)


def unescape_heredoc(body: str) -> str:
    """Backslashes in an unquoted here-document escape only ``$ ` \\`` and newline."""
    return _unescape(body, _HEREDOC_ESCAPE)


_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCT = frozenset("01234567")


def _take(body: str, start: int, allowed: frozenset[str], most: int) -> str:
    end = start
    while end < len(body) and end - start < most and body[end] in allowed:
        end += 1
    return body[start:end]


def _chr(code: int) -> str:
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return chr(code)


def decode_ansi_c(body: str) -> str:
    """Decode the inside of ``$'…'`` as bash does (a NUL ends the string)."""
    if "\\" not in body:
        return body
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1]
        i += 2
        if esc in _ANSI_SIMPLE:
            out.append(_ANSI_SIMPLE[esc])
        elif esc in _OCT:
            digits = esc + _take(body, i, _OCT, 2)
            i += len(digits) - 1
            out.append(chr(int(digits, 8) & 0xFF))
        elif esc in "xuU":
            digits = _take(body, i, _HEX, {"x": 2, "u": 4, "U": 8}[esc])
            if not digits:
                out.append("\\" + esc)
                continue
            i += len(digits)
            out.append(_chr(int(digits, 16)))
        elif esc == "c" and i < n:
            ctl = body[i]
            i += 1
            if ctl == "\\" and body[i : i + 1] == "\\":
                i += 1  # \c\\ is control-backslash
            out.append("\x7f" if ctl == "?" else chr(ord(ctl.upper()) & 0x1F) if ctl.isascii() else ctl)
        else:
            out.append("\\" + esc)
    text = "".join(out)
    nul = text.find("\0")
    return text if nul < 0 else text[:nul]


# --------------------------------------------------------------------------- braces

#: A word may expand to at most this many words; more is reported as an issue.
MAX_BRACE_WORDS = 256


class BraceLimit(Exception):
    """Brace expansion would produce more than :data:`MAX_BRACE_WORDS` words."""


def _sequence(text: str) -> list[str] | None:
    """Expand a sequence term ``1..10``, ``a..e``, ``01..10..3`` (bash's rules), or None."""
    lhs, sep, rest = text.partition("..")
    if not sep or not lhs or not rest:
        return None
    rhs, sep2, step_text = rest.partition("..")
    if sep2 and not step_text:
        return None
    try:
        step = abs(int(step_text)) if sep2 else 1
    except ValueError:
        return None
    step = step or 1
    if _is_int(lhs) and _is_int(rhs):
        a, b = int(lhs), int(rhs)
        width = 0
        for side in (lhs, rhs):
            digits = side.lstrip("+-")
            if len(digits) > 1 and digits[0] == "0":
                width = max(width, len(side))
        if width:
            width = max(width, len(lhs), len(rhs))
        if abs(b - a) // step >= MAX_BRACE_WORDS:
            raise BraceLimit
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [_zfill(v, width) for v in values]
    if len(lhs) == 1 and len(rhs) == 1 and lhs.isascii() and rhs.isascii() and lhs.isalpha() and rhs.isalpha():
        a, b = ord(lhs), ord(rhs)
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in values]
    return None


def _is_int(text: str) -> bool:
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isdigit() and digits.isascii()


def _zfill(value: int, width: int) -> str:
    if not width:
        return str(value)
    return ("-" + str(-value).zfill(width - 1)) if value < 0 else str(value).zfill(width)


def expand_braces(text: str, active: list[bool], keep_empty: bool = False) -> list[str]:
    """Bash brace expansion of ``text``; ``active[i]`` is False for characters that were
    quoted or escaped (they never open, split or close a brace). Empty results are
    dropped as bash drops unquoted empty words (``keep_empty`` when the word had quotes).
    Raises :class:`BraceLimit` past the word limit."""
    words = _expand(text, active)
    if len(words) > MAX_BRACE_WORDS:
        raise BraceLimit
    return words if keep_empty else [w for w in words if w]


def _find_open(text: str, active: list[bool], i: int) -> int:
    """Index of the next ``{`` that may start an expansion (``${`` does not)."""
    level = 0
    n = len(text)
    while i < n:
        if active[i]:
            c = text[i]
            if c == "$" and i + 1 < n and text[i + 1] == "{" and active[i + 1]:
                level += 1
                i += 2
                continue
            if c == "{" and level == 0:
                # a { alone at the start of the word, before a blank or }, is literal
                if not (i == 0 and (i + 1 >= n or (active[i + 1] and text[i + 1] in " \t\n}"))):
                    return i
            elif c == "}" and level:
                level -= 1
        i += 1
    return -1


def _find_close(text: str, active: list[bool], i: int, separator: str) -> int:
    """Index of the ``}`` closing an expansion (only once a top-level ``,`` or ``..`` was
    seen), or of the next top-level ``,`` when ``separator`` is ``,``; -1 if none."""
    level = 0
    seen = 1 if separator == "," else 0
    n = len(text)
    while i < n:
        if not active[i]:
            i += 1
            continue
        c = text[i]
        if c == "$" and i + 1 < n and text[i + 1] == "{" and active[i + 1]:
            level += 1
            i += 2
            continue
        if c == separator and level == 0 and seen:
            return i
        if c == "{":
            level += 1
        elif c == "}" and level:
            level -= 1
        elif separator == "}" and level == 0:
            if c == ",":
                seen += 1
            elif c == "." and text.startswith("..", i) and active[i + 1] and text[i + 2 : i + 3] != "}":
                seen += 1
        i += 1
    return -1


#: Brace groups nested deeper than this are not expanded (reported as too large).
_MAX_BRACE_NESTING = 32


def _expand(text: str, active: list[bool], nesting: int = 0) -> list[str]:
    """Expand brace groups left to right (iteratively along the word, recursively only
    into nested groups)."""
    if nesting > _MAX_BRACE_NESTING:
        raise BraceLimit
    results = [""]
    while True:
        i = 0
        while True:
            start = _find_open(text, active, i)
            if start < 0:
                return [r + text for r in results]
            close = _find_close(text, active, start + 1, "}")
            if close >= 0:
                break
            i = start + 1
        pre = text[:start]
        amble, amble_mask = text[start + 1 : close], active[start + 1 : close]
        post, post_mask = text[close + 1 :], active[close + 1 :]
        if not any(c == "," and a for c, a in zip(amble, amble_mask, strict=True)):
            seq = _sequence(amble) if all(amble_mask) else None
            if seq is not None:
                tack = seq
            elif post:
                tack = [text[start : close + 1]]
            else:
                return [r + text for r in results]
        else:
            tack = []
            begin = 0
            while True:
                cut = _find_close(amble, amble_mask, begin, ",")
                stop = cut if cut >= 0 else len(amble)
                tack.extend(_expand(amble[begin:stop], amble_mask[begin:stop], nesting + 1))
                if len(tack) > MAX_BRACE_WORDS:
                    raise BraceLimit
                if cut < 0:
                    break
                begin = cut + 1
        if len(results) * len(tack) > MAX_BRACE_WORDS:
            raise BraceLimit
        results = [r + pre + t for r in results for t in tack]
        if not post:
            return results
        text, active = post, post_mask


def _unquoted_pieces(raw: str) -> tuple[str, list[bool]]:
    """Decode an unquoted word, marking backslash-escaped characters inactive."""
    out: list[str] = []
    mask: list[bool] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "\\" and i + 1 < n:
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
                mask.append(False)
            i += 2
            continue
        out.append(ch)
        mask.append(True)
        i += 1
    return "".join(out), mask


# --------------------------------------------------------------------------- nodes

if TYPE_CHECKING:  # names for annotations
    TextOf = Callable[[Any], str]
    #: ``(what, node)`` pairs for parts of a word that are not literal text.
    Issues = list[tuple[str, Any]]

_LITERAL_LEAVES = frozenset({"word", "number"})
#: Expansion nodes a :class:`~bastion.shell.syntax.values.Scope` may know the value of.
_EXPANSIONS = frozenset({"simple_expansion", "expansion", "command_substitution"})


def _expansion_label(node: Any, text_of: TextOf) -> str:
    kind = node.type
    if kind == "command_substitution":
        return "command substitution"
    if kind == "process_substitution":
        return "process substitution"
    if kind == "arithmetic_expansion":
        return "arithmetic expansion"
    if kind in ("simple_expansion", "expansion"):
        text = text_of(node)
        return f"variable expansion {text[:40]}"
    return kind.replace("_", " ")


def _string_value(node: Any, text_of: TextOf, issues: Issues, at_start: bool, env: Scope) -> str:
    """A double-quoted string: literal unless it holds an expansion whose value is not
    known (``env``: ``"$HOME/x"``, ``"$dir"`` after ``dir=…``) or ``$(cat <<'EOF' … EOF)``."""
    raw = text_of(node)
    if len(raw) < 2 or raw[0] != '"' or raw[-1] != '"':
        issues.append(("malformed string", node))
        return raw
    base = node.start_byte
    pos = base + 1
    out: list[str] = []
    # offsets are bytes: slice the text as bytes (``✓`` before a newline must not shift it)
    data = raw.encode("utf-8", "surrogatepass") if not raw.isascii() else None

    def gap(start: int, end: int) -> str:
        return raw[start:end] if data is None else data[start:end].decode("utf-8", "replace")

    for child in node.children:
        kind = child.type
        if kind == '"':
            continue
        if child.start_byte > pos:
            out.append(unescape_double_quoted(gap(pos - base, child.start_byte - base)))
        if kind == "string_content":
            content = text_of(child)
            if _bad_body(content, '"'):
                issues.append(("malformed string", node))
            out.append(unescape_double_quoted(content))
        elif kind == "$":
            text = text_of(child)
            if not literal_dollar(text):
                issues.append((f"variable expansion {text}", child))
            out.append(text)
        elif kind in _EXPANSIONS and (known := _known(child, text_of, env, True, "".join(out) or ("" if at_start else "\0"))) is not None:
            out.append(known)
        elif kind == "command_substitution" and (literal := cat_heredoc_literal(child, text_of)) is not None:
            out.append(literal)
        else:
            issues.append((_expansion_label(child, text_of), child))
            out.append(text_of(child))
        pos = child.end_byte
    if pos < node.end_byte - 1:
        out.append(unescape_double_quoted(gap(pos - base, node.end_byte - base - 1)))
    return "".join(out)


def _known(node: Any, text_of: TextOf, env: Scope, quoted: bool, before: str) -> str | None:
    """One expansion inside a word (after the text ``before``), as the one piece of text
    it is known to give."""
    words = env.expand(node, text_of, decode_word, quoted, before)
    if words is None or len(words) != 1:
        return None  # not known, or several words (or none) inside a larger word
    return words[0]


def _piece(node: Any, text_of: TextOf, issues: Issues, before: str, env: Scope) -> tuple[str, bool]:
    """Decode one part of a word (``before``: the text before it in the word, ``"\\0"``
    when unknown but not empty); the flag says whether its braces are active."""
    at_start = not before
    kind = node.type
    if kind == "word":
        return unescape_unquoted(text_of(node)), True
    if kind == "raw_string":
        raw = text_of(node)
        return raw[1:-1], False
    if kind == "string":
        return _string_value(node, text_of, issues, at_start, env), False
    if kind == "ansi_c_string":
        raw = text_of(node)
        body = raw[2:-1]
        if len(raw) < 3 or not raw.startswith("$'") or raw[-1] != "'" or _bad_body(body, "'"):
            issues.append(("unterminated $'…' string", node))
        return decode_ansi_c(body), False
    if kind == "translated_string":
        for child in node.children:
            if child.type == "string" and child.start_byte == node.start_byte + 1:
                return _string_value(child, text_of, issues, False, env), False
        issues.append(("malformed $\"…\" string", node))
        return text_of(node), False
    if kind == "number":
        if node.named_child_count:
            issues.append(("expansion inside a number", node))
        return text_of(node), False
    if kind == "$":
        text = text_of(node)
        if not literal_dollar(text):
            issues.append((f"variable expansion {text}", node))
        return unescape_unquoted(text), False
    if kind in _EXPANSIONS and (known := _known(node, text_of, env, False, before)) is not None:
        return known, False
    if kind == "command_substitution":
        literal = cat_heredoc_literal(node, text_of)
        if literal is not None:
            return literal, False
    issues.append((_expansion_label(node, text_of), node))
    return text_of(node), False


def literal_dollar(text: str) -> bool:
    """Whether a lone ``$`` token is literal: tree-sitter lexes ``-$`` (literal) and
    ``$$`` (the shell's PID) alike as one ``$`` token."""
    return text.endswith("$") and "$" not in text[:-1]


def cat_heredoc_literal(node: Any, text_of: TextOf) -> str | None:
    """``$(cat <<'EOF' … EOF)`` with a quoted delimiter is exactly its body (minus
    trailing newlines): the one command substitution read as a literal, because agents
    write every multi-line commit message this way. Anything else returns None."""
    named = [c for c in node.named_children if c.type != "comment"]
    if len(named) != 1 or named[0].type != "redirected_statement":
        return None
    stmt = named[0].named_children
    if len(stmt) != 2 or stmt[0].type != "command" or stmt[1].type != "heredoc_redirect":
        return None
    cmd = stmt[0].named_children
    if len(cmd) != 1 or cmd[0].type != "command_name" or text_of(cmd[0]) != "cat":
        return None
    parts = stmt[1].children
    kinds = [c.type for c in parts]
    if kinds != ["<<", "heredoc_start", "heredoc_body", "heredoc_end"]:
        return None
    start = text_of(parts[1])
    if not (len(start) >= 2 and start[0] == start[-1] and start[0] in "'\""):
        return None
    if parts[2].named_child_count:
        return None
    return text_of(parts[2]).rstrip("\n")


def decode_word(node: Any, text_of: TextOf, issues: Issues, braces: bool = True, env: Scope | None = None,
                split: bool = True) -> list[str]:
    """Decode one argument node into the word(s) the program receives.

    Usually one word; brace expansion can make several (not in assignment values, where
    bash does not expand braces: pass ``braces=False``), and so can a known value
    (``$args`` split on blanks, ``"${a[@]}"``; not where bash does not split: pass
    ``split=False``). ``env`` knows the values this command line set (see
    :mod:`bastion.shell.syntax.values`); without it only ``$HOME`` is known. Non-literal
    parts are appended to ``issues`` and kept as source text, so the result is always
    usable best-effort.
    """
    if env is None:
        env = default_scope()
    outer = env.prefix
    env.prefix = None
    try:
        words = _decode(node, text_of, issues, braces, env, split)
        if env.prefix is not None and len(words) == 1:
            word = words[0]
            if word != env.prefix and not word.startswith(env.prefix + "/"):
                # ${HOME}x is /home/userx, not ~x (another user's home); "$PWD"x is not .x
                name = "$HOME" if env.prefix == "~" else "$PWD"
                issues.append((f"variable expansion {name} followed by text", node))
                words = [name + word[1:]]
        return words
    finally:
        env.prefix = outer


def _decode(node: Any, text_of: TextOf, issues: Issues, braces: bool, env: Scope, split: bool) -> list[str]:
    kind = node.type
    if kind == "word":
        raw = text_of(node)
        if _has_blank(raw):
            issues.append(("blank inside a word", node))
        if raw[:1] == "~" and (raw[1:2] in FOLDER_TILDES or env.values.home_changed()):
            return [_tilde(raw, node, issues, env)]
        if "{" not in raw or not braces:
            return [unescape_unquoted(raw)]
        text, mask = _unquoted_pieces(raw)
        return _braced(text, mask, node, issues)
    if kind == "brace_expression":
        text, mask = _brace_piece(node, text_of, issues)
        return _braced(text, mask, node, issues) if braces else [text]
    if kind in _EXPANSIONS or (kind == "string" and node.named_child_count == 1 and node.child_count == 3):
        inner = node if kind in _EXPANSIONS else node.named_children[0]
        if inner.type in _EXPANSIONS:
            words = env.expand(inner, text_of, decode_word, not split or kind == "string")
            if words is not None:
                return words
    if kind != "concatenation":
        text, _ = _piece(node, text_of, issues, "", env)
        return [text]
    parts: list[str] = []
    # which characters of each part are brace-active: a list, or (flag, length) for a
    # part all alike; made one list only for brace expansion (see :func:`_flat`)
    masks: list[list[bool] | tuple[bool, int]] = []
    filled = False  # "".join(parts) is not empty
    expand = False
    end = node.start_byte
    previous = ""
    for child in node.children:
        if child.start_byte != end:
            issues.append(("gap inside a word", node))
        end = child.end_byte
        ckind = child.type
        kind_before, previous = previous, ckind
        if ckind == "word":
            raw = text_of(child)
            if _has_blank(raw):
                issues.append(("blank inside a word", child))
            if not parts and raw[:1] == "~" and (raw[1:2] in FOLDER_TILDES or env.values.home_changed()):
                text = _tilde(raw, child, issues, env)
                mask = [False] * len(text)
            elif "{" in raw or "}" in raw or "," in raw or "\\" in raw:
                text, mask = _unquoted_pieces(raw)
                expand = expand or "{" in raw
            else:
                text = unescape_unquoted(raw)
                mask = [True] * len(text)
            parts.append(text)
            masks.append(mask)
            filled = filled or bool(text)
            continue
        if ckind == "brace_expression":
            text, mask = _brace_piece(child, text_of, issues)
            expand = True
            parts.append(text)
            masks.append(mask)
            filled = filled or bool(text)
            continue
        if ckind == "string" and kind_before == "$":
            # $"…" (a translated string) is the string itself: drop the $
            parts[-1] = parts[-1][:-1]
            flat = _flat(masks)
            flat.pop()
            masks = [flat]
            filled = any(parts)
        # only an expansion reads the text before it; any other piece only whether there
        # is any (joining every part for every piece is quadratic in a long word)
        before = "".join(parts) if ckind in _EXPANSIONS else "\0" if filled else ""
        text, active = _piece(child, text_of, issues, before, env)
        parts.append(text)
        masks.append((active, len(text)))
        filled = filled or bool(text)
    joined = "".join(parts)
    if expand and braces:
        quoted = any(c.type in ("string", "raw_string", "ansi_c_string", "translated_string") for c in node.children)
        return _braced(joined, _flat(masks), node, issues, quoted)
    return [joined]


def _flat(masks: list[list[bool] | tuple[bool, int]]) -> list[bool]:
    """One flag per character of a word, from its parts' masks (see :func:`_decode`)."""
    flat: list[bool] = []
    for mask in masks:
        if isinstance(mask, list):
            flat.extend(mask)
        else:
            flat.extend([mask[0]] * mask[1])
    return flat


#: What may follow ``~`` in a tilde prefix that names a folder of the shell itself:
#: ``~+`` (``$PWD``), ``~-`` (``$OLDPWD``), ``~N``/``~+N``/``~-N`` (the directory stack).
FOLDER_TILDES = frozenset("+-0123456789")
#: A word naming the call's own working folder, written by the parser for ``~-`` after
#: the line moved away from it (``cd /tmp/x && rm -rf ~-``). The parser does not know
#: that folder; the analysis replaces the prefix (``meaning.paths.at_call_cwd``). Like
#: ``parse.UNKNOWN_CWD`` it is absolute, so a consumer that does not replace it lands
#: outside the workspace (fail closed) rather than inside it.
CALL_CWD = "/<cwd>"


def _tilde(raw: str, node: Any, issues: Issues, env: Scope) -> str:
    """An unquoted ``~`` after this line set HOME (``HOME=/etc; rm -rf ~``), and the
    tilde prefixes that name the shell's folders (:func:`_folder_tilde`)."""
    text = unescape_unquoted(raw)
    prefix = raw.split("/", 1)[0]
    if prefix[1:2] in FOLDER_TILDES:  # written as is: a quoted character ends the prefix
        return _folder_tilde(prefix, text[len(prefix):], node, issues, env)
    if text != "~" and not text.startswith("~/"):
        return text  # ~user: not HOME
    try:
        home = env.home()
    except LookupError:
        issues.append(("~ after HOME was set to a value not known", node))
        return text
    return text if home is None else home + text[1:]


def _folder_tilde(prefix: str, rest: str, node: Any, issues: Issues, env: Scope) -> str:
    """``~+`` is ``$PWD`` and ``~-`` is ``$OLDPWD`` (bash); ``~N``, ``~+N`` and ``~-N`` are
    directory-stack entries, which bastion does not follow. ``~-`` before any ``cd`` on the
    line is the agent shell's previous folder: not known (as ``"$OLDPWD"`` is not)."""
    if prefix == "~+":
        folder = folder_text(env, "PWD")
    elif prefix == "~-":
        folder = folder_text(env, "OLDPWD")
    else:
        folder = None
    if folder is None:
        issues.append((f"{prefix} names a folder of the shell that is not known", node))
        # the variable it stands for: unknown to every later step, as the variable is
        return {"~+": "$PWD", "~-": "$OLDPWD"}.get(prefix, prefix) + rest
    return folder + rest


def folder_text(env: Scope, name: str) -> str | None:
    """What ``$PWD``/``$OLDPWD`` holds as a word in ``env``'s folder: the text of an
    absolute or home-relative value, ``.`` for the folder itself, :data:`CALL_CWD` (and
    the folder relative to it) for a folder known only relative to the call's; None when
    unknown (never set on this line, unset, or set by something bastion cannot read)."""
    if name == "PWD" and name not in env.values.vars:
        entry = env.lookup("PWD")  # the folder this command runs in
    elif name in env.values.vars:
        entry = env.values.vars[name]
    else:
        return None
    if not isinstance(entry, Value) or entry.items is not None or entry.command or not entry.text:
        return None
    if entry.anchor is None:
        return entry.text
    taken = entry.anchor[0]
    if taken == env.cwd:
        return "."
    return CALL_CWD if taken in (None, ".") else f"{CALL_CWD}/{taken}"


def _brace_piece(node: Any, text_of: TextOf, issues: Issues) -> tuple[str, list[bool]]:
    """``{1..3}`` as tree-sitter marks it (it may include a leading ``\\$``)."""
    text, mask = _unquoted_pieces(text_of(node))
    if any(ch == "$" and active for ch, active in zip(text, mask, strict=True)):
        issues.append(("parameter expansion", node))
    return text, mask


def _bad_body(body: str, quote: str) -> bool:
    """True when the inside of a quoted string holds an unescaped closing quote or ends
    in an unpaired backslash: tree-sitter chose other string bounds than bash."""
    if quote not in body and not body.endswith("\\"):
        return False
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "\\":
            if i + 1 >= n:
                return True
            i += 2
            continue
        if ch == quote:
            return True
        i += 1
    return False


def _has_blank(raw: str) -> bool:
    """An unescaped blank inside one word node: tree-sitter mis-lexed (``{ {``)."""
    if " " not in raw and "\t" not in raw and "\n" not in raw:
        return False
    text, mask = _unquoted_pieces(raw)
    return any(active and ch in " \t\n" for ch, active in zip(text, mask, strict=True))


def _braced(text: str, mask: list[bool], node: Any, issues: Issues, keep_empty: bool = False) -> list[str]:
    try:
        words = expand_braces(text, mask, keep_empty)
    except BraceLimit:
        issues.append((f"brace expansion with more than {MAX_BRACE_WORDS} words", node))
        return [text]
    return words or [""]


# --------------------------------------------------------------------------- characters

#: Zero-width and format characters that render as nothing (incl. Unicode tag characters).
INVISIBLE_CHARS = (
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063"
    "\u2064\u3164\ufeff\uffa0"
)
_INVISIBLE_RANGES = ("\ufe00-\ufe0f", "\U000e0000-\U000e007f", "\U000e0100-\U000e01ef")
#: Characters that reorder how text is displayed.
BIDI_CHARS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
#: Whitespace other than space, tab and newline.
UNICODE_SPACES = (
    "\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_CONTROL_RANGES = "\x00-\x08\x0b-\x1f\x7f-\x9f"

#: Letters that look like ASCII letters (Cyrillic, Greek, Armenian, Latin extensions).
#: Fullwidth and mathematical letters are handled by NFKC in :func:`skeleton`.
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
    "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
    "ɡ": "g", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ү": "Y",
    "Ԛ": "Q", "Ԝ": "W", "ү": "y", "к": "k", "т": "t", "м": "m", "н": "h",
    # Greek
    "α": "a", "ο": "o", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ϲ": "c", "ϳ": "j", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H",
    "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y",
    "Χ": "X",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g",
    # Latin look-alikes
    "ı": "i", "ɑ": "a", "ɩ": "i", "ʀ": "r", "ʏ": "y", "ᴄ": "c", "ᴏ": "o", "ᴠ": "v",
    "ᴡ": "w", "ᴢ": "z", "ꜱ": "s",
}

_CLASS_RE: dict[str, re.Pattern[str]] = {}


#: The suspicious character classes, in the order :func:`char_class` reports them.
_CLASSES = ("invisible", "bidi", "space", "control")


def _class_body(name: str) -> str:
    """The characters of one class, as the inside of a ``[…]`` set."""
    return {
        "invisible": escape(INVISIBLE_CHARS) + "".join(_INVISIBLE_RANGES),
        "bidi": escape(BIDI_CHARS),
        "space": escape(UNICODE_SPACES),
        "control": _CONTROL_RANGES,
    }[name]


def _class_re(name: str) -> re.Pattern[str]:
    """One class's pattern; ``any`` matches a character of any class."""
    pattern = _CLASS_RE.get(name)
    if pattern is None:
        body = "".join(map(_class_body, _CLASSES)) if name == "any" else _class_body(name)
        pattern = _CLASS_RE[name] = compiled_pattern(f"[{body}]")  # the tables' text: kept, built without re
    return pattern


def char_class(text: str) -> dict[str, str]:
    """Which suspicious character classes occur in ``text``: ``{"invisible": "\\u200b", …}``
    (first occurrence of each of ``invisible``, ``bidi``, ``space``, ``control``). Most
    texts hold none: one scan for all four says so."""
    found: dict[str, str] = {}
    if _class_re("any").search(text) is None:
        return found
    for name in _CLASSES:
        m = _class_re(name).search(text)
        if m:
            found[name] = m.group()
    return found


def skeleton(text: str) -> str:
    """The ASCII look-alike of ``text``: NFKC, then confusable letters mapped.

    ``str.translate`` looks every character up (a missed lookup raises inside), about a
    tenth of a microsecond each; with ASCII look-alikes for non-ASCII letters only, the
    few distinct non-ASCII characters of a text are replaced instead."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", text)
    non_ascii = _non_ascii_pattern()
    if non_ascii is None:
        return folded.translate(_confusable_table())
    if folded.isascii():
        return folded
    for ch in set(non_ascii.findall(folded)):
        look = CONFUSABLES.get(ch)
        if look is not None:
            folded = folded.replace(ch, look)
    return folded


_NON_ASCII: list[re.Pattern[str] | None] = []


def _non_ascii_pattern() -> re.Pattern[str] | None:
    """A non-ASCII character, when every look-alike maps one to ASCII text (replacing each
    one found then gives what ``str.translate`` gives: no replacement holds another's
    character), else None. Made when a non-ASCII word is first checked."""
    if not _NON_ASCII:
        simple = all(not ch.isascii() and look.isascii() for ch, look in CONFUSABLES.items())
        _NON_ASCII.append(compiled_pattern("[^\\x00-\\x7f]") if simple else None)
    return _NON_ASCII[0]


_CONFUSABLE_TABLE: dict[int, str] = {}


def _confusable_table() -> dict[int, str]:
    """:data:`CONFUSABLES` as a ``str.translate`` table (built when a non-ASCII word is
    first checked): one C pass over a long text instead of a lookup per character."""
    if not _CONFUSABLE_TABLE:
        _CONFUSABLE_TABLE.update({ord(ch): ascii_ for ch, ascii_ in CONFUSABLES.items()})
    return _CONFUSABLE_TABLE


def _describe(ch: str) -> str:
    import unicodedata

    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')}"


_CLASS_TEXT = {
    "invisible": (Severity.HIGH, "an invisible character"),
    "bidi": (Severity.HIGH, "a bidirectional-text control"),
    "space": (Severity.MEDIUM, "a Unicode space"),
    "control": (Severity.MEDIUM, "a control character"),
}


#: Hidden characters a quoted argument may hold as data (an emoji's variation selector,
#: a no-break space in a message): they change no word the shell splits or runs.
QUOTED_DATA_CLASSES = frozenset({"invisible", "space"})


def word_findings(word: str, is_name: bool, quoted: bool = False) -> list[Finding]:
    """``SH025`` findings for one decoded word: hidden characters (invisible, bidi,
    Unicode spaces, control characters) and look-alike letters. A command name is
    always high; ASCII printable words return at once. A ``quoted`` argument is data:
    invisible characters and Unicode spaces in it are not reported."""
    if word.isascii() and word.isprintable():
        return []
    found: list[Finding] = []
    role = "command name" if is_name else "argument"
    shown = ascii(word)[1:-1][:60]
    for cls, ch in char_class(word).items():
        if quoted and not is_name and cls in QUOTED_DATA_CLASSES:
            continue
        severity, what = _CLASS_TEXT[cls]
        found.append(Finding("SH025", Severity.HIGH if is_name else severity,
                             f"{role} '{shown}' contains {what} ({_describe(ch)})"))
    if word.isascii():
        return found
    look = skeleton(word)
    if look != word and look.isascii():
        odd = next(ch for ch in word if not ch.isascii())
        mixed = any(c.isascii() and c.isalpha() for c in word)
        found.append(
            Finding(
                "SH025",
                Severity.HIGH if is_name or mixed else Severity.MEDIUM,
                f"{role} '{shown}' looks like '{look[:60]}' but contains {_describe(odd)}",
            )
        )
    elif is_name and not found:
        odd = next(ch for ch in word if not ch.isascii())
        found.append(Finding("SH025", Severity.MEDIUM, f"command name '{shown}' is not ASCII ({_describe(odd)})"))
    return found
