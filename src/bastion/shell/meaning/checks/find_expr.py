"""Whether a ``find`` expression deletes *everything* below its start points.

``find DIR -delete``, ``find DIR -mindepth 1 -delete``, ``find DIR -type f -delete``,
``find DIR -delete -name x`` (``-delete`` runs before the test) and ``find DIR -exec
rm {} +`` empty DIR; ``find DIR -name '*.pyc' -delete``, ``find DIR -maxdepth 1
-delete``, ``find DIR -path ./.git -prune -o -delete`` and ``find DIR -type d -empty
-delete`` do not. The expression is read as find reads it (``-o`` binds looser than
the implicit ``-a``, ``!`` and parentheses), and each node answers three questions:
is it true for every file, false for every file, and does it delete every file?
"""

from __future__ import annotations

import posixpath

from ...catalog import catalog as C
from ..paths import _FIND_VALUE, _find_start

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["deletes_everything", "named_matches"]

#: Tests and options that hold for every file below the start points (they order the
#: walk, print, or only leave out the start point itself).
_ALWAYS = frozenset(
    "-depth -d -xdev -mount -noleaf -daystart -follow -ignore_readdir_race -noignore_readdir_race -warn -nowarn "
    "-true -print -print0 -ls -fls -fprint -fprint0 -printf -fprintf -regextype".split()
)
_DELETERS = frozenset({"rm", "unlink", "shred", "srm", "wipe"})
_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
#: ``-ok`` asks on find's input before each run: with nothing piped in, nothing runs.
_CONFIRM = frozenset({"-ok", "-okdir"})
_OR = frozenset({"-o", "-or", ","})
_CLOSE = frozenset({")", "\\)"})

#: (always true, always false, deletes every file it is evaluated on)
Node = tuple[bool, bool, bool]


class _Unreadable(Exception):
    pass


class _Reader:
    def __init__(self, tokens: Sequence[str], confirmed: bool) -> None:
        self.tokens = list(tokens)
        self.pos = 0
        self.confirmed = confirmed
        #: ``-exec rm -r {}``: each match goes with everything below it, so a depth limit
        #: (``-maxdepth 1``, even 0) still empties the start points.
        self.tree_deleter = _recursive_exec(self.tokens)

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        if self.pos >= len(self.tokens):
            raise _Unreadable("expression ends early")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expr(self) -> Node:
        always, never, deletes = self.conjunction()
        while self.peek() in _OR:
            comma = self.take() == ","
            b_always, b_never, b_deletes = self.conjunction()
            if comma:  # both sides run; the value is the right one's
                always, never, deletes = b_always, b_never, deletes or b_deletes
            else:  # the right side runs only where the left is false
                always, never, deletes = always or b_always, never and b_never, deletes or (never and b_deletes)
        return always, never, deletes

    def conjunction(self) -> Node:
        always, never, deletes = self.unary()
        while self.peek() is not None and self.peek() not in _OR and self.peek() not in _CLOSE:
            if self.peek() in ("-a", "-and"):
                self.take()
            b_always, b_never, b_deletes = self.unary()
            # the right side runs only where the left is true
            always, never, deletes = always and b_always, never or b_never, deletes or (always and b_deletes)
        return always, never, deletes

    def unary(self) -> Node:
        tok = self.take()
        if tok in ("!", "-not"):
            always, never, _ = self.unary()
            return never, always, False
        if tok in ("(", "\\("):
            node = self.expr()
            if self.take() not in _CLOSE:
                raise _Unreadable("unbalanced parentheses")
            return node
        return self.primary(tok)

    def primary(self, tok: str) -> Node:
        if tok == "-delete":
            return True, False, True
        if tok in _EXEC:
            words = []
            while self.peek() not in (";", "\\;", "+"):
                words.append(self.take())
            self.take()
            deleter = _deleter(words) and (tok not in _CONFIRM or self.confirmed)
            return deleter, False, deleter
        if tok == "-false":
            return False, True, False
        if tok in ("-type", "-xtype"):
            value = self.take()
            return "f" in value.split(","), False, False  # every file, or only some kinds
        if tok in _NAME_TESTS:  # ``-name '*'`` matches every name
            return self.take().strip("*") == "", False, False
        if tok == "-mindepth":  # 1 only leaves out the start point; 2 keeps the top level
            return self.take() in ("0", "1"), False, False
        if tok == "-maxdepth":
            self.take()
            return self.tree_deleter, False, False
        if tok == "-fprintf":  # FILE FORMAT
            self.take()
            self.take()
        elif tok in _FIND_VALUE:
            self.take()
        return tok in _ALWAYS, False, False


