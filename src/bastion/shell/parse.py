"""Parse a shell command into simple commands, failing closed.

``parse(command)`` returns a :class:`~bastion.shell.script.Script` when every node of
the tree-sitter-bash tree is on an explicit allowlist, and a
:class:`~bastion.shell.script.TooComplex` otherwise. A too-complex result still carries
every simple command that could be extracted (inside loops, functions, ``$(…)``,
process substitutions, ``bash -c`` strings …), so deny checks see
``for f in *; do rm -rf /; done``.

Interpreted node types (everything else is too complex):

``program``, ``list`` (``&&`` ``||``), ``pipeline`` (``|`` ``|&``), ``;``/``&``/newline,
``redirected_statement``, ``command``, ``command_name``, ``negated_command`` (``! cmd``),
``variable_assignment`` / ``variable_assignments`` with literal values,
``declaration_command`` (``export``/``declare``/``local``/``readonly``/``typeset`` with
literal words), ``unset_command``, ``test_command`` for single ``[ … ]`` with literal
operands, ``file_redirect``, ``heredoc_redirect``, ``herestring_redirect``, ``comment``,
and the word nodes of :mod:`bastion.shell.words` (``word``, ``string`` with literal
content, ``raw_string``, ``ansi_c_string``, ``translated_string``, ``concatenation``,
``number``, ``brace_expression``). ``$HOME``/``${HOME}`` at the start of a word is read
as ``~``; every other expansion is too complex.

Context is tracked along a list: ``cd DIR``/``pushd``/``popd`` set ``cwd`` for the
commands after it; a ``cd`` inside a pipeline stage or a background job (``&``) runs
in a subshell and does not carry. ``cd -`` (and anything else unknowable) makes the
directory :data:`UNKNOWN_CWD`. After ``cd X || cmd`` the directory is known only when
``cmd`` is ``exit``/``return``.

Assignments (``FOO=1 cmd``, ``env FOO=1``, ``sudo FOO=1``, ``export FOO=1``) are merged
into ``SimpleCommand.assignments`` with the safe ones of :mod:`bastion.shell.env`
stripped; a dangerous bare or exported assignment (``PATH=/x; ls``) is also attached to
the commands after it in the same shell.

Wrappers are peeled (:mod:`bastion.shell.unwrap`); shell strings (``bash -c``, ``eval``,
``su -c`` …), here-documents, here-strings and ``echo TEXT`` fed to a shell, and
``find -exec`` commands are parsed again, at most :data:`MAX_DEPTH` levels deep. Their
commands replace the shell that runs them (``origin`` says how: ``bash -c``, ``eval``,
``heredoc``, ``find -exec`` …; ``depth`` counts every level of nesting, substitutions
included). ``$(cat <<'EOF' … EOF)`` with a quoted delimiter is the one substitution read
as the literal text it produces (the commit-message idiom).

tree-sitter-bash and bash disagree in corners (an escaped blank or a lone ``-`` before
``<<`` vanish from the tree, ``ec\\<newline>ho`` becomes two words, ``$'…\\'`` closes
early). Every gap between tokens is checked, split words are joined back, and anything
else odd is too complex; the word decoder is tested against real bash.

Work is linear in the input: the input is capped at :data:`MAX_BYTES`, tree nesting at
:data:`MAX_NESTING`, and the number of nodes visited across all re-parses at
:data:`MAX_WORK`.
"""

from __future__ import annotations

import posixpath
import re
from functools import partial
from itertools import count, repeat
from typing import Any, Callable

from ..model import Finding, Severity
from .env import is_dangerous_env, is_safe_env
from .fastinit import fast_factory
from .plain import plain_stages
from .script import Redirect, Script, SimpleCommand, TooComplex
from .unwrap import EXEC_RUNNERS as _EXEC_RUNNERS
from .unwrap import SHELLS, WRAPPER_NAMES, find_exec_commands, peel, shell_string
from .words import Word, decode_word, literal_dollar, unescape_heredoc, unescape_unquoted

__all__ = ["parse", "UNKNOWN_CWD", "MAX_BYTES", "MAX_COMMANDS", "MAX_DEPTH", "MAX_NESTING", "MAX_WORK"]

#: Longer commands are too complex (spec 002 keeps checks bounded; so do we).
MAX_BYTES = 10_000
#: More simple commands than this is too complex (spec 002 §12.6.6).
MAX_COMMANDS = 50
#: Shell strings inside shell strings (``bash -c "eval '…'"``) deeper than this.
MAX_DEPTH = 5
#: Tree nesting deeper than this is too complex (bounds recursion).
MAX_NESTING = 100
#: Nodes visited across the command and all its re-parsed strings.
MAX_WORK = 40_000
#: Characters outside the Basic Multilingual Plane make tree-sitter-bash corrupt memory
#: (a crash after some parses). bash treats them as ordinary word characters, so the
#: tree is built from a copy where each is replaced by two "é" (the same four UTF-8
#: bytes, so every node offset still points into the original text).
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")
_ASTRAL_STAND_IN = "\u00e9\u00e9"
#: ``cwd`` of commands after ``cd -`` and the like: absolute, so a consumer that joins
#: paths naively lands outside the workspace (fail closed) rather than inside it.
UNKNOWN_CWD = "/<unknown>"

_PARSER: Any = None


def _parser() -> Any:
    """One tree-sitter parser per process, created on first use."""
    global _PARSER
    if _PARSER is None:
        import tree_sitter
        import tree_sitter_bash

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    return _PARSER


_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_WORDISH = frozenset(
    {"word", "string", "raw_string", "ansi_c_string", "translated_string", "concatenation", "number",
     "brace_expression", "simple_expansion", "expansion", "command_substitution",
     "process_substitution", "arithmetic_expansion"}
)
_STATEMENTS = frozenset(
    {"command", "redirected_statement", "list", "pipeline", "negated_command", "variable_assignments",
     "declaration_command", "unset_command", "test_command", "for_statement", "c_style_for_statement",
     "while_statement", "if_statement", "case_statement", "function_definition", "subshell",
     "compound_statement"}
)
_WORDLIKE = _WORDISH | {"command_name", "$"}
#: Characters that make a plain word need real decoding (escapes, braces, odd blanks).
_WORD_SPECIAL = re.compile(r"[\\{ \t\n]")
_SUBSTITUTIONS = {"command_substitution": "substitution", "process_substitution": "process-substitution"}
_CONSTRUCT_NAMES = {
    "for_statement": "for loop",
    "c_style_for_statement": "for loop",
    "while_statement": "while/until loop",
    "if_statement": "if statement",
    "case_statement": "case statement",
    "function_definition": "function definition",
    "subshell": "subshell ( … )",
    "compound_statement": "compound command { … }",
    "test_command": "[[ … ]] test",
    "ERROR": "syntax error",
}
_CD = frozenset({"cd", "pushd", "popd"})
_CD_WRAPPERS = frozenset({"builtin", "command"})
_EXITS = frozenset({"exit", "return"})
_TEST_TOKENS = frozenset({"!", "=", "==", "!="})
_STDIN_SHELL_OPTS = frozenset({"-s", "-", "-e", "-x", "-u", "-l", "--login", "-i", "--noprofile", "--norc"})


