"""Parse a shell command into simple commands, failing closed.

``parse(command)`` returns a :class:`~bastion.shell.syntax.script.Script` when every node of
the tree-sitter-bash tree is on an explicit allowlist, and a
:class:`~bastion.shell.syntax.script.TooComplex` otherwise. A too-complex result still carries
every simple command that could be extracted (inside loops, functions, ``$(…)``,
process substitutions, ``bash -c`` strings …), so deny checks see
``for f in *; do rm -rf /; done``.

Interpreted node types (everything else is too complex):

``program``, ``list`` (``&&`` ``||``), ``pipeline`` (``|`` ``|&``), ``;``/``&``/newline,
``redirected_statement``, ``command``, ``command_name``, ``negated_command`` (``! cmd``),
``variable_assignment`` / ``variable_assignments`` with literal values,
``declaration_command`` (``export``/``declare``/``local``/``readonly``/``typeset`` with
literal words), ``unset_command``, ``subshell`` ``( … )`` and ``compound_statement``
``{ …; }`` (their commands judged as typed; a subshell's folder and variables stay inside), ``test_command`` for single ``[ … ]`` with literal
operands, ``file_redirect``, ``heredoc_redirect``, ``herestring_redirect``, ``comment``,
and the word nodes of :mod:`bastion.shell.syntax.words` (``word``, ``string`` with literal
content, ``raw_string``, ``ansi_c_string``, ``translated_string``, ``concatenation``,
``number``, ``brace_expression``). Values this command line makes known are carried
forward in the order bash runs it (:mod:`bastion.shell.syntax.values`: ``x=/etc; rm -rf
$x`` is ``rm -rf /etc``; ``$HOME`` is ``~``, ``$PWD`` the folder); every other expansion
is too complex. A ``for`` loop over literal words (a glob standing for its files) walks
its body once per value. The unknown values the parser can follow — ``$(…)`` and
backticks (whose commands are walked), ``<(…)``, ``$!``/``$?``/``$$``, arithmetic over
numbers, a loop over words it cannot list, ``read`` — and ``for``/``while``/``if`` give
*soft* reasons: the commands that hold them or run inside them carry
:class:`~bastion.shell.syntax.script.Unknown` marks, and ``TooComplex.soft`` lets the
analysis (:mod:`bastion.shell.meaning.unknowns`) judge the line when every one lands
where it cannot hurt. Unknown text run as shell code, or assigned to a variable that
steers which code runs, stays a hard reason.

Context is tracked along a list: ``cd DIR``/``pushd``/``popd`` set ``cwd`` for the
commands after it; a ``cd`` inside a pipeline stage or a background job (``&``) runs
in a subshell and does not carry. ``cd -`` (and anything else unknowable) makes the
directory :data:`UNKNOWN_CWD`. After ``cd X || cmd`` the directory is known only when
``cmd`` is ``exit``/``return``.

Assignments (``FOO=1 cmd``, ``env FOO=1``, ``sudo FOO=1``, ``export FOO=1``) are merged
into ``SimpleCommand.assignments`` with the safe ones of :mod:`bastion.shell.syntax.env`
stripped; a dangerous bare or exported assignment (``PATH=/x; ls``) is also attached to
the commands after it in the same shell.

Wrappers are peeled (:mod:`bastion.shell.syntax.unwrap`); shell strings (``bash -c``, ``eval``,
``su -c`` …) and ``find -exec`` commands are parsed again, at most :data:`MAX_DEPTH`
levels deep. Their commands replace the shell that runs them (``origin`` says how:
``bash -c``, ``eval``, ``heredoc``, ``find -exec`` …; ``depth`` counts every level of
nesting, substitutions included). ``$(cat <<'EOF' … EOF)`` with a quoted delimiter is
the one substitution read as the literal text it produces (the commit-message idiom).

Text that reaches a shell as code is code wherever it comes from. A command whose
output follows from its words (:mod:`bastion.shell.syntax.literal`: ``echo``, ``printf``,
``cat``/``tee`` of a here-document, also under wrappers that keep the output, such as
``nice`` or ``exec``) hands that output to the next pipeline stage: a shell reading
stdin there runs it (``printf '%s\n' 'rm -rf ~' | sh``), ``xargs`` turns it into
arguments (``xargs rm -rf <<< ~`` runs ``rm -rf ~``), ``at``/``batch`` queue it.
Redirected, the output fills a file; a file this command line filled and then runs
(``bash f``, ``sh < f``, ``. f``, ``./f``, ``make`` of a written makefile, a ``<(echo
…)`` process substitution) is parsed as that text, beside the runner (the file may hold
more; what bastion cannot follow in it only asks, as an unknown script would). A here-document or here-string reaches the command bash gives it
to even where tree-sitter hangs it elsewhere (``ls && bash <<EOF``, ``! echo x > f``),
``a | b && c`` keeps ``a | b`` one pipeline, a here-document runs on until a line that
is exactly its delimiter, ``time { …; }`` is read as the group it times, and a keyword
read as a command name (``command ! rm …``) is judged by the words after it.

tree-sitter-bash and bash disagree in corners (an escaped blank or a lone ``-`` before
a redirection vanish from the tree, ``ec\\<newline>ho`` becomes two words, ``$'…\\'`` closes
early). Every gap between tokens is checked, split words are joined back, and anything
else odd is too complex; the word decoder is tested against real bash.

Work is linear in the input: the input is capped at :data:`MAX_BYTES`, tree nesting at
:data:`MAX_NESTING`, and the number of nodes visited across all re-parses at
:data:`MAX_WORK`.
"""

from __future__ import annotations

import posixpath
from itertools import count, repeat

from ...model import Finding, Severity
from ...precompiled import regex
from ...std_lite import partial
from .embedded import ENV_VARS as EMBEDDED_ENV_VARS, embedded_shell
from .env import is_dangerous_env, is_safe_env
from .fastinit import fast_factory
from .gnu import gnu_name
from .lazyre import LazyPattern
from .literal import OUTPUT_WRAPPERS, PRODUCERS, output as literal_output, tee_files, xargs_commands
from .plain import plain_stages
from .script import Redirect, Script, SimpleCommand, TooComplex, Unknown
from .unwrap import (
    EXEC_RUNNERS as _EXEC_RUNNERS,
    SHELLS,
    WRAPPER_NAMES,
    find_exec_commands,
    peel,
    shell_input,
    shell_string,
    wrapper_options,
)
from .values import ARGS, EMPTY as _NO_VALUES, UNSET, Scope, Soft, Value, Values, after_merge, positional
from .words import (
    CALL_CWD,
    FOLDER_TILDES,
    Word,
    decode_word,
    folder_text,
    literal_dollar,
    unescape_heredoc,
    unescape_unquoted,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

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
_ASTRAL = LazyPattern("[\U00010000-\U0010FFFF]")
_ASTRAL_STAND_IN = "\u00e9\u00e9"
#: ``cwd`` of commands after ``cd -`` and the like: absolute, so a consumer that joins
#: paths naively lands outside the workspace (fail closed) rather than inside it.
UNKNOWN_CWD = "/<unknown>"

_PARSER: Any = None


def _compiled_core(package: str) -> Any:
    """``package._binding``, the compiled part of a tree-sitter package, loaded without
    running the package's ``__init__``: ``tree_sitter``'s imports ``typing`` for one
    ``Protocol`` and ``tree_sitter_bash``'s imports ``importlib.resources`` for its
    highlighting queries — some forty modules, over ten milliseconds of a fresh hook,
    for nothing a parse uses — and ``re`` waits until a query predicate needs it
    (:func:`~bastion.stand_ins.load_with_re_on_call`). It is the same module a later
    ``import package`` takes (``from ._binding import …`` finds it in ``sys.modules``)."""
    import sys

    name = f"{package}._binding"
    module = sys.modules.get(name)
    if module is None:
        import _frozen_importlib as bootstrap
        import _frozen_importlib_external as external

        top = external.PathFinder.find_spec(package)
        places = top.submodule_search_locations if top is not None else None
        spec = external.PathFinder.find_spec(name, places) if places else None
        if spec is None:
            raise ImportError(f"no compiled module {name}")
        from ...stand_ins import load_with_re_on_call

        # importlib._bootstrap._load: load and register; tree_sitter's takes re.compile for
        # query predicates, which a parse never uses
        module = load_with_re_on_call(lambda: bootstrap._load(spec))  # type: ignore[attr-defined]
    return module


def _parser() -> Any:
    """One tree-sitter parser per process, created on first use (from the packages'
    compiled parts, or the packages themselves where those cannot be found alone)."""
    global _PARSER
    if _PARSER is None:
        try:
            core, bash = _compiled_core("tree_sitter"), _compiled_core("tree_sitter_bash")
        except ImportError:
            import tree_sitter as core
            import tree_sitter_bash as bash
        _PARSER = core.Parser(core.Language(bash.language()))
    return _PARSER


_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_WORDISH = frozenset(
    {"word", "string", "raw_string", "ansi_c_string", "translated_string", "concatenation", "number",
     "brace_expression", "simple_expansion", "expansion", "command_substitution",
     "process_substitution", "arithmetic_expansion"}
)
_STATEMENTS = frozenset(
    {"command", "redirected_statement", "list", "pipeline", "negated_command", "variable_assignments", "variable_assignment",
     "declaration_command", "unset_command", "test_command", "for_statement", "c_style_for_statement",
     "while_statement", "if_statement", "case_statement", "function_definition", "subshell",
     "compound_statement"}
)
_WORDLIKE = _WORDISH | {"command_name", "$"}
#: Characters that make a plain word need real decoding (escapes, braces, odd blanks).
_WORD_SPECIAL = regex(r"[\\{ \t\n]")
_SUBSTITUTIONS = {"command_substitution": "substitution", "process_substitution": "process-substitution"}
_SUBSTITUTED = frozenset(_SUBSTITUTIONS.values())
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
#: Builtins that write the variables they name (``read x``, ``printf -v x``, ``let``).
_VALUE_WRITERS = frozenset({"read", "mapfile", "readarray", "getopts", "printf", "let", "wait"})
#: Builtins that change the positional parameters ``$1`` … ``$@``.
_POSITIONAL_WRITERS = frozenset({"set", "shift"})
#: A literal ``for`` list longer than this is walked once, its variable not known.
_MAX_LOOP_VALUES = 16
#: Variables the environment already exports: an assignment to one is seen by children.
_EXPORTED = frozenset({"HOME", "PATH", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "TMPDIR", "LANG"})
#: ``export X`` / ``readonly X``: a name declared without a value.
_NAMED: Any = object()
_CD_WRAPPERS = frozenset({"builtin", "command"})
_EXITS = frozenset({"exit", "return"})
_TEST_TOKENS = frozenset({"!", "=", "==", "!="})
#: What a shell reads as a script path to read its stdin.
_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"})
#: make runs the recipes of a makefile in a shell.
_MAKES = frozenset({"make", "gmake"})
#: Commands that queue their stdin (or ``-f FILE``) for a shell to run later.
_SCHEDULERS = frozenset({"at", "batch"})
#: Words in the reasons the caps give (depth, size, work): never dropped.
_LIMIT_MARKS = ("nested more than", "too large", "too long")
#: Redirections of stdout (fd 1) to a file or another descriptor.
_STDOUT_OPS = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})
#: Interpreters a ``#!`` line may name for a script that is still shell code.
_SHEBANG_SHELLS = SHELLS | {"env"}


