"""What shell variables hold, as far as one command line makes it known.

``x=/etc; rm -rf $x`` deletes ``/etc``: judged by its shape it is ``rm -rf $x``, which
nobody can judge. The parser carries the values a command line itself sets (``x=…``,
``export``/``readonly``/``declare``/``local``, literal arrays, ``unset``) and the ones
bastion knows without running anything (``$HOME`` is ``~``, ``$PWD`` and ``$(pwd)`` the
folder the command runs in, ``$(command -v sh)`` is ``sh``), in the order bash runs
them, and substitutes them into the words (:func:`~bastion.shell.syntax.words.decode_word`
asks a :class:`Scope`). One place knows what a variable holds; the rest of bastion sees
the words the programs receive.

A value bastion cannot know stays unknown and the word keeps today's "too complex"
reason: a name never assigned on the line (it may come from the environment), one
written where it may or may not have run (after ``||``, in a loop), or by ``read``.
Only an explicit ``unset`` makes a name known to be unset.

:class:`Values` is immutable and small (at most :data:`MAX_NAMES` names; more are
unknown), so a subshell shares its parent's by reference and every write costs a
bounded copy: parse time stays linear.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Value", "Values", "Scope", "UNSET", "EMPTY", "MAX_NAMES", "after_merge", "default_scope", "pwd_value"]

#: More names than this on one line: the rest are unknown (keeps each write bounded).
MAX_NAMES = 256
#: Names every shell has, exported, whose value bastion knows without an assignment.
_HOME_NAME = "HOME"
#: ``cwd`` the parser cannot know (mirrors ``parse.UNKNOWN_CWD``, which imports us).
_UNKNOWN_CWD = "/<unknown>"
#: Field splitting on the default IFS.
_BLANKS = " \t\n"


class Value(NamedTuple):
    """A known value. ``items`` holds an array's elements (``text`` is element 0);
    ``anchor`` is set for a value that is ``.`` relative to the folder it was taken in
    (``$PWD`` when that folder is only known relative to the call's): it holds there only."""

    text: str
    items: tuple[str, ...] | None = None
    anchor: tuple[str | None] | None = None
    exported: bool = False


class _Unset:
    """A name ``unset`` on this line: ``$X`` is empty, ``${X:-w}`` is ``w``."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
#: An entry that hides a default (``HOME`` written by something bastion cannot follow).
_UNKNOWN: Any = None


class Values:
    """The variables a command line has set so far (immutable: writes return a copy)."""

    __slots__ = ("vars", "wiped")

    def __init__(self, vars_: dict[str, Any] | None = None, wiped: bool = False) -> None:
        self.vars: dict[str, Any] = vars_ or {}
        #: Something ran that may have set anything (``source`` of an unknown file).
        self.wiped = wiped

    def get(self, name: str) -> Any:
        """The entry for ``name``: a :class:`Value`, :data:`UNSET`, or None (unknown);
        HOME's default is ``~`` (the analyser resolves it to the agent's home)."""
        if name in self.vars:
            return self.vars[name]
        if self.wiped:
            return _UNKNOWN
        if name == _HOME_NAME:
            return _HOME
        return _UNKNOWN

    def assign(self, name: str, value: Any) -> Values:
        """``name`` now holds ``value`` (a Value, UNSET, or None for unknown)."""
        if self.vars.get(name, _MISSING) is value:
            return self
        if name not in self.vars and len(self.vars) >= MAX_NAMES:
            value = _UNKNOWN
        new = dict(self.vars)
        new[name] = value
        return Values(new, self.wiped)

    def forget(self, names: set[str] | frozenset[str]) -> Values:
        """These names may or may not have been written: unknown from here on."""
        if not names:
            return self
        new = dict(self.vars)
        for name in names:
            new[name] = _UNKNOWN
        return Values(new, self.wiped)

    def moved(self, old_pwd: Any) -> Values:
        """After ``cd``: ``$PWD`` follows the folder again, ``$OLDPWD`` is where it was."""
        new = {k: v for k, v in self.vars.items() if k != "PWD"}
        new["OLDPWD"] = old_pwd
        return Values(new, self.wiped)

    def wipe(self) -> Values:
        """Anything may have been written (``source`` of a file bastion cannot read)."""
        return Values({}, True)

    def changed(self, before: Values) -> set[str]:
        """Names whose entry differs from ``before`` (for writes that may not have run)."""
        if self is before:
            return set()
        if self.wiped and not before.wiped:
            return {"*"}
        return {k for k, v in self.vars.items() if before.vars.get(k, _MISSING) is not v}

    def exported(self) -> Values:
        """What a child shell (``bash -c``, a script) inherits: exported names only."""
        if not self.vars:
            return self
        kept = {k: v for k, v in self.vars.items() if isinstance(v, Value) and v.exported}
        hidden = {k: _UNKNOWN for k in self.vars if k not in kept}  # maybe from the environment
        return Values({**hidden, **kept}, self.wiped)

    def home_changed(self) -> bool:
        return self.wiped or _HOME_NAME in self.vars


_MISSING: Any = object()
_HOME = Value("~", exported=True)
EMPTY = Values()


def default_scope() -> Scope:
    """What a word means when nothing on the line set a value (``$HOME`` is ``~``)."""
    return Scope(EMPTY, None)


def after_merge(values: Values, before: Values) -> Values:
    """Values after a part that may not have run (``a || b``): what it wrote is unknown."""
    changed = values.changed(before)
    if "*" in changed:
        return values
    return before.forget(changed) if changed else before


def pwd_value(cwd: str | None) -> Value | None:
    """``$PWD``/``$(pwd)`` in folder ``cwd``: absolute when known, else ``.`` there."""
    if cwd == _UNKNOWN_CWD:
        return None
    if cwd is not None and cwd.startswith(("/", "~")):
        return Value(cwd, exported=True)
    return Value(".", anchor=(cwd,), exported=True)


class Scope:
    """The values as one command's words see them (its folder fixes ``$PWD``).

    :meth:`expand` answers for one expansion node; None means unknown (the word decoder
    then reports it as today). ``prefix`` is set when a bare ``~`` or ``.`` value was put
    at the start of a word: it must be the whole word or be followed by ``/``."""

    __slots__ = ("values", "cwd", "prefix", "assigned", "anchor")

    def __init__(self, values: Values, cwd: str | None) -> None:
        self.values = values
        self.cwd = cwd
        self.prefix: str | None = None
        #: ``${X:=w}`` writes: applied by the caller after the word.
        self.assigned: list[tuple[str, Any]] = []
        #: Set when a value known only as ``.`` in some folder was used (``d=$PWD`` keeps it).
        self.anchor: tuple[str | None] | None = None

    # ----------------------------------------------------------------- lookups

    def lookup(self, name: str) -> Any:
        entry = self.values.get(name)
        if name == "PWD" and name not in self.values.vars and not self.values.wiped:
            return pwd_value(self.cwd)
        if isinstance(entry, Value) and entry.anchor is not None and entry.anchor[0] != self.cwd:
            return _UNKNOWN  # "." taken in another folder
        return entry

    def home(self) -> str | None:
        """What an unquoted ``~`` means: None when it is the agent's home (left as ``~``),
        the value when this line set HOME; raises :class:`LookupError` when unknown."""
        if not self.values.home_changed():
            return None
        entry = self.values.get(_HOME_NAME)
        if isinstance(entry, Value) and entry.items is None and entry.anchor is None:
            return entry.text
        raise LookupError("HOME")

    # ----------------------------------------------------------------- expansions

    def expand(self, node: Any, text_of: Any, decode: Any, quoted: bool, before: str = "") -> list[str] | None:
        """The words one expansion node becomes (``quoted``: inside double quotes or an
        assignment, so no field splitting; ``before``: the text of the word before it),
        or None when not known."""
        kind = node.type
        place = _START if not before else _PATH if before[-1] in _PATH_STARTS else _INSIDE
        if kind == "simple_expansion":
            name = text_of(node)[1:]
            if not _is_name(name):
                return None
            return self._words(self.lookup(name), quoted, place, False)
        if kind == "expansion":
            return self._braced(node, text_of, decode, quoted, place)
        if kind == "command_substitution":
            return self._words(self._substituted(node, text_of, decode), quoted, place, False)
        return None

    def _words(self, entry: Any, quoted: bool, place: int, whole_array: bool) -> list[str] | None:
        """The words ``entry`` becomes; a home (``~…``) or a folder known only as ``.``
        must start the word (``x$HOME`` is not ``x~``)."""
        if entry is UNSET:
            return [""] if quoted and not whole_array else []
        if not isinstance(entry, Value):
            return None
        items = entry.items if whole_array and entry.items is not None else (entry.text,)
        if not items:
            return []
        if (entry.anchor is not None and place != _START) or (items[0].startswith("~") and place == _INSIDE):
            return None
        if entry.anchor is not None:
            self.anchor = entry.anchor
        if len(items) == 1 and items[0] in ("~", ".") and place == _START:
            self.prefix = items[0]
        if quoted:
            return list(items)
        if "IFS" in self.values.vars:
            return None  # split on blanks bastion does not know
        out: list[str] = []
        for item in items:
            out.extend(item.split())
        return out

    def _braced(self, node: Any, text_of: Any, decode: Any, quoted: bool, place: int) -> list[str] | None:
        """``${X}``, ``${X:-w}`` ``${X-w}`` ``${X:=w}`` ``${X:?m}`` ``${X:+w}``, ``${A[@]}``."""
        name = ""
        op = ""
        word: Any = None
        array = False
        for child in node.children:
            kind = child.type
            if kind in ("${", "}"):
                continue
            if kind == "variable_name" and not name and not op:
                name = text_of(child)
            elif kind == "subscript" and not name:
                parts = [c for c in child.children if c.is_named]
                if len(parts) != 2 or parts[0].type != "variable_name" or text_of(parts[1]) != "@":
                    return None
                name = text_of(parts[0])
                array = True
            elif not child.is_named and not op and name:
                op = kind
            elif op and word is None:
                word = child
            else:
                return None
        if not name:
            return None
        entry = self.lookup(name)
        if not op:
            return self._words(entry, quoted, place, array)
        if array or op not in _OPERATORS:
            return None
        if entry is _UNKNOWN or (isinstance(entry, Value) and entry.anchor is not None and place != _START):
            return None
        colon = op.startswith(":")
        unset = entry is UNSET or (colon and isinstance(entry, Value) and entry.text == "" and entry.items is None)
        test = op[-1]
        if test == "?":
            return None if unset else self._words(entry, quoted, place, False)
        if test == "+":
            if unset:
                return [""] if quoted else []
            return self._alternative(word, text_of, decode, quoted, place)
        if not unset:
            return self._words(entry, quoted, place, False)
        result = self._alternative(word, text_of, decode, quoted, place)
        if test == "=" and result is not None:
            self.assigned.append((name, Value(" ".join(result))))
        return result

    def _alternative(self, word: Any, text_of: Any, decode: Any, quoted: bool, place: int) -> list[str] | None:
        if word is None:
            return [""] if quoted else []
        issues: list[Any] = []
        values = decode(word, text_of, issues, braces=False, env=self)
        if issues or len(values) != 1:
            return None
        return self._words(Value(values[0]), quoted, place, False)

    def _substituted(self, node: Any, text_of: Any, decode: Any) -> Value | None:
        """What ``$(pwd)``, ``$(command -v X)``, ``$(which X)``, ``$(type -P X)`` and a
        literal ``$(echo X)``/``$(printf X)`` print (without trailing newlines)."""
        named = [c for c in node.named_children if c.type != "comment"]
        if not named:
            return Value("")  # $() is empty
        if len(named) != 1:
            return None
        cmd = named[0]
        if cmd.type == "redirected_statement":
            parts = cmd.named_children
            if len(parts) != 2 or parts[0].type != "command" or parts[1].type != "file_redirect":
                return None
            if text_of(parts[1]).replace(" ", "") not in ("2>/dev/null", "2>&1"):
                return None
            cmd = parts[0]
        if cmd.type != "command":
            return None
        argv: list[str] = []
        issues: list[Any] = []
        for child in cmd.children:
            target = child.children[0] if child.type == "command_name" and child.child_count == 1 else child
            if target.type in ("variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect"):
                return None
            argv.extend(decode(target, text_of, issues, env=self))
        if issues or not argv:
            return None
        return _printed(tuple(argv), self.cwd)


#: Text after which a word's rest is read as a path (``--dir=~/x``, ``f=@~/x``,
#: ``a:~/b``): the analyser resolves a ``~`` there, as bash does in assignments.
_PATH_STARTS = frozenset("=@:")
#: Where an expansion stands in its word: first, after one of _PATH_STARTS, elsewhere.
_START, _PATH, _INSIDE = 0, 1, 2
_OPERATORS = frozenset({":-", "-", ":=", "=", ":?", "?", ":+", "+"})


def _is_name(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and text.replace("_", "a").isalnum() and text.isascii()


def _printed(argv: tuple[str, ...], cwd: str | None) -> Value | None:
    """What a command in ``$(…)`` prints, when that follows from its words alone."""
    name = argv[0]
    args = argv[1:]
    if name == "pwd" and all(a in ("-L", "-P") for a in args):
        return pwd_value(cwd)
    lookups = {"command": ("-v",), "which": (), "type": ("-P",)}
    if name in lookups:
        flags = lookups[name]
        rest = list(args)
        if tuple(rest[: len(flags)]) != flags or len(rest) != len(flags) + 1:
            return None
        found = rest[-1]
        return Value(found) if found and not found.startswith("-") and "$" not in found else None
    if name in ("echo", "printf") and not any("\\" in a for a in args if name == "echo"):
        from .literal import output

        printed = output(argv, exact=True)
        return Value(printed.rstrip("\n")) if printed is not None else None
    return None
