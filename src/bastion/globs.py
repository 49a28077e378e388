"""gitignore-style globs as RE2-compatible regular expressions, shared by permission
rules (``Read(src/**)``) and the protected-path lists (``files.protected``)."""

from __future__ import annotations


def literal(ch: str) -> str:
    """One literal character for an RE2 pattern (RE2 rejects escapes of non-ASCII)."""
    return "\\" + ch if ch.isascii() and not ch.isalnum() and ch != "_" else ch


def glob_regex(glob: str) -> str:
    """Glob → regex text: ``**`` any depth (``a/**/b`` matches ``a/b`` too), ``*`` and
    ``?`` within one path component, ``[…]``/``[!…]`` a class, ``\\x`` a literal x."""
    out, i, n = [], 0, len(glob)
    while i < n:
        ch = glob[i]
        if ch == "*" and glob[i : i + 2] == "**":
            i += 2
            if glob[i : i + 1] == "/":
                out.append("(?:.*/)?")
                i += 1
            else:
                out.append(".*")
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and (end := glob.find("]", i + 2)) != -1:
            body = glob[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + "".join(c if c == "-" else literal(c) for c in body) + "]")
            i = end + 1
            continue
        elif ch == "\\" and i + 1 < n:
            out.append(literal(glob[i + 1]))
            i += 2
            continue
        else:
            out.append(literal(ch))
        i += 1
    return "".join(out)
