"""The shell text in make's command line: what ``make`` hands to a shell because of its
own arguments, before and apart from any Makefile.

* ``NAME:=VALUE``, ``NAME::=VALUE``, ``NAME:::=VALUE`` expand VALUE when make starts: each
  ``$(shell TEXT)`` in it runs then, with or without a Makefile (``make 'X:=$(shell rm -rf ~)'``).
  ``NAME!=TEXT`` runs TEXT at start-up.
* ``NAME=VALUE`` (and ``+=``, ``?=``) is expanded where a recipe uses it: its
  ``$(shell …)`` runs then, and VALUE is pasted into the recipe's shell line, so shell
  syntax in it (``CFLAGS='-O2;rm -rf ~'``, backquotes) runs too. A variable that names a
  program (``CC``, ``LD`` …) stands at the start of a recipe command: its value is a command.
* ``--eval=TEXT`` / ``-E TEXT`` and ``--eval`` inside ``MAKEFLAGS`` are makefile text read
  before any Makefile: its recipes, ``$(shell …)`` and ``!=`` run.

Which variables are *dangerous* whatever their text (``SHELL=``, ``CC=/tmp/x``,
``CFLAGS=-fplugin=…``) is the environment rule (:func:`.env.is_dangerous_env`): a
command-line assignment is checked exactly as the prefix spelling ``CC=… make`` is
(:func:`overrides` feeds SH006). Each text found is parsed and analysed as shell by the
parser (:mod:`.embedded`), so ``rm -rf ~`` inside is a hard block like a typed one.
"""

from __future__ import annotations

from ...precompiled import DOTALL, regex

__all__ = ["MAKES", "assignment", "closing_bracket", "overrides", "command_line_shells", "makefile_shells", "flags_shells", "shell_calls",
           "make_recipes"]

#: The make programs whose command line is read here.
MAKES = frozenset({"make", "gmake"})
#: make options that take the next word (or the rest of the word) as their value.
_VALUE_OPTS = frozenset({"-C", "-f", "-I", "-o", "-W", "-E", "--directory", "--file", "--makefile", "--include-dir",
                         "--old-file", "--assume-old", "--what-if", "--new-file", "--assume-new", "--eval"})
#: Variables MAKEFLAGS is read from (GNU make, BSD make).
_FLAG_VARS = frozenset({"MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"})
#: ``NAME op VALUE`` as make reads a command-line word (spaces may surround ``op``).
_ASSIGN = regex(r"\A\s*([^\s:#=!?+$()]+)\s*(:::=|::=|:=|!=|\?=|\+=|=)(.*)\Z", DOTALL)
#: Where a MAKEFLAGS value's ``--eval`` text starts; a ``$(shell …)`` call's opening.
_EVAL_OPTION = regex(r"(?:^|\s)(?:--eval[=\s]|-E\s?)")
_SHELL_CALL = regex(r"\$[({]shell\s")
#: Variables whose value starts a recipe command (``$(CC) $(CFLAGS) -c x.c``).
_PROGRAM_VARS = frozenset({"CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "RANLIB", "NM", "STRIP", "OBJCOPY", "HOSTCC",
                           "MAKE", "SHELL", "INSTALL", "RM", "PYTHON", "PERL", "GO", "CARGO"})
#: Characters that make pasted text more than words to the shell that runs a recipe.
_SHELL_SYNTAX = frozenset(";|&`<>\n")


