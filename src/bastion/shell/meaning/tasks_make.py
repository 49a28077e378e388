"""What ``make`` will run: the recipes of the goals and of every prerequisite they reach.

A Makefile is read as far as it is fixed (GNU make's rules, simplified):

* rules ``targets: prerequisites`` (``::`` too) with tab-indented recipe lines and a
  recipe after ``;``; static pattern rules and ``%`` pattern rules supply the recipe of
  a target that has none of its own; target-specific variables apply to the target and
  what it reaches;
* variables (``=``, ``:=``, ``::=``, ``?=``, ``+=``, ``!=``, ``define``) expanded where
  their value is known: ``$(VAR)``, ``${VAR}``, ``$@ $< $^ $* $(@D)``, ``$(shell X)``
  (the shell runs ``X``: it becomes ``$(X)``), ``$(wildcard P)`` (the glob ``P``) and the
  text functions. An unknown variable becomes ``${VAR}`` (make reads the environment:
  the shell analysis knows ``${HOME}``; an unknown one is unknown to it too);
* conditionals whose test is fixed pick a branch; otherwise both are read, and a variable
  given different values in them is tried with each (up to a few variants per line);
* ``include``/``-include`` of other makefiles (at most :data:`MAX_FILES` files).

Recipes lose their ``@``/``-``/``+`` prefixes and ``$$`` becomes ``$``. Each recipe line
runs in its own shell in make's directory, so a line after one that changes directory
starts with a ``cd`` back. ``make -n`` runs only ``+`` lines and those naming
``$(MAKE)``; ``$(shell …)`` in a variable runs whenever the makefile is read.
"""

from __future__ import annotations

import glob
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product

from ...precompiled import DOTALL, regex
from ..syntax.make_args import assignment, closing_bracket
from ..syntax.quoting import quote as shell_quote
from .facts import Ctx, Facts
from .tasks_files import Runs, absolute, cd_line, read_cached

__all__ = ["make_runs", "parse_makefile", "Makefile"]

#: Makefiles read for one call (the first plus its includes).
MAX_FILES = 16
#: Targets followed from the goals through their prerequisites.
MAX_TARGETS = 256
#: Depth of variable references expanded within each other.
MAX_EXPAND = 24
#: Variants of one recipe line tried when its variables have several possible values.
MAX_VARIANTS = 8

_DEFAULT_NAMES = ("GNUmakefile", "makefile", "Makefile")
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash"})


# --------------------------------------------------------------------------- parsing (cached per file)

@dataclass
class Makefile:
    """One makefile's statements in order (what evaluation needs, before any expansion)."""

    stmts: list[tuple[str, ...]] = field(default_factory=list)
    recipes: dict[int, list[str]] = field(default_factory=dict)  # statement index of a rule → its recipe lines


_ASSIGN = regex(r"^(?:override\s+|export\s+|private\s+)*([^\s:#=?+!]+)\s*(::?:?=|\?=|\+=|!=|=)\s?(.*)$", DOTALL)
_DIRECTIVE = regex(r"^(ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|sinclude|define|endef|export|unexport|"
                   r"override|vpath|undefine)\b\s*(.*)$", DOTALL)
