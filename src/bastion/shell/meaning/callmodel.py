"""What a Perl, Ruby, PHP, Lua, awk, R, Julia, Tcl/expect, AppleScript or Emacs Lisp
program does, read through a table of call patterns per language.

These languages have no parser in bastion; what matters in them is a short list of calls
(the ones that run processes, delete trees, write files, open sockets, fetch URLs or
evaluate code), listed with their why and examples in ``callmodel_tables``. This module
only walks a program: a small lexer per string-syntax family (C-like languages share one,
Tcl and Emacs Lisp have their own word and list readers) finds each call and folds its
arguments to constants where they are fixed (literals, concatenation, interpolation of
known variables, the home directory spelled in the language, and decoders such as
``pack("H*", …)``, ``base64_decode``, ``str_rot13``, ``strrev``, ``string.char``), then
says what the call does as a shell line or a flag (see :mod:`.program`). A value it cannot
know makes a process or eval call *opaque*; a name it does not know makes the program
not *inert*. Any failure returns None (the caller asks).
"""

from __future__ import annotations

from ...precompiled import pattern as compiled_pattern
from ...std_lite import cache
from ..syntax.quoting import quote as shell_quote
from . import callmodel_tables as T
from .callmodel_values import HOME, Cmd, Fetched, Handle, Sock, Tok, _num, cap, cformat
from .effects import HOME_SPELLINGS, fork_loop
from .program import ProgramEffects, shell_line, shell_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

__all__ = ["read", "kinds", "TABLES", "LANGUAGES"]

TABLES = T.TABLES
LANGUAGES = T.LANGUAGES

MAX_CODE = 100_000
MAX_STEPS = 50_000
MAX_DEPTH = 4
_SHELLS = frozenset("sh bash dash zsh ksh mksh ash busybox fish csh tcsh".split())
_RUN_KINDS = frozenset({"run", "argv", "joined", "exec_words", "spawn"})
_QUIET_KINDS = frozenset({"print", "read", "pure", "harmless", "stderr", "perl_open", "awk_getline", "filter"})
_CONSTANTS = frozenset({"TRUE", "true", "T", "FALSE", "false", "F", "nil", "NULL", "nothing", "undef"})

@cache
def _re(pattern: str) -> re.Pattern[str]:
    """A pattern of this module's own text or its tables' (never a command's): kept, built without re."""
    return compiled_pattern(pattern)


@cache
def _home_pattern() -> re.Pattern[str]:
    rules = (*T.EXTRA_HOME, *HOME_SPELLINGS)
    return compiled_pattern("|".join(f"(?:{r.pattern})" for r in rules))


def read(code: str, language: str) -> ProgramEffects | None:
    """The effects of ``code`` in ``language`` (an interpreter name from the catalog),
    or None when no table covers it or it cannot be read."""
    family = LANGUAGES.get(language)
    if family is None or len(code) > MAX_CODE:
        return None
    try:
        return _Model(family, language).program(code)
    except Exception:  # noqa: BLE001 - fail closed: the caller asks
        return None


def kinds(code: str, language: str) -> set[str]:
    """The kinds of the table rows that fire in ``code`` (for the tables' examples)."""
    model = _Model(LANGUAGES.get(language, language), language)
    model.program(code)
    return model.fired


# ----------------------------------------------------------------------- the model


