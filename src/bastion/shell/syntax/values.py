"""What shell variables hold, as far as one command line makes it known.

``x=/etc; rm -rf $x`` deletes ``/etc``: judged by its shape it is ``rm -rf $x``, which
nobody can judge. The parser carries the values a command line itself sets (``x=…``,
``export``/``readonly``/``declare``/``local``, literal arrays, ``unset``) and the ones
bastion knows without running anything (``$HOME`` is ``~``, ``$PWD`` and ``$(pwd)`` the
folder the command runs in, ``$(command -v sh)`` is ``/usr/bin/sh``, ``$SHELL`` as a
command name is a shell), in the order bash runs them, folds the operators of
``${X%pat}``, ``${X/pat/rep}``, ``${X:1:2}``, ``${#X}`` … on a known value with a literal
pattern, and substitutes them into the words (:func:`~bastion.shell.syntax.words.decode_word`
asks a :class:`Scope`). One place knows what a variable holds; the rest of bastion sees
the words the programs receive.

A value bastion cannot know stays unknown and the word keeps today's "too complex"
reason: a name never assigned on the line (it may come from the environment), one
written where it may or may not have run (after ``||``, in a loop), or by ``read``.
Only an explicit ``unset`` makes a name known to be unset. The positional parameters
(``$1`` … ``$@``, ``$#``) are known only after a literal ``set -- words`` (``shift`` drops
one); they are stored as the array named ``@``.

:class:`Values` is immutable and small (at most :data:`MAX_NAMES` names; more are
unknown), so a subshell shares its parent's by reference and every write costs a
bounded copy: parse time stays linear.
"""

from __future__ import annotations

from .unwrap import SHELLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from ...named_tuple import NamedTuple

__all__ = ["Value", "Soft", "Values", "Scope", "UNSET", "EMPTY", "MAX_NAMES", "ARGS", "after_merge", "default_scope",
           "pwd_value", "positional"]

#: More names than this on one line: the rest are unknown (keeps each write bounded).
MAX_NAMES = 256
#: Names every shell has, exported, whose value bastion knows without an assignment.
_HOME_NAME = "HOME"
#: The user's login shell: as a command name, certainly a shell.
_SHELL_NAME = "SHELL"
#: The positional parameters, stored as one array (``set -- a b``).
ARGS = "@"
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
    #: Known only as a command name: ``$SHELL`` runs *a* shell (``sh`` stands for it),
    #: but which file it is, bastion does not know (as an argument it stays unknown).
    command: bool = False