def _recursive_exec(tokens: Sequence[str]) -> bool:
    """An ``-exec``/``-execdir`` runs a deleter with ``-r``/``-R``/``--recursive``."""
    for k, tok in enumerate(tokens):
        if tok in _EXEC and tok not in _CONFIRM:
            words = list(tokens[k + 1:])
            end = next((i for i, w in enumerate(words) if w in (";", "\\;", "+")), len(words))
            words = words[:end]
            if _deleter(words) and any(w == "--recursive" or (w.startswith("-") and not w.startswith("--")
                                                              and ("r" in w or "R" in w)) for w in words[1:]):
                return True
    return False


def _deleter(words: Sequence[str]) -> bool:
    return bool(words) and C.canonical_name(posixpath.basename(words[0])) in _DELETERS


def deletes_everything(args: Sequence[str], *, confirmed: bool = False) -> bool:
    """Whether ``find ARGS`` (start points, then the expression) deletes every file
    below its start points. ``confirmed``: find's input is fed, so ``-ok`` runs too.

    An expression find itself would refuse (unbalanced parentheses, an ``-exec``
    without its ``;``, a missing value) runs nothing: False, and the delete still asks."""
    expression = tuple(args[_find_start(tuple(args))[1] :])
    reader = _Reader(expression, confirmed)
    try:
        if reader.peek() is None:
            return False
        _always, _never, deletes = reader.expr()
        return deletes and reader.peek() is None
    except _Unreadable:
        return False


#: Tests that name the files find matches: by base name, or by the whole path.
_NAME_TESTS = {"-name": False, "-iname": False, "-path": True, "-ipath": True, "-wholename": True,
               "-iwholename": True}


def named_matches(args: Sequence[str], *, deeper: bool = True) -> list[str]:
    """Files a ``find`` expression names outright, so ``{}`` of its ``-exec`` stands for
    them as well as for the start points: ``find /dev -maxdepth 1 -name sda`` matches
    ``/dev/sda`` (``START/X``; and ``START/**/X`` when it may look deeper, enough to judge
    the kind of target), ``-path /dev/sda`` matches ``/dev/sda``, ``-iname SDA`` also
    ``sda``. A pattern with glob characters, or a test under ``!``/``-not``, names no
    file; neither does ``-maxdepth 0`` (only the start points are looked at). Without
    ``deeper`` the ``START/**/X`` stand-ins are left out (for a deleter, whose ``START/*``
    the parent ``find`` already reports: a glob there would read as every folder)."""
    roots, start = _find_start(tuple(args))
    tokens = list(args[start:])
    depth: int | None = None
    for k, tok in enumerate(tokens[:-1]):
        if tok == "-maxdepth" and tokens[k + 1].isdigit():
            depth = int(tokens[k + 1])
    if depth == 0:
        return []
    out: list[str] = []
    k = 0
    while k < len(tokens) - 1:
        tok = tokens[k]
        if tok in _EXEC:  # the command's words, up to its terminator
            k += 1
            while k < len(tokens) and tokens[k] not in (";", "+"):
                k += 1
            k += 1
            continue
        whole = _NAME_TESTS.get(tok)
        if whole is None:
            k += 2 if tok in _FIND_VALUE else 1
            continue
        pattern = tokens[k + 1]
        k += 2
        if (k > 2 and tokens[k - 3] in ("!", "-not")) or not pattern or any(c in pattern for c in "*?[\\"):
            continue
        for value in dict.fromkeys((pattern, pattern.lower()) if tok.startswith("-i") else (pattern,)):
            if whole:
                out.append(value)
            elif "/" not in value:
                for root in roots or ["."]:
                    base = root.rstrip("/")
                    out.append(f"{base}/{value}")
                    if deeper and (depth is None or depth > 1):
                        out.append(f"{base}/**/{value}")
    return list(dict.fromkeys(out))