class _Ctx:
    """What a command inherits from where it stands in the script."""

    __slots__ = ("cwd", "stack", "carried", "origin", "wrappers", "assignments", "depth", "reparse",
                 "pipe", "pending", "stdin", "background")

    def __init__(self) -> None:
        self.cwd: str | None = None
        self.stack: list[str | None] = []
        self.carried: tuple[tuple[str, str], ...] = ()
        self.origin = "top"
        self.wrappers: tuple[str, ...] = ()
        self.assignments: tuple[tuple[str, str], ...] = ()
        #: Any nesting (substitution, shell string, -exec); reported as SimpleCommand.depth.
        self.depth = 0
        #: Shell strings parsed again (``bash -c``, ``eval`` …, ``-exec``); capped at MAX_DEPTH.
        self.reparse = 0
        self.pipe: tuple[int, int] = (-1, 0)
        #: Redirects of an outer ``bash -c … > out``; the first inner command takes them.
        self.pending: list[Redirect] = []
        #: A literal script arriving on stdin (``cat <<EOF | bash``), for a shell stage.
        self.stdin: str | None = None
        self.background = False

    def copy(self) -> "_Ctx":
        new = _Ctx.__new__(_Ctx)
        new.cwd = self.cwd
        new.stack = list(self.stack)
        new.carried = self.carried
        new.origin = self.origin
        new.wrappers = self.wrappers
        new.assignments = self.assignments
        new.depth = self.depth
        new.reparse = self.reparse
        new.pipe = self.pipe
        new.pending = self.pending
        new.stdin = self.stdin
        new.background = self.background
        return new


class _Unit:
    """One parsed source text (the command, or a string parsed again) for validators."""

    __slots__ = ("source", "root", "text", "text_of", "slice", "commands", "words", "names", "scripts", "label",
                 "has_error", "odd", "plain")

    def __init__(self, source: str, data: bytes, root: Any, label: str, plain: bool = False) -> None:
        self.source = source
        self.root = root
        #: The parsed text when byte offsets are character offsets (ASCII), else None.
        self.text: str | None = None
        if source.isascii():
            text = self.text = data.decode("ascii")

            def text_of(node: Any) -> str:
                return text[node.start_byte : node.end_byte]

            def slice_(start: int, end: int) -> str:
                return text[start:end]
        else:

            def text_of(node: Any) -> str:
                return data[node.start_byte : node.end_byte].decode("utf-8", "replace")

            def slice_(start: int, end: int) -> str:
                return data[start:end].decode("utf-8", "replace")

        self.text_of: Callable[[Any], str] = text_of
        #: Source text between two byte offsets (gaps between tokens, here-document bodies).
        self.slice: Callable[[int, int], str] = slice_
        self.commands: list[SimpleCommand] = []
        #: Every word as written and decoded (see :class:`~bastion.shell.words.Word`).
        self.words: list[Word] = []
        #: Base names of the recorded commands.
        self.names: set[str] = set()
        #: Words of this text that were parsed again as shell scripts (``bash -c STRING``).
        self.scripts: set[str] = set()
        self.label = label
        self.has_error = bool(root is not None and root.has_error)
        #: A backslash or an unusual blank: only then can a line continuation glue a
        #: comment to a word.
        self.odd = "\\" in source or (not source.isprintable() and any(c in source for c in "\r\v\f"))
        #: Split by :mod:`bastion.shell.plain` (no tree): only the validators that can
        #: fire on plain text run.
        self.plain = plain


def _gap_ok(gap: str, newline: bool = True) -> bool:
    """Text tree-sitter left between tokens must be blanks (or line continuations); a
    newline inside one command (``newline=False``) would end it in bash."""
    if not gap:
        return True
    if "\\" in gap:
        gap = gap.replace("\\\n", "")
    return not gap.strip(" \t\n" if newline else " \t")


def _join_cwd(current: str | None, target: str) -> str:
    if current == UNKNOWN_CWD:
        return UNKNOWN_CWD
    if target.startswith(("/", "~")) or current is None:
        return posixpath.normpath(target) if target not in ("~",) else target
    return posixpath.normpath(posixpath.join(current, target))