class _Ctx:
    """What a command inherits from where it stands in the script."""

    __slots__ = ("cwd", "stack", "carried", "origin", "wrappers", "assignments", "depth", "reparse",
                 "pipe", "pending", "stdin", "background", "values", "marks")

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
        #: Variables this line set (:mod:`bastion.shell.syntax.values`); immutable, shared.
        self.values: Values = _NO_VALUES
        #: What every command recorded here depends on (inside ``$(…)``, a loop, an
        #: ``if``, after ``cd`` to an unknown folder): see :class:`~.script.Unknown`.
        self.marks: tuple[Unknown, ...] = ()

    def scope(self) -> Scope:
        """The values as the words of a command here see them."""
        return Scope(self.values, self.cwd)

    def copy(self) -> _Ctx:
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
        new.values = self.values
        new.marks = self.marks
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
        #: Every word as written and decoded (see :class:`~bastion.shell.syntax.words.Word`).
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
        #: Split by :mod:`bastion.shell.syntax.plain` (no tree): only the validators that can
        #: fire on plain text run.
        self.plain = plain


def _glued(unit: _Unit, start: int) -> bool:
    """Whether a comment starting at byte ``start`` follows a word it is glued to: after
    line continuations, the text before it ends in a word character or an escape."""
    before = unit.slice(max(0, start - 64), start)
    while before.endswith("\\\n"):
        before = before[:-2]
    escaped = (len(before) - 1) - len(before[:-1].rstrip("\\"))  # backslashes before the last char
    return bool(before) and (before[-1] not in " \t\n;&|()<>" or escaped % 2 == 1)


def _comment_at(root: Any, start: int) -> Any:
    """The comment that starts at byte ``start``, else None: a comment is a leaf running
    from a ``#`` to the end of its line, so it is the smallest named node there."""
    node = root.named_descendant_for_byte_range(start, start + 1)
    return node if node is not None and node.type == "comment" and node.start_byte == start else None


def _positions(text: str, char: str) -> Iterator[int]:
    """Every offset of ``char`` in ``text``."""
    at = text.find(char)
    while at >= 0:
        yield at
        at = text.find(char, at + 1)


def _gap_ok(gap: str, newline: bool = True) -> bool:
    """Text tree-sitter left between tokens must be blanks (or line continuations); a
    newline inside one command (``newline=False``) would end it in bash."""
    if not gap:
        return True
    if "\\" in gap:
        gap = gap.replace("\\\n", "")
    return not gap.strip(" \t\n" if newline else " \t")