class Soft(NamedTuple):
    """A value bastion cannot know, from a source it can follow: the output of ``$(…)``,
    a loop over words it cannot list, ``$!``, ``read``. It still decodes as unknown (the
    word keeps its "too complex" reason); the parser marks where it lands so the
    analysis can find that place harmless (:mod:`bastion.shell.syntax.shapes`: ``shape``)."""

    shape: str


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
        if name == _SHELL_NAME:
            return _SHELL
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
_SHELL = Value("sh", exported=True, command=True)
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
    at the start of a word: it must be the whole word or be followed by ``/``. ``head``
    is set by the parser while it decodes a command name."""

    __slots__ = ("values", "cwd", "prefix", "assigned", "anchor", "head")

    def __init__(self, values: Values, cwd: str | None) -> None:
        self.values = values
        self.cwd = cwd
        self.prefix: str | None = None
        #: ``${X:=w}`` writes: applied by the caller after the word.
        self.assigned: list[tuple[str, Any]] = []
        #: Set when a value known only as ``.`` in some folder was used (``d=$PWD`` keeps it).
        self.anchor: tuple[str | None] | None = None
        #: The word being decoded names the command (``$SHELL`` is known there only).
        self.head = False

    # ----------------------------------------------------------------- lookups

    def lookup(self, name: str) -> Any:
        if name in _POSITIONAL or name.isdigit():
            return self._positional(name)
        entry = self.values.get(name)
        if name == "PWD" and name not in self.values.vars and not self.values.wiped:
            return pwd_value(self.cwd)
        if isinstance(entry, Value) and entry.anchor is not None and entry.anchor[0] != self.cwd:
            return _UNKNOWN  # "." taken in another folder
        return entry

    def _positional(self, name: str) -> Any:
        """``$1`` … (empty past the end), ``$#``, ``$*`` and ``$@`` after a literal ``set --``."""
        entry = self.values.get(ARGS)
        if not isinstance(entry, Value) or entry.items is None:
            return _UNKNOWN
        items = entry.items
        if name == "@":
            return entry
        if name == "#":
            return Value(str(len(items)))
        if name == "*":
            return None if "IFS" in self.values.vars else Value(" ".join(items))
        number = int(name)
        if number == 0:
            return _UNKNOWN  # the script's name
        return Value(items[number - 1]) if number <= len(items) else UNSET

    def home(self) -> str | None:
        """What an unquoted ``~`` means: None when it is the agent's home (left as ``~``),
        the value when this line set HOME; raises :class:`LookupError` when unknown."""
        if not self.values.home_changed():
            return None
        entry = self.values.get(_HOME_NAME)
        if isinstance(entry, Value) and entry.items is None and entry.anchor is None and not entry.command:
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
            if not (_is_name(name) or name in _POSITIONAL or (len(name) == 1 and name.isdigit())):
                return None  # $10 is $1 then 0; $?, $$, $! … are not known
            return self._words(self.lookup(name), quoted, place, name == "@")
        if kind == "expansion":
            return self._braced(node, text_of, decode, quoted, place)
        if kind == "command_substitution":
            head, self.head = self.head, False
            try:
                return self._words(self._substituted(node, text_of, decode), quoted, place, False)
            finally:
                self.head = head
        return None

    def _words(self, entry: Any, quoted: bool, place: int, whole_array: bool) -> list[str] | None:
        """The words ``entry`` becomes; a home (``~…``) or a folder known only as ``.``
        must start the word (``x$HOME`` is not ``x~``)."""
        if entry is UNSET:
            return [""] if quoted and not whole_array else []
        if not isinstance(entry, Value):
            return None
        if entry.command and not (self.head and place == _START):
            return None  # $SHELL names a shell, but not which file
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
        """``${X}``, ``${X:-w}`` ``${X-w}`` ``${X:=w}`` ``${X:?m}`` ``${X:+w}``, ``${A[@]}``,
        and the operators that change a known value (``${X%pat}``, ``${#X}`` …)."""
        name = ""
        op = ""
        rest: list[Any] = []
        array = False
        length = False
        for child in node.children:
            kind = child.type
            if child.is_missing:
                return None
            if kind in ("${", "}"):
                continue
            if kind == "#" and not name and not op and not length:
                length = True
            elif kind in ("variable_name", "special_variable_name") and not name and not op:
                name = text_of(child)
            elif kind == "subscript" and not name:
                parts = [c for c in child.children if c.is_named]
                if len(parts) != 2 or parts[0].type != "variable_name" or text_of(parts[1]) != "@":
                    return None
                name = text_of(parts[0])
                array = True
            elif not child.is_named and not op and name:
                op = kind
            elif op:
                rest.append(child)
            else:
                return None
        if length and not name:
            name = "#"  # ${#} is $#
            length = False
        if not name or (length and (op or array)):
            return None
        entry = self.lookup(name)
        if length:
            if name in ("@", "*"):
                entry = self.lookup("#")
            elif entry is UNSET:
                entry = Value("0")
            elif not _plain(entry):
                return None
            else:
                entry = Value(str(len(entry.text)))
            return self._words(entry, quoted, place, False)
        if not op:
            return self._words(entry, quoted, place, array or name == "@")
        if array or name in ("@", "*"):
            return None
        if op not in _OPERATORS:
            head, self.head = self.head, False  # a pattern is no command name
            try:
                folded = _fold(entry, op, rest, text_of, decode, self)
            finally:
                self.head = head
            return None if folded is None else self._words(folded, quoted, place, False)
        if len(rest) > 1:
            return None
        word = rest[0] if rest else None
        if entry is _UNKNOWN or (isinstance(entry, Value) and entry.anchor is not None and place != _START):
            return None
        if isinstance(entry, Value) and entry.command:
            return self._shell_or(entry, op, word, text_of, decode, quoted, place)
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

    def _shell_or(self, entry: Value, op: str, word: Any, text_of: Any, decode: Any, quoted: bool,
                  place: int) -> list[str] | None:
        """``${SHELL:-bash}``: the login shell may be unset, so only a default that is
        itself a shell keeps it known to be a shell (``${SHELL:+x}`` is not known)."""
        if op[-1] == "?":
            return self._words(entry, quoted, place, False)
        if op[-1] == "+":
            return None
        head, self.head = self.head, False
        try:
            alternative = self._alternative(word, text_of, decode, True, _START)
        finally:
            self.head = head
        if alternative is None or len(alternative) != 1 or alternative[0].rsplit("/", 1)[-1] not in SHELLS:
            return None
        return self._words(entry, quoted, place, False)

    def _alternative(self, word: Any, text_of: Any, decode: Any, quoted: bool, place: int) -> list[str] | None:
        if word is None:
            return [""] if quoted else []
        issues: list[Any] = []
        values = decode(word, text_of, issues, braces=False, env=self)
        if issues or len(values) != 1:
            return None
        return self._words(Value(values[0]), quoted, place, False)

    def _substituted(self, node: Any, text_of: Any, decode: Any) -> Value | None:
        """What ``$(pwd)``, ``$(command -v X)``, ``$(which X)``, ``$(type -P X)``, a
        literal ``$(echo X)``/``$(printf X)`` and such a literal piped through decoders
        print (without trailing newlines)."""
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
        if cmd.type == "pipeline":
            return self._piped(cmd, text_of, decode)
        if cmd.type != "command":
            return None
        argv = self._argv(cmd, text_of, decode)
        return _printed(argv, self.cwd) if argv else None

    def _argv(self, cmd: Any, text_of: Any, decode: Any) -> tuple[str, ...] | None:
        """A plain command's words, when every one is known (no assignment, redirection)."""
        argv: list[str] = []
        issues: list[Any] = []
        for child in cmd.children:
            target = child.children[0] if child.type == "command_name" and child.child_count == 1 else child
            if target.type in ("variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect"):
                return None
            argv.extend(decode(target, text_of, issues, env=self))
        return tuple(argv) if argv and not issues else None

    def _piped(self, pipeline: Any, text_of: Any, decode: Any) -> Value | None:
        """``$(echo cm0gLXJmIH4= | base64 -d)``: a literal passed through commands whose
        output follows from their input (``literal.output``: cat, decoders)."""
        from .literal import output

        stages = [c for c in pipeline.named_children if c.type != "comment"]
        if len(stages) < 2 or any(c.type != "command" for c in stages) or "|&" in text_of(pipeline):
            return None
        text: str | None = None
        for k, stage in enumerate(stages):
            argv = self._argv(stage, text_of, decode)
            if argv is None:
                return None
            text = output(argv, exact=True) if k == 0 else output(argv, text)
            if text is None:
                return None
        return Value(text.rstrip("\n")) if text is not None else None


