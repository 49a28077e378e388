"""Read the file a command runs, so it is judged by what it says (``Facts.runs``).

``bash clean.sh``, ``./x.sh``, ``source env.sh``, ``python3 tool.py``, ``node x.js``
and ``python -m pkg`` run text bastion can read. :func:`script_of` reads it (a regular
file, bounded, cached by identity and mtime) and names its language: what the runner
imposes (a shell reads any file as shell, ``python`` as Python), else the ``#!`` line,
else the file name's extension, else shell (a text file without ``#!`` run by its path
is run by the shell). :func:`analyse._file_programs` then judges the text by its effects.

What stays as it was, and why:

* a compiled program (ELF, Mach-O, PE, other binary data): built from the project's
  sources, which are what a person reviews; its machine code says nothing readable;
* text in a language no model reads (``#!/usr/bin/env fish``, ``groovy x.groovy``).

What asks (:class:`Unreadable`, CAT006 naming the file): a file that is not a regular
file (a FIFO or device is never opened), cannot be read, is larger than the bound, or is
longer than the analysis of its language reads whole (a shell script over what the
parser takes; a program over its model's limit); and a missing file when an earlier
command of the line may make it unseen (``git pull && ./deploy.sh``). A missing file run
first (``python3 script.py`` alone) only fails: it runs nothing, so it does not ask —
unless a shell looks its bare name up on PATH (``bash x.sh``: ``facts._script_on_path``).
"""

from __future__ import annotations

import os
import stat
from collections import OrderedDict
from dataclasses import dataclass

from ...precompiled import MULTILINE
from ..catalog import catalog as C
from ..syntax.lazyre import LazyPattern
from .models import MODELS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..syntax.script import SimpleCommand
    from .facts import Ctx

__all__ = ["MAX_BYTES", "MAX_FILES", "Unreadable", "script_of", "language_of", "runner_of", "module_files", "module_roots", "find_module", "imported_files",
           "earlier_commands", "syntax_only", "SELF"]

#: Largest file read (bytes). Larger text asks; larger binaries keep today's behaviour.
MAX_BYTES = 256 * 1024
#: Distinct files read for one analysed command (scripts that run scripts included):
#: a script that sources hundreds of files costs a bounded amount.
MAX_FILES = 12
#: Longest text each language's analysis reads whole (characters): the shell parser
#: reads 5 × its command bound (``parse.MAX_BYTES``), the code models their own limits.
_READ_WHOLE = {"sh": 50_000, "pymodel": 200_000, "jsmodel": 200_000, "callmodel": 100_000}
#: Modules a program imports from the project, followed this many levels and files deep
#: (their top-level code runs at import): past the bound they are not read, since a
#: large project would otherwise ask for every ``python3 main.py``.
MAX_IMPORT_DEPTH = 2
MAX_IMPORTS = 8
#: Files read by identity (device, inode, size, mtime): ``make test`` twenty times reads once.
_CACHE_SIZE = 64

#: The runner is the file itself (``./x.sh``): its ``#!`` line or extension says who reads it.
SELF = ""

#: Shells whose language the shell analysis reads (the Bourne family).
_POSIX_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "pdksh", "posh", "yash", "rbash",
                           "busybox-sh"})

#: File name extension → language, for a file run by its path without a ``#!`` line.
_EXTENSIONS = {
    ".sh": "sh", ".bash": "sh", ".py": "python", ".js": "node", ".mjs": "node", ".cjs": "node", ".pl": "perl",
    ".rb": "ruby", ".php": "php", ".lua": "lua", ".R": "rscript", ".r": "rscript", ".jl": "julia", ".tcl": "tclsh",
    ".awk": "awk",
}

#: Magic numbers of compiled programs: ELF, Mach-O (both byte orders, 32/64 bit, fat), PE.
_COMPILED = (b"\x7fELF", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe",
             b"\xca\xfe\xba\xbe", b"MZ")


@dataclass(frozen=True, slots=True)
class Unreadable:
    """The file cannot be judged: ``reason`` says why (shown in the ask)."""

    reason: str
    #: The file is not there (``exec_file`` asks only when an earlier command may make it).
    missing: bool = False