def _join_cwd(current: str | None, target: str) -> str:
    if target.startswith(CALL_CWD) and target[len(CALL_CWD):len(CALL_CWD) + 1] in ("", "/"):
        return posixpath.normpath("." + target[len(CALL_CWD):])  # ``cd ~-`` back to the call's folder
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
        #: ``echo TEXT``, ``printf FORMAT ARGS``): a shell in the next pipeline stage runs it.
        self.literal_out: str | None = None
        #: Files this command line writes with literal content (``echo X > f``, ``cat >
        #: f <<EOF``, ``tee f``), and process substitutions with literal output
        #: (``<(echo X)``): a shell that later runs one runs that text.
        self.files: dict[str, str] = {}
        #: Redirections tree-sitter hung on a whole list or pipeline (``ls && bash <<EOF``),
        #: by the command bash gives them to (the last one).
        self.attach: dict[tuple[int, int, int], list[Any]] = {}
        #: Commands that lost a lone ``-`` before a redirection hung on their list or
        #: pipeline (see :meth:`dropped_dash`), by their place.
        self.dashes: set[tuple[int, int, int]] = set()
        #: Set by :meth:`redirect` when a here-document runs on past tree-sitter's end.
        self.heredoc_cut: int | None = None
        #: Commands read from written files that are run (not counted against MAX_COMMANDS).
        self.file_commands = 0
        #: What the last :meth:`assignment` left its name holding (None: not known).
        self.assigned: Value | Soft | None = None
        #: The words of the command about to be emitted were all known as written
        #: (``set -- a b`` sets the positional parameters only then).
        self.literal_argv = False
        #: A reason was given that no analysis can answer (see :meth:`complex`).
        self.hard = False
        #: Commands of a loop's later iterations (not counted against MAX_COMMANDS).
        self.repeats = 0
        #: Where the command being emitted holds unknown values (:meth:`refuse`).
        self.marks_next: list[Unknown] = []

    # ----------------------------------------------------------------- bookkeeping

    def complex(self, reason: str, soft: bool = False) -> None:
        """Record why the command is too complex; ``soft`` when the reason is an unknown
        value whose uses are marked on the commands, for the analysis to judge."""
        if not soft:
            self.hard = True
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
        for _ in range(4 if b"time" in data else 0):
            # ``time`` is a keyword before a pipeline or compound command; tree-sitter
            # reads ``time { …; }`` as words. It changes nothing that runs: blank it
            # (same length, so every offset holds) and parse again (``time { time {``).
            spans = _time_keywords(root, data)
            if not spans:
                break
            for start, end in spans:
                data = data[:start] + b" " * (end - start) + data[end:]
                tree_input = tree_input[:start] + b" " * (end - start) + tree_input[end:]
            source = data.decode("utf-8", "replace")
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
        text = unit.text
        if text is not None:
            # every comment starts at a ``#`` (byte offsets are character offsets here):
            # look at those that follow a word, not at the whole tree
            if any(_glued(unit, at) and _comment_at(unit.root, at) is not None for at in _positions(text, "#")):
                self.complex("comment glued to a word by a line continuation")
            return
        stack = [unit.root]
        while stack:
            node = stack.pop()
            if node.type == "comment":
                if _glued(unit, node.start_byte):
                    self.complex("comment glued to a word by a line continuation")
                    return
            elif node.named_child_count:
                stack.extend(node.named_children)

    # ----------------------------------------------------------------- structure

    def sequence(self, unit: _Unit, parent: Any, ctx: _Ctx, level: int, children: list[Any] | None = None,
                 start: int | None = None, stop: int | None = None, outputs: list[str | None] | None = None) -> None:
        """Statements separated by ``;``, ``&`` or newlines (program, bodies; ``children``
        between ``start`` and ``stop`` for the inside of a group, whose statements' literal
        outputs are collected in ``outputs``, None where not known)."""
        if children is None:
            children = parent.children
        end = parent.start_byte if start is None else start
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
            before = len(self.commands)
            self.literal_out = None
            if background:
                sub = ctx.copy()
                sub.background = True
                self.statement(unit, child, sub, level + 1)
            else:
                self.statement(unit, child, ctx, level + 1)
            if outputs is not None:
                outputs.append(self.literal_out if len(self.commands) == before + 1 else None)
        if not _gap_ok(unit.slice(end, parent.end_byte if stop is None else stop)):
            self.complex("unexpected text at the end")

    def group(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``( … )`` and ``{ …; }`` run the commands inside, each judged as if typed. A
        subshell is a child shell: the folder and variables it changes stay inside; a
        ``{ …; }`` group runs in this shell, so they carry. Anything but the bare
        brackets around statements is refused as before."""
        children = node.children
        kind = node.type
        brackets = ("(", ")") if kind == "subshell" else ("{", "}")
        if len(children) < 3 or children[0].type != brackets[0] or children[-1].type != brackets[1]:
            self.complex(_CONSTRUCT_NAMES[kind])
            self.descend(unit, node, ctx, level + 1)
            return
        inner = ctx.copy() if kind == "subshell" else ctx
        outputs: list[str | None] = []
        self.sequence(unit, node, inner, level, children[1:-1], children[0].end_byte, children[-1].start_byte,
                      outputs)
        # what the group prints is what its commands print, in order (``(echo a; echo b) | sh``)
        known = [text for text in outputs if text is not None]
        self.literal_out = "".join(known) if known and len(known) == len(outputs) else None
        if known and self.literal_out is None and ctx.pipe[0] >= 0:
            self.complex(f"{_CONSTRUCT_NAMES[kind]} printing literal text beside other output")

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
        elif kind in ("subshell", "compound_statement"):
            self.group(unit, node, ctx, level)
        elif kind == "for_statement":
            self.complex(_CONSTRUCT_NAMES[kind], soft=True)
            self.for_loop(unit, node, ctx, level + 1)
        elif kind in ("while_statement", "if_statement"):
            # every command inside is judged as typed and must itself be harmless; what
            # runs zero or many times leaves the folder and values unknown
            self.complex(_CONSTRUCT_NAMES[kind], soft=True)
            saved, cwd, marks = ctx.values, ctx.cwd, ctx.marks
            ctx.marks = marks + (_INNER,)
            try:
                self.loop_body(unit, node, ctx, level + 1, again=kind == "while_statement")
            finally:
                ctx.marks = marks
            ctx.values = after_merge(ctx.values, saved)
            if ctx.cwd != cwd:
                _lost_cwd(ctx)
        else:
            self.complex(_CONSTRUCT_NAMES.get(kind, kind.replace("_", " ")))
            saved = ctx.values
            if kind == "function_definition":
                ctx.values = ctx.values.assign(ARGS, None)  # $1 … are the call's arguments
            self.descend(unit, node, ctx, level + 1)
            # a function body runs when called (its values are its own); a loop or an
            # if may run its body any number of times: what it wrote is not known
            ctx.values = saved if kind == "function_definition" else after_merge(ctx.values, saved)

    def for_loop(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``for d in /etc /usr; do …; done``: over literal words (a glob stands for the
        files it matches) the body is walked once per value (each judged); over words
        bastion cannot list (``$(…)``, ``$x``) the variable is an unknown value and the
        body is walked as a later iteration would see it too. Every command inside is
        marked: the loop is harmless only when each of them is."""
        name = ""
        words: list[str] = []
        issues: list[tuple[str, Any]] = []
        body = None
        env = ctx.scope()
        for child in node.children:
            kind = child.type
            if kind == "variable_name" and not name:
                name = unit.text_of(child)
            elif kind == "do_group":
                body = child
            elif kind in _WORDISH:
                mark = len(issues)
                decoded = decode_word(child, unit.text_of, issues, env=env)
                if len(issues) == mark:
                    words.extend(decoded)
        saved, cwd, marks = ctx.values, ctx.cwd, ctx.marks
        entry: Any = None
        if issues:
            found: list[Unknown] = []
            self.refuse(unit, issues, ctx, level, found)
            if len(found) == len(issues):
                entry = Soft(_shapes().widest([m.shape for m in found]))
        elif len(words) > _MAX_LOOP_VALUES:
            entry = Soft(_shapes().literal_shape(words))
        ctx.marks = marks + (_INNER,)
        try:
            if body is None or not name:
                self.complex("for loop without a body")
                self.descend(unit, node, ctx, level)
            elif issues or len(words) > _MAX_LOOP_VALUES:
                ctx.values = ctx.values.assign(name, entry)
                self.loop_body(unit, body, ctx, level)
            else:
                for index, word in enumerate(words):
                    ctx.values = ctx.values.assign(name, Value(word))
                    before = len(self.commands)
                    self.descend(unit, body, ctx, level)
                    if index:
                        self.repeats += len(self.commands) - before  # the same text again, not more of it
        finally:
            ctx.marks = marks
        ctx.values = after_merge(ctx.values, saved)
        if ctx.cwd != cwd and (issues or len(words) > _MAX_LOOP_VALUES):
            _lost_cwd(ctx)  # it may have run no times

    def loop_body(self, unit: _Unit, node: Any, ctx: _Ctx, level: int, again: bool = True) -> None:
        """Walk a body; when it writes variables, walk it once more as a later iteration
        sees them (each written name an unknown value there)."""
        start = ctx.values
        self.descend(unit, node, ctx, level)
        changed = ctx.values.changed(start) if again else set()
        if changed and "*" not in changed:
            values = ctx.values
            for written in changed:
                values = values.assign(written, Soft(_shapes().TEXT))
            ctx.values = values
            self.descend(unit, node, ctx, level)

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

    def refuse(self, unit: _Unit, issues: list[tuple[str, Any]], ctx: _Ctx, level: int,
               marks: list[Unknown] | None = None) -> None:
        """Record each non-literal part as a reason, and still extract the commands that
        run inside it (``$(…)``, ``<(…)``, ``${x:-$(…)}`` …). A part whose value is an
        unknown bastion can follow (:meth:`soft_shape`) is a soft reason: it is added to
        ``marks`` (the command holding it) and the commands inside are marked too."""
        for what, inode in issues:
            shape = self.soft_shape(unit, inode, ctx.values) if marks is not None and inode is not None else None
            self.complex(what, soft=shape is not None)
            if inode is None:
                continue
            if shape is not None and marks is not None:
                marks.append(Unknown("word", unit.text_of(inode), shape, shape != "fd" and _unquoted(inode)))
            if inode.type in _SUBSTITUTIONS:
                inner = ctx
                if shape is not None:
                    inner = ctx.copy()
                    inner.marks = ctx.marks + (_INNER,)
                self.substitution(unit, inode, inner, level + 1)
            elif inode.named_child_count:
                self.descend(unit, inode, ctx, level + 1)

    def soft_shape(self, unit: _Unit, node: Any, values: Values) -> str | None:
        """The shape of an unknown value bastion can follow (:mod:`.shapes`), or None:
        ``$(…)`` and backticks (their commands are walked and judged), ``<(…)`` (a file
        to read: ``fd``), ``$!``/``$?``/``$$`` (numbers), a variable holding such a value,
        and arithmetic over known numbers."""
        kind = node.type
        if kind == "command_substitution":
            return _shapes().output_shape(_inner_stages(unit, node))
        if kind == "process_substitution":
            return "fd" if unit.text_of(node).startswith("<(") else None
        if kind in ("simple_expansion", "expansion"):
            text = unit.text_of(node)
            if text in _NUMBER_SPECIALS:
                return _shapes().NUMBER
            name = text[2:-1] if text.startswith("${") and text.endswith("}") else text[1:]
            entry = values.get(name) if name.isidentifier() else None
            if entry is None and name.partition("[")[0] not in values.vars and not values.wiped:
                return _shapes().variable_shape(name)  # not set on the line: bash's or the environment's
            return entry.shape if isinstance(entry, Soft) else None
        if kind == "arithmetic_expansion" and _arithmetic_of_numbers(unit.text_of(node), values):
            return _shapes().NUMBER
        return None

    def substitution(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """Commands inside ``$(…)``, backticks, ``<(…)``: they run too."""
        sub = ctx.copy()
        sub.origin = _SUBSTITUTIONS.get(node.type, "substitution")
        sub.depth = ctx.depth + 1
        sub.pipe = (-1, 0)
        sub.pending = []
        sub.stdin = None
        before = len(self.commands)
        self.literal_out = None
        self.descend(unit, node, sub, level + 1)
        if node.type == "process_substitution" and self.literal_out is not None and len(self.commands) == before + 1:
            text = unit.text_of(node)
            if text.startswith("<("):  # ``bash <(echo X)`` runs X: the text is a file a shell may read
                self.files[text] = self.literal_out

    def and_or(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``a && b || c``: left-nested in the tree, flattened here without recursion."""
        items = _list_items(node)
        self.gaps(unit, node, items)
        self.and_or_items(unit, items, ctx, level)

    def and_or_items(self, unit: _Unit, items: list[Any], ctx: _Ctx, level: int, ran_first: bool = False) -> None:
        """Operands and ``&&``/``||`` in order (the first already walked when ``ran_first``)."""
        op = None
        before_prev = ctx.cwd
        prev_node = items[0] if ran_first else None
        #: Values once the first operand ran; a later write may not have run (``a || x=1``).
        first = ctx.values if ran_first else None
        certain = True
        for item in items[1:] if ran_first else items:
            kind = item.type
            if kind in ("&&", "||"):
                op = kind
                if first is not None and (kind == "||" or not certain):
                    ctx.values = after_merge(ctx.values, first)
                certain = certain and kind == "&&"
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
                ctx.values = alt.values
                if changed_before or alt.cwd != before_prev:
                    exits = _first_word(unit, item) in _EXITS
                    ctx.cwd = start if (changed_before and exits) else UNKNOWN_CWD
                before_prev = ctx.cwd
            else:
                before_prev = ctx.cwd
                self.statement(unit, item, ctx, level + 1)
            if first is None:
                first = ctx.values
            prev_node = item
            op = None
        if first is not None:
            ctx.values = after_merge(ctx.values, first)

    def pipeline(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """Each stage runs in a subshell: ``cd`` inside does not carry."""
        stages, tail = self.pipeline_parts(unit, node, level)
        self.stages(unit, stages, ctx, level)
        if tail:
            self.and_or_items(unit, [node, *tail], ctx, level, ran_first=True)

    def pipeline_parts(self, unit: _Unit, node: Any, level: int) -> tuple[list[Any], list[Any]]:
        """The stages of a pipeline as bash reads it, and the rest of an and-or list.

        bash's ``|`` binds tighter than ``&&`` and ``||``, but tree-sitter nests
        ``a | b && c`` as ``a | (b && c)`` and hangs ``2>/dev/null`` of ``a | b 2>/dev/null
        | c`` on ``a | b``: the stages are put back in one pipeline (the redirections on
        its last command) and ``&& c`` comes after it."""
        self.gaps(unit, node, node.children)
        stages: list[Any] = []
        tail: list[Any] = []
        named = []
        for child in node.children:
            kind = child.type
            if kind in ("|", "|&"):
                continue
            if not child.is_named or kind == "comment":
                if not child.is_named:
                    self.complex(f"unexpected {kind!r}")
                continue
            named.append(child)
        for index, child in enumerate(named):
            if child.type == "list" and index == len(named) - 1:
                items = _list_items(child)
                self.gaps(unit, child, items)
                child, tail = items[0], items[1:]
            if child.type == "redirected_statement" and level < MAX_NESTING:
                body = _body(child)
                if body is not None and body.type == "pipeline" and (last := _last_command(body)) is not None:
                    if self.dropped_dash(unit, child):
                        self.dashes.add((id(unit), last.start_byte, last.end_byte))
                        self.gaps(unit, child, child.children[1:], start=child.children[1].start_byte)
                    else:
                        self.gaps(unit, child, child.children)
                    self.attach[(id(unit), last.start_byte, last.end_byte)] = [
                        c for c in child.children if c.type in _REDIRECTS]
                    child = body
            if child.type == "pipeline" and level < MAX_NESTING:
                inner, more = self.pipeline_parts(unit, child, level + 1)
                stages.extend(inner)
                tail = more + tail
                continue
            stages.append(child)
        return stages, tail

    def stages(self, unit: _Unit, stages: list[Any], ctx: _Ctx, level: int) -> None:
        """Walk pipeline stages in order; a literal a stage prints is the next one's stdin
        (the first reads what the pipeline as a whole reads: ``echo X | { sh | cat; }``)."""
        number = self.pipes
        self.pipes += 1
        stage = 0
        stdin: str | None = ctx.stdin
        for child in stages:
            kind = child.type
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
            group = kind in ("subshell", "compound_statement")
            stdin = self.literal_out if self.literal_out is not None and (group or len(commands) == before + 1) \
                else None
            stage += 1
        self.literal_out = stdin

    def plain(self, unit: _Unit, stages: list[tuple[str, list[str]]], ctx: _Ctx) -> None:
        """A plain command or pipeline (:mod:`bastion.shell.syntax.plain`), recorded as
        :meth:`pipeline` and :meth:`command` record the same text parsed by tree-sitter."""
        self.work += 1
        if len(stages) == 1:
            text, words = stages[0]
            self.plain_command(unit, text, words, ctx, 1)
            return
        number = self.pipes
        self.pipes += 1
        stdin: str | None = ctx.stdin
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
            stdin = self.literal_out if self.literal_out is not None and len(commands) == before + 1 \
                else None
        self.literal_out = stdin

    def plain_command(self, unit: _Unit, text: str, words: list[str], ctx: _Ctx, level: int) -> None:
        """One stage of a plain command: every word is literal and decodes to itself."""
        unit.words.extend(map(_new_word, zip(words, words, count(), repeat(1))))
        self.literal_argv = True
        self.emit(unit, words, [], [], ctx, text, level)

    def redirected(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        body = None
        redirects: list[Any] = []
        children = node.children
        dash = self.dropped_dash(unit, node)
        if dash:
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
        if dash and body is not None and (last := _last_command(body)) is not None:
            self.dashes.add((id(unit), last.start_byte, last.end_byte))
        if body is not None and body.type in ("list", "pipeline", "negated_command") and redirects:
            # bash has no redirected list: ``ls && bash <<EOF`` feeds the here-document to bash
            last = _last_command(body)
            if last is not None:
                self.attach[(id(unit), last.start_byte, last.end_byte)] = redirects
                self.statement(unit, body, ctx, level + 1)
                return
        if body is not None:
            if body.type in ("subshell", "compound_statement") and redirects:
                # what the group's commands together write where is not followed
                self.complex(f"{_CONSTRUCT_NAMES[body.type]} with redirections")
            self.statement(unit, body, ctx, level + 1)
        self.command(unit, None, ctx, level, redirects, text_node=node)

    def dropped_dash(self, unit: _Unit, node: Any) -> bool:
        """tree-sitter drops a lone ``-`` (stdin) that is the last word before a
        redirection (``cat - 2>&1``, ``python - <<'PY'``, ``a | lint - 2>&1``): only that
        may lie between the body of ``node`` (a redirected statement) and its first
        redirection; the word belongs to the last command of the body."""
        children = node.children
        return (len(children) > 1 and children[0].type in ("command", "list", "pipeline")
                and children[1].type in _REDIRECTS
                and unit.slice(children[0].end_byte, children[1].start_byte).split() == ["-"])

    # ----------------------------------------------------------------- commands

    def command(self, unit: _Unit, node: Any, ctx: _Ctx, level: int, outer: list[Any] | tuple[Any, ...],
                text_node: Any = None, extra: list[str] | None = None) -> None:
        """One simple command: assignments, words and redirections, in bash's order."""
        if self.attach and node is not None:
            attached = self.attach.pop((id(unit), node.start_byte, node.end_byte), None)
            if attached:
                outer = [*outer, *attached]
        if self.dashes and node is not None and (id(unit), node.start_byte, node.end_byte) in self.dashes:
            self.dashes.discard((id(unit), node.start_byte, node.end_byte))
            extra = [*(extra or ()), "-"]
        text_of = unit.text_of
        argv: list[str] = []
        assigns: list[tuple[str, str]] = []
        issues: list[tuple[str, Any]] = []
        redirect_nodes: list[Any] = []
        last_count = 0
        env = ctx.scope()
        tilde = ctx.values.home_changed()
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
                    if _WORD_SPECIAL.search(raw) is None and not (raw[:1] == "~" and (tilde or raw[1:2] in FOLDER_TILDES)):
                        argv.append(raw)
                        words.append(_word((raw, raw, len(argv) - 1, 1)))
                    else:
                        values = decode_word(child, text_of, issues, env=env)
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
                    if name_node.type == "word" and _WORD_SPECIAL.search(raw) is None and not (raw[:1] == "~" and (tilde or raw[1:2] in FOLDER_TILDES)):
                        values = [raw]
                    else:
                        env.head = True  # $SHELL is known to be a shell here
                        values = decode_word(name_node, text_of, issues, env=env)
                        env.head = False
                    argv.extend(values)
                    words.append(_word((raw, " ".join(values), 0, len(values))))
                    last_count = len(values)
                elif kind == "variable_assignment" and not argv:
                    assigns.append(self.assignment(unit, child, issues, env))
                elif kind in _REDIRECTS:
                    redirect_nodes.append(child)
                elif kind == "number" and not child.named_child_count:
                    # a number without an expansion in it (``tail -5``) is its own text
                    raw = plain[start:end] if plain is not None else text_of(child)
                    argv.append(raw)
                    words.append(_word((raw, raw, len(argv) - 1, 1)))
                    last_count = 1
                elif kind in _WORDISH:
                    values = decode_word(child, text_of, issues, env=env)
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
            # tree-sitter reads the descriptor of ``sh 0</tmp/p`` as a last argument "0"
            # (``2>f`` it reads right): digits glued to a redirection are its descriptor
            io_number = node.children[-1] if node is not None and node.child_count and argv else None
            if io_number is not None and io_number.type != "number":
                io_number = None
            io_index = len(argv) - 1
            cut: int | None = None
            for rnode in redirect_nodes:
                if cut is not None and rnode.start_byte > cut:
                    continue  # a body line of a here-document bash has not ended yet
                self.heredoc_cut = None
                count = len(redirects)
                heredoc = self.redirect(unit, rnode, redirects, argv, issues, trailing, env) or heredoc
                cut = self.heredoc_cut if self.heredoc_cut is not None else cut
                if (io_number is not None and rnode.type == "file_redirect" and rnode.start_byte == io_number.end_byte
                        and len(redirects) == count + 1 and redirects[-1].fd is None and argv[io_index].isdigit()):
                    redirects[-1] = Redirect(redirects[-1].op, redirects[-1].target, int(argv[io_index]))
                    del argv[io_index]
                    for k in range(len(unit.words) - 1, -1, -1):
                        if unit.words[k].position == io_index:
                            del unit.words[k]
                            break
                io_number = None
        marks: list[Unknown] = []
        if issues:
            self.refuse(unit, issues, ctx, level, marks)
            if marks:
                argv = _stand_in(argv, marks)
        if env.assigned:  # ${X:=word} sets X in this shell
            for name, value in env.assigned:
                ctx.values = ctx.values.assign(name, value)
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
        self.literal_argv = not issues
        outer_marks, self.marks_next = self.marks_next, marks
        try:
            self.emit(unit, argv, assigns, redirects, ctx, shown, level, stdin)
        finally:
            self.marks_next = outer_marks
        out = self.literal_out if len(self.commands) == before + 1 else None
        self.literal_out = out
        for kind, tnode in trailing:
            if kind == "pipe":
                sub = ctx.copy()
                sub.pipe = (pipe_number, 1)
                sub.stdin = out
                if isinstance(tnode, list):  # words of a stage tree-sitter left loose
                    stage_argv: list[str] = []
                    for word in tnode:
                        values = decode_word(word, text_of, issues, env=sub.scope())
                        unit.words.append(Word(text_of(word), " ".join(values), len(stage_argv), len(values)))
                        stage_argv.extend(values)
                    self.emit(unit, stage_argv, [], [], sub, " ".join(text_of(w) for w in tnode), level + 1)
                else:
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

    def assignment(self, unit: _Unit, node: Any, issues: list[tuple[str, Any]], env: Scope | None = None,
                   bare: bool = False) -> tuple[str, str]:
        """Decode ``NAME=value``; :attr:`assigned` says what NAME holds after it (None: unknown).
        A literal array is read only where it sets a shell variable (``bare``)."""
        text_of = unit.text_of
        name = ""
        value = ""
        seen_op = ""
        mark = len(issues)
        items: list[str] | None = None
        if env is not None:
            env.anchor = None
        for child in node.children:
            kind = child.type
            if kind == "variable_name" and not seen_op:
                name = text_of(child)
            elif kind in ("=", "+="):
                seen_op = kind
            elif kind == "subscript":
                issues.append(("array subscript assignment", child))
                name = text_of(child)
            elif seen_op and kind in _WORDISH:
                values = decode_word(child, text_of, issues, braces=False, env=env, split=False)
                value = values[0] if values else ""
                unit.words.append(Word(text_of(child), value, -1))
            elif seen_op and kind == "array" and not bare:
                issues.append(("array assignment", child))
                value = text_of(child)
            elif seen_op and kind == "array":
                items = []
                for element in child.named_children:
                    if element.type not in _WORDISH or element.type == "process_substitution":
                        issues.append(("array assignment", element))
                        continue
                    decoded = decode_word(element, text_of, issues, env=env)
                    unit.words.append(Word(text_of(element), " ".join(decoded), -1, len(decoded)))
                    items.extend(decoded)
                value = text_of(child)
            elif kind == "$":
                value += unescape_unquoted(text_of(child))
                if not literal_dollar(text_of(child)):
                    issues.append(("variable expansion in an assignment", child))
            else:
                issues.append((f"{kind.replace('_', ' ')} in an assignment", child))
        extended = self.extends_inherited(name, value, issues, mark, env)
        if extended is not None:
            value = extended
        self.assigned = self.assigned_value(name, value, items, seen_op, len(issues) == mark, env)
        if extended is not None:
            self.assigned = None  # what NAME holds now includes what it inherited: not known
        elif len(issues) > mark and env is not None and name:
            self.assigned = self.soft_value(unit, name, value, issues, mark, env)
        return name, value

    def soft_value(self, unit: _Unit, name: str, value: str, issues: list[tuple[str, Any]], mark: int,
                   env: Scope) -> Soft | None:
        """``x=$(cmd)``, ``PID=$!``: NAME holds an unknown value bastion can follow (its
        uses are judged where they land), unless NAME steers which code runs (``PATH``,
        ``LD_PRELOAD``: then the value stays a reason no analysis answers)."""
        shapes: list[str] = []
        for _what, inode in issues[mark:]:
            shape = self.soft_shape(unit, inode, env.values) if inode is not None else None
            if shape is None:
                return None
            shapes.append(shape)
        if is_dangerous_env(name) or name in EMBEDDED_ENV_VARS:
            issues.append((f"unknown value for {name}", None))
            return None
        whole = len(issues) == mark + 1 and issues[mark][1] is not None and unit.text_of(issues[mark][1]) == value
        return Soft(shapes[0] if whole else _shapes().TEXT)

    def extends_inherited(self, name: str, value: str, issues: list[tuple[str, Any]], mark: int,
                          env: Scope | None) -> str | None:
        """``PYTHONPATH=src:$PYTHONPATH``, ``PATH="$HOME/bin:$PATH"``: a name extended with
        the value it inherited (not set on this line) keeps what the environment already
        gave every command and adds only what is written. The value is judged as the
        written entries alone (``src``); the only issues were that self-reference."""
        if not name or env is None or env.values.get(name) is not None or len(issues) == mark:
            return None
        own = {f"variable expansion ${name}", f"variable expansion ${{{name}}}"}
        if any(what not in own for what, _ in issues[mark:]):
            return None
        entries = [entry for entry in value.split(":") if entry not in (f"${name}", f"${{{name}}}")]
        if len(entries) == len(value.split(":")) or any(f"${name}" in e or f"${{{name}}}" in e for e in entries):
            return None  # the self-reference is not a whole entry of a list (``X=a$X``)
        del issues[mark:]
        return ":".join(entries)

    def assigned_value(self, name: str, value: str, items: list[str] | None, op: str, literal: bool,
                       env: Scope | None) -> Value | None:
        """What ``name`` holds after an assignment of ``value`` (None: not known)."""
        if not literal or not name or env is None:
            return None
        old = env.values.get(name)
        exported = name in _EXPORTED or (isinstance(old, Value) and old.exported)
        if op == "+=":
            if (items is not None or not isinstance(old, Value) or old.items is not None or old.anchor is not None
                    or old.command):
                return None
            return Value(old.text + value, exported=exported)
        if items is not None:
            return None if env.anchor is not None else Value(items[0] if items else "", tuple(items), exported=exported)
        return Value(value, anchor=env.anchor, exported=exported)

    def redirect(self, unit: _Unit, node: Any, out: list[Redirect], argv: list[str],
                 issues: list[tuple[str, Any]], trailing: list[tuple[str, Any]],
                 env: Scope | None = None) -> tuple[str, bool] | None:
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
            piped: list[Any] | None = None
            for child in node.children:
                ckind = child.type
                if piped is not None:
                    if ckind in _WORDISH:
                        piped.append(child)
                    else:
                        issues.append((f"{ckind.replace('_', ' ')} in a redirection", child))
                    continue
                if ckind == "ERROR" and targets and text_of(child).strip() in ("|", "|&"):
                    # ``sh <<EOF 2>&1 | tee log``: tree-sitter folds the next stage into the
                    # redirection on a here-document line; its words are that stage
                    piped = []
                elif ckind == "file_descriptor":
                    fd = _int(text_of(child))
                elif not child.is_named:
                    op = op or ckind
                elif ckind in _WORDISH:
                    if ckind == "number" and not child.named_child_count:
                        values = [text_of(child)]  # ``2>&1``: a number without an expansion is its own text
                    else:
                        values = decode_word(child, text_of, issues, env=env, split=bool(targets))
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
            if piped:
                trailing.append(("pipe", piped))
            return None
        if kind == "herestring_redirect":
            value = ""
            for child in node.children:
                ckind = child.type
                if ckind == "file_descriptor":
                    fd = _int(text_of(child))
                elif ckind in _WORDISH:
                    count = len(issues)
                    values = decode_word(child, text_of, issues, braces=False, env=env, split=False)
                    value = values[0] if values else ""
                    unit.words.append(Word(text_of(child), value, -1))
                    result = (value + "\n", len(issues) == count)
                elif child.is_named:
                    issues.append((f"{ckind.replace('_', ' ')} in a here-string", child))
            out.append(Redirect("<<<", value, fd))  # the text, not a path: ``ruby <<< 'code'`` runs it
            return result
        # heredoc_redirect: the body is data (not a path); the rest of its line may hold
        # more redirections, a pipeline or a list, which tree-sitter nests in here.
        quoted = False
        body_node = None
        end_node = None
        op = "<<"
        pending_op: str | None = None
        children = node.children
        cut = self.heredoc_cut = _runaway_heredoc(unit, children)
        for child in children:
            ckind = child.type
            if cut is not None and child.start_byte > cut:
                continue  # tree-sitter read body lines as redirections or commands
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
                self.redirect(unit, child, out, argv, issues, trailing, env)
            elif ckind == "ERROR" and child.named_child_count == 1 and child.named_children[0].type == "file_redirect":
                # ``sh <<EOF 2>&1 | a | b``: the redirection tree-sitter could not place
                issues.append(("syntax error on a here-document line", None))
                self.redirect(unit, child.named_children[0], out, argv, issues, trailing, env)
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
        if cut is not None:
            # bash ends a here-document only at a line that is exactly the delimiter
            self.complex("here-document delimiter followed by more text on its line")
            body = _bash_heredoc_body(unit.slice(body_node.start_byte, unit.root.end_byte), node, unit, op)
            if not quoted and ("$" in body or "`" in body):
                literal = False
        if not quoted:
            body = unescape_heredoc(body)
        if op == "<<-":
            body = "\n".join(line.lstrip("\t") for line in body.split("\n"))
        return (body, literal)

    def bare_assignments(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        issues: list[tuple[str, Any]] = []
        parts = [node] if node.type == "variable_assignment" else node.named_children
        assigns = []
        for child in parts:
            if child.type == "variable_assignment":
                assigns.append(self.assignment(unit, child, issues, ctx.scope(), bare=True))  # a=r b=$a: in order
                if assigns[-1][0]:
                    ctx.values = ctx.values.assign(assigns[-1][0], self.assigned)
        self.marked_emit(unit, issues, ctx, level, [], assigns, unit.text_of(node))

    def marked_emit(self, unit: _Unit, issues: list[tuple[str, Any]], ctx: _Ctx, level: int, argv: list[str],
                    assigns: list[tuple[str, str]], text: str, persistent: list[tuple[str, str]] | None = None) -> None:
        """:meth:`refuse` the issues, then emit the command with the unknowns it holds."""
        marks: list[Unknown] = []
        self.refuse(unit, issues, ctx, level, marks)
        if marks and argv:
            argv = _stand_in(argv, marks)
        outer, self.marks_next = self.marks_next, marks
        try:
            self.emit(unit, argv, assigns, [], ctx, text, level, persistent=persistent)
        finally:
            self.marks_next = outer

    def declaration(self, unit: _Unit, node: Any, ctx: _Ctx, level: int) -> None:
        """``export A=1 B``, ``local x``, ``unset X``: literal words only."""
        text_of = unit.text_of
        issues: list[tuple[str, Any]] = []
        argv: list[str] = []
        assigns: list[tuple[str, str]] = []
        env = ctx.scope()
        written: list[tuple[str, Value | Soft | None]] = []
        for child in node.children:
            kind = child.type
            if not child.is_named:
                argv.append(kind)
            elif kind == "word" and text_of(child).startswith("-") and "n" in text_of(child):
                # declare -n makes a name reference: later assignments write another variable
                issues.append(("name reference (declare -n)", child))
                argv.append(text_of(child))
            elif kind == "variable_assignment":
                name, value = self.assignment(unit, child, issues, env, bare=True)
                assigns.append((name, value))
                argv.append(f"{name}={value}")
                written.append((name, self.assigned))
            elif kind == "variable_name":
                argv.append(text_of(child))
                written.append((argv[-1], _NAMED))
            elif kind in _WORDISH:
                values = decode_word(child, text_of, issues, env=env)
                argv.extend(values)
                unit.words.append(Word(text_of(child), " ".join(values), len(argv) - len(values), len(values)))
            else:
                issues.append((kind.replace("_", " "), child))
        self.marked_emit(unit, issues, ctx, level, argv, [], text_of(node), persistent=assigns)
        if written:
            ctx.values = _declared(ctx.values, argv, written)

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
                values = decode_word(leaf, text_of, issues, env=ctx.scope())
                argv.extend(values)
                unit.words.append(Word(text_of(leaf), " ".join(values), len(argv) - len(values), len(values)))
            else:
                issues.append((f"{kind!r} inside [ … ]", leaf))
        self.marked_emit(unit, issues, ctx, level, argv, [], text_of(node))

    # ----------------------------------------------------------------- emitting

    def emit(self, unit: _Unit, argv: list[str], assigns: list[tuple[str, str]], redirects: list[Redirect],
             ctx: _Ctx, text: str, level: int, stdin: str | None = None,
             persistent: list[tuple[str, str]] | None = None) -> None:
        """Peel wrappers, parse shell strings again, track ``cd``; record the command."""
        self.literal_out = None
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
        if gnu_name(argv[0]) is not argv[0]:  # ``gtimeout`` is ``timeout`` (:mod:`.gnu`)
            argv = [gnu_name(argv[0]), *argv[1:]]
        head = argv[0].rsplit("/", 1)[-1]
        cwd = ctx.cwd
        literal, self.literal_argv = self.literal_argv, False
        if head in _VALUE_WRITERS:
            ctx.values = _read_into(ctx.values, head, argv)
        elif head in _POSITIONAL_WRITERS:
            ctx.values = positional(ctx.values, argv, literal and head == argv[0])
        if head not in _EMITTED and not (self.files and "/" in argv[0]):
            # nothing to peel, parse again, track or run: record it as it is
            merged = [*ctx.assignments, *ctx.carried, *assigns] if (ctx.assignments or ctx.carried) else assigns
            self.record(unit, tuple(argv), merged + persistent if persistent else merged, redirects, ctx.wrappers,
                        cwd, ctx.origin, text, ctx)
            self.embedded(unit, tuple(argv), merged, ctx.wrappers, cwd, ctx, text, level)
            if head in PRODUCERS:
                self.produce(tuple(argv), self.input_of(stdin, ctx, redirects, cwd), redirects, cwd, ctx)
            return
        fed = self.input_of(stdin, ctx, redirects, cwd)
        if head in WRAPPER_NAMES:
            peeled = peel(tuple(argv))
            if fed is not None and "xargs" in peeled.wrappers and self.xargs(unit, argv, assigns, redirects, ctx,
                                                                            text, level, fed):
                return
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
        if peeled is not None and name in _POSITIONAL_WRITERS:
            ctx.values = ctx.values.assign(ARGS, None)  # ``builtin set -- …``: not followed
        if name in _KEYWORDS and len(effective) > 1:
            saved = ctx.wrappers
            ctx.wrappers = wrappers
            try:
                self.emit(unit, list(effective[1:]), [*assigns, *(peeled.assignments if peeled else ())],
                          redirects, ctx, text, level + 1, stdin)
            finally:
                ctx.wrappers = saved
            return
        if name in SHELLS:
            if self.files and merged:
                self.startup(unit, effective, merged, wrappers, cwd, ctx, text, level)
            script = shell_string(effective)
            if script is not None:
                self.nested(unit, script, "bash -c", effective, merged, redirects, wrappers + (name,), cwd, ctx,
                            text, level)
                return
            how, operand = shell_input(effective)
            if how == "file" and operand in _STDIN_FILES:
                how = "stdin"
            if how == "stdin" and fed is not None:
                self.nested(unit, fed, "heredoc", effective, merged, redirects, wrappers + (name,), cwd, ctx,
                            text, level)
                return
            content = self.searched_text(operand, merged, cwd) if how == "file" else None
            if content is not None:
                self.run_file(unit, content, "script", effective, merged, redirects, wrappers, cwd, origin, ctx,
                              text, level)
                return
        elif name in ("source", ".") and len(effective) > 1:
            # a file written earlier in this command line, or stdin, read by this shell
            content = fed if effective[1] in _STDIN_FILES else self.searched_text(effective[1], merged, cwd)
            if content is not None:
                self.run_file(unit, content, "source", effective, merged, redirects, wrappers, cwd, origin, ctx,
                              text, level)
                return
        elif name in _SCHEDULERS:
            content = self.scheduled(effective, fed, cwd)
            if content is not None:
                self.run_file(unit, content, "script", effective, merged, redirects, wrappers, cwd, origin, ctx,
                              text, level)
                return
        elif name in _MAKES and self.files:
            content = self.makefile_recipes(effective, cwd)
            if content is not None:
                self.run_file(unit, content, "script", effective, merged, redirects, wrappers, cwd, origin, ctx,
                              text, level)
                return
        elif self.files and "/" in effective[0]:
            content = self.file_text(effective[0], cwd)  # a script written here, run by its path
            if content is not None and _shell_script(content):
                self.run_file(unit, content, "script", effective, merged, redirects, wrappers, cwd, origin, ctx,
                              text, level)
                return
        self.record(unit, effective, merged, redirects, wrappers, cwd, origin, text, ctx)
        self.embedded(unit, effective, merged, wrappers, cwd, ctx, text, level)
        if name in PRODUCERS and (peeled is None or OUTPUT_WRAPPERS.issuperset(peeled.wrappers)):
            self.produce(effective, fed, redirects, cwd, ctx)
        if name in _CD and (peeled is None or set(peeled.wrappers) <= _CD_WRAPPERS):
            if self.marks_next and any(m.kind == "word" and m.raw in arg for m in self.marks_next
                                       for arg in effective[1:]):
                _lost_cwd(ctx)  # the folder is the text of ``$(…)``: what runs there is marked
                ctx.values = ctx.values.moved(None)
                return
            _track_cd(ctx, effective)
        elif name in ("source", ".") and len(effective) > 1:
            ctx.values = ctx.values.wipe()  # a file bastion cannot read may set anything
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

    def embedded(self, unit: _Unit, effective: tuple[str, ...], merged: list[tuple[str, str]],
                 wrappers: tuple[str, ...], cwd: str | None, ctx: _Ctx, text: str, level: int) -> None:
        """Shell strings the command's options or environment hand to a shell
        (:mod:`bastion.shell.syntax.embedded`): parsed again, the command stays recorded."""
        if self.files and effective:
            self.carried(unit, effective, merged, wrappers, cwd, ctx, text, level)
        found = embedded_shell(effective, merged)
        if not found:
            return
        inner = [(k, v) for k, v in merged if k not in EMBEDDED_ENV_VARS]  # not read again inside
        name = _base_name(effective[0]) if effective else ""
        for origin, script in found:
            self.nested(unit, script, origin, effective, inner, [], wrappers + (name,), cwd, ctx, text, level,
                        recorded=True)

    def carried(self, unit: _Unit, effective: tuple[str, ...], merged: list[tuple[str, str]],
                wrappers: tuple[str, ...], cwd: str | None, ctx: _Ctx, text: str, level: int) -> None:
        """A file this line wrote, under another name (:mod:`.carried`): a copy or link
        holds its text, and a module written where Python imports from runs as the
        program it is (``python3 -c '<its text>'``, read by the Python model)."""
        from .carried import COPIERS, copies, module_files, script_file  # only a line that wrote files

        name = _base_name(effective[0])
        if name in COPIERS:
            for source, target in copies(effective):
                content = self.file_text(source, cwd)
                if content is not None:
                    self.write_file(cwd, target, content, False)
        elif name.startswith("python"):
            import shlex

            script = script_file(effective)
            for path in [script] if script else module_files(effective, merged):
                content = self.file_text(path, cwd)
                if content is not None:
                    program = f"{shlex.quote(effective[0])} -c {shlex.quote(content)}"
                    self.nested(unit, program, "module", effective, merged, [], wrappers + (name,), cwd, ctx, text,
                                level, recorded=True)

    def startup(self, unit: _Unit, effective: tuple[str, ...], merged: list[tuple[str, str]],
                wrappers: tuple[str, ...], cwd: str | None, ctx: _Ctx, text: str, level: int) -> None:
        """A start-up file this line wrote, sourced by the shell it starts before anything
        else (``BASH_ENV=/tmp/env.sh bash x.sh``)."""
        from .carried import startup_files  # only a line that wrote files

        name = _base_name(effective[0])
        for path in startup_files(merged):
            content = self.file_text(path, cwd)
            if content is not None:
                self.nested(unit, content, "source", effective, merged, [], wrappers + (name,), cwd, ctx, text,
                            level, recorded=True)

    def nested(self, unit: _Unit, script: str, origin: str, effective: tuple[str, ...],
               merged: list[tuple[str, str]], redirects: list[Redirect], wrappers: tuple[str, ...],
               cwd: str | None, ctx: _Ctx, text: str, level: int, shares_shell: bool = False,
               recorded: bool = False) -> None:
        """Parse a shell string again; its commands replace the wrapper command (unless
        the caller ``recorded`` it already)."""
        if self.marks_next and any(m.kind == "word" and m.raw in script for m in self.marks_next):
            self.complex("the output of a substitution is run as shell code")
        if ctx.reparse + 1 > MAX_DEPTH:
            self.complex(f"shell strings nested more than {MAX_DEPTH} levels deep")
            if not recorded:
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
        if not shares_shell:
            sub.values = ctx.values.exported()  # a new shell: only exported variables
        before = len(self.commands)
        unit.scripts.add(script)
        label = _NESTED_LABELS.get(origin) or f"{origin} string"
        inner = self.run(script, sub, label)
        if not recorded and (inner is None or len(self.commands) == before):
            # nothing inside (or refused): keep the wrapper itself visible
            self.record(unit, effective, merged, redirects, wrappers[:-1], cwd, ctx.origin, text, ctx)
        if shares_shell and not ctx.background and ctx.pipe[0] < 0:
            ctx.cwd = sub.cwd
            ctx.carried = ctx.carried + sub.carried
            ctx.values = sub.values

    def run_file(self, unit: _Unit, content: str, origin: str, effective: tuple[str, ...],
                 merged: list[tuple[str, str]], redirects: list[Redirect], wrappers: tuple[str, ...],
                 cwd: str | None, runner_origin: str, ctx: _Ctx, text: str, level: int) -> None:
        """A script this command line wrote is run (``bash f``, ``. f``, ``./f``): the
        runner stays recorded (the file may hold more than was written here) and the
        written text is parsed as its code."""
        self.record(unit, effective, merged, redirects, wrappers, cwd, runner_origin, text, ctx)
        name = _base_name(effective[0])
        mark = len(self.reasons)
        before = len(self.commands)
        self.nested(unit, content, origin, effective, merged, [], wrappers + (name,), cwd, ctx, text, level,
                    shares_shell=origin == "source", recorded=True)
        self.file_commands += len(self.commands) - before
        if len(self.reasons) > mark and not self.stopped:
            # the file's commands are judged (hard blocks, asks), but a file bastion cannot
            # follow is no reason to trust the command less than running an unknown file;
            # a cap it ran into is (what lies beyond was not seen)
            dropped = [r for r in self.reasons[mark:] if not any(m in r for m in _LIMIT_MARKS)]
            for reason in dropped:
                self.seen_reasons.discard(reason)
                self.reasons.remove(reason)

    def scheduled(self, argv: tuple[str, ...], fed: str | None, cwd: str | None) -> str | None:
        """The commands ``at``/``batch`` queue for a shell: stdin, or ``-f FILE``; None when
        it only lists, removes or shows jobs (``-l``, ``-r``, ``-d``, ``-c``)."""
        args = argv[1:]
        for index, arg in enumerate(args):
            if arg in ("-l", "-r", "-d", "-c"):
                return None
            if arg.startswith("-f"):
                path = arg[2:] or (args[index + 1] if index + 1 < len(args) else "")
                return self.file_text(path, cwd)
        return fed

    def makefile_recipes(self, argv: tuple[str, ...], cwd: str | None) -> str | None:
        """The recipe lines of a makefile this command line wrote, which ``make`` runs in
        a shell: every tab-indented line, without make's ``@``/``-``/``+`` prefixes and
        with ``$$`` as ``$`` (more lines than one target runs: fail closed)."""
        args = argv[1:]
        names: list[str] = []
        for index, arg in enumerate(args):
            if arg in ("-f", "--file", "--makefile") and index + 1 < len(args):
                names.append(args[index + 1])
            elif arg.startswith(("--file=", "--makefile=")):
                names.append(arg.partition("=")[2])
            elif arg.startswith("-f") and len(arg) > 2:
                names.append(arg[2:])
            elif arg in ("-C", "--directory") or arg.startswith(("-C", "--directory=")):
                return None  # another directory: its makefile is not known here
        texts = [self.file_text(n, cwd) for n in names or ("GNUmakefile", "makefile", "Makefile")]
        content = next((t for t in texts if t is not None), None)
        if content is None:
            return None
        recipes = [line[1:].lstrip("@+-").replace("$$", "$") for line in content.split("\n") if line.startswith("\t")]
        return "\n".join(recipes) + "\n" if recipes else None

    def file_text(self, path: str, cwd: str | None) -> str | None:
        """The literal content this command line wrote to ``path``, if any."""
        return self.files.get(_file_key(cwd, path)) if path else None

    def searched_text(self, name: str, env: list[tuple[str, str]], cwd: str | None) -> str | None:
        """:meth:`file_text` of the file ``bash NAME`` or ``source NAME`` runs: NAME in the
        folder, else (no slash in it) in a ``PATH`` folder the line set, where the line
        may have written it (``PATH=/tmp/bin:$PATH bash setup``)."""
        content = self.file_text(name, cwd)
        if content is not None or not name or "/" in name or not self.files:
            return content
        folders = next((v for k, v in reversed(env) if k == "PATH"), "")
        for folder in folders.split(":"):
            if folder:
                content = self.file_text(folder.rstrip("/") + "/" + name, cwd)
                if content is not None:
                    return content
        return None

    def write_file(self, cwd: str | None, path: str, text: str | None, append: bool) -> None:
        """Remember what a write put in ``path``; text not known (None) forgets a file a
        ``>`` truncates, and keeps what ``>>`` appends to."""
        if not path or (path.startswith("/dev/") and not path.startswith(("/dev/shm/", "/dev/mqueue/"))):
            return  # a device (``/dev/null``, ``/dev/stderr``), not a file that can be run
        key = _file_key(cwd, path)
        if text is None:
            if not append:
                self.files.pop(key, None)
            return
        if append:
            text = self.files.get(key, "") + text
        if len(text) <= MAX_BYTES:
            self.files[key] = text
        else:
            self.files.pop(key, None)

    def input_of(self, stdin: str | None, ctx: _Ctx, redirects: list[Redirect], cwd: str | None) -> str | None:
        """The literal text on a command's stdin: its here-document or here-string, the
        previous pipeline stage's output, or a file this command line wrote (``sh < f``)."""
        fed = stdin if stdin is not None else ctx.stdin
        if self.files and redirects:
            for redirect in redirects:
                if redirect.op == "<" and redirect.fd in (None, 0):
                    fed = self.file_text(redirect.target, cwd)
        return fed

    def produce(self, argv: tuple[str, ...], fed: str | None, redirects: list[Redirect], cwd: str | None,
                ctx: _Ctx) -> None:
        """What a producer (``echo``, ``printf``, ``cat``, ``tee``, ``realpath`` …) prints goes to the next
        pipeline stage (:attr:`literal_out`) or, redirected, into a file (:attr:`files`)."""
        tee = argv[0].endswith("tee")
        if not (ctx.pipe[0] >= 0 or tee or ctx.origin in _SUBSTITUTED or any(r.op in _STDOUT_OPS for r in redirects)):
            return  # printed to the terminal: nothing runs it
        if tee and fed is not None:
            paths, append = tee_files(argv)
            for path in paths:
                self.write_file(cwd, path, fed, append)
        # ``pwd`` prints the folder: an absolute one as it is, the call's own (or one a
        # relative ``cd`` reached, which the next stage shares) as ``.``
        here = None if cwd == UNKNOWN_CWD else cwd if cwd and cwd.startswith(("/", "~")) else "."
        out = literal_output(argv, fed, cwd=here)
        if out is None and self.files and argv[0].rsplit("/", 1)[-1] == "cat" and len(argv) > 1:
            parts = [self.file_text(a, cwd) if a != "-" else fed for a in argv[1:]]
            known = [p for p in parts if p is not None]
            out = "".join(known) if len(known) == len(parts) else None
        if out is None:
            return
        target: Redirect | None = None
        to_pipe = True
        for redirect in redirects:
            if redirect.op not in _STDOUT_OPS or redirect.fd not in (None, 1):
                continue
            if redirect.op == ">&" and (redirect.target.isdigit() or redirect.target == "-"):
                to_pipe = redirect.target == "1"  # >&2: to another descriptor, not the pipe
                target = None
            else:
                to_pipe = False
                target = redirect
        if target is not None:
            self.write_file(cwd, target.target, out, ">>" in target.op)
        elif to_pipe:
            self.literal_out = out

    def xargs(self, unit: _Unit, argv: list[str], assigns: list[tuple[str, str]], redirects: list[Redirect],
              ctx: _Ctx, text: str, level: int, fed: str) -> bool:
        """``xargs CMD`` with literal text on its stdin runs CMD with that text as
        arguments: record those commands (``xargs rm -rf <<< ~`` runs ``rm -rf ~``)."""
        index = next((i for i, word in enumerate(argv) if _base_name(word) == "xargs"), -1)
        if index < 0:
            return False
        options, start = wrapper_options(tuple(argv[index:]))
        runs = xargs_commands(options, tuple(argv[index + start :]), fed)
        if not runs:
            return False
        sub = ctx.copy()
        sub.stdin = None
        sub.origin = "xargs"
        sub.wrappers = ctx.wrappers + ("xargs",)
        for run in runs:
            self.emit(unit, [*argv[:index], *run], list(assigns), redirects, sub, text, level + 1)
        self.literal_out = None
        return True

    def record(self, unit: _Unit, argv: tuple[str, ...], assigns: list[tuple[str, str]],
               redirects: list[Redirect], wrappers: tuple[str, ...], cwd: str | None, origin: str,
               text: str, ctx: _Ctx) -> None:
        if ctx.pending:
            redirects = ctx.pending + list(redirects)
            ctx.pending.clear()
        if self.files and redirects:
            for redirect in redirects:
                if redirect.writes and redirect.op != ">&":
                    self.write_file(cwd, redirect.target, None, ">>" in redirect.op)
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
            "unknowns": (*ctx.marks, *self.marks_next) if ctx.marks or self.marks_next else (),
        })
        self.commands.append(cmd)
        unit.commands.append(cmd)
        if argv:
            unit.names.add(argv[0].rsplit("/", 1)[-1] if "/" in argv[0] else argv[0])


# --------------------------------------------------------------------------- helpers

#: Marks of commands inside ``$(…)``, a loop or an ``if``, and of commands run in a
#: folder a ``cd`` to unknown text reached (:class:`~.script.Unknown`).
_INNER = Unknown("inner")
_CWD = Unknown("cwd")
#: Special parameters that hold a number: the last background job, the exit status, the shell.
_NUMBER_SPECIALS = frozenset({"$!", "$?", "$$"})
_ARITH_TOKEN = LazyPattern(r"\s*(?:(\d+)|\$?\{?([A-Za-z_]\w*)\}?|(\*\*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>!~^&|?:]))")
_SHAPES: Any = None


def _shapes() -> Any:
    """:mod:`.shapes`, imported when an unknown value is first met."""
    global _SHAPES
    if _SHAPES is None:
        from . import shapes

        _SHAPES = shapes
    return _SHAPES


def _stand_in(argv: list[str], marks: list[Unknown]) -> list[str]:
    """A number inside a word stands for a number: ``sed -n "$((n+20))p"`` is judged as
    ``sed -n 12345p`` (any number there does the same). A word that is only the unknown
    (``$x`` as a program, ``kill $!``) and other unknown text stay as written."""
    numbers = sorted({m.raw for m in marks if m.kind == "word" and m.shape == "number"}, key=len, reverse=True)
    if not numbers:
        return argv
    out = []
    for word in argv:
        if word not in numbers:
            for raw in numbers:
                word = word.replace(raw, "12345")
        out.append(word)
    return out


def _lost_cwd(ctx: _Ctx) -> None:
    """A ``cd`` that may or may not have run: the folder is not known, and what runs
    there is marked (it must be harmless wherever it runs)."""
    ctx.cwd = UNKNOWN_CWD
    if _CWD not in ctx.marks:
        ctx.marks = ctx.marks + (_CWD,)


def _unquoted(node: Any) -> bool:
    """An expansion outside double quotes is split on blanks (it may become several words)."""
    parent = node.parent
    return parent is None or parent.type != "string"


def _inner_stages(unit: _Unit, node: Any) -> list[list[str]] | None:
    """The literal words of each pipeline stage inside ``$(…)`` (None when not plain)."""
    named = [c for c in node.named_children if c.type != "comment"]
    if len(named) != 1:
        return None
    stmt = named[0]
    if stmt.type == "redirected_statement":
        bodies = [c for c in stmt.named_children if c.type not in _REDIRECTS]
        if len(bodies) != 1:
            return None
        stmt = bodies[0]
    stages = [c for c in stmt.named_children if c.type != "comment"] if stmt.type == "pipeline" else [stmt]
    out: list[list[str]] = []
    for stage in stages:
        if stage.type == "redirected_statement":
            bodies = [c for c in stage.named_children if c.type not in _REDIRECTS]
            stage = bodies[0] if len(bodies) == 1 else stage
        if stage.type != "command":
            return None
        argv: list[str] = []
        issues: list[tuple[str, Any]] = []
        for child in stage.named_children:
            target = child.children[0] if child.type == "command_name" and child.child_count == 1 else child
            if target.type in _REDIRECTS:
                continue
            if target.type not in _WORDISH:
                return None
            argv.extend(decode_word(target, unit.text_of, issues))
        if issues or not argv:
            return None
        out.append(argv)
    return out


def _arithmetic_of_numbers(text: str, values: Values) -> bool:
    """``$((line+20))`` where every name holds a number: the result is a number. A name
    holding other text is evaluated as an expression (``a[$(cmd)]`` runs cmd); assignments
    (``=``, ``++``) change the shell: both are refused."""
    inner = text[3:-2] if text.startswith("$((") and text.endswith("))") else None
    if inner is None or "++" in inner or "--" in inner:
        return False
    pos = 0
    while pos < len(inner):
        match = _ARITH_TOKEN.match(inner, pos)
        if match is None or match.end() == pos:
            return inner[pos:].strip() == ""
        name = match.group(2)
        if name is not None:
            entry = values.get(name)
            number = isinstance(entry, Value) and entry.items is None and entry.text.strip().lstrip("-").isdigit()
            if not number and not (isinstance(entry, Soft) and entry.shape == "number"):
                return False
        pos = match.end()
    return True



#: The fields :meth:`_Walker.record` always passes.
_RECORDED = ("argv", "assignments", "redirects", "wrappers", "cwd", "origin", "text", "depth", "pipeline",
             "pipe_index", "background", "unknowns")
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


#: bash keywords; one read as a command name (``command ! rm …``, ``env -i if …``,
#: ``then curl …`` after a misread ``if``) is either refused by bash or a compound
#: command tree-sitter misread: the words after it are judged as the command.
_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac"})
#: Command names :meth:`_Walker.emit` does more for than record them: wrappers to peel,
#: shells and ``source`` whose input is code, ``cd`` to track, ``-exec`` runners, keywords
#: read as names; and ``echo`` (its stage gets a context of its own). The other producers
#: of :mod:`bastion.shell.syntax.literal` are recorded as they are, then :meth:`_Walker.produce`
#: passes on what they print.
_EMITTED = WRAPPER_NAMES | SHELLS | _CD | _EXEC_RUNNERS | _KEYWORDS | _SCHEDULERS | _MAKES | {"source", ".", "echo"}
#: How a text parsed again is named in reasons (``syntax error in here-document``).
_NESTED_LABELS = {"heredoc": "here-document", "script": "script file", "source": "sourced file"}


def _base_name(word: str) -> str:
    return word.rsplit("/", 1)[-1] if "/" in word else word


def _first_word(unit: _Unit, node: Any) -> str:
    text = unit.text_of(node).split(None, 1)
    return unescape_unquoted(text[0]) if text else ""


#: Words after the ``time`` keyword that tree-sitter cannot read as a command (it does
#: not know ``time`` is a keyword): the start of a compound command.
_AFTER_TIME = frozenset({"{", "if", "for", "while", "until", "case", "select", "[[", "!", "function", "coproc"})


def _time_keywords(root: Any, data: bytes) -> list[tuple[int, int]]:
    """Byte spans of ``time`` (and ``-p``) before a compound command: ``time { a; }``."""
    spans: list[tuple[int, int]] = []
    stack = [root]
    steps = 0
    while stack and steps < MAX_WORK:
        steps += 1
        node = stack.pop()
        if node.type == "command" and node.child_count > 1:
            children = node.children
            first = children[0]
            if first.type == "command_name" and data[first.start_byte : first.end_byte] == b"time":
                end = first.end_byte
                rest = children[1:]
                while rest and rest[0].type == "word" and data[rest[0].start_byte : rest[0].end_byte] in (b"-p", b"--"):
                    end = rest[0].end_byte
                    rest = rest[1:]
                after = data[rest[0].start_byte : rest[0].end_byte].split(None, 1) if rest else []
                if after and after[0].decode("utf-8", "replace") in _AFTER_TIME:
                    spans.append((first.start_byte, end))
        if node.named_child_count:
            stack.extend(node.named_children)
    return spans


def _file_key(cwd: str | None, path: str) -> str:
    """One name per file for :attr:`_Walker.files`: ``x.sh``, ``./x.sh`` and, after
    ``cd /tmp``, ``/tmp/x.sh`` are the same file; a process substitution is its text."""
    if path.startswith("<("):
        return path
    if cwd == UNKNOWN_CWD and not path.startswith(("/", "~")):
        return UNKNOWN_CWD + "/" + posixpath.normpath(path)
    return _join_cwd(cwd, path)


def _shell_script(content: str) -> bool:
    """Whether a file run by its path is shell code: no ``#!`` line (the shell runs it)
    or one naming a shell (``#!/bin/sh``, ``#!/usr/bin/env bash``)."""
    if not content.startswith("#!"):
        return True
    words = content[2:].split("\n", 1)[0].split()
    if not words:
        return True
    name = _base_name(words[0])
    if name == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        name = _base_name(rest[0]) if rest else ""
    return name in SHELLS


def _heredoc_parts(node: Any) -> tuple[Any, Any]:
    """The ``heredoc_start`` and ``heredoc_end`` children of a here-document."""
    start = end = None
    for child in node.children:
        if child.type == "heredoc_start":
            start = child
        elif child.type == "heredoc_end":
            end = child
    return start, end


def _runaway_heredoc(unit: _Unit, children: list[Any]) -> int | None:
    """tree-sitter ends a here-document at a line that starts with the delimiter; bash
    only at a line that is exactly the delimiter (``EOF >/dev/null &`` is a body line).
    Returns where tree-sitter's end line starts when bash reads on, else None."""
    end = children[-1] if children else None
    if end is None or end.type != "heredoc_end":
        end = next((c for c in children if c.type == "heredoc_end"), None)
        if end is None:
            return None
    after = unit.slice(end.end_byte, end.end_byte + 1)
    return end.start_byte if after and after != "\n" else None


#: What bash removes from a heredoc's delimiter word: its quotes and backslashes.
_HEREDOC_QUOTING = LazyPattern(r"[\"'\\]")


def _bash_heredoc_body(text: str, node: Any, unit: _Unit, op: str) -> str:
    """The body bash reads from ``text`` (everything after the ``<<`` line): up to a line
    that is exactly the delimiter, or to the end."""
    start, _end = _heredoc_parts(node)
    delimiter = _HEREDOC_QUOTING.sub("", unit.text_of(start)) if start is not None else ""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if (line.lstrip("\t") if op == "<<-" else line) == delimiter:
            return "\n".join(lines[:index]) + "\n"
    return text if text.endswith("\n") else text + "\n"


def _list_items(node: Any) -> list[Any]:
    """``a && b || c`` is left-nested in the tree: its operands and operators in order."""
    tails: list[list[Any]] = []
    cur = node
    while cur.type == "list" and cur.child_count:
        children = cur.children
        tails.append(children[1:])
        cur = children[0]
    items: list[Any] = [cur]
    for tail in reversed(tails):
        items.extend(tail)
    return items


def _body(node: Any) -> Any:
    """The statement a ``redirected_statement`` redirects (None if not exactly one)."""
    bodies = [c for c in node.children if c.is_named and c.type not in _REDIRECTS and c.type != "comment"]
    return bodies[0] if len(bodies) == 1 else None


def _last_command(node: Any) -> Any:
    """The simple command that ends a list or pipeline: bash gives it the redirections
    tree-sitter hangs on the whole (``ls && bash <<EOF``)."""
    for _ in range(MAX_NESTING):
        kind = node.type
        if kind == "command":
            return node
        if kind in ("list", "pipeline", "negated_command"):
            named = [c for c in node.children if c.is_named and c.type != "comment"]
            if not named:
                return None
            node = named[-1]
        elif kind == "redirected_statement":
            node = _body(node)
            if node is None:
                return None
        else:
            return None
    return None


def _track_cd(ctx: _Ctx, argv: tuple[str, ...]) -> None:
    """Follow the folder; ``$PWD`` follows it and ``$OLDPWD`` is where it was."""
    before = ctx.cwd
    old = ctx.scope().lookup("PWD")
    _change_dir(ctx, argv)
    if ctx.cwd != before or "PWD" in ctx.values.vars:
        ctx.values = ctx.values.moved(old)


def _change_dir(ctx: _Ctx, argv: tuple[str, ...]) -> None:
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
        try:
            home = ctx.scope().home()
        except LookupError:
            home = UNKNOWN_CWD
        ctx.cwd = "~" if home is None else _join_cwd(ctx.cwd, home) if home else UNKNOWN_CWD
    elif operands == ["-"]:  # back to $OLDPWD
        folder = folder_text(ctx.scope(), "OLDPWD")
        ctx.cwd = UNKNOWN_CWD if folder is None else _join_cwd(ctx.cwd, folder)
    elif len(operands) > 1:
        ctx.cwd = UNKNOWN_CWD
    elif operands[0]:
        ctx.cwd = _join_cwd(ctx.cwd, operands[0])


def _declared(values: Values, argv: list[str], written: list[tuple[str, Any]]) -> Values:
    """Values after ``export``/``readonly``/``declare``/``local``/``typeset``/``unset``:
    only the attributes that keep a value as written (``-r``, ``-x``, ``-g``, ``-a``) keep it
    known; ``-i``, ``-l``, ``-u``, ``-a`` … change what is stored."""
    builtin = argv[0] if argv else ""
    options = [a for a in argv[1:] if a[:1] in "-+" and "=" not in a]
    letters = "".join(a[1:] for a in options)
    if builtin == "unset":
        if "f" in letters:
            return values
        for name, _ in written:
            values = values.assign(name, UNSET)
        return values
    keeps = set(letters) <= set("rxga") and not any(a.startswith("+") for a in options)
    export = builtin == "export" or "x" in letters
    for name, value in written:
        old = values.get(name)
        if value is _NAMED:
            if builtin == "local" or not keeps:
                values = values.assign(name, None)
            elif export and isinstance(old, Value) and not old.exported:
                values = values.assign(name, old._replace(exported=True))
        elif value is None or not keeps:
            values = values.assign(name, None)
        elif isinstance(value, Soft):
            values = values.assign(name, value)  # unknown either way; a child shell does not see it
        else:
            values = values.assign(name, value._replace(exported=value.exported or export))
    return values


def _read_into(values: Values, head: str, argv: list[str]) -> Values:
    """``read a b``, ``mapfile x``, ``getopts o opt``, ``printf -v x``, ``let x=…``,
    ``wait -p x``: the named variables hold what bastion cannot know."""
    if head == "printf" and "-v" not in argv:
        return values
    names = {a for a in argv[1:] if a.isidentifier()} | ({"MAPFILE"} if head in ("mapfile", "readarray") else set())
    names |= {"REPLY"} if head == "read" else set()
    if head == "let":
        names |= {a.split("=", 1)[0].rstrip("+-*/%") for a in argv[1:] if "=" in a}
    for name in names:
        values = values.assign(name, Soft(_shapes().TEXT))  # unknown text, followed where it lands
    return values


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
    if len(commands) - walker.file_commands - walker.repeats > MAX_COMMANDS:
        reasons.append(f"more than {MAX_COMMANDS} commands ({len(commands) - walker.file_commands - walker.repeats})")
    if findings:
        findings = _dedupe(findings)
    if reasons:
        reason = reasons[0] if len(reasons) == 1 else f"{reasons[0]} (and {len(reasons) - 1} more)"
        reason = _printable(reason)
        return TooComplex(reason, partial=commands, findings=tuple(findings), source=command, code=_code(walker),
                          soft=not walker.hard and len(reasons) == len(walker.reasons))
    if len(walker.units) > 1:
        return _new_script({"commands": commands, "findings": tuple(findings), "source": command, "code": _code(walker)})
    return _new_script({"commands": commands, "findings": tuple(findings), "source": command})


def _code(walker: _Walker) -> tuple[tuple[str, tuple[SimpleCommand, ...]], ...]:
    """Every text parsed again as code, with the commands extracted from it."""
    return tuple((unit.source, tuple(unit.commands)) for unit in walker.units[1:])


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