def positional(values: Values, argv: tuple[str, ...] | list[str], literal: bool) -> Values:
    """Values after ``set …`` (``set -- a b``, ``set a b``: the new positional parameters;
    ``set -e``, ``set -o x``: unchanged) or ``shift [n]``. ``literal``: every word was
    known as written (otherwise what they set is unknown)."""
    args = list(argv[1:])
    if not literal:
        return values.assign(ARGS, _UNKNOWN)
    if argv[0] == "shift":
        entry = values.get(ARGS)
        count = args[0] if args else "1"
        if len(args) > 1 or not count.isdigit() or not isinstance(entry, Value) or entry.items is None:
            return values.assign(ARGS, _UNKNOWN)
        items = entry.items
        if int(count) > len(items):
            return values  # shift fails: nothing changes
        items = items[int(count):]
        return values.assign(ARGS, Value(items[0] if items else "", items))
    new: list[str] | None = None
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("--", "-"):
            new = args[i + 1:]
            break
        if word[:1] in "-+" and len(word) > 1:
            i += 2 if "o" in word[1:] else 1  # -o / -euo take an option name
            continue
        new = args[i:]
        break
    if new is None:
        return values  # options only (or ``set`` printing variables)
    if any(c in w for w in new for c in "*?["):
        return values.assign(ARGS, _UNKNOWN)  # a glob: the names are not known
    return values.assign(ARGS, Value(new[0] if new else "", tuple(new)))