#: What a read found: the text, a compiled/binary program (``None``), or why it failed.
_Read = str | Unreadable | None
_cache: OrderedDict[tuple[int, int, int, int], _Read] = OrderedDict()
#: Files read for the analysis in progress: its workspace roots (a tuple made once per
#: ``analyse`` call, shared by every nested level) and the paths read so far.
_budget: tuple[object, set[str]] = ((), set())


def runner_of(name: str, path: str, head: str) -> str | None:
    """Who reads ``path`` when the command ``name`` runs it: ``"sh"`` for a shell or
    ``source``, a model's interpreter name, :data:`SELF` when the file runs itself (it
    is the command's own name ``head``), None for an interpreter no model reads."""
    if path == head:
        return SELF
    if name in ("source", ".") or name in _POSIX_SHELLS:
        return "sh"
    if name in MODELS:
        return name
    if name in C.SHELLS or name in C.INTERPRETERS:
        return None
    return SELF


#: Options with which a runner only checks a file's syntax, running none of it
#: (``bash -n x.sh``, ``node --check x.js``, ``perl -c x.pl``, ``ruby -wc x.rb``, ``php -l x.php``).
_SYNTAX_ONLY = {
    "sh": LazyPattern(r"-[a-zA-Z]*n[a-zA-Z]*|-o\s*noexec"),
    "node": LazyPattern(r"--check|-c"), "nodejs": LazyPattern(r"--check|-c"),
    "perl": LazyPattern(r"-[wWTt]*c[wWTt]*"), "ruby": LazyPattern(r"-[wWv]*c[wWv]*"), "php": LazyPattern(r"-l|--syntax-check"),
}


def syntax_only(runner: str, args: tuple[str, ...]) -> bool:
    """The runner is told only to check the syntax of the file it is given."""
    pattern = _SYNTAX_ONLY.get(runner)
    if pattern is None:
        return False
    for k, arg in enumerate(args):
        if not arg.startswith("-") or arg == "--":
            return False
        if arg == "-o" and k + 1 < len(args) and args[k + 1] == "noexec":
            return runner == "sh"
        if pattern.fullmatch(arg):
            return True
    return False


def script_of(path: str, ctx: Ctx, runner: str | None = SELF) -> tuple[str, str] | Unreadable | None:
    """The ``(language, text)`` of the file at ``path`` (absolute), run by ``runner``
    (see :func:`runner_of`); :class:`Unreadable` when it cannot be judged (asks); None
    when today's judgement stands (a compiled program, a language no model reads)."""
    if runner is None:
        return None
    global _budget
    roots, seen = _budget
    if roots is not ctx.roots:
        seen = set()
        _budget = (ctx.roots, seen)
    if path not in seen:
        if len(seen) >= MAX_FILES:
            return Unreadable(f"more than {MAX_FILES} files run by one command")
        seen.add(path)
    text = _read(path)
    if not isinstance(text, str):
        return text
    language = runner or language_of(text, path)
    if language is None:
        return None
    limit = _READ_WHOLE.get(language) or _READ_WHOLE.get(MODELS.get(language, ""), 0)
    if not limit:
        return None
    if len(text) > limit:
        return Unreadable(f"{len(text) // 1024} KB of {language}, more than bastion reads whole")
    return language, text


#: Files next to a ``src/`` folder that make it a src layout (see :func:`module_roots`).
_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