class _Model:
    """One program's walk: variables, effects so far, and what it could not follow."""

    def __init__(self, family: str, language: str) -> None:
        self.family = family
        self.syn: T.Syntax = T.FAMILIES[family]
        self.fx = ProgramEffects(language=language)
        self.env: dict[str, Any] = {}
        self.fired: set[str] = set()
        self.unknown: list[str] = []
        self.printed: list[str | None] = []
        self.defined: set[str] = set()
        self.socket = self.listen = self.stdio = self.ran = self.fetch_seen = False
        self.shell_spawned = False
        self.downloads: set[str] = set()
        self.steps = 0
        self.depth = 0
        self.rows = T.TABLES[family]
        self.harmless = T.HARMLESS[family]
        self.decoders = T.DECODERS[family]

    # ------------------------------------------------------------------ entry

    def program(self, code: str) -> ProgramEffects:
        self.code(code)
        fx = self.fx
        if self.socket and (self.stdio or self.ran):
            if self.listen:
                fx.bind_shell = True
            else:
                fx.reverse_shell = True
        # ``fork while fork``: each fork that succeeds forks again, without end
        fx.fork_bomb = fork_loop(code) or ("fork" in self.fired and bool(_re(r"\bfork\b[^;\n]*\b(?:while|until)\b[^;\n]*\bfork\b").search(code)))
        noisy = self.fired - _QUIET_KINDS
        fx.inert = not (noisy or self.unknown or fx.opaque or fx.fork_bomb or fx.shell)
        fx.inert = fx.inert or (not noisy and not self.unknown and not fx.opaque and all(s.startswith("cat -- ") for s in fx.shell))
        if not self.ran and not fx.opaque and None not in self.printed and "filter" not in self.fired:  # -p prints its input
            fx.prints = cap("".join(p for p in self.printed if p is not None))
        fx.sends = list(dict.fromkeys(fx.sends))
        fx.shell = list(dict.fromkeys(fx.shell))
        return fx

    def code(self, code: str) -> None:
        """Walk ``code`` (also code the program evaluates, one level deeper)."""
        if self.depth > MAX_DEPTH:
            self.fx.opaque.append("code evaluated too many levels deep")
            return
        self.depth += 1
        try:
            code = self.fold_home(code)
            if self.family == "applescript":
                code = _re(r"\bdo\s+shell\s+script\b").sub("do_shell_script", code)
                code = _re(r"\bquoted\s+form\s+of\b").sub("quoted", code)
            if self.family == "tcl":
                from .callmodel_words import walk_tcl

                walk_tcl(self, code)
            elif self.family == "elisp":
                from .callmodel_words import walk_elisp

                walk_elisp(self, code)
            else:
                toks = lex(code, self.syn)
                self.defined.update(_definitions(toks))
                self.walk(toks)
        finally:
            self.depth -= 1

    def fold_home(self, code: str) -> str:
        if any(k in code for k in ("home", "HOME", "~", "expanduser")):
            code = _home_pattern().sub(HOME, code)
        return code

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise RuntimeError("program too large to follow")

    # ------------------------------------------------------------------ recording

    def opaque(self, why: str) -> None:
        if why not in self.fx.opaque:
            self.fx.opaque.append(why)

    def line(self, text: str) -> None:
        self.fx.shell.append(text.replace(HOME, "~"))

    def run_string(self, command: Any, why: str) -> None:
        """A string handed to a shell."""
        self.ran = True
        if isinstance(command, Fetched):
            self.fx.fetch_run = True
        elif isinstance(command, str):
            command = command.replace(HOME, "~")
            self.line(command)
            if _re(r"^\s*(?:exec\s+)?(?:/\S*/)?(?:ba|z|da|k|mk|c|tc)?sh\b").match(command):
                self.shell_spawned = True
        elif isinstance(command, Cmd):
            self.run_argv(command.argv, why)
        elif isinstance(command, list):
            self.run_argv(command, why)
        else:
            self.opaque(f"{why} with a value the model cannot follow")

    def run_argv(self, argv: list[Any], why: str) -> None:
        """An argv run without a shell (``[sh, -c, X]`` gives X)."""
        self.ran = True
        flat = _flatten(argv)
        if not flat or any(not isinstance(a, str) for a in flat):
            self.opaque(f"{why} with an argument the model cannot follow")
            return
        flat = [a.replace(HOME, "~") for a in flat]
        name = flat[0].rsplit("/", 1)[-1]
        if name in _SHELLS:
            self.shell_spawned = True
            for k in range(1, len(flat) - 1):
                if flat[k].startswith("-") and "c" in flat[k]:
                    self.line(flat[k + 1])
                    return
        self.line(shell_line(flat))

    def delete(self, paths: list[Any], recursive: bool) -> None:
        flat = _flatten(paths)
        for p in flat:
            if isinstance(p, str):
                self.line(("rm -rf -- " if recursive else "rm -f -- ") + shell_word(p.replace(HOME, "~")))
            else:
                self.opaque("a delete whose target the model cannot follow")
        if not flat:
            self.opaque("a delete whose target the model cannot follow")

    def write(self, path: Any, text: Any, append: bool) -> None:
        if isinstance(path, Handle):
            if path.mode == "|":
                if isinstance(path.path, str) and isinstance(text, str):
                    self.line(f"printf %s {shell_quote(text)} | {path.path}")
                else:
                    self.opaque("text written into a command the model cannot follow")
                return
            path, append = path.path, path.mode == ">>"
        if not isinstance(path, str):
            self.opaque("a write to a file the model cannot follow")
            return
        op = ">>" if append else ">"
        target = shell_word(path.replace(HOME, "~"))
        self.line(f"printf %s {shell_quote(text)} {op} {target}" if isinstance(text, str) else f"cat {op} {target}")

    def read_file(self, path: Any) -> None:
        if isinstance(path, str):
            if _re(r"^(?:https?|ftp)://").match(path):
                self.fetch(path)
            else:
                self.line("cat -- " + shell_word(path.replace(HOME, "~")))

    def fetch(self, url: Any) -> Fetched:
        self.fetch_seen = True
        if isinstance(url, str):
            self.fx.sends.append(url)
        return Fetched(url if isinstance(url, str) else None)

    def evaluate(self, code: Any, why: str) -> None:
        """Code of the program's own language, evaluated: read it again."""
        if isinstance(code, Fetched) or (code is None and self.fetch_seen):
            self.fx.fetch_run = True
        elif isinstance(code, str):
            self.code(code)
        else:
            self.opaque(f"{why} of code the model cannot follow")

    def source(self, path: Any, why: str) -> None:
        """A file or URL of code, run (R ``source``, julia ``include``, ``dofile``)."""
        if isinstance(path, Fetched) or (isinstance(path, str) and (path in self.downloads or _re(r"^(?:https?|ftp)://").match(path))):
            self.fx.fetch_run = True
            if isinstance(path, str):
                self.fx.sends.append(path)
        else:
            self.opaque(f"{why}: runs code from a file the model does not read")

    def printed_text(self, text: Any) -> None:
        self.printed.append(text if isinstance(text, str) else None)

    # ------------------------------------------------------------------ table rows

    def row_for(self, names: list[str]) -> T.Call | None:
        for row in self.rows:
            pattern = _re(row.name)
            if any(pattern.fullmatch(n) for n in names):
                return row
        return None

    def known(self, names: list[str]) -> bool:
        """A harmless name: the allow-list, a decoder, a function the program defines."""
        for n in names:
            last = n.rsplit(".", 1)[-1]
            if n in self.harmless or last in self.harmless or n in self.decoders or n in self.defined or n in self.env:
                return True
        return False

    def apply(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any = None) -> Any:
        """Record what the call of ``row`` does; return its value where known."""
        self.fired.add(row.kind)
        handler = getattr(self, "k_" + row.kind)
        return handler(row, pos, kw, recv)

    # Each k_<kind> handles one kind of row (names are the kinds in callmodel_tables).

    def k_run(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        args = [a for a in pos if not isinstance(a, dict)]
        if row.arg == "last":
            args = args[-1:]
        elif row.arg == "first":
            args = args[:1]
        if len(args) == 1 and not isinstance(args[0], list):
            self.run_string(args[0], row.why)
        elif args:
            self.run_argv(args, row.why)
        else:
            self.opaque(f"{row.why} with arguments the model cannot follow")
        if any(isinstance(v, Sock) for v in kw.values()) or any(isinstance(v, Sock) for v in _flatten(pos)):
            self.stdio = True
        return None

    def k_argv(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        args = list(pos)
        if row.arg.startswith("drop="):
            args = args[:1] + args[1 + int(row.arg[5:]) :]
        elif row.arg.startswith("from="):
            args = args[int(row.arg[5:]) :]
        elif row.arg.startswith("kw="):
            args = [kw.get(row.arg[3:])]
        self.run_argv(args, row.why)
        return None

    def k_joined(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        args = _flatten(pos[:1] + [kw.get("args")] + pos[1:]) if "args" in kw else _flatten(pos)
        if args and all(isinstance(a, str) for a in args):
            self.run_string(" ".join(args), row.why)
        else:
            self.ran = True
            self.opaque(f"{row.why} with arguments the model cannot follow")
        return None

    def k_spawn(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        if len(pos) == 1 and isinstance(pos[0], str):
            pos = pos[0].split()
        self.run_argv(pos, row.why)
        return None

    def k_exec_words(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        """tcl ``exec``: an argv, where ``|``, ``>``, ``<``, ``2>`` and ``&`` words are
        exec's own pipes and redirections (kept as shell operators)."""
        ops = _re(r"\|&?|[<>]{1,2}@?|2>>?@?|>&|>>&|&|<<|2>@1")
        if any(isinstance(a, str) and ops.fullmatch(a) for a in pos) and all(isinstance(a, str) for a in pos):
            self.ran = True
            self.line(" ".join(a if ops.fullmatch(a) else shell_word(a) for a in pos))
            return None
        self.run_argv(pos, row.why)
        return None

    def k_send(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        """expect ``send``: text typed into the spawned program; a shell runs it."""
        text = pos[-1] if pos else None
        if not self.shell_spawned:
            return None
        if isinstance(text, str):
            for command in _re(r"[\r\n]+").split(text):
                if command.strip():
                    self.line(command.strip())
        else:
            self.opaque("text the model cannot follow typed into a shell")
        return None

    def k_rmtree(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.delete(pos[:1] if row.arg == "first" else pos, True)
        return None

    def k_delete(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        recursive = any(_truthy(kw.get(k)) for k in ("recursive", "force_recursive"))
        if row.arg.startswith("flag="):
            k = int(row.arg[5:])
            recursive = len(pos) > k and _truthy(pos[k])
            pos = pos[:k]
        elif row.arg == "first":
            pos = pos[:1]
        elif row.arg == "rmdir":
            for p in _flatten(pos):
                if isinstance(p, str):
                    self.line("rmdir -- " + shell_word(p))
            return None
        self.delete(pos, recursive)
        return None

    def k_write(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        order = row.arg or "path,text"
        names = order.split(",")
        values = dict(zip(names, pos, strict=False))
        path = kw.get("file", kw.get("con", values.get("path")))
        text = values.get("text", values.get("line", kw.get("text")))
        if isinstance(text, list) and all(isinstance(t, str) for t in text):
            text = "\n".join(text) + ("\n" if "line" in values else "")
        elif isinstance(text, str) and "line" in values:
            text += "\n"  # R writeLines ends each line
        if path is None and "path" not in values and order.startswith(("text", "line")):
            self.fired.add("print")
            self.printed_text(text)
            return None
        mode = kw.get("mode")
        append = row.kind == "append" or _truthy(kw.get("append")) or (isinstance(mode, str) and "a" in mode)
        if isinstance(kw.get("flags"), str) and "APPEND" in kw["flags"]:
            append = True
        self.write(path, text, append)
        return None

    def k_append(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        return self.k_write(row, pos, kw, recv)

    def k_fwrite(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        """Text written into a handle (``fwrite($f, s)``, ``f:write(s)``, ``f.puts s``)."""
        handle, texts = (recv, pos) if recv is not None or row.arg == "method" else (pos[0] if pos else None, pos[1:])
        text: Any = "".join(t for t in texts if isinstance(t, str)) if all(isinstance(t, str) for t in texts) else None
        if isinstance(text, str) and row.arg == "method" and row.name.endswith("puts") and not text.endswith("\n"):
            text += "\n"
        if isinstance(handle, Handle):
            if handle.mode in ("<", ""):
                return None
            self.write(handle, text, handle.mode == ">>")
        elif isinstance(handle, Sock):
            self.socket = True
        elif handle == "STDOUT":
            self.fired.add("print")
            self.printed_text(text)
        else:
            self.fired.add("fwrite?")
        return None

    def k_read(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        target = pos[0] if pos else kw.get("file")
        if isinstance(target, Fetched):
            return target
        if isinstance(target, Cmd) or (isinstance(target, str) and target.startswith("|")):
            self.fired.add("run")
            self.run_string(target[1:] if isinstance(target, str) else target, row.why)
            return None
        self.read_file(target)
        if isinstance(target, str) and _re(r"^(?:https?|ftp)://").match(target):
            self.fired.add("fetch")
            return Fetched(target)
        return None

    def k_open(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        """``open(path, mode)`` in most languages; ``|cmd`` paths run a command."""
        path = pos[0] if pos else None
        mode = pos[1] if len(pos) > 1 else kw.get("mode", "r")
        if isinstance(path, Cmd):
            self.fired.add("run")
            self.run_string(path, row.why)
            return Handle(None, "|" if isinstance(mode, str) and "w" in mode else "<")
        if isinstance(path, str) and path.startswith("|") and row.arg != "nopipe":
            self.fired.add("run")
            self.run_string(path[1:].strip(), row.why)
            return Handle(path[1:].strip(), "|")
        if isinstance(path, str) and _re(r"^(?:https?|ftp)://").match(path):
            self.fired.add("fetch")
            return self.fetch(path)
        if not isinstance(mode, str):
            self.fired.add("write")
            self.opaque("a file opened in a mode the model cannot follow")
            return None
        if any(c in mode for c in "wa+"):
            self.fired.add("write")
            append = "a" in mode
            self.write(path, None, append)
            return Handle(path if isinstance(path, str) else None, ">>" if append else ">")
        self.read_file(path)
        return Handle(path if isinstance(path, str) else None, "<")

    def k_popen(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.fired.add("run")
        self.run_string(pos[0] if pos else None, row.why)
        mode = pos[1] if len(pos) > 1 else "r"
        return Handle(pos[0] if pos and isinstance(pos[0], str) else None, "|" if isinstance(mode, str) and "w" in mode else "<")

    def k_chmod(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        if row.arg == "path,mode":
            paths, mode = pos[:1], pos[1] if len(pos) > 1 else None
        else:
            mode, paths = (pos[0] if pos else None), pos[1:]
        n = _num(mode) if not (isinstance(mode, str) and row.arg == "path,mode" and self.family == "r") else _num("0o" + mode)
        for p in _flatten(paths):
            if isinstance(p, str) and n is not None:
                self.line(f"chmod {n:o} -- {shell_word(p)}")
            else:
                self.opaque("a chmod the model cannot follow")
        return None

    def k_copy(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        verb = {"copy": "cp -r", "move": "mv", "symlink": "ln -s"}[row.arg or "copy"]
        if len(pos) >= 2 and all(isinstance(p, str) for p in pos[:2]):
            self.line(f"{verb} -- {shell_word(pos[0])} {shell_word(pos[1])}")
        else:
            self.opaque(f"{row.why} with paths the model cannot follow")
        return None

    def k_mkdir(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        for p in _flatten(pos[:1]):
            if isinstance(p, str):
                self.line("mkdir -p -- " + shell_word(p))
        return None

    def k_eval(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        if not pos and not kw and recv is None:
            self.fired.discard("eval")  # perl eval BLOCK, do BLOCK: the block is walked
            self.fired.add("harmless")
            return None
        self.evaluate(pos[-1] if row.arg == "last" else (pos[0] if pos else None), row.why)
        return None

    def k_source(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        if not pos and not kw:
            self.fired.discard("source")
            self.fired.add("harmless")
            return None
        target = pos[0] if pos else None
        if isinstance(target, str) and row.arg == "module" and _re(r"^[\w:@/-]+$").match(target) and not target.startswith((".", "/")):
            self.fired.discard("source")
            self.fired.add("harmless")
            return None
        self.source(target, row.why)
        return None

    def k_fetch(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        url = pos[0] if pos else kw.get("url")
        fetched = self.fetch(url)
        dest = pos[1] if len(pos) > 1 and row.arg == "dest" else kw.get("destfile")
        if isinstance(dest, str):
            self.downloads.add(dest)
            if isinstance(url, str):
                self.line(f"curl -fsSL -o {shell_word(dest)} {shell_word(url)}")
        return fetched

    def k_socket(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.socket = True
        for v in _flatten(pos) + _flatten(list(kw.values())):
            if isinstance(v, str) and _re(r"^[\w.-]+(?::\d+)?$|^/inet").match(v) and not v.isdigit():
                self.fx.sends.append(v)
        if any(k in kw for k in ("Listen", "LocalPort", "server")) or row.arg == "listen":
            self.listen = True
        return Sock()

    def k_listen(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.listen = True
        return self.k_socket(row, pos, kw, recv)

    def k_stdio(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.stdio = True
        return None

    def k_env_dump(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        if row.arg == "noargs" and pos:
            self.fired.discard("env_dump")
            self.fired.add("harmless")
            return None
        self.fx.env_dump = True
        return None

    def k_library(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.fx.library_load = True
        return None

    def k_opaque(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        self.opaque(row.why)
        return None

    def k_print(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        style = row.arg or "concat"
        if "file" in kw and kw["file"] not in ("", None):
            self.fired.add("write")
            self.write(kw["file"], _join_print(style, pos), _truthy(kw.get("append")))
            return None
        self.printed_text(_join_print(style, pos))
        return None

    def k_fork(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        return None

    def k_stderr(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        return None

    def k_harmless(self, row: T.Call, pos: list[Any], kw: dict[str, Any], recv: Any) -> Any:
        return None

    # ------------------------------------------------------------------ C-like walk

    def walk(self, toks: list[Tok]) -> None:
        """Each statement in order: assignments bind names, calls are looked up."""
        n = len(toks)
        for i, t in enumerate(toks):
            self.step()
            nxt = toks[i + 1] if i + 1 < n else None
            if t.kind in "vi" and nxt is not None and nxt.kind == "o" and nxt.text in T.ASSIGN and not (i and toks[i - 1].op(".", "->", ":", "::")):
                end = self.end(toks, i + 2, ())
                key = t.text
                self.env[key] = self.ev(toks[i + 2 : end]) if nxt.text in ("=", "<-", ":=") else None
                continue
            if t.text in T.FILTER_MARKS.get(self.family, ()) or (t.kind == "r" and t.text.startswith(("s:", "tr:", "y:")) and not (i and toks[i - 1].op("=~", "!~"))):
                self.fired.add("filter")  # an input-loop filter: with -i it rewrites files
            if t.kind == "i":
                self.site(toks, i)
            elif t.kind == "v" and t.text in self.syn.env_whole:
                self.fired.add("env_dump")
                self.fx.env_dump = True
            elif t.kind == "v" and nxt is not None and nxt.op("(") and self.family in ("php", "perl"):
                self.fired.add("opaque")
                self.opaque("a function called by a computed name")
            elif t.kind == "x":
                if self.syn.backtick == "run":
                    self.fired.add("run")
                    self.run_string(self.resolve(t.value), "a backtick command")
            elif t.kind == "r" and t.value == "(?{":
                self.fired.add("eval")
                self.opaque("code inside a regex")
            elif t.kind == "r" and t.value is not None:
                self.fired.add("eval")
                self.evaluate(self.resolve(t.value), "code in a regex replacement (s///e)")

    def end(self, toks: list[Tok], j: int, stops: tuple[str, ...]) -> int:
        """Index where the statement (or bare argument list) starting at ``j`` ends."""
        depth = 0
        n = len(toks)
        k = j
        while k < n:
            t = toks[k]
            if t.kind == "o" and t.text in "([{":
                depth += 1
            elif t.kind == "o" and t.text in ")]}":
                if depth == 0:
                    return k
                depth -= 1
            elif depth == 0 and (t.kind == ";" or (t.kind == "i" and t.text in self.syn.stop_words) or (t.kind == "o" and t.text in stops)):
                return k
            k += 1
        return n

    def split(self, toks: list[Tok], seps: tuple[str, ...]) -> list[list[Tok]]:
        parts: list[list[Tok]] = [[]]
        depth = 0
        for t in toks:
            if t.kind == "o" and t.text in "([{":
                depth += 1
            elif t.kind == "o" and t.text in ")]}":
                depth -= 1
            if depth == 0 and t.kind in "o;" and t.text in seps:
                parts.append([])
                continue
            parts[-1].append(t)
        return parts if parts != [[]] else []

    def close(self, toks: list[Tok], j: int) -> int:
        """Index of the bracket closing the one at ``j`` (or the end)."""
        depth = 0
        for k in range(j, len(toks)):
            t = toks[k]
            if t.kind == "o" and t.text in "([{":
                depth += 1
            elif t.kind == "o" and t.text in ")]}":
                depth -= 1
                if depth == 0:
                    return k
        return len(toks)

    def arguments(self, toks: list[Tok], j: int, bare: bool, stops: tuple[str, ...] = ()) -> tuple[list[list[Tok]], int]:
        """The argument spans of a call whose name ends before ``j``, and the index after."""
        n = len(toks)
        if j < n and toks[j].op("("):
            k = self.close(toks, j)
            return self.split(toks[j + 1 : k], self.syn.arg_seps), k + 1
        if j < n and self.family == "lua" and toks[j].kind == "s":
            return [[toks[j]]], j + 1
        if bare and j < n and not (toks[j].kind == "o" and toks[j].text not in ("[", "-", "{", "(", "\\", "$")) and toks[j].kind != ";":
            k = self.end(toks, j, stops)
            return self.split(toks[j:k], self.syn.arg_seps), k
        return [], j

    def values(self, spans: list[list[Tok]]) -> tuple[list[Any], dict[str, Any]]:
        pos: list[Any] = []
        kw: dict[str, Any] = {}
        for span in spans:
            if len(span) >= 2 and span[0].kind in "is" and span[1].op("=", ":", "=>") and span[0].text != "~":
                if span[1].text != "=>" or span[0].kind == "i" or self.family in ("perl", "ruby"):
                    kw[str(span[0].value if span[0].kind == "s" else span[0].text).lstrip(":")] = self.ev(span[2:])
                    continue
            if len(span) >= 2 and span[0].kind == "o" and span[0].text == ":" and span[1].kind == "i":
                kw[span[1].text] = self.ev(span[3:]) if len(span) > 3 else None
                continue
            pos.append(self.ev(span))
        return pos, kw

    def site(self, toks: list[Tok], i: int) -> None:
        """A name in the program: a table call, a harmless name, or unknown."""
        t = toks[i]
        n = len(toks)
        nxt = toks[i + 1] if i + 1 < n else None
        prev = toks[i - 1] if i else None
        if nxt is not None and nxt.op("->", ".", ":") and i + 2 < n and toks[i + 2].kind == "i":
            return  # a receiver: judged with its method
        if prev is not None and prev.kind == "i" and prev.text in self.syn.declare:
            return  # use Foo::Bar; sub name; function name
        if nxt is not None and nxt.op(":") and self.family in ("ruby", "php"):
            return  # keyword argument or hash key
        if nxt is not None and nxt.op("=>"):
            return  # perl/ruby/php hash key
        name = t.text.replace("::", ".")
        recv: Any = None
        method = prev is not None and prev.op("->", ".", ":") and not (prev.text == ":" and self.family != "lua")
        if method:
            r = toks[i - 2] if i >= 2 else None
            names = ["." + name]
            if r is not None and r.kind == "i":
                full = r.text.replace("::", ".") + "." + name
                names.insert(0, full)
                recv = self.env.get(r.text, r.text if r.text.isupper() else None)
            elif r is not None and r.kind == "v":
                names.insert(0, r.text + "." + name)
                recv = self.env.get(r.text)
            elif r is not None:
                recv = self.receiver(toks, i - 1)
        else:
            names = [name]
            if "." in name:
                head, _, last = name.rpartition(".")
                names.append("." + last)
                if head in self.env:
                    recv = self.env[head]
        if method and prev is not None and prev.text == "->" and self.family == "php" and not (nxt is not None and nxt.op("(")):
            return  # $obj->property
        row = self.row_for(names)
        bare = self.syn.bare or (row is not None and row.bare)
        if row is None:
            if self.known(names) or (self.syn.bare_vars and not (nxt is not None and (nxt.op("(") or (self.family == "lua" and nxt.kind == "s")))):
                return
            if method and self.syn.bare_vars is False and self.family in ("perl", "php") and not (nxt is not None and nxt.op("(")):
                self.unknown.append(name)
                return
            self.unknown.append(name)
            return
        self.fired.add(row.kind)
        if row.kind == "print" and self.family == "perl":
            self.perl_print(row, toks, i + 1)
            return
        if row.kind == "print" and self.family == "awk":
            self.awk_print(row, toks, i + 1)
            return
        if row.kind == "awk_getline":
            self.awk_getline(toks, i)
            return
        if row.kind == "perl_open":
            self.perl_open(row, toks, i + 1)
            return
        spans, _ = self.arguments(toks, i + 1, bare, self.syn.bare_stops)
        pos, kw = self.values(spans)
        self.apply(row, pos, kw, recv)

    def receiver(self, toks: list[Tok], dot: int) -> Any:
        """The value before the ``.`` at ``dot`` (a literal, a variable, a bracket)."""
        k = dot - 1
        if k < 0:
            return None
        if toks[k].op(")", "]"):
            depth = 0
            while k >= 0:
                if toks[k].op(")", "]", "}"):
                    depth += 1
                elif toks[k].op("(", "[", "{"):
                    depth -= 1
                    if depth == 0:
                        break
                k -= 1
            if k > 0 and toks[k - 1].kind == "i":
                k -= 1
            return self.ev(toks[max(k, 0) : dot])
        return self.ev(toks[k:dot])

    # ------------------------------------------------------------------ evaluation

    def ev(self, toks: list[Tok]) -> Any:
        """The constant value of an expression, or None when it is not fixed."""
        self.step()
        if not toks:
            return None
        if self.syn.concat:
            parts = self.split(toks, self.syn.concat)
            if len(parts) > 1:
                vals = [self.ev(p) for p in parts]
                if all(isinstance(v, str) for v in vals):
                    return cap("".join(vals))
                return None
        value, k = self.term(toks, 0)
        while k < len(toks) and self.syn.juxtapose:
            more, k2 = self.term(toks, k)
            if k2 == k:
                return None
            value = value + more if isinstance(value, str) and isinstance(more, str) else None
            k = k2
        return cap(value) if k == len(toks) else None

    def term(self, toks: list[Tok], k: int) -> tuple[Any, int]:
        n = len(toks)
        t = toks[k]
        value: Any = None
        if t.kind == "s":
            value, k = self.resolve(t.value), k + 1
        elif t.kind == "n":
            value, k = t.text, k + 1
        elif t.kind == "v":
            value, k = self.env.get(t.text), k + 1
        elif t.kind == "x":
            command = self.resolve(t.value) if self.syn.backtick == "cmd" else None
            import shlex  # only a backquoted command in the code

            value, k = (Cmd(shlex.split(command)) if isinstance(command, str) else None), k + 1
        elif t.op("(", "["):
            m = self.close(toks, k)
            parts = [self.ev(p) for p in self.split(toks[k + 1 : m], (",", ";"))]
            value = parts[0] if t.text == "(" and len(parts) == 1 else parts
            k = m + 1
        elif t.kind == "i":
            value, k = self.call_value(toks, k)
        elif t.op("-") and k + 1 < n and toks[k + 1].kind == "n":
            value, k = "-" + toks[k + 1].text, k + 2
        else:
            return None, k
        while k < n:
            t = toks[k]
            if t.op(".", "->", ":") and k + 1 < n and toks[k + 1].kind == "i" and (self.family in ("ruby", "lua", "julia") or t.text == "->"):
                name = toks[k + 1].text
                spans, k = self.arguments(toks, k + 2, False)
                pos, _ = self.values(spans)
                value = self.method(value, name, pos)
            elif t.op("[") and value is not None:
                m = self.close(toks, k)
                index = self.ev(toks[k + 1 : m])
                value = _index(value, index)
                k = m + 1
            else:
                break
        return value, k

    def call_value(self, toks: list[Tok], k: int) -> tuple[Any, int]:
        """The value of a name or a call: a variable, a decoder, a fetch or an open."""
        t = toks[k]
        name = t.text.replace("::", ".")
        n = len(toks)
        has_args = k + 1 < n and toks[k + 1].op("(")
        if name in self.env and not has_args:
            return self.env[name], k + 1
        if name in _CONSTANTS and not has_args:
            return name, k + 1
        decoder = self.decoders.get(name)
        if decoder is None and "." in name:
            head, _, rest = name.partition(".")
            if head in self.env:
                value = self.env[head]
                for part in rest.split("."):
                    spans, k2 = self.arguments(toks, k + 1, False) if part == rest.rsplit(".", 1)[-1] else ([], k + 1)
                    value = self.method(value, part, self.values(spans)[0])
                return value, k2
        bare = self.syn.bare and decoder is not None
        spans, k2 = self.arguments(toks, k + 1, bare)
        if decoder is not None:
            pos, kw = self.values(spans)
            try:
                return cap(decoder(pos, kw)), k2
            except Exception:  # noqa: BLE001 - a decoder that fails gives an unknown value
                return None, k2
        row = self.row_for([name, "." + name.rsplit(".", 1)[-1]])
        if row is not None and row.kind in ("fetch", "socket", "listen", "open", "popen", "read"):
            pos, kw = self.values(spans)
            saved = (list(self.fx.shell), set(self.fired), list(self.fx.sends))
            value = getattr(self, "k_" + row.kind)(row, pos, kw, None)
            self.fx.shell[:], self.fired, self.fx.sends[:] = saved  # the walk records it
            return value, k2
        if self.family == "awk" and not has_args:
            return self.env.get(name), k + 1
        return None, k2

    def method(self, value: Any, name: str, args: list[Any]) -> Any:
        """``value.name(args)``: decoders on strings and lists; reads of fetched text."""
        if isinstance(value, Fetched) and name in ("read", "body", "text", "content", "readlines", "string"):
            return value
        decoder = self.decoders.get("." + name)
        if decoder is None or value is None:
            return None
        try:
            return cap(decoder([value, *args], {}))
        except Exception:  # noqa: BLE001
            return None

    def resolve(self, value: Any) -> Any:
        """An interpolating string's text, with the variables known at this point."""
        from .callmodel_lex import Interp

        if not isinstance(value, Interp):
            return value
        out: list[str] = []
        for kind, text in value.parts:
            part: Any = text if kind == "lit" else None
            if kind == "var":
                part = self.env.get(text)
            elif kind == "expr":
                part = self.ev(lex(text, self.syn))
            if not isinstance(part, str):
                return None
            out.append(part)
        return cap("".join(out))

    # ------------------------------------------------------------------ special forms

    def perl_print(self, row: T.Call, toks: list[Tok], j: int) -> None:
        """``print LIST``, ``print FH LIST``, ``print {$fh} LIST``, ``say``."""
        n = len(toks)
        if j < n and toks[j].op("("):
            inner = toks[j + 1 : self.close(toks, j)]
        else:
            inner = toks[j : self.end(toks, j, ())]
        handle: Any = "STDOUT"
        if inner and inner[0].op("{"):
            m = self.close(inner, 0)
            handle, inner = self.ev(inner[1:m]), inner[m + 1 :]
        elif len(inner) >= 2 and inner[0].kind in "vi" and inner[1].kind in "svnx" and not inner[0].text.startswith("@"):
            handle = self.env.get(inner[0].text) if inner[0].kind == "v" else self.env.get(inner[0].text, inner[0].text)
            inner = inner[1:]
        pos, _ = self.values(self.split(inner, (",",)))
        if not pos:
            self.fired.add("filter")  # print alone prints $_, the input line
        text: Any = "".join(pos) if pos and all(isinstance(p, str) for p in pos) else None
        if row.arg == "format":
            text = cformat(pos[0], pos[1:]) if pos else None
        if isinstance(text, str) and row.arg == "concat_nl":
            text += "\n"
        self.fired.add("print")
        if handle == "STDERR":
            return
        if handle == "STDOUT":
            self.printed_text(text)
        elif isinstance(handle, Handle):
            self.fired.add("write")
            self.write(handle, text, handle.mode == ">>")
        elif isinstance(handle, Sock):
            self.socket = True
        else:
            self.fired.add("fwrite?")

    def perl_open(self, row: T.Call, toks: list[Tok], j: int) -> None:
        """``open(FH, MODE, TARGET)`` and two-argument ``open(FH, "MODE TARGET")``."""
        spans, _ = self.arguments(toks, j, True)
        if not spans:
            self.fired.add("open")
            return
        names = [t.text for t in spans[0] if t.kind in "vi" and t.text not in ("my", "our", "local")]
        key = names[0] if names else None
        pos, _ = self.values(spans[1:])
        if len(pos) >= 2:
            mode, target = pos[0], (pos[1] if len(pos) == 2 else pos[1:])
        elif len(pos) == 1 and isinstance(pos[0], str):
            m = _re(r"^\s*(\+?(?:>>|>|<)&?=?|\|)?\s*(.*?)\s*(\|)?\s*$").match(pos[0])
            assert m is not None
            mode = m.group(1) or ("-|" if m.group(3) else "<")
            mode = "|-" if mode == "|" else mode
            target = m.group(2)
        else:
            self.fired.add("open")
            self.opaque("a file or command opened that the model cannot follow")
            return
        if not isinstance(mode, str):
            self.fired.add("open")
            self.opaque("a file opened in a mode the model cannot follow")
            return
        mode = mode.replace(":raw", "").replace(":encoding(UTF-8)", "").replace(":utf8", "").strip()
        value: Any = None
        if "&" in mode:
            self.fired.add("stdio")
            if key in ("STDIN", "STDOUT", "STDERR"):
                self.stdio = True
        elif mode in ("|-", "-|"):
            self.fired.add("run")
            if isinstance(target, list):
                self.run_argv(target, row.why)
            else:
                self.run_string(target, row.why)
            value = Handle(target if isinstance(target, str) else None, "|" if mode == "|-" else "<")
        elif ">" in mode or "+" in mode:
            self.fired.add("write")
            append = ">>" in mode
            self.write(target, None, append)
            value = Handle(target if isinstance(target, str) else None, ">>" if append else ">")
        else:
            self.fired.add("read")
            self.read_file(target)
            value = Handle(target if isinstance(target, str) else None, "<")
        if key:
            self.env[key] = value

    def awk_print(self, row: T.Call, toks: list[Tok], j: int) -> None:
        """``print … > "file"``, ``print … | "cmd"``, ``print … |& coproc``."""
        k = self.end(toks, j, (">", ">>", "|", "|&"))
        span = toks[j:k]
        if span and span[0].op("(") and self.close(span, 0) == len(span) - 1:
            span = span[1:-1]
        pos, _ = self.values(self.split(span, (",",)))
        if row.arg == "format":
            text = cformat(pos[0], pos[1:]) if pos else None
        else:
            text = " ".join(pos) + "\n" if all(isinstance(p, str) for p in pos) else None
            if not pos:
                text = None  # print alone prints the record
        self.fired.add("print")
        if k < len(toks) and toks[k].kind == "o" and toks[k].text in (">", ">>", "|", "|&"):
            op = toks[k].text
            tend = self.end(toks, k + 1, (">", ">>", "|", "|&"))
            target = self.ev(toks[k + 1 : tend])
            if isinstance(target, str) and target.startswith("/inet"):
                self.fired.add("socket")
                self.socket = True
                self.fx.sends.append(target)
            elif op in (">", ">>"):
                self.fired.add("write")
                if target in ("/dev/stdout", "/dev/stderr", "-"):
                    self.printed_text(text)
                else:
                    self.write(target, text, op == ">>")
            else:
                self.fired.add("run")
                self.ran = True
                if isinstance(target, str) and isinstance(text, str):
                    self.line(f"printf %s {shell_quote(text)} | {target}")
                elif isinstance(target, str):
                    self.line(target)
                else:
                    self.opaque("output piped into a command the model cannot follow")
            return
        self.printed_text(text)

    def awk_getline(self, toks: list[Tok], i: int) -> None:
        """``"cmd" | getline``, ``cmd |& getline``, ``getline < "file"``."""
        self.fired.add("read")
        if i >= 2 and toks[i - 1].kind == "o" and toks[i - 1].text in ("|", "|&"):
            k = i - 2
            if toks[k].op(")"):
                depth = 0
                while k >= 0:
                    depth += toks[k].op(")") - toks[k].op("(")
                    if depth == 0:
                        break
                    k -= 1
            command = self.ev(toks[max(k, 0) : i - 1])
            if isinstance(command, str) and command.startswith("/inet"):
                self.fired.add("socket")
                self.socket = True
                self.fx.sends.append(command)
                return
            self.fired.add("run")
            self.run_string(command, "a command read by getline")
            return
        k = i + 1
        if k < len(toks) and toks[k].kind == "i":
            k += 1
        if k < len(toks) and toks[k].op("<"):
            end = k + 2 if k + 1 < len(toks) and toks[k + 1].kind in "sin" else self.end(toks, k + 1, ())
            self.read_file(self.ev(toks[k + 1 : end]))


# ----------------------------------------------------------------------- small helpers


def _flatten(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if isinstance(v, list):
            out.extend(_flatten(v))
        elif isinstance(v, Cmd):
            out.extend(_flatten(v.argv))
        else:
            out.append(v)
    return out


def _truthy(v: Any) -> bool:
    return isinstance(v, str) and v not in ("", "0", "FALSE", "false", "F", "nil", "undef")


def _index(value: Any, index: Any) -> Any:
    n = _num(index)
    if isinstance(value, list) and n is not None and -len(value) <= n < len(value):
        return value[n]
    return None


def _join_print(style: str, pos: list[Any]) -> str | None:
    if style == "format":
        return cformat(pos[0], pos[1:]) if pos else None
    if style == "unknown":
        return None
    if not all(isinstance(p, str) for p in _flatten(pos)):
        return None
    flat = _flatten(pos)
    if style == "lines":
        return "".join(p if p.endswith("\n") else p + "\n" for p in flat) or "\n"
    sep = {"concat": "", "concat_nl": "", "tabs_nl": "\t", "spaces": " ", "spaces_nl": " "}.get(style, "")
    text = sep.join(flat)
    return text + "\n" if style.endswith("_nl") else text


def _definitions(toks: list[Tok]) -> set[str]:
    out: set[str] = set()
    for a, b in zip(toks, toks[1:], strict=False):
        if a.kind == "i" and a.text in ("sub", "def", "function", "func", "proc", "macro") and b.kind == "i":
            out.add(b.text.replace("::", "."))
    for a, b, c in zip(toks, toks[1:], toks[2:], strict=False):
        if a.kind == "i" and b.op("<-", "=") and c.kind == "i" and c.text == "function":
            out.add(a.text)
    return out


# ----------------------------------------------------------------------- lexer


def lex(code: str, syn: T.Syntax) -> list[Tok]:
    """Tokens of a C-like program (perl, ruby, php, lua, awk, R, julia, AppleScript)."""
    from .callmodel_lex import lex as _lex

    return _lex(code, syn)