#: A variable name make can leave unexpanded; ``"a" "b"`` (an ``ifeq`` with quoted
#: arguments); a ``$(shell …)`` call's opening.
_MAKE_NAME = regex(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED_PAIR = regex(r"""(["'])(.*?)\1\s+(["'])(.*?)\3""")
_SHELL_CALL = regex(r"\$[({]shell\s")


def parse_makefile(text: str, path: str) -> Makefile:
    """The statements of a makefile (cached by :func:`tasks.read_cached`)."""
    out = Makefile()
    lines = text.replace("\r\n", "\n").split("\n")
    i, n = 0, len(lines)
    in_rule = False
    rule_at = -1
    while i < n:
        line = lines[i]
        i += 1
        if line.startswith("\t") and in_rule:
            body = line[1:]
            while body.endswith("\\") and i < n:  # a continued recipe line: the shell sees the backslash-newline
                nxt = lines[i]
                i += 1
                body += "\n" + (nxt[1:] if nxt.startswith("\t") else nxt)
            out.recipes[rule_at].append(body)
            continue
        while line.endswith("\\") and i < n:
            line = line[:-1].rstrip() + " " + lines[i].lstrip()
            i += 1
        line = _uncomment(line).strip()
        if not line:
            continue
        directive = _DIRECTIVE.match(line)
        if directive and not _ASSIGN.match(line.split(None, 1)[-1] if directive.group(1) in ("export", "override") else "\0"):
            word, rest = directive.group(1), directive.group(2).strip()
            if word == "define":
                name, _, op = rest.partition(" ")
                held: list[str] = []
                while i < n and lines[i].strip() != "endef":
                    held.append(lines[i])
                    i += 1
                i += 1
                out.stmts.append(("assign", name.strip(), op.strip() or "=", "\n".join(held)))
                continue
            if word in ("ifeq", "ifneq", "ifdef", "ifndef", "else", "endif"):
                out.stmts.append(("cond", word, rest))
                continue
            if word in ("include", "-include", "sinclude"):
                out.stmts.append(("include", rest))
            in_rule = False
            continue
        assign = _ASSIGN.match(line)
        colon = _top_colon(line)
        if assign and (colon < 0 or colon >= assign.start(2)):
            out.stmts.append(("assign", assign.group(1), assign.group(2), assign.group(3)))
            in_rule = False
            continue
        if colon < 0:
            continue  # a bare function call (``$(info …)``, ``$(eval …)``) or text make rejects
        targets, rest = line[:colon], line[colon + 1:]
        if rest.startswith(":"):
            rest = rest[1:]  # ``::`` rules
        specific = _ASSIGN.match(rest.strip())
        if specific and _top_colon(rest) < 0:
            out.stmts.append(("tassign", targets, specific.group(1), specific.group(2), specific.group(3)))
            continue
        prereqs, semi, inline = rest.partition(";")
        out.stmts.append(("rule", targets, prereqs))
        rule_at = len(out.stmts) - 1
        out.recipes[rule_at] = [inline.strip()] if semi and inline.strip() else []
        in_rule = True
    return out


def _uncomment(line: str) -> str:
    at = line.find("#")
    while at > 0 and line[at - 1] == "\\":
        at = line.find("#", at + 1)
    return line if at < 0 else line[:at]


def _top_colon(text: str) -> int:
    """Where the rule's ``:`` is (outside ``$(…)``), or -1; ``:=`` is not one."""
    depth = 0
    for k, ch in enumerate(text):
        if ch in "({" and k and text[k - 1] == "$":
            depth += 1
        elif ch in ")}" and depth:
            depth -= 1
        elif ch == ":" and not depth:
            return -1 if text[k + 1:k + 2] == "=" or text[k + 1:k + 3] == ":=" else k
        elif ch == "=" and not depth:
            return -1
    return -1


# --------------------------------------------------------------------------- evaluation (per call)

@dataclass
class _Rule:
    """A makefile rule: what it depends on, the lines it runs, the file it came from."""

    prereqs: list[str] = field(default_factory=list)
    recipe: list[str] = field(default_factory=list)
    file: str = ""


class _Make:
    """The variables and rules of a makefile and its includes, evaluated for one call."""

    def __init__(self, folder: str, goals: list[str], overrides: dict[str, str], ctx: Ctx) -> None:
        self.folder = folder
        self.ctx = ctx
        self.vars: dict[str, tuple[str, bool]] = {  # name → (value, recursive)
            "MAKE": ("make", False), "CURDIR": (folder, False), "SHELL": ("/bin/sh", False), "RM": ("rm -f", False),
            "MAKEFLAGS": ("", False), "MAKECMDGOALS": (" ".join(goals), False), "MAKEFILE_LIST": ("", False),
        }
        self.alternatives: dict[str, list[str]] = {}
        self.overrides = overrides
        self.rules: dict[str, _Rule] = {}
        self.patterns: list[tuple[str, list[str], list[str], str]] = []
        self.tvars: dict[str, list[tuple[str, str, str]]] = {}
        self.default: str | None = None
        self.shells: list[tuple[str, str]] = []
        self.files: list[str] = []
        self.oneshell = False
        self.unknown = 0  # how many unknown references the last expansions met
        for name, value in overrides.items():
            self.vars[name] = (value, False)

    # ---- reading

    def read(self, path: str, parsed: Makefile) -> None:
        self.files.append(path)
        self.vars["MAKEFILE_LIST"] = ((self.vars["MAKEFILE_LIST"][0] + " " + path).strip(), False)
        stack: list[bool | None] = []
        branch_taken: list[bool | None] = []
        for index, stmt in enumerate(parsed.stmts):
            kind = stmt[0]
            if kind == "cond":
                self._cond(stmt[1], stmt[2], stack, branch_taken)
                continue
            if False in stack:
                continue
            uncertain = None in stack
            if kind == "assign":
                self._assign(stmt[1], stmt[2], stmt[3], path, uncertain)
            elif kind == "tassign":
                for target in self.expand(stmt[1]).split():
                    self.tvars.setdefault(target, []).append((stmt[2], stmt[3], stmt[4]))
            elif kind == "include":
                self._include(stmt[1])
            elif kind == "rule":
                self._rule(stmt[1], stmt[2], parsed.recipes.get(index, []), path)

    def _cond(self, word: str, rest: str, stack: list[bool | None], taken: list[bool | None]) -> None:
        if word == "endif":
            if stack:
                stack.pop()
                taken.pop()
            return
        if word == "else":  # ``else`` or ``else ifeq …``: taken when no branch before was
            if not stack:
                return
            before = taken[-1]
            if before is True:
                stack[-1] = False
                return
            nested = _DIRECTIVE.match(rest)
            value = self._test(nested.group(1), nested.group(2)) if nested and nested.group(1).startswith("if") else True
            if before is None:
                stack[-1] = False if value is False else None
                taken[-1] = True if value is True else None
            else:
                stack[-1] = taken[-1] = value
            return
        value = self._test(word, rest)
        stack.append(value)
        taken.append(value)

    def _test(self, word: str, rest: str) -> bool | None:
        seen = self.unknown
        if word in ("ifdef", "ifndef"):
            name = self.expand(rest).strip()
            if name in self.vars:
                defined = bool(self.vars[name][0])
            else:
                return None  # may come from the environment
            result = defined
        else:
            pair = _cond_args(rest)
            if pair is None:
                return None
            left, right = (self.expand(x).strip() for x in pair)
            result = left == right
        if self.unknown != seen:
            return None
        return result if word in ("ifdef", "ifeq") else not result

    def _assign(self, name: str, op: str, value: str, path: str, uncertain: bool) -> None:
        name = self.expand(name).strip()
        if name in self.overrides:
            return
        if op == "?=" and name in self.vars:
            return
        if op == "!=":
            self.shells.append((self.expand(value), path))
            self.vars[name] = ("$(" + self.expand(value) + ")", False)
            return
        if op in (":=", "::=", ":::="):
            new = (self.expand(value), False)
        elif op == "+=" and name in self.vars:
            old, recursive = self.vars[name]
            new = ((old + " " + (value if recursive else self.expand(value))).strip(), recursive)
        else:
            new = (value, True)
        if "$(shell" in value or "${shell" in value:
            for text in _shell_calls(value):
                self.shells.append((self.expand(text), path))
        if uncertain and name in self.vars and self.vars[name] != new:
            values = self.alternatives.setdefault(name, [self.vars[name][0]])
            values.append(new[0])
        elif not uncertain:
            self.alternatives.pop(name, None)
        self.vars[name] = new

    def _include(self, rest: str) -> None:
        for word in self.expand(rest).split():
            pattern = absolute(word, self.folder, self.ctx)
            matches = sorted(glob.glob(pattern))[:MAX_FILES] if any(c in word for c in "*?[") else [pattern]
            for path in matches:
                if len(self.files) >= MAX_FILES or path in self.files:
                    continue
                parsed = read_cached(path, parse_makefile, "makefile")
                if parsed is not None:
                    self.read(path, parsed)

    def _rule(self, targets_text: str, prereq_text: str, recipe: list[str], path: str) -> None:
        targets = self.expand(targets_text).split()
        pattern_prereqs: str | None = None
        if _top_colon(prereq_text) >= 0:  # static pattern rule ``objs: %.o: %.c``
            target_pattern, _, pattern_prereqs = prereq_text.partition(":")
            prereq_text = target_pattern
        prereqs = [p for p in self.expand(prereq_text).split() if p != "|"]
        for target in targets:
            if target == ".ONESHELL":
                self.oneshell = True
            if pattern_prereqs is not None:
                stem = _stem(prereqs[0] if prereqs else "%", target)
                own = [p.replace("%", stem or "") for p in self.expand(pattern_prereqs).split()]
                self._add(target, own, recipe, path)
                continue
            if "%" in target:
                self.patterns.append((target, prereqs, recipe, path))
                continue
            if self.default is None and not target.startswith("."):
                self.default = target
            self._add(target, prereqs, recipe, path)

    def _add(self, target: str, prereqs: list[str], recipe: list[str], path: str) -> None:
        rule = self.rules.setdefault(target, _Rule(file=path))
        rule.prereqs.extend(prereqs)
        if recipe:
            rule.recipe = list(recipe)
            rule.file = path

    # ---- expansion

    def expand(self, text: str, auto: dict[str, str] | None = None, depth: int = 0) -> str:
        if "$" not in text:
            return text
        if depth > MAX_EXPAND:
            self.unknown += 1
            return "${MAKE_TOO_DEEP}"
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch != "$" or i + 1 >= n:
                out.append(ch)
                i += 1
                continue
            nxt = text[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
                continue
            if nxt in "({":
                close = closing_bracket(text, i + 1)
                if close < 0:
                    out.append(text[i:])
                    break
                out.append(self._reference(text[i + 2:close], auto, depth))
                i = close + 1
                continue
            out.append(self._variable(nxt, auto, depth))
            i += 2
        return "".join(out)

    def _reference(self, inner: str, auto: dict[str, str] | None, depth: int) -> str:
        head, space, args = inner.partition(" ")
        if space and head in _FUNCTIONS:
            return _FUNCTIONS[head](self, args.lstrip(), auto, depth)
        if ":" in inner and "=" in inner and not space:  # ``$(SRC:.c=.o)``
            name, _, rule = inner.partition(":")
            old, _, new = rule.partition("=")
            value = self._variable(self.expand(name, auto, depth + 1), auto, depth)
            return " ".join(w[: -len(old)] + new if old and w.endswith(old) else w for w in value.split())
        return self._variable(self.expand(inner, auto, depth + 1), auto, depth)

    def _variable(self, name: str, auto: dict[str, str] | None, depth: int) -> str:
        if auto is not None:
            if name in auto:
                return auto[name]
            if len(name) == 2 and name[1] in "DF" and name[0] in auto:
                value = auto[name[0]]
                return (posixpath.dirname(value) or ".") if name[1] == "D" else posixpath.basename(value)
        if name in self.vars:
            value, recursive = self.vars[name]
            return self.expand(value, auto, depth + 1) if recursive else value
        if len(name) == 1 and name in "@<^+?*|%":
            return ""
        self.unknown += 1
        return "${" + name + "}" if _MAKE_NAME.fullmatch(name) else "${MAKE_UNKNOWN}"

    # ---- following the goals

    def recipe_lines(self, goals: list[str], dry: bool) -> tuple[list[str], bool]:
        """The expanded recipe lines for ``goals`` and what they reach (prerequisites
        first, as make runs them), and whether the number of targets went past
        :data:`MAX_TARGETS` (what lies beyond is not read)."""
        lines: list[str] = []
        seen: set[str] = set()
        todo: list[tuple[str, dict[str, str], tuple[list[str], list[str], str] | None]] = [
            (g, {}, None) for g in reversed(goals)]
        while todo:
            target, overlay, ready = todo.pop()
            if ready is not None:
                self._emit(target, overlay, *ready, dry, lines)
                continue
            if target in seen:
                continue
            if len(seen) >= MAX_TARGETS:
                return lines, True
            seen.add(target)
            overlay = dict(overlay)
            for name, op, value in self.tvars.get(target, []):
                before = overlay.get(name, self.vars.get(name, ("", False))[0])
                overlay[name] = self.expand(value) if op != "+=" else f"{before} {self.expand(value)}"
            prereqs, recipe, stem = self._rule_for(target)
            todo.append((target, overlay, (prereqs, recipe, stem)))
            todo.extend((prereq, overlay, None) for prereq in reversed(prereqs))
        return lines, False

    def _rule_for(self, target: str) -> tuple[list[str], list[str], str]:
        """``(prerequisites, recipe, stem)`` of a target: its own rules, and a pattern
        rule's recipe when none of them has one."""
        rule = self.rules.get(target)
        prereqs = list(rule.prereqs) if rule else []
        recipe = rule.recipe if rule else []
        if not recipe:
            for pattern, pattern_prereqs, pattern_recipe, _file in self.patterns:
                found = _stem(pattern, target)
                if found is not None and pattern_recipe:
                    return prereqs + [p.replace("%", found) for p in pattern_prereqs], pattern_recipe, found
        return prereqs, recipe, ""

    def _emit(self, target: str, overlay: dict[str, str], prereqs: list[str], recipe: list[str], stem: str, dry: bool,
              lines: list[str]) -> None:
        auto = {"@": target, "<": prereqs[0] if prereqs else "", "^": " ".join(dict.fromkeys(prereqs)),
                "+": " ".join(prereqs), "?": " ".join(dict.fromkeys(prereqs)), "*": stem, "|": ""}
        for raw in recipe:
            for line in self._variants(raw, auto, overlay):
                body = line.lstrip(" \t")
                flags = ""
                while body[:1] in ("@", "-", "+") and body:
                    flags += body[0]
                    body = body[1:].lstrip()
                if dry and "+" not in flags and "$(MAKE)" not in raw and "${MAKE}" not in raw:
                    continue
                if body:
                    lines.append(body)

    def _variants(self, raw: str, auto: dict[str, str], overlay: dict[str, str]) -> list[str]:
        saved = {name: self.vars.get(name) for name in overlay}
        for name, value in overlay.items():
            self.vars[name] = (value, False)
        try:
            several = [n for n in self.alternatives if f"({n})" in raw or f"{{{n}}}" in raw][:3]
            if not several:
                return [self.expand(raw, auto)]
            out: list[str] = []
            current = {n: self.vars.get(n) for n in several}
            for combo in list(product(*(self.alternatives[n] for n in several)))[:MAX_VARIANTS]:
                for name, value in zip(several, combo, strict=True):
                    self.vars[name] = (value, True)
                out.append(self.expand(raw, auto))
            for name, held in current.items():
                if held is not None:
                    self.vars[name] = held
            return list(dict.fromkeys(out))
        finally:
            for name, held in saved.items():
                if held is None:
                    self.vars.pop(name, None)
                else:
                    self.vars[name] = held


def _split_args(args: str) -> list[str]:
    """Comma-separated function arguments, commas inside ``$(…)`` kept."""
    parts: list[str] = []
    depth = 0
    start = 0
    for k, ch in enumerate(args):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(args[start:k])
            start = k + 1
    parts.append(args[start:])
    return parts


def _stem(pattern: str, word: str) -> str | None:
    head, pct, tail = pattern.partition("%")
    if not pct:
        return "" if pattern == word else None
    if word.startswith(head) and word.endswith(tail) and len(word) >= len(head) + len(tail):
        return word[len(head): len(word) - len(tail)]
    return None


def _cond_args(rest: str) -> tuple[str, str] | None:
    rest = rest.strip()
    if rest.startswith("(") and rest.endswith(")"):
        parts = _split_args(rest[1:-1])
        return (parts[0], ",".join(parts[1:])) if len(parts) >= 2 else None
    quoted = _QUOTED_PAIR.fullmatch(rest)
    return (quoted.group(2), quoted.group(4)) if quoted else None


def _shell_calls(value: str) -> list[str]:
    out = []
    for match in _SHELL_CALL.finditer(value):
        close = closing_bracket(value, match.start() + 1)
        if close > 0:
            out.append(value[match.end():close])
    return out


# --------------------------------------------------------------------------- make's functions

def _fn_shell(m: _Make, args: str, auto: dict[str, str] | None, depth: int) -> str:
    return "$(" + m.expand(args, auto, depth + 1) + ")"  # the shell runs it; its output is the text


_Function = Callable[["_Make", str, "dict[str, str] | None", int], str]


def _words_fn(change: Callable[[list[str]], str]) -> _Function:
    def run(m: _Make, args: str, auto: dict[str, str] | None, depth: int) -> str:
        parts = [m.expand(a, auto, depth + 1) for a in _split_args(args)]
        return change(parts)

    return run


def _patsubst(parts: list[str]) -> str:
    if len(parts) < 3:
        return ""
    pattern, replacement, text = parts[0].strip(), parts[1].strip(), parts[2]
    out = []
    for word in text.split():
        stem = _stem(pattern, word)
        out.append(word if stem is None else replacement.replace("%", stem))
    return " ".join(out)


def _unknown_fn(m: _Make, args: str, auto: dict[str, str] | None, depth: int) -> str:
    m.unknown += 1
    return "${MAKE_UNKNOWN}"


_FUNCTIONS: dict[str, _Function] = {
    "shell": _fn_shell,
    "wildcard": _words_fn(lambda p: p[0].strip()),  # the glob itself: the shell expands it the same way
    "strip": _words_fn(lambda p: " ".join(",".join(p).split())),
    "subst": _words_fn(lambda p: p[2].replace(p[0], p[1]) if len(p) >= 3 else ""),
    "patsubst": _words_fn(_patsubst),
    "addprefix": _words_fn(lambda p: " ".join(p[0] + w for w in p[1].split()) if len(p) >= 2 else ""),
    "addsuffix": _words_fn(lambda p: " ".join(w + p[0] for w in p[1].split()) if len(p) >= 2 else ""),
    "dir": _words_fn(lambda p: " ".join((posixpath.dirname(w) or ".") + "/" for w in p[0].split())),
    "notdir": _words_fn(lambda p: " ".join(posixpath.basename(w) for w in p[0].split())),
    "basename": _words_fn(lambda p: " ".join(posixpath.splitext(w)[0] for w in p[0].split())),
    "firstword": _words_fn(lambda p: (p[0].split() or [""])[0]),
    "lastword": _words_fn(lambda p: (p[0].split() or [""])[-1]),
    "abspath": _words_fn(lambda p: " ".join(posixpath.normpath(w) for w in p[0].split())),
    "realpath": _words_fn(lambda p: " ".join(posixpath.normpath(w) for w in p[0].split())),
    "if": _words_fn(lambda p: (p[1] if p[0].strip() else (p[2] if len(p) > 2 else "")) if len(p) >= 2 else ""),
    "info": _words_fn(lambda p: ""),
    "warning": _words_fn(lambda p: ""),
    "error": _words_fn(lambda p: ""),
    "filter": _unknown_fn,
    "filter-out": _unknown_fn,
    "foreach": _unknown_fn,
    "call": _unknown_fn,
    "eval": _unknown_fn,
    "origin": _unknown_fn,
    "value": _unknown_fn,
    "sort": _words_fn(lambda p: " ".join(sorted(set(p[0].split())))),
}


# --------------------------------------------------------------------------- the command line


def _command_line(args: tuple[str, ...]) -> tuple[list[str], list[str], list[str], dict[str, str], bool]:
    """``(-C folders, -f files, goals, VAR=value overrides, dry run)`` of make's arguments."""
    dirs: list[str] = []
    files: list[str] = []
    goals: list[str] = []
    overrides: dict[str, str] = {}
    dry = False
    takes = {"C": dirs, "f": files, "I": None, "o": None, "W": None}
    long_takes = {"--directory": dirs, "--file": files, "--makefile": files, "--include-dir": None, "--old-file": None,
                  "--assume-old": None, "--what-if": None, "--new-file": None, "--assume-new": None, "--eval": None}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name in ("--just-print", "--dry-run", "--recon", "--question", "--touch"):
                dry = True
            elif name in long_takes:
                if not eq and i < len(args):
                    value = args[i]
                    i += 1
                target = long_takes[name]
                if target is not None:
                    target.append(value)
            continue
        if arg.startswith("-") and len(arg) > 1:
            for k, letter in enumerate(arg[1:], 1):
                if letter in "nqt":
                    dry = True
                if letter in takes:
                    value = arg[k + 1:]
                    if not value and i < len(args):
                        value = args[i]
                        i += 1
                    into = takes[letter]
                    if into is not None:
                        into.append(value)
                    break
                if letter in "jl":
                    if arg[k + 1:].isdigit():
                        break
                    if not arg[k + 1:] and i < len(args) and args[i].replace(".", "", 1).isdigit():
                        i += 1
                    break
            continue
        defined = assignment(arg)  # ``X=1``, ``X:=…``, ``X!=…`` (make_args reads their shell text)
        if defined:
            overrides[defined[0]] = defined[2]
        else:
            goals.append(arg)
    return dirs, files, goals, overrides, dry


def make_runs(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    """The recipe text ``make``/``gmake`` runs for this command (see the module).

    No makefile (or a goal no rule names, with no recipe to find) adds nothing: make
    stops with an error and runs nothing."""
    if any(a in ("--help", "-h", "-v", "--version") for a in args):
        return []
    dirs, files, goals, overrides, dry = _command_line(args)
    folder = f.base
    for name in dirs:
        folder = absolute(name, folder, ctx)
    if any(name in ("-", "/dev/stdin", "/dev/fd/0") for name in files):
        return []  # read from stdin: flows.py reads those recipes
    paths = [absolute(name, folder, ctx) for name in files]
    make = _Make(folder, goals, overrides, ctx)
    if not paths:
        for name in _DEFAULT_NAMES:
            path = posixpath.join(folder, name)
            parsed = read_cached(path, parse_makefile, "makefile")
            if parsed is not None:
                make.read(path, parsed)
                break
    for path in paths:
        parsed = read_cached(path, parse_makefile, "makefile")
        if parsed is not None:
            make.read(path, parsed)
    if not make.files:
        return []
    main = make.files[0]
    default = make.expand("$(.DEFAULT_GOAL)").strip() if ".DEFAULT_GOAL" in make.vars else ""
    chosen = goals or ([default] if default else ([make.default] if make.default else []))
    lines, past_limit = make.recipe_lines(chosen, dry)
    if past_limit:
        f.hit("CAT006", f"{f.label} (more than {MAX_TARGETS} targets in {main}: the rest is not read)")
    shell = make.vars["SHELL"][0].strip()
    if shell and posixpath.basename(shell.split()[0]) not in _SHELLS:
        f.hit("CAT006", f"{f.label} (recipes run by SHELL={shell})")
    texts = [text for text, _path in make.shells] + lines  # ``$(shell …)`` runs as the makefile is read
    return [("sh", _join(texts, folder, ctx, make.oneshell), main)] if texts else []


_CHANGES_DIR = regex(r"(?:^|[;&|(\s])(?:cd|pushd|popd)(?:\s|$)")


def _join(lines: list[str], folder: str, ctx: Ctx, oneshell: bool) -> str:
    """Recipe lines as one shell text: each line starts in make's folder (a ``cd`` back
    where the line before may have moved), unless ``.ONESHELL`` runs them all in one."""
    reset = cd_line(folder, ctx)
    out: list[str] = [reset] if reset else []
    moved = False
    for line in lines:
        if moved and not oneshell:
            out.append(reset or f"cd {shell_quote(folder)}\n")
        out.append(line + "\n")
        moved = bool(_CHANGES_DIR.search(line))
    return "".join(out).rstrip("\n")