def module_roots(base: str, assignments: tuple[tuple[str, str], ...], ctx: Ctx) -> list[str]:
    """The folders ``python -m`` finds a project module in, in Python's order, as far
    as bastion reads them: the working directory ``base`` (``sys.path[0]``), then each
    ``PYTHONPATH`` entry inside the workspace (the command's own assignment or an
    earlier ``export`` on the line; a value known only when it runs is skipped), then
    the ``src/`` folder of a src layout.

    The src layout rule: a folder from ``base`` up to its workspace root that holds a
    Python project file (``pyproject.toml``, ``setup.py``, ``setup.cfg``) and a ``src/``
    folder. Every build backend (setuptools, hatch, flit, pdm, poetry) finds the
    packages of ``src/`` from such a project without being told, and an editable
    install (``pip install -e .``, ``uv sync``, ``uv run``) puts that folder on the
    path, so ``python -m app.main`` there runs ``src/app/main.py``. A module found in
    none of these folders is installed code bastion does not read (it asks)."""
    roots = [base]
    for name, value in assignments:
        if name != "PYTHONPATH" or any(c in value for c in "$`~"):
            continue
        for entry in value.split(":"):
            folder = os.path.normpath(os.path.join(base, entry)) if entry else ""
            if folder and folder not in roots and ctx.inside(folder):
                roots.append(folder)
    top = next((r for r in ctx.roots if base == r or base.startswith(r.rstrip("/") + "/")), None)
    folder = base
    while top is not None:
        src = os.path.join(folder, "src")
        if src not in roots and os.path.isdir(src) \
                and any(os.path.isfile(os.path.join(folder, n)) for n in _PROJECT_FILES):
            roots.append(src)
        if folder == top or folder in ("/", ""):
            break
        folder = os.path.dirname(folder)
    return roots


def find_module(module: str, base: str, assignments: tuple[tuple[str, str], ...], ctx: Ctx) -> tuple[str, list[str]]:
    """``(folder, files)`` for the first of :func:`module_roots` that holds ``module``
    (:func:`module_files`); ``("", [])`` when none does."""
    for root in module_roots(base, assignments, ctx):
        files = module_files(module, root)
        if files:
            return root, files
    return "", []


def module_files(module: str, base: str) -> list[str]:
    """The files ``python -m module`` runs from the folder ``base`` when the module is
    there (Python looks in the working directory first, before anything installed):
    each package's ``__init__.py`` on the way, then ``a/b.py`` or ``a/b/__main__.py``.
    Empty when ``base`` holds no such module (an installed one runs)."""
    parts = module.split(".")
    if not all(part.isidentifier() for part in parts):
        return []
    folder = os.path.join(base, *parts)
    for main in (folder + ".py", os.path.join(folder, "__main__.py")):
        if os.path.isfile(main):
            break
    else:
        return []
    packages = parts if main.endswith("__main__.py") else parts[:-1]
    inits = [os.path.join(base, *packages[: k + 1], "__init__.py") for k in range(len(packages))]
    return [init for init in inits if os.path.isfile(init)] + [main]


#: Imports of project files: Python ``import a.b`` / ``from .a import b``; JavaScript
#: ``require('./x')``, ``import … from './x'``, ``import('./x')`` (relative paths only:
#: a bare name is a package from ``node_modules``, not the project's own code).
_PY_IMPORT = LazyPattern(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*))", MULTILINE)
_JS_IMPORT = LazyPattern(r"""(?:\brequire\s*\(|\bimport\s*\(|\bfrom|\bimport)\s*['"](\.\.?/[^'"\n]+)['"]""")
_JS_SUFFIXES = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs")


def imported_files(language: str, text: str, path: str, top: str, ctx: Ctx) -> list[tuple[str, str, str]]:
    """``(language, text, file)`` of the project modules the program at ``path``
    imports, and theirs (:data:`MAX_IMPORT_DEPTH`, :data:`MAX_IMPORTS`). ``top`` is where
    Python looks first for absolute imports (the script's folder; the working directory
    for ``python -m``). Files that cannot be read are left out: an import that fails
    stops the program, and the file run itself was read."""
    model = MODELS.get(language)
    if model not in ("pymodel", "jsmodel"):
        return []
    out: list[tuple[str, str, str]] = []
    seen = {path}
    level = [(text, path)]
    for _ in range(MAX_IMPORT_DEPTH):
        following: list[tuple[str, str]] = []
        for source, origin in level:
            names = _python_imports(source, origin, top) if model == "pymodel" else _js_imports(source, origin)
            for name in names:
                if name in seen or len(out) >= MAX_IMPORTS:
                    continue
                seen.add(name)
                read = script_of(name, ctx, language)
                if isinstance(read, tuple):
                    out.append((read[0], read[1], name))
                    following.append((read[1], name))
        level = following
    return out