class _Walker:
    """Walks tree-sitter trees (the command and every string parsed again)."""

    def __init__(self) -> None:
        self.commands: list[SimpleCommand] = []
        self.reasons: list[str] = []
        self.seen_reasons: set[str] = set()
        self.units: list[_Unit] = []
        self.work = 0
        self.pipes = 0
        self.stopped = False
        #: What the last simple command wrote when it is a literal (``cat <<EOF``,
        #: ``echo TEXT``): a shell in the next pipeline stage runs it.
        self.literal_out: str | None = None

    # ----------------------------------------------------------------- bookkeeping

    def complex(self, reason: str) -> None:
        if reason not in self.seen_reasons:
            self.seen_reasons.add(reason)
            self.reasons.append(reason)

    def budget(self, level: int, count: bool = False) -> bool:
        """Count one node; False when the walk must stop (too deep or too much work)."""
        if count:
            self.work += 1
        if self.work > MAX_WORK:
            if not self.stopped:
                self.complex("too large to analyse")
                self.stopped = True
            return False
        if level > MAX_NESTING:
            self.complex(f"nested more than {MAX_NESTING} levels deep")
            return False
        return True

    # ----------------------------------------------------------------- sources

    def run(self, source: str, ctx: _Ctx, label: str, limit: int = MAX_BYTES, data: bytes | None = None) -> _Unit | None:
        """Parse ``source`` and walk it; returns the unit (None when refused outright)."""
        if data is None:
            data = source.encode("utf-8", "replace")
        if len(data) > limit:
            self.complex(f"{label or 'command'} too long (more than {limit} bytes)")
            return None
        stages = plain_stages(source)
        if stages is not None:  # plain words and pipes: no tree needed (see plain.py)
            unit = _Unit(source, data, None, label, plain=True)
            self.units.append(unit)
            self.plain(unit, stages, ctx)
            return unit
        # tree-sitter-bash resolves a trailing pipeline far faster with a final newline;
        # a newline after the last command does not change what bash runs (unless the
        # text ends in a backslash, which would become a line continuation).
        if not data.endswith((b"\n", b"\\")):
            data += b"\n"
        tree_input = data
        if not source.isascii() and _ASTRAL.search(source):
            tree_input = _ASTRAL.sub(_ASTRAL_STAND_IN, data.decode("utf-8", "replace")).encode("utf-8")
            if len(tree_input) != len(data):  # cannot happen: both are 4 bytes per character
                self.complex("text that cannot be parsed safely")
                return None
        root = _parser().parse(tree_input).root_node
        unit = _Unit(source, data, root, label)
        self.units.append(unit)
        if root.has_error:
            self.complex(_error_reason(root, unit.text_of, label))
        if unit.odd and "#" in source:
            self.glued_comments(unit)
        self.sequence(unit, root, ctx, 0)
        return unit

    def glued_comments(self, unit: _Unit) -> None:
        """A ``#`` that a line continuation glues to a word is text in bash, but
        tree-sitter reads a comment there (``rm x\\<newline>#y``)."""
        stack = [unit.root]
        while stack:
            node = stack.pop()
            if node.type == "comment":
                before = unit.slice(max(0, node.start_byte - 64), node.start_byte)
                while before.endswith("\\\n"):
                    before = before[:-2]
                escaped = (len(before) - 1) - len(before[:-1].rstrip("\\"))  # backslashes before the last char
                if before and (before[-1] not in " \t\n;&|()<>" or escaped % 2 == 1):
                    self.complex("comment glued to a word by a line continuation")
                    return
            elif node.named_child_count:
                stack.extend(node.named_children)

    # ----------------------------------------------------------------- structure

    def sequence(self, unit: _Unit, parent: Any, ctx: _Ctx, level: int) -> None:
        """Statements separated by ``;``, ``&`` or newlines (program, bodies)."""
        children = parent.children
        end = parent.start_byte
        count = len(children)
        for index, child in enumerate(children):
            kind = child.type
            start = child.start_byte
            if start != end and not _gap_ok(unit.slice(end, start)):
                self.complex(f"unexpected text near {unit.text_of(child)[:20]!r}")
            end = child.end_byte
            if kind in (";", "&", "\n", "comment"):
                continue
            if not child.is_named:
                self.complex(f"unexpected {kind!r}")
                continue
            background = index + 1 < count and children[index + 1].type == "&"
            if background:
                sub = ctx.copy()
                sub.background = True
                self.statement(unit, child, sub, level + 1)
            else:
                self.statement(unit, child, ctx, level + 1)
        if not _gap_ok(unit.slice(end, parent.end_byte)):
            self.complex("unexpected text at the end")

    def gaps(self, unit: _Unit, parent: Any, nodes: list[Any], start: int | None = None) -> None:
        """Only blanks may lie between ``nodes`` (children of ``parent``, in order)."""
        slice_ = unit.slice
        plain = unit.text
        end = parent.start_byte if start is None else start
        for node in nodes:
            begin = node.start_byte
            if begin != end and not (plain is not None and begin - end == 1 and plain[end] == " "):
                if not _gap_ok(slice_(end, begin)):
                    self.complex(f"unexpected text near {unit.text_of(node)[:20]!r}")
            end = node.end_byte
        if end != parent.end_byte and not _gap_ok(slice_(end, parent.end_byte)):
            self.complex("unexpected text at the end of a command")

    def statement(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        self.work += 1
        if (self.work > MAX_WORK or level > MAX_NESTING) and not self.budget(level):
            return
        kind = node.type
        if kind == "command":
            self.command(unit, node, ctx, level, ())
        elif kind == "redirected_statement":
            self.redirected(unit, node, ctx, level)
        elif kind == "list":
            self.and_or(unit, node, ctx, level)
        elif kind == "pipeline":
            self.pipeline(unit, node, ctx, level)
        elif kind == "negated_command":
            self.gaps(unit, node, node.children)
            for child in node.named_children:
                self.statement(unit, child, ctx, level + 1)
        elif kind in ("variable_assignments", "variable_assignment"):
            self.bare_assignments(unit, node, ctx, level)
        elif kind in ("declaration_command", "unset_command"):
            self.declaration(unit, node, ctx, level)
        elif kind == "test_command" and node.child_count and node.children[0].type == "[":
            self.single_test(unit, node, ctx, level)
        elif kind == "comment":
            return
        else:
            self.complex(_CONSTRUCT_NAMES.get(kind, kind.replace("_", " ")))
            self.descend(unit, node, ctx, level + 1)

    def descend(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """Best effort inside a construct we do not interpret: find every command."""
        if not self.budget(level, count=True):
            return
        for child in node.named_children:
            kind = child.type
            if kind in _STATEMENTS:
                self.statement(unit, child, ctx, level + 1)
            elif kind in _SUBSTITUTIONS:
                self.substitution(unit, child, ctx, level + 1)
            elif kind == "command_name":
                # a command name stranded in an ERROR node: record what it would run
                words = [unit.text_of(child)]
                self.emit(unit, words, [], [], ctx, words[0], level)
            elif child.named_child_count:
                self.descend(unit, child, ctx, level + 1)

    def refuse(self, unit: _Unit, issues: list[tuple[str, Any]], ctx: _Ctx, level: int) -> None:
        """Record each non-literal part as a reason, and still extract the commands that
        run inside it (``$(…)``, ``<(…)``, ``${x:-$(…)}`` …)."""
        for what, inode in issues:
            self.complex(what)
            if inode is None:
                continue
            if inode.type in _SUBSTITUTIONS:
                self.substitution(unit, inode, ctx, level + 1)
            elif inode.named_child_count:
                self.descend(unit, inode, ctx, level + 1)

    def substitution(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """Commands inside ``$(…)``, backticks, ``<(…)``: they run too."""
        sub = ctx.copy()
        sub.origin = _SUBSTITUTIONS.get(node.type, "substitution")
        sub.depth = ctx.depth + 1
        sub.pipe = (-1, 0)
        sub.pending = []
        sub.stdin = None
        self.descend(unit, node, sub, level + 1)

    def and_or(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``a && b || c``: left-nested in the tree, flattened here without recursion."""
        tails: list[list[Any]] = []
        cur = node
        while cur.type == "list" and cur.child_count:
            children = cur.children
            tails.append(children[1:])
            cur = children[0]
        items: list[Any] = [cur]
        for tail in reversed(tails):
            items.extend(tail)
        self.gaps(unit, node, items)
        op = None
        before_prev = ctx.cwd
        prev_node = None
        for item in items:
            kind = item.type
            if kind in ("&&", "||"):
                op = kind
                continue
            if not item.is_named:
                self.complex(f"unexpected {kind!r}")
                continue
            if kind == "comment":
                continue
            if op == "||" and prev_node is not None:
                changed_before = ctx.cwd != before_prev
                alt = ctx.copy()
                alt.cwd = before_prev
                start = ctx.cwd
                self.statement(unit, item, alt, level + 1)
                if changed_before or alt.cwd != before_prev:
                    exits = _first_word(unit, item) in _EXITS
                    ctx.cwd = start if (changed_before and exits) else UNKNOWN_CWD
                before_prev = ctx.cwd
            else:
                before_prev = ctx.cwd
                self.statement(unit, item, ctx, level + 1)
            prev_node = item
            op = None

    def pipeline(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """Each stage runs in a subshell: ``cd`` inside does not carry."""
        number = self.pipes
        self.pipes += 1
        stage = 0
        stdin: str | None = None
        self.gaps(unit, node, node.children)
        for child in node.children:
            kind = child.type
            if kind in ("|", "|&"):
                continue
            if not child.is_named or kind == "comment":
                if not child.is_named:
                    self.complex(f"unexpected {kind!r}")
                continue
            sub = ctx.copy()
            sub.pipe = (number, stage)
            sub.stdin = stdin
            commands = self.commands
            before = len(commands)
            self.literal_out = None
            if kind == "command" and self.work < MAX_WORK and level < MAX_NESTING:
                self.work += 1
                self.command(unit, child, sub, level + 1, ())
            else:
                self.statement(unit, child, sub, level + 1)
            stdin = self.literal_out if self.literal_out is not None and len(commands) == before + 1 else None
            stage += 1

    def plain(self, unit: _Unit, stages: list[tuple[str, list[str]]], ctx: _Ctx) -> None:
        """A plain command or pipeline (:mod:`bastion.shell.plain`), recorded as
        :meth:`pipeline` and :meth:`command` record the same text parsed by tree-sitter."""
        self.work += 1
        if len(stages) == 1:
            text, words = stages[0]
            self.plain_command(unit, text, words, ctx, 1)
            return
        number = self.pipes
        self.pipes += 1
        stdin: str | None = None
        commands = self.commands
        shared: _Ctx | None = None
        for stage, (text, words) in enumerate(stages):
            # each stage runs in a subshell: a stage that :meth:`emit` handles (it may
            # track a ``cd``) gets a context of its own, the others can share one
            if _base_name(words[0]) in _EMITTED:
                sub = ctx.copy()
            else:
                sub = shared = shared or ctx.copy()
            sub.pipe = (number, stage)
            sub.stdin = stdin
            before = len(commands)
            self.work += 1
            self.plain_command(unit, text, words, sub, 2)
            stdin = self.literal_out if self.literal_out is not None and len(commands) == before + 1 else None

    def plain_command(self, unit: _Unit, text: str, words: list[str], ctx: _Ctx, level: int) -> None:
        """One stage of a plain command: every word is literal and decodes to itself."""
        unit.words.extend(map(_new_word, zip(words, words, count(), repeat(1))))
        before = len(self.commands)
        self.emit(unit, words, [], [], ctx, text, level)
        self.literal_out = (
            _echo_output(self.commands[before]) if words[0] == "echo" and len(self.commands) == before + 1 else None
        )

    def redirected(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        body = None
        redirects: list[Any] = []
        children = node.children
        dash = False
        if (len(children) > 1 and children[0].type == "command" and children[1].type == "heredoc_redirect"
                and unit.slice(children[0].end_byte, children[1].start_byte).split() == ["-"]):
            # tree-sitter drops a lone "-" (stdin) just before "<<": put it back
            dash = True
            self.gaps(unit, node, children[1:], start=children[1].start_byte)
        else:
            self.gaps(unit, node, children)
        for child in children:
            if child.type in _REDIRECTS:
                redirects.append(child)
            elif child.is_named and body is None and child.type != "comment":
                body = child
            elif child.is_named:
                self.complex(f"unexpected {child.type.replace('_', ' ')} after a redirection")
                self.descend(unit, child, ctx, level + 1)
        if body is not None and body.type == "command":
            self.command(unit, body, ctx, level, redirects, extra=["-"] if dash else None)
            return
        if body is not None:
            self.statement(unit, body, ctx, level + 1)
        self.command(unit, None, ctx, level, redirects, text_node=node)

    # ----------------------------------------------------------------- commands

    def command(self, unit: _Unit, node: Any, ctx: _Ctx, level: int, outer: list[Any] | tuple[Any, ...],
                text_node: Any = None, extra: list[str] | None = None) -> None:
        """One simple command: assignments, words and redirections, in bash's order."""
        text_of = unit.text_of
        argv: list[str] = []
        assigns: list[tuple[str, str]] = []
        issues: list[tuple[str, Any]] = []
        redirect_nodes: list[Any] = []
        last_count = 0
        if node is not None:
            # tree-sitter may skip text between tokens (a lone "-" before "<<", an
            # escaped blank): every gap is checked, and words it split are joined
            slice_ = unit.slice
            plain = unit.text
            words = unit.words
            end = -1
            prev_word = False
            for child in node.children:
                kind = child.type
                is_word = kind in _WORDLIKE
                start = child.start_byte
                if end >= 0:
                    if plain is not None and start - end == 1 and plain[end] == " ":
                        pass  # the usual single blank
                    elif (gap := slice_(end, start)) != " ":
                        if not _gap_ok(gap, newline=False):
                            self.complex("unexpected text between words")
                        # bash joins words separated only by line continuations (r\<newline>m)
                        if prev_word and is_word and not gap.replace("\\\n", ""):
                            end = child.end_byte
                            if self.join_split_word(unit, child, gap, argv, issues, last_count):
                                continue
                end = child.end_byte
                prev_word = is_word
                last_count = 0
                if kind == "word":
                    raw = plain[start:end] if plain is not None else text_of(child)
                    if _WORD_SPECIAL.search(raw) is None:
                        argv.append(raw)
                        words.append(_word((raw, raw, len(argv) - 1, 1)))
                    else:
                        values = decode_word(child, text_of, issues)
                        position = len(argv)
                        argv.extend(values)
                        words.append(Word(raw, " ".join(values), position, len(values)))
                        last_count = len(values) - 1
                    last_count += 1
                elif kind == "command_name":
                    name_node = child.children[0] if child.child_count == 1 else None
                    if name_node is None or not name_node.is_named:
                        issues.append(("unusual command name", child))
                        argv.append(text_of(child))
                        continue
                    raw = plain[start:end] if plain is not None else text_of(name_node)
                    if name_node.type == "word" and _WORD_SPECIAL.search(raw) is None:
                        values = [raw]
                    else:
                        values = decode_word(name_node, text_of, issues)
                    argv.extend(values)
                    words.append(_word((raw, values[0] if len(values) == 1 else " ".join(values), 0, len(values))))
                    last_count = len(values)
                elif kind == "variable_assignment" and not argv:
                    assigns.append(self.assignment(unit, child, issues))
                elif kind in _REDIRECTS:
                    redirect_nodes.append(child)
                elif kind in _WORDISH:
                    values = decode_word(child, text_of, issues)
                    position = len(argv)
                    argv.extend(values)
                    words.append(Word(text_of(child), " ".join(values), position, len(values)))
                    last_count = len(values)
                elif kind == "$":
                    raw_dollar = text_of(child)  # tree-sitter lexes "-$" and "\$" as "$" tokens
                    if not literal_dollar(raw_dollar):
                        issues.append((f"variable expansion {raw_dollar}", child))
                    dollar = unescape_unquoted(raw_dollar)
                    argv.append(dollar)
                    words.append(Word(raw_dollar, dollar, len(argv) - 1))
                    last_count = 1
                elif kind == "comment":
                    continue
                else:
                    issues.append((kind.replace("_", " "), child))
                    argv.append(text_of(child))
            if end >= 0 and end != node.end_byte and not _gap_ok(slice_(end, node.end_byte), newline=False):
                self.complex("unexpected text after the last word")
            if extra:
                for word in extra:
                    argv.append(word)
                    unit.words.append(Word(word, word, len(argv) - 1))
        if outer:
            redirect_nodes.extend(outer)
        redirects: list[Redirect] = []
        heredoc: tuple[str, bool] | None = None
        trailing: list[tuple[str, Any]] = []
        if redirect_nodes:
            for rnode in redirect_nodes:
                heredoc = self.redirect(unit, rnode, redirects, argv, issues, trailing) or heredoc
        if issues:
            self.refuse(unit, issues, ctx, level)
        shown_node = text_node if text_node is not None else node
        shown = text_of(shown_node) if shown_node is not None else ""
        pipe_number = -1
        if trailing and any(kind == "pipe" for kind, _ in trailing):
            pipe_number = self.pipes
            self.pipes += 1
            ctx = ctx.copy()
            ctx.pipe = (pipe_number, 0)
        stdin = heredoc[0] if heredoc and heredoc[1] else None
        before = len(self.commands)
        self.emit(unit, argv, assigns, redirects, ctx, shown, level, stdin)
        out = None
        if argv and (stdin is not None or argv[0] == "echo") and len(self.commands) == before + 1:
            if stdin is not None and argv in (["cat"], ["cat", "-"]):
                out = stdin
            elif argv[0] == "echo":
                out = _echo_output(self.commands[before])
        self.literal_out = out
        for kind, tnode in trailing:
            if kind == "pipe":
                sub = ctx.copy()
                sub.pipe = (pipe_number, 1)
                sub.stdin = out
                self.statement(unit, tnode, sub, level + 1)
            else:
                self.statement(unit, tnode, ctx, level + 1)

    def join_split_word(self, unit: _Unit, child: Any, gap: str, argv: list[str],
                        issues: list[tuple[str, Any]], last_count: int) -> bool:
        """tree-sitter split one bash word in two (``{}\\;``, ``r\\<newline>m``, ``$"…"``):
        join it back onto the previous word. False when ``child`` stays a word of its own."""
        text_of = unit.text_of
        words = unit.words
        kind = child.type
        prev = words[-1] if words else None
        if (prev is not None and argv and prev.raw.endswith("$") and prev.raw == argv[-1]
                and (kind == "string" or (kind == "concatenation" and child.children[0].type == "string"))):
            # $"…" is a translated string: the $ is not part of the word ("-$"x"" is "-x")
            argv[-1] = argv[-1][:-1]
            prev = words[-1] = Word(prev.raw[:-1], argv[-1], prev.position)
            if not argv[-1]:
                argv.pop()
                words.pop()
                return False
        if kind == "command_name" or not argv or last_count != 1 or prev is None:
            self.complex("words without a blank between them")
            return False
        values = decode_word(child, text_of, issues)
        glued = prev.raw + text_of(child)
        if "{" in glued and ("," in glued or ".." in glued):
            self.complex("braces in a word tree-sitter split")  # brace expansion spans the whole word
        if prev.raw.endswith("$"):
            self.complex("variable expansion split across words")  # "$a" after a word ending in $
        if len(values) != 1:
            self.complex("words without a blank between them")
            return False
        argv[-1] += values[0]
        words[-1] = Word(prev.raw + gap + text_of(child), argv[-1], prev.position, 1)
        return True

    def assignment(self, unit: _Unit, node: Any, issues: list[tuple[str, Any]]) -> tuple[str, str]:
        text_of = unit.text_of
        name = ""
        value = ""
        seen_op = False
        for child in node.children:
            kind = child.type
            if kind == "variable_name" and not seen_op:
                name = text_of(child)
            elif kind in ("=", "+="):
                seen_op = True
            elif kind == "subscript":
                issues.append(("array subscript assignment", child))
                name = text_of(child)
            elif seen_op and kind in _WORDISH:
                values = decode_word(child, text_of, issues, braces=False)
                value = values[0] if values else ""
                unit.words.append(Word(text_of(child), value, -1))
            elif seen_op and kind == "array":
                issues.append(("array assignment", child))
                value = text_of(child)
            elif kind == "$":
                value += unescape_unquoted(text_of(child))
                if not literal_dollar(text_of(child)):
                    issues.append(("variable expansion in an assignment", child))
            else:
                issues.append((f"{kind.replace('_', ' ')} in an assignment", child))
        return name, value

    def redirect(self, unit: _Unit, node: Any, out: list[Redirect], argv: list[str],
                 issues: list[tuple[str, Any]], trailing: list[tuple[str, Any]]) -> tuple[str, bool] | None:
        """Decode one redirection into ``out``; extra words after its target are command
        arguments (``echo a >f b`` runs ``echo a b``). Returns ``(body, literal)`` for a
        here-document or here-string."""
        text_of = unit.text_of
        kind = node.type
        fd: int | None = None
        op = ""
        targets: list[str] = []
        result: tuple[str, bool] | None = None
        if kind == "file_redirect":
            for child in node.children:
                ckind = child.type
                if ckind == "file_descriptor":
                    fd = _int(text_of(child))
                elif not child.is_named:
                    op = op or ckind
                elif ckind in _WORDISH:
                    values = decode_word(child, text_of, issues)
                    unit.words.append(Word(text_of(child), " ".join(values), -1 if not targets else len(argv), len(values)))
                    if not targets:
                        if len(values) != 1:
                            issues.append(("ambiguous redirect target", child))
                        targets.append(values[0] if values else "")
                    else:
                        argv.extend(values)
                else:
                    issues.append((f"{ckind.replace('_', ' ')} in a redirection", child))
            out.append(Redirect(op, targets[0] if targets else "", fd))
            return None
        if kind == "herestring_redirect":
            value = ""
            for child in node.children:
                ckind = child.type
                if ckind == "file_descriptor":
                    fd = _int(text_of(child))
                elif ckind in _WORDISH:
                    count = len(issues)
                    values = decode_word(child, text_of, issues, braces=False)
                    value = values[0] if values else ""
                    unit.words.append(Word(text_of(child), value, -1))
                    result = (value + "\n", len(issues) == count)
                elif child.is_named:
                    issues.append((f"{ckind.replace('_', ' ')} in a here-string", child))
            out.append(Redirect("<<<", "", fd))
            return result
        # heredoc_redirect: the body is data (not a path); the rest of its line may hold
        # more redirections, a pipeline or a list, which tree-sitter nests in here.
        quoted = False
        body_node = None
        end_node = None
        op = "<<"
        pending_op: str | None = None
        for child in node.children:
            ckind = child.type
            if ckind in ("<<", "<<-"):
                op = ckind
            elif ckind == "file_descriptor":
                fd = _int(text_of(child))
            elif ckind == "heredoc_start":
                start = text_of(child)
                quoted = any(q in start for q in "'\"\\")
            elif ckind == "heredoc_body":
                body_node = child
            elif ckind == "heredoc_end":
                end_node = child
            elif ckind in ("file_redirect", "herestring_redirect"):
                self.redirect(unit, child, out, argv, issues, trailing)
            elif ckind == "pipeline" and pending_op is None:
                rest = [c for c in child.children if c.is_named]
                first = child.children[0].type if child.child_count else ""
                if first not in ("|", "|&") or len(rest) != 1:
                    issues.append(("unusual here-document line", child))
                else:
                    trailing.append(("pipe", rest[0]))
            elif ckind in ("&&", "||"):
                pending_op = ckind
            elif pending_op is not None and child.is_named:
                trailing.append((pending_op, child))
                pending_op = None
            elif child.is_named:
                issues.append((f"{ckind.replace('_', ' ')} after a here-document", child))
        out.append(Redirect(op, "", fd))
        if body_node is None:
            return ("", True)
        literal = True
        if not quoted:
            for child in body_node.named_children:
                if child.type != "heredoc_content":
                    issues.append((f"{_label(child.type)} in a here-document", child))
                    literal = False
        stop = end_node.start_byte if end_node is not None else body_node.end_byte
        body = unit.slice(body_node.start_byte, stop)
        if not quoted:
            body = unescape_heredoc(body)
        if op == "<<-":
            body = "\n".join(line.lstrip("\t") for line in body.split("\n"))
        return (body, literal)

    def bare_assignments(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        issues: list[tuple[str, Any]] = []
        parts = [node] if node.type == "variable_assignment" else node.named_children
        assigns = [self.assignment(unit, child, issues) for child in parts if child.type == "variable_assignment"]
        self.refuse(unit, issues, ctx, level)
        self.emit(unit, [], assigns, [], ctx, unit.text_of(node), level)

    def declaration(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``export A=1 B``, ``local x``, ``unset X``: literal words only."""
        text_of = unit.text_of
        issues: list[tuple[str, Any]] = []
        argv: list[str] = []
        assigns: list[tuple[str, str]] = []
        for child in node.children:
            kind = child.type
            if not child.is_named:
                argv.append(kind)
            elif kind == "word" and text_of(child).startswith("-") and "n" in text_of(child):
                # declare -n makes a name reference: later assignments write another variable
                issues.append(("name reference (declare -n)", child))
                argv.append(text_of(child))
            elif kind == "variable_assignment":
                name, value = self.assignment(unit, child, issues)
                assigns.append((name, value))
                argv.append(f"{name}={value}")
            elif kind == "variable_name":
                argv.append(text_of(child))
            elif kind in _WORDISH:
                values = decode_word(child, text_of, issues)
                argv.extend(values)
                unit.words.append(Word(text_of(child), " ".join(values), len(argv) - len(values), len(values)))
            else:
                issues.append((kind.replace("_", " "), child))
        self.refuse(unit, issues, ctx, level)
        self.emit(unit, argv, [], [], ctx, text_of(node), level, persistent=assigns)

    def single_test(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``[ -f x ]`` is the ``[`` command; its operands in source order are its argv."""
        text_of = unit.text_of
        issues: list[tuple[str, Any]] = []
        argv: list[str] = []
        stack = [node]
        leaves: list[Any] = []
        while stack:
            cur = stack.pop()
            kids = cur.children
            for child in reversed(kids):
                kind = child.type
                if kind in ("unary_expression", "binary_expression", "parenthesized_expression"):
                    stack.append(child)
                else:
                    leaves.append(child)
        leaves.sort(key=lambda n: n.start_byte)
        for leaf in leaves:
            kind = leaf.type
            if kind in ("[", "]"):
                argv.append(kind)
            elif kind == "test_operator" or kind in _TEST_TOKENS:
                argv.append(text_of(leaf))
            elif kind in _WORDISH:
                values = decode_word(leaf, text_of, issues)
                argv.extend(values)
                unit.words.append(Word(text_of(leaf), " ".join(values), len(argv) - len(values), len(values)))
            else:
                issues.append((f"{kind!r} inside [ … ]", leaf))
        self.refuse(unit, issues, ctx, level)
        self.emit(unit, argv, [], [], ctx, text_of(node), level)

    # ----------------------------------------------------------------- emitting

    def emit(self, unit: _Unit, argv: list[str], assigns: list[tuple[str, str]], redirects: list[Redirect],
             ctx: _Ctx, text: str, level: int, stdin: str | None = None,
             persistent: list[tuple[str, str]] | None = None) -> None:
        """Peel wrappers, parse shell strings again, track ``cd``; record the command."""
        if not argv:
            # bare assignments persist for the rest of the shell: dangerous ones stay attached
            kept = [(k, v) for k, v in assigns if not is_safe_env(k)]
            carried = tuple((k, v) for k, v in assigns if is_dangerous_env(k))
            if carried and not ctx.background and ctx.pipe[0] < 0:
                ctx.carried = ctx.carried + carried
            self.record(unit, (), kept, redirects, (), ctx.cwd, ctx.origin, text, ctx)
            return
        if persistent:
            carried = tuple((k, v) for k, v in persistent if is_dangerous_env(k))
            if carried and not ctx.background and ctx.pipe[0] < 0:
                ctx.carried = ctx.carried + carried
        head = argv[0].rsplit("/", 1)[-1]
        cwd = ctx.cwd
        if head not in _EMITTED:  # nothing to peel, parse again, track or run: record it as it is
            merged = [*ctx.assignments, *ctx.carried, *assigns] if (ctx.assignments or ctx.carried) else assigns
            self.record(unit, tuple(argv), merged + persistent if persistent else merged, redirects, ctx.wrappers,
                        cwd, ctx.origin, text, ctx)
            return
        if head in WRAPPER_NAMES:
            peeled = peel(tuple(argv))
            for problem in peeled.problems:
                self.complex(problem)
            wrappers = ctx.wrappers + tuple(peeled.wrappers)
            merged = [*ctx.assignments, *ctx.carried, *assigns, *peeled.assignments]
            for target in peeled.cwd:
                cwd = _join_cwd(cwd, target)
            origin = peeled.origin or ctx.origin
            effective = peeled.argv
        else:
            peeled = None
            wrappers = ctx.wrappers
            merged = [*ctx.assignments, *ctx.carried, *assigns] if (ctx.assignments or ctx.carried) else assigns
            origin = "source" if head in ("source", ".") else ctx.origin
            effective = tuple(argv)
        if persistent:
            merged = merged + persistent
        if peeled is not None and peeled.shell is not None:
            shell_origin = "eval" if peeled.shell_origin == "eval" else peeled.shell_origin
            self.nested(unit, peeled.shell, shell_origin, effective, merged, redirects, wrappers, cwd, ctx,
                        text, level, shares_shell=peeled.shell_origin == "eval")
            return
        name = head if peeled is None else (effective[0].rsplit("/", 1)[-1] if effective else "")
        if name in SHELLS:
            script = shell_string(effective)
            if script is not None:
                self.nested(unit, script, "bash -c", effective, merged, redirects, wrappers + (name,), cwd, ctx,
                            text, level)
                return
            fed = stdin if stdin is not None else ctx.stdin
            if fed is not None and _reads_stdin(effective):
                self.nested(unit, fed, "heredoc", effective, merged, redirects, wrappers + (name,), cwd, ctx,
                            text, level)
                return
        self.record(unit, effective, merged, redirects, wrappers, cwd, origin, text, ctx)
        if name in _CD and (peeled is None or set(peeled.wrappers) <= _CD_WRAPPERS):
            _track_cd(ctx, effective)
        if name not in _EXEC_RUNNERS:
            return
        for inner in find_exec_commands(effective):
            sub = ctx.copy()
            sub.origin = "find -exec"
            sub.wrappers = wrappers + (name,)
            sub.assignments = tuple(merged)
            sub.carried = ()
            sub.cwd = cwd
            sub.depth = ctx.depth + 1
            sub.reparse = ctx.reparse + 1
            sub.pending = []
            sub.stdin = None
            if sub.reparse > MAX_DEPTH:
                self.complex(f"-exec commands nested more than {MAX_DEPTH} levels deep")
                continue
            self.emit(unit, list(inner), [], [], sub, text, level + 1)

    def nested(self, unit: _Unit, script: str, origin: str, effective: tuple[str, ...],
               merged: list[tuple[str, str]], redirects: list[Redirect], wrappers: tuple[str, ...],
               cwd: str | None, ctx: _Ctx, text: str, level: int, shares_shell: bool = False) -> None:
        """Parse a shell string again; its commands replace the wrapper command."""
        if ctx.reparse + 1 > MAX_DEPTH:
            self.complex(f"shell strings nested more than {MAX_DEPTH} levels deep")
            self.record(unit, effective, merged, redirects, wrappers, cwd, ctx.origin, text, ctx)
            return
        sub = ctx.copy()
        sub.origin = origin
        sub.wrappers = wrappers
        sub.assignments = tuple(merged)
        sub.carried = ()
        sub.cwd = cwd
        sub.depth = ctx.depth + 1
        sub.reparse = ctx.reparse + 1
        sub.pending = list(redirects)
        sub.stdin = None
        before = len(self.commands)
        unit.scripts.add(script)
        label = f"{origin} string" if origin != "heredoc" else "here-document"
        inner = self.run(script, sub, label)
        if inner is None or len(self.commands) == before:
            # nothing inside (or refused): keep the wrapper itself visible
            self.record(unit, effective, merged, redirects, wrappers[:-1], cwd, ctx.origin, text, ctx)
        if shares_shell and not ctx.background and ctx.pipe[0] < 0:
            ctx.cwd = sub.cwd
            ctx.carried = ctx.carried + sub.carried

    def record(self, unit: _Unit, argv: tuple[str, ...], assigns: list[tuple[str, str]],
               redirects: list[Redirect], wrappers: tuple[str, ...], cwd: str | None, origin: str,
               text: str, ctx: _Ctx) -> None:
        if ctx.pending:
            redirects = ctx.pending + list(redirects)
            ctx.pending.clear()
        kept: list[tuple[str, str]] = []
        if assigns:
            for pair in assigns:
                if not is_safe_env(pair[0]) and pair not in kept:
                    kept.append(pair)
        cmd = _new_command({
            "argv": tuple(argv),
            "assignments": tuple(kept),
            "redirects": tuple(redirects),
            "wrappers": wrappers,
            "cwd": cwd,
            "origin": origin,
            "text": text,
            "depth": ctx.depth,
            "pipeline": ctx.pipe[0],
            "pipe_index": ctx.pipe[1],
            "background": ctx.background,
        })
        self.commands.append(cmd)
        unit.commands.append(cmd)
        if argv:
            unit.names.add(argv[0].rsplit("/", 1)[-1] if "/" in argv[0] else argv[0])


# --------------------------------------------------------------------------- helpers


#: The fields :meth:`_Walker.record` always passes.
_RECORDED = ("argv", "assignments", "redirects", "wrappers", "cwd", "origin", "text", "depth", "pipeline",
             "pipe_index", "background")
_new_command: Callable[[dict[str, Any]], SimpleCommand] = fast_factory(SimpleCommand, _RECORDED)
_new_script: Callable[[dict[str, Any]], Script] = fast_factory(Script, ("commands", "findings", "source"))


def _word(fields: tuple[str, str, int, int]) -> Word:
    """``Word(*fields)`` without the Python-level ``NamedTuple.__new__``."""
    return tuple.__new__(Word, fields)


#: :func:`_word` as one C call, for ``map`` over many words.
_new_word: Callable[[tuple[str, str, int, int]], Word] = partial(tuple.__new__, Word)


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _label(kind: str) -> str:
    return {"simple_expansion": "variable expansion", "expansion": "variable expansion"}.get(
        kind, kind.replace("_", " "))


#: Command names :meth:`_Walker.emit` does more for than record them: wrappers to peel,
#: shells and ``source`` whose input is code, ``cd`` to track, ``-exec`` runners; and
#: ``echo``, whose output can feed a shell in the next pipeline stage (its stage gets a
#: context of its own).
_EMITTED = WRAPPER_NAMES | SHELLS | _CD | _EXEC_RUNNERS | {"source", ".", "echo"}


def _base_name(word: str) -> str:
    return word.rsplit("/", 1)[-1] if "/" in word else word


def _first_word(unit: _Unit, node: Any) -> str:
    text = unit.text_of(node).split(None, 1)
    return unescape_unquoted(text[0]) if text else ""


def _reads_stdin(argv: tuple[str, ...]) -> bool:
    """A shell with no script operand reads its commands from stdin."""
    return all(arg in _STDIN_SHELL_OPTS or (arg.startswith("-") and "c" not in arg) for arg in argv[1:])


def _echo_output(cmd: SimpleCommand) -> str | None:
    """What ``echo TEXT`` writes (plain ``echo`` / ``echo -n`` only)."""
    if cmd.name == "echo" and not cmd.wrappers and not cmd.redirects:
        args = cmd.args
        if args and args[0] == "-n":
            args = args[1:]
        if args and args[0].startswith("-"):
            return None
        return " ".join(args) + "\n"
    return None


def _track_cd(ctx: _Ctx, argv: tuple[str, ...]) -> None:
    name = argv[0].rsplit("/", 1)[-1]
    operands = [a for a in argv[1:] if not (a.startswith("-") and a != "-") or a == "--"]
    operands = [a for a in operands if a != "--"]
    if name == "popd":
        ctx.cwd = ctx.stack.pop() if ctx.stack else UNKNOWN_CWD
        return
    if name == "pushd":
        if len(operands) != 1 or operands[0].startswith(("+", "-")):
            ctx.cwd = UNKNOWN_CWD
            return
        ctx.stack.append(ctx.cwd)
        ctx.cwd = _join_cwd(ctx.cwd, operands[0])
        return
    if not operands:
        ctx.cwd = "~"
    elif len(operands) > 1 or operands[0] == "-":
        ctx.cwd = UNKNOWN_CWD
    elif operands[0]:
        ctx.cwd = _join_cwd(ctx.cwd, operands[0])


def _error_reason(root: Any, text_of: Callable[[Any], str], label: str) -> str:
    """Name the first parse error: a missing token or the text tree-sitter rejected."""
    where = f" in {label}" if label else ""
    stack = [root]
    steps = 0
    while stack and steps < 10_000:
        steps += 1
        node = stack.pop()
        if node.is_missing:
            return f"syntax error{where}: missing {node.type!r}"
        if node.type == "ERROR":
            snippet = text_of(node).strip()[:30]
            return f"syntax error{where} near {snippet!r}" if snippet else f"syntax error{where}"
        if node.has_error:
            stack.extend(reversed(node.children))
    return f"syntax error{where}"


# --------------------------------------------------------------------------- entry point


def parse(command: str) -> Script | TooComplex:
    """Parse ``command``; never raises. Anything not understood is ``TooComplex``."""
    try:
        return _parse(command)
    except Exception as exc:  # fail closed: an analyser bug must never allow
        return TooComplex(f"internal error while parsing ({type(exc).__name__}: {exc})"[:200], source=_safe(command))


def _safe(command: Any) -> str:
    return command if isinstance(command, str) else ""


def _parse(command: str) -> Script | TooComplex:
    if not isinstance(command, str):
        return TooComplex("command is not a string")
    findings: list[Finding] = []
    reasons: list[str] = []
    text = command
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        reasons.append("command contains invalid Unicode (lone surrogates)")
        findings.append(Finding("SH017", Severity.HIGH, "command contains invalid Unicode (lone surrogates)"))
        text = text.encode("utf-8", "replace").decode("utf-8")
        data = text.encode("utf-8")
    if b"\0" in data:
        # a NUL ends the string a process receives; analyse both halves as commands
        reasons.append("command contains a NUL byte")
        findings.append(Finding("SH017", Severity.HIGH, "command contains a NUL byte (text after it may be cut off)"))
        text = text.replace("\0", "\n")
        data = data.replace(b"\0", b"\n")
    walker = _Walker()
    if len(data) > MAX_BYTES:
        # still extract what we can (bounded by MAX_WORK) so hard blocks apply
        reasons.append(f"command too long (more than {MAX_BYTES} bytes)")
        walker.run(text[: MAX_BYTES * 5], _Ctx(), "", limit=MAX_BYTES * 20)
    else:
        walker.run(text, _Ctx(), "", data=data)
        findings.extend(_run_units()(walker.units))
    if walker.reasons:
        reasons.extend(r for r in walker.reasons if r not in reasons)
    commands = tuple(walker.commands)
    if len(commands) > MAX_COMMANDS:
        reasons.append(f"more than {MAX_COMMANDS} commands ({len(commands)})")
    if findings:
        findings = _dedupe(findings)
    if reasons:
        reason = reasons[0] if len(reasons) == 1 else f"{reasons[0]} (and {len(reasons) - 1} more)"
        reason = _printable(reason)
        return TooComplex(reason, partial=commands, findings=tuple(findings), source=command)
    return _new_script({"commands": commands, "findings": tuple(findings), "source": command})


_RUN_UNITS: Callable[[list[_Unit]], list[Finding]] | None = None


def _run_units() -> Callable[[list[_Unit]], list[Finding]]:
    """The validators' entry point, imported on first use (they load their tables then)."""
    global _RUN_UNITS
    if _RUN_UNITS is None:
        from .validators import run_units

        _RUN_UNITS = run_units
    return _RUN_UNITS


def _printable(text: str) -> str:
    """Reasons and messages end up in terminals and prompts: escape anything that is not
    printable (control characters, bidi controls, zero-width characters)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """Drop repeated findings; make every message printable."""
    seen: set[tuple[str, str]] = set()
    out: list[Finding] = []
    for finding in findings:
        if not finding.message.isprintable():
            finding = Finding(finding.code, finding.severity, _printable(finding.message))
        key = (finding.code, finding.message)
        if key not in seen:
            seen.add(key)
            out.append(finding)
    return out