#: Text after which a word's rest is read as a path (``--dir=~/x``, ``f=@~/x``,
#: ``a:~/b``): the analyser resolves a ``~`` there, as bash does in assignments.
_PATH_STARTS = frozenset("=@:")
#: Where an expansion stands in its word: first, after one of _PATH_STARTS, elsewhere.
_START, _PATH, _INSIDE = 0, 1, 2
_OPERATORS = frozenset({":-", "-", ":=", "=", ":?", "?", ":+", "+"})
#: Special parameters read from the positional parameters.
_POSITIONAL = frozenset({"@", "*", "#"})
#: Where ``$(which X)`` finds a program (its real folder is not known; this one is standard).
_BIN = "/usr/bin/"


def _is_name(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and text.replace("_", "a").isalnum() and text.isascii()


def _plain(entry: Any) -> bool:
    """A value an operator can work on: its whole text is known (not ``~``, ``.`` somewhere, a guess)."""
    return (isinstance(entry, Value) and entry.anchor is None and not entry.command
            and not entry.text.startswith("~"))


def _fold(entry: Any, op: str, rest: list[Any], text_of: Any, decode: Any, scope: Scope) -> Value | None:
    """``${X%pat}`` ``${X%%pat}`` ``${X#pat}`` ``${X##pat}``, ``${X/pat/rep}`` (``//``,
    ``/#``, ``/%``), ``${X:off:len}``, ``${X^^}`` ``${X,,}`` ``${X^}`` ``${X,}`` of a known
    value: None unless the value and a literal pattern are known."""
    if entry is UNSET:
        entry = Value("")
    if op == ":":
        return _substring(entry, rest, text_of) if _plain(entry) else None
    if op in _CASES:
        return Value(_CASES[op](entry.text)) if not rest and _plain(entry) else None
    if op in ("%", "%%", "#", "##"):
        if len(rest) != 1 or not isinstance(entry, Value) or entry.anchor is not None or entry.command:
            return None
        pattern = _pattern(rest[0], text_of, decode, scope)
        if pattern is None:
            return None
        if entry.text.startswith("~"):
            return _home_suffix(entry.text, op, pattern)
        return Value(_trim(entry.text, op, pattern))
    if op in ("/", "//", "/#", "/%"):
        if not _plain(entry) or not rest or len(rest) > 3 or (len(rest) > 1 and rest[1].type != "/"):
            return None
        pattern = _pattern(rest[0], text_of, decode, scope)
        rep = ""
        if len(rest) == 3:
            if "&" in text_of(rest[2]):
                return None  # bash 5.2 puts the matched text there
            issues: list[Any] = []
            words = decode(rest[2], text_of, issues, braces=False, env=scope, split=False)
            if issues or len(words) != 1:
                return None
            rep = words[0]
        return None if pattern is None else Value(_replace(entry.text, op, pattern, rep))
    return None


def _pattern(node: Any, text_of: Any, decode: Any, scope: Scope) -> Any:
    """A compiled regex for a literal glob pattern (``*``, ``?``, ``\\x``, quoted text), or None."""
    import re

    kind = node.type
    if kind in ("string", "raw_string"):
        issues: list[Any] = []
        words = decode(node, text_of, issues, braces=False, env=scope, split=False)
        if issues or len(words) != 1:
            return None
        return re.compile(re.escape(words[0]), re.DOTALL)
    if kind not in ("regex", "word"):
        return None
    raw = text_of(node)
    out: list[str] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\":
            if i + 1 == len(raw):
                return None  # tree-sitter cut ``${X/\//-}`` at the escaped slash
            out.append(re.escape(raw[i + 1]))
            i += 2
            continue
        if c in "$`'\"[(){}~":
            return None  # an expansion, quoting, a bracket or extglob: not folded
        out.append(".*" if c == "*" else "." if c == "?" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def _trim(text: str, op: str, pattern: Any) -> str:
    """Remove the shortest (``%``, ``#``) or longest (``%%``, ``##``) matching suffix or prefix."""
    size = len(text)
    if op[0] == "%":
        starts = range(size, -1, -1) if op == "%" else range(size + 1)
        for i in starts:
            if pattern.fullmatch(text, i):
                return text[:i]
        return text
    ends = range(size + 1) if op == "#" else range(size, -1, -1)
    for j in ends:
        if pattern.fullmatch(text, 0, j):
            return text[j:]
    return text


def _home_suffix(text: str, op: str, pattern: Any) -> Value | None:
    """``${HOME%/*}``: the parent of the agent's home (``~/..``). Only a shortest suffix
    found after the ``~`` is known; one reaching into the home's own path is not."""
    if op != "%":
        return None
    for i in range(len(text), 0, -1):
        if pattern.fullmatch(text, i):
            return Value(text[:i])
    if text == "~" and pattern.pattern == "/.*":
        return Value("~/..")
    return None


def _replace(text: str, op: str, pattern: Any, rep: str) -> str:
    """``${X/pat/rep}`` (first longest match), ``//`` (every match), ``/#`` ``/%`` (anchored)."""
    size = len(text)
    if op == "/#":
        for j in range(size, -1, -1):
            if pattern.fullmatch(text, 0, j):
                return rep + text[j:]
        return text
    if op == "/%":
        for i in range(size + 1):
            if pattern.fullmatch(text, i):
                return text[:i] + rep
        return text
    out: list[str] = []
    i = 0
    while i < size:
        for j in range(size, i, -1):
            if pattern.fullmatch(text, i, j):
                out.append(rep)
                i = j
                break
        else:
            out.append(text[i])
            i += 1
            continue
        if op == "/":
            out.append(text[i:])
            break
    return "".join(out)


def _substring(entry: Value, rest: list[Any], text_of: Any) -> Value | None:
    """``${X:off}`` ``${X:off:len}`` with literal numbers (negative counts from the end)."""
    text = entry.text
    if [n.type for n in rest] not in (["number"], ["number", ":", "number"]):
        return None
    numbers = [text_of(n) for n in rest if n.type == "number"]
    if any(n.named_child_count for n in rest) or any(not _decimal(n) for n in numbers):
        return None
    offset, *count = (int(n) for n in numbers)
    if offset < 0:
        offset += len(text)
        if offset < 0:
            return Value("")
    end = len(text)
    if count:
        end = offset + count[0] if count[0] >= 0 else len(text) + count[0]
        if end < offset:
            return None  # bash: substring expression < 0
    return Value(text[offset:end])


def _decimal(text: str) -> bool:
    """A number bash reads as decimal (``010`` is octal, ``0x10`` hex: not folded)."""
    digits = text[1:] if text[:1] == "-" else text
    return digits.isdigit() and digits.isascii() and (digits == "0" or not digits.startswith("0"))


_CASES = {
    "^^": str.upper,
    ",,": str.lower,
    "^": lambda t: t[:1].upper() + t[1:],
    ",": lambda t: t[:1].lower() + t[1:],
}


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
        if not found or found.startswith("-") or "$" in found:
            return None
        # a program found on PATH: its path (a copy of $(which bash) is a copy of bash)
        return Value(found if "/" in found else _BIN + found)
    if name in ("echo", "printf") and not any("\\" in a for a in args if name == "echo"):
        from .literal import output

        printed = output(argv, exact=True)
        return Value(printed.rstrip("\n")) if printed is not None else None
    return None