def _python_imports(text: str, origin: str, top: str) -> list[str]:
    if "import" not in text:
        return []
    found: list[str] = []
    for match in _PY_IMPORT.finditer(text):
        relative, plain = match.group(1), match.group(2)
        if relative is not None:
            dots = len(relative) - len(relative.lstrip("."))
            base = top
            if dots:
                base = os.path.dirname(origin)
                for _ in range(dots - 1):
                    base = os.path.dirname(base)
            found.extend(_module_paths(relative[dots:], base))
        else:
            for name in plain.split(","):
                found.extend(_module_paths(name.strip().split()[0] if name.strip() else "", top))
    return found


def _module_paths(module: str, base: str) -> list[str]:
    """The project files importing ``module`` from ``base`` runs (packages' ``__init__.py``
    and the module); empty when ``base`` does not hold it."""
    parts = [p for p in module.split(".") if p]
    if not parts or not all(p.isidentifier() for p in parts):
        return []
    out = []
    folder = base
    for part in parts:
        folder = os.path.join(folder, part)
        init = os.path.join(folder, "__init__.py")
        if os.path.isfile(init):
            out.append(init)
        elif os.path.isfile(folder + ".py"):
            out.append(folder + ".py")
            break
        elif not os.path.isdir(folder):
            break
    return out


def _js_imports(text: str, origin: str) -> list[str]:
    if "./" not in text:
        return []
    here = os.path.dirname(origin)
    found: list[str] = []
    for match in _JS_IMPORT.finditer(text):
        target = os.path.normpath(os.path.join(here, match.group(1)))
        for suffix in _JS_SUFFIXES:
            if os.path.isfile(target + suffix):
                found.append(target + suffix)
                break
    return found


def earlier_commands(before: str) -> tuple[SimpleCommand, ...]:
    """The commands in ``before``, the command line up to a command that runs a missing
    file (its trailing ``&&``, ``;``, ``|`` dropped): did any of them make that file?"""
    from ..syntax.parse import parse

    text = before.rstrip().rstrip("&|;(").rstrip()
    return parse(text).commands if text else ()


def language_of(text: str, path: str) -> str | None:
    """The language of a file run by its path: its ``#!`` line, else its extension,
    else shell (the shell runs a text file that has no ``#!`` line)."""
    if text.startswith("#!"):
        return _shebang(text[2:].split("\n", 1)[0])
    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    if dot > 0:
        language = _EXTENSIONS.get(base[dot:])
        if language is not None:
            return language
    return "sh"


def _shebang(line: str) -> str | None:
    """The language of a ``#!`` line (``/usr/bin/env -S python3 -u`` is python)."""
    words = line.strip().split()
    if not words:
        return "sh"  # an empty ``#!`` line: the shell runs the file
    program = words[0].rsplit("/", 1)[-1]
    if program == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        if not rest:
            return None
        program = rest[0].rsplit("/", 1)[-1]
    name = C.canonical_name(program)
    if name in _POSIX_SHELLS:
        return "sh"
    return name if name in MODELS else None


def _read(path: str) -> _Read:
    """The text of ``path``: None for a compiled or binary program, :class:`Unreadable`
    for a file that is missing, not regular, unreadable or too large."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return Unreadable("not found", missing=True)
    except OSError as exc:
        return Unreadable(f"cannot be read: {exc.strerror or type(exc).__name__}")
    if not stat.S_ISREG(st.st_mode):
        return Unreadable("not a regular file")
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    found = _load(path, st.st_size)
    _cache[key] = found
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return found


def _load(path: str, size: int) -> _Read:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return Unreadable(f"cannot be read: {exc.strerror or type(exc).__name__}")
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between stat and open
            return Unreadable("not a regular file")
        head = os.read(fd, 512)
        if head.startswith(_COMPILED) or b"\0" in head:
            return None
        if size > MAX_BYTES:
            return Unreadable(f"{size // 1024} KB, larger than the {MAX_BYTES // 1024} KB bastion reads")
        chunks = [head]
        total = len(head)
        while total <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        return Unreadable(f"cannot be read: {exc.strerror or type(exc).__name__}")
    finally:
        os.close(fd)
    if total > MAX_BYTES:
        return Unreadable(f"larger than the {MAX_BYTES // 1024} KB bastion reads")
    data = b"".join(chunks)
    if b"\0" in data:
        return None  # binary data past the first block
    return data.decode("utf-8", "replace")