def overrides(args: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """``(NAME, VALUE)`` of each variable make's command line sets (``make CC=clang``)."""
    return [(name, value) for name, _op, value in _assignments(args)]


def command_line_shells(args: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """``(origin, script)`` for the shell text make's operands carry (see the module);
    ``--eval`` is read by :mod:`.embedded` (:func:`makefile_shells`)."""
    out: list[tuple[str, str]] = []
    for name, op, value in _assignments(args):
        origin = f"make {name}{op}"
        if name.upper() in _FLAG_VARS:
            out.extend(flags_shells(value))
            continue
        if op == "!=":
            out.append((origin, _as_shell(value)))
            continue
        out.extend((origin, text) for text in shell_calls(value))
        pasted = _without_calls(value)
        if any(ch in _SHELL_SYNTAX for ch in pasted) or "$$(" in pasted:
            text = _as_shell(pasted)
            out.append((origin, text if name in _PROGRAM_VARS else f"true {text}"))
    return out


def flags_shells(value: str) -> list[tuple[str, str]]:
    """The shell text in a ``MAKEFLAGS`` value: its ``--eval`` makefile text (all the rest
    of the value: make splits it at blanks a backslash does not escape, and reading more
    than it does only finds more) and the variables it defines."""
    out: list[tuple[str, str]] = []
    match = _EVAL_OPTION.search(value)
    if match:
        out.extend(("make --eval", t) for t in makefile_shells(value[match.end():].replace("\\ ", " ")))
    out.extend(command_line_shells([w for w in value.split() if not w.startswith("-")]))
    return out


def makefile_shells(text: str) -> list[str]:
    """Shell text in makefile text read whole (``--eval``): recipe lines (tab-indented,
    or after ``;`` on a rule line), each ``$(shell …)``, and ``!=`` values."""
    out = [_as_shell(t) for t in shell_calls(text)]
    for line in text.split("\n"):
        match = _ASSIGN.match(line)
        if match and match.group(2) == "!=":
            out.append(_as_shell(match.group(3)))
    recipes = make_recipes(text)
    if recipes:
        out.append(recipes)
    return [t for t in out if t.strip()]


def make_recipes(text: str) -> str:
    """The recipe lines in makefile text (``--eval``, ``-f -``): tab-indented lines and the part after
    ``;`` on a rule line, without ``@``/``-``/``+`` and with ``$$`` as ``$``."""
    recipes = []
    for line in text.split("\n"):
        if line.startswith("\t"):
            recipes.append(line[1:])
            continue
        _, colon, tail = line.partition(":")
        if colon and not tail.startswith(("=", ":=")) and ";" in tail:
            recipes.append(tail.partition(";")[2])
    return "\n".join(r.strip().lstrip("@+-").replace("$$", "$") for r in recipes if r.strip())


def shell_calls(value: str) -> list[str]:
    """The texts of ``$(shell TEXT)`` and ``${shell TEXT}`` in ``value`` (outermost)."""
    out = []
    for match in _SHELL_CALL.finditer(value):
        close = closing_bracket(value, match.start() + 1)
        out.append(_as_shell(value[match.end():close if close > 0 else len(value)]))
    return out


def assignment(word: str) -> tuple[str, str, str] | None:
    """``(NAME, op, VALUE)`` when make reads ``word`` as a variable definition."""
    match = _ASSIGN.match(word)
    return (match.group(1), match.group(2), match.group(3).lstrip()) if match else None


def _assignments(args: tuple[str, ...] | list[str]) -> list[tuple[str, str, str]]:
    """``(NAME, op, VALUE)`` for each operand of make that defines a variable."""
    out = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg.startswith("-"):
            name = arg.split("=", 1)[0]
            skip = name in _VALUE_OPTS and "=" not in arg and (name.startswith("--") or arg == name)
            continue
        match = _ASSIGN.match(arg)
        if match:
            out.append((match.group(1), match.group(2), match.group(3).lstrip()))
    return out


def _without_calls(value: str) -> str:
    """``value`` without its ``$(shell …)`` calls and make references (``$(X)``, ``$@``)."""
    out, i, n = [], 0, len(value)
    while i < n:
        ch = value[i]
        if ch == "$" and i + 1 < n:
            nxt = value[i + 1]
            if nxt == "$":
                out.append("$$")
                i += 2
                continue
            if nxt in "({":
                close = closing_bracket(value, i + 1)
                i = close + 1 if close > 0 else n
                out.append(" ")
                continue
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _as_shell(text: str) -> str:
    """Make text as the shell gets it: ``$$`` is ``$``."""
    return text.replace("$$", "$")


def closing_bracket(text: str, at: int) -> int:
    """Index of the bracket closing the one at ``at`` (make counts only its own kind)."""
    opening = text[at]
    closing = ")" if opening == "(" else "}"
    depth = 0
    for k in range(at, len(text)):
        if text[k] == opening:
            depth += 1
        elif text[k] == closing:
            depth -= 1
            if depth == 0:
                return k
    return -1
