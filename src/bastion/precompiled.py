"""Compiled code for bastion's dataclasses, cached beside the package's ``.pyc`` files.

On Python 3.11, creating a dataclass compiles the source text of its
``__init__``, ``__repr__``, ``__eq__``, ``__setattr__`` … with ``exec``: about half a
millisecond a class, and a decision defines some fifty of them — a large part of a hook
that decides in its own process. The text depends only on the class's fields, so its
compiled code can be kept: one marshal file, named for bastion's version and the
interpreter's cache tag, in ``bastion/__pycache__`` (the trust of the ``.pyc`` files
there, which Python runs too; it is written only where Python writes bytecode). The cache
maps the exact text to its code, so an entry is either the code ``exec`` would compile or
unused. Only bastion's own classes use it; every other class goes through ``dataclasses``
untouched, and any other interpreter keeps the standard path. Most of bastion's classes
skip the text too (:mod:`bastion.dataclass_shortcut`, whose code is kept here under what
the text depends on); the text is for those it leaves to ``dataclasses``.

The same file keeps the compiled form of regular expressions written in bastion's code:
``re`` parses and compiles each in pure Python, a tenth of a millisecond apiece (several
for the largest), some twenty in a fresh decision and more for code a command carries.
Those compiled while bastion's modules load are recognised on the stack
(:func:`install_patterns`); those compiled on first use come through :func:`pattern`
(``LazyPattern``), since the stack cannot tell them from a pattern built from a command.

The file keeps each module's entries apart, read and unmarshalled when that module first
needs one (an index says where each part lies): it holds what every bastion process
compiled (the server, every verb), a decision imports a part. A module that needed
something new has its part rewritten at exit with what this process used, so the texts of
an edited class do not pile up.

The modules a decision starts from (``model``, ``engine``, ``hook.protocol``) take
``dataclass``, ``field`` and ``replace`` from here, so ``dataclasses`` is first loaded here:
without ``inspect``, ``re``, ``copy``, ``functools`` … until it uses them
(:mod:`bastion.stand_ins`); the one pattern it compiles as it loads comes from
:func:`pattern` when first used.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # no `typing` import: a fresh decision does without it
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any, TypeGuard

#: The file's parts: module -> the marshalled ``{key: value}`` of what it compiled, read
#: (:class:`_Parts`) and unmarshalled when the module first needs it. A key is a text
#: (``str``: exec, ``"eval\0"`` + text: eval), a regular expression ``(pattern, flags,
#: _sre.MAGIC)`` or a dataclass's facts (:mod:`bastion.dataclass_shortcut`); its value
#: the code, or the ``_sre.compile`` arguments.
_FILE: _Parts | dict[str, bytes] | None = None
_OPENED: dict[str, dict[Any, Any]] = {}  # module -> its part of the file, unmarshalled
_USED: dict[str, dict[Any, Any]] = {}  # module -> what this process took or compiled for it
_CHANGED: set[str] = set()  # modules that needed something the file did not have
_SAVING = False  # the save at exit is registered

#: The layout of the file and the meaning of its entries; another starts a new file.
_FORMAT = 4  # 4: patterns compiled on first use kept per module (3: in one part; 2: one dict)
#: The file: this, the index's length (4 bytes, little-endian), the marshalled index
#: ``{module: (offset after the index, length)}``, then each module's part.
_MAGIC = b"bpc4"


def _path() -> str:
    """``bastion/__pycache__/precompiled.VERSION.TAG-MAGIC-PYTHON.FORMAT.marshal``: a new
    bastion, a new bytecode format, a new Python release (whose ``re`` compiler may make
    other codes for the same pattern, which ``_sre`` would accept) or a new layout starts
    a new file."""
    import os

    version = getattr(sys.modules.get(__package__ or ""), "__version__", "0")  # the parent package, always loaded
    magic = getattr(sys.modules.get("_frozen_importlib_external"), "MAGIC_NUMBER", b"").hex()
    tag = f"{sys.implementation.cache_tag}-{magic}-{'.'.join(map(str, sys.version_info[:3]))}"
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"precompiled.{version}.{tag}.{_FORMAT}.marshal")


class _Parts:
    """The file's parts, each read when a module first asks for it: a decision needs a
    fraction of what every kind of process keeps there. No file is left open (a command
    naming ``/proc/self/fd/N`` must not reach it while the guard decides); a part is read
    only from the file whose index this holds (same inode, time and size), else it is
    missing."""

    def __init__(self, path: str, stamp: tuple[int, int, int], index: dict[str, tuple[int, int]],
                 start: int) -> None:
        self._path, self._stamp, self._index, self._start = path, stamp, index, start

    def get(self, module: str, default: bytes | None = None) -> bytes | None:
        import os

        where = self._index.get(module)  # checked when asked for: a decision asks for a few
        if not _place(where):
            return default
        try:
            fd = os.open(self._path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return default
        try:
            if _stamp(os.fstat(fd)) != self._stamp:  # replaced since its index was read
                return default
            if self._start + where[0] + where[1] > self._stamp[2]:  # past the end of the file
                return default
            data = os.pread(fd, where[1], self._start + where[0])
        except (OSError, OverflowError, MemoryError):
            return default
        finally:
            os.close(fd)
        return data if len(data) == where[1] else default

    def __iter__(self) -> Any:
        return (module for module, where in self._index.items() if type(module) is str and _place(where))

    def items(self) -> Any:
        return ((module, self.get(module)) for module in self)


def _place(where: Any) -> TypeGuard[tuple[int, int]]:
    """A part's place in the index: ``(offset after the index, length)``."""
    return (type(where) is tuple and len(where) == 2 and type(where[0]) is int and type(where[1]) is int
            and where[0] >= 0 and where[1] >= 0)


def _stamp(stat: Any) -> tuple[int, int, int]:
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def _read(path: str) -> _Parts | dict[str, bytes]:
    """The index of the file at ``path`` (``{}`` without a readable one)."""
    import marshal
    import os

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return {}
    try:
        stamp = _stamp(os.fstat(fd))
        head = os.read(fd, 16384)
        size = int.from_bytes(head[4:8], "little")
        if head[:4] == _MAGIC and len(head) < 8 + size:
            head += os.pread(fd, 8 + size - len(head), len(head))
        index = marshal.loads(head[8:8 + size]) if head[:4] == _MAGIC else None
    except (OSError, EOFError, ValueError, TypeError):
        index = None
    finally:
        os.close(fd)
    if not isinstance(index, dict):
        return {}
    return _Parts(path, stamp, index, 8 + size)


def _load() -> _Parts | dict[str, bytes]:
    """The file's index, read once a process."""
    global _FILE
    _FILE = _read(_path())
    return _FILE


def _cached(module: str, key: Any) -> Any:
    """What ``module`` kept under ``key``, or None."""
    entries = _OPENED.get(module)
    if entries is None:
        import marshal

        data = (_FILE if _FILE is not None else _load()).get(module)
        try:
            loaded = marshal.loads(data) if data is not None else None
        except (EOFError, ValueError, TypeError):
            loaded = None
        entries = _OPENED[module] = loaded if isinstance(loaded, dict) else {}
    value = entries.get(key)
    if value is not None:
        _USED.setdefault(module, {})[key] = value
    return value


def _remember(module: str, key: Any, value: Any) -> None:
    """Keep ``value`` (marshal-able) under ``key`` for ``module``. At exit the module's
    part of the file is rewritten with what this process used: the module's code ran
    here, so a text it no longer compiles (an edited class) is dropped."""
    global _SAVING
    if not _SAVING:
        import atexit

        atexit.register(_save)
        _SAVING = True
    _CHANGED.add(module)
    _USED.setdefault(module, {})[key] = value
    _OPENED.setdefault(module, {})[key] = value


def _save() -> None:
    """At exit, when this process compiled something new: write the cache atomically."""
    import marshal
    import os

    if not _CHANGED or sys.dont_write_bytecode:
        return
    path = _path()
    # the parts as the file has them now (another process may have rewritten it since)
    parts = {module: data for module, data in _read(path).items() if data is not None}
    for module in list(_CHANGED):
        try:
            parts[module] = marshal.dumps(_OPENED.get(module, {}) if module.startswith(_ON_FIRST_USE)
                                          else _USED.get(module, {}))
        except ValueError:  # something not marshal-able: the module's part is not kept
            parts.pop(module, None)
    temporary = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"  # processes in other PID namespaces too
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        index, offset = {}, 0
        for module, data in parts.items():
            index[module] = (offset, len(data))
            offset += len(data)
        head = marshal.dumps(index)
        with open(temporary, "wb") as handle:
            handle.write(b"".join([_MAGIC, len(head).to_bytes(4, "little"), head, *parts.values()]))
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _code(module: str, text: str, mode: str = "exec") -> Any:
    """The code ``compile(text, "<string>", mode)`` makes in ``dataclasses`` or
    ``collections``, for a class of ``module``: with no ``__future__`` flag inherited from
    this module (``annotations`` would turn ``__init__``'s annotations into the names of
    its locals, ``'_type_x'`` for ``x``'s type)."""
    key = text if mode == "exec" else f"{mode}\0{text}"
    code = _cached(module, key)
    if not isinstance(code, type(_code.__code__)):
        code = compile(text, "<string>", mode, dont_inherit=True)
        _remember(module, key, code)
    return code


def _loading_for_bastion() -> str:
    """The module of bastion's that the caller's caller runs for while a module body runs:
    one of bastion's own bodies, or the module of bastion's that imports the one loading
    (``json``, ``shlex`` …); else ``""``. A module body runs once, when it is imported, so
    a pattern it compiles is text written in code, never a command's or a setting's: those
    are compiled while a decision runs, in a function of bastion's, and take the standard
    path."""
    frame: FrameType | None = sys._getframe(2)
    loading = False  # a module body is below: from here up, who imported it
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        body = frame.f_code.co_name == "<module>"
        if name == "bastion" or name.startswith("bastion."):
            return name if body or loading else ""  # type: ignore[no-any-return]
        if body:
            loading = True
        elif loading and not name.startswith(("_frozen_importlib", "importlib")):  # the import machinery
            return ""  # someone else's code imports it
        frame = frame.f_back
    return ""


#: ``re._compiler.compile`` of Python 3.11, the function :func:`install_patterns` mirrors.
_RE_COMPILE_SHAPE = (("p", "flags", "pattern", "code", "groupindex", "indexgroup", "k", "i"),
                     ("isstring", "_parser", "parse", "_code", "SRE_FLAG_DEBUG", "print", "dis", "state", "groupdict",
                      "groups", "items", "_sre", "compile", "flags", "tuple"))
#: The part of the file for the patterns :func:`pattern` compiles on first use. No process
#: uses them all, so a new one is added and none is dropped, until the part grows past
#: :data:`_MAX_ON_FIRST_USE` (old texts of edited patterns pile up) and starts afresh.
#: Each module that writes such patterns has a part of its own (this, then `` by MODULE``):
#: a decision uses a few of the hundreds bastion's code holds, and reads only the parts
#: of the modules whose patterns it needs.
_ON_FIRST_USE = "(patterns compiled on first use)"
_MAX_ON_FIRST_USE = 200
_STANDARD_COMPILE: Any = None  # re's own compiler, once install_patterns put the cached one in front


def _kept(module: str, p: Any, flags: int) -> Any:
    """The pattern ``module`` kept for ``(p, flags)``, built by ``_sre.compile`` from its
    kept arguments (which checks the codes), or None: no ``re`` needed."""
    import _sre  # type: ignore[import-not-found]

    args = _cached(module, (p, flags, _sre.MAGIC))
    if type(args) is tuple and len(args) == 5:
        try:
            return _sre.compile(p, *args)
        except (TypeError, ValueError, RuntimeError, OverflowError):  # not codes _sre accepts: compile afresh
            pass
    return None


def _compile(module: str, p: Any, flags: int) -> Any:
    """``re._compiler.compile(p, flags)``, its ``_sre.compile`` arguments kept for ``module``."""
    compiled = _kept(module, p, flags)
    return compiled if compiled is not None else _compile_and_keep(module, p, flags)


def _compile_and_keep(module: str, p: Any, flags: int) -> Any:
    """A pattern ``module`` has not kept yet, compiled by ``re``'s own steps, its
    ``_sre.compile`` arguments kept."""
    import _sre
    import re

    # re._compiler.compile's own steps, its arguments kept
    key = (p, flags, _sre.MAGIC)
    parsed = re._parser.parse(p, flags)  # type: ignore[attr-defined]
    codes = re._compiler._code(parsed, flags)  # type: ignore[attr-defined]
    groupindex = parsed.state.groupdict
    indexgroup: list[Any] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    compiled = _sre.compile(p, flags | parsed.state.flags, codes, parsed.state.groups - 1, groupindex,
                            tuple(indexgroup))
    if module.startswith(_ON_FIRST_USE) and len(_OPENED.get(module, ())) >= _MAX_ON_FIRST_USE:
        _OPENED[module] = {}
    # the same arguments as plain numbers (the opcodes are int subclasses marshal does not take)
    _remember(module, key, (int(flags | parsed.state.flags), [int(c) for c in codes], parsed.state.groups - 1,
                            dict(groupindex), tuple(indexgroup)))
    return compiled


def install_patterns() -> None:
    """Give the regular expressions compiled while bastion's modules load (and the modules
    they import) the cached result of ``re``'s compiler. Python 3.11's
    ``re._compiler.compile`` parses the pattern, compiles it to a list of codes and ends in
    ``_sre.compile(pattern, flags, code, groups, groupindex, indexgroup)``; those arguments
    depend only on the pattern and its flags, so they are kept under ``(pattern, flags,
    _sre.MAGIC)`` and a later process calls ``_sre.compile`` with them (which checks the
    codes). Patterns compiled at any other time (:func:`_loading_for_bastion`), by anyone
    else, or with ``re.DEBUG`` take the standard path, and so does every interpreter whose
    compiler is not the one this mirrors. ``re`` keeps its own cache in front of this one.
    A cached pattern does not repeat a warning its parse gave; a test keeps bastion's
    patterns free of any."""
    import re

    global _STANDARD_COMPILE
    compiler = getattr(re, "_compiler", None)
    original = getattr(compiler, "compile", None)
    if original is None or getattr(original, "_bastion", False) or sys.version_info[:2] != (3, 11):
        return
    code = getattr(original, "__code__", None)
    if code is None or (code.co_varnames, code.co_names) != _RE_COMPILE_SHAPE:
        return
    debug = compiler.SRE_FLAG_DEBUG  # type: ignore[union-attr]

    def compile(p: Any, flags: Any = 0) -> Any:  # noqa: A001 - the name re calls
        module = _loading_for_bastion() if type(p) in (str, bytes) and not flags & debug else ""
        return _compile(module, p, int(flags)) if module else original(p, flags)

    compile._bastion = True  # type: ignore[attr-defined]
    compiler.compile = compile  # type: ignore[union-attr]
    _STANDARD_COMPILE = original


#: ``re``'s flags as the numbers ``re.compile`` takes, for modules that compile through
#: :func:`regex` without importing ``re`` (``re.IGNORECASE`` is ``IGNORECASE`` here).
IGNORECASE, MULTILINE, DOTALL, VERBOSE, ASCII = 2, 8, 16, 64, 256
_DEBUG = 128  # re.DEBUG: such a pattern prints its parse, so it is never kept


def _re() -> Any:
    """``re``, given the cached compiler the first time bastion needs it (where this
    interpreter's compiler is the one :func:`install_patterns` mirrors)."""
    import re

    install_patterns()
    return re


def _standard(text: Any, flags: int) -> Any:
    return _re().compile(text, flags)


def _kept_or_compiled(module: str, text: Any, flags: int) -> Any:
    """The pattern ``module`` kept, else compiled now by ``re`` (and kept, where this
    interpreter's compiler is the one mirrored)."""
    compiled = _kept(module, text, flags)
    if compiled is not None:
        return compiled
    _re()
    return _compile_and_keep(module, text, flags) if _STANDARD_COMPILE is not None else _standard(text, flags)


def pattern(text: Any, flags: int = 0, module: str = "") -> Any:
    """``re.compile(text, flags)`` for a pattern written in bastion's code that is compiled
    when first needed (:class:`~bastion.shell.syntax.lazyre.LazyPattern`), kept like the
    patterns compiled while modules load, in the part of ``module``, the module whose code
    wrote it (by default the caller's). Only for such text: a pattern built from a
    command, a setting or a file would be written to the cache file, and that is what
    the stack cannot tell apart from code for a pattern compiled while deciding. A kept
    pattern needs no ``re``."""
    flags = int(flags)
    if sys.version_info[:2] != (3, 11) or type(text) not in (str, bytes) or flags & _DEBUG:
        return _standard(text, flags)
    module = module or sys._getframe(1).f_globals.get("__name__", "")
    return _kept_or_compiled(f"{_ON_FIRST_USE} by {module}", text, flags)


def regex(text: Any, flags: int = 0) -> Any:
    """``re.compile(text, flags)`` for a module body of bastion's: ``NAME = regex(r"…")``.
    The pattern is kept for the calling module (as :func:`install_patterns` keeps those
    compiled through ``re``), and a kept one is built without importing ``re`` at all: in
    a fresh process ``re`` costs some milliseconds before it compiles anything. Called
    from anywhere but a module body of bastion's, it is plain ``re.compile``."""
    flags = int(flags)
    frame = sys._getframe(1)
    module = frame.f_globals.get("__name__", "") if frame.f_code.co_name == "<module>" else ""
    if (not (module == "bastion" or module.startswith("bastion.")) or sys.version_info[:2] != (3, 11)
            or type(text) not in (str, bytes) or flags & _DEBUG):
        return _standard(text, flags)
    return _kept_or_compiled(module, text, flags)



def install() -> None:
    """Give bastion's dataclasses the cached code and the shortcut (once per process; a
    no-op where the standard library's ``_create_fn`` or ``_process_class`` is not the one
    this mirrors)."""
    from .dataclass_shortcut import create_text, install as install_shortcut
    from .stand_ins import import_dataclasses

    dataclasses = import_dataclasses(pattern)
    install_shortcut(dataclasses, _cached, _remember)
    original = getattr(dataclasses, "_create_fn", None)
    if original is None or getattr(original, "_bastion", False) or sys.version_info[:2] != (3, 11):
        return
    if original.__code__.co_varnames[:6] != ("name", "args", "body", "globals", "locals", "return_type"):
        return
    missing = dataclasses.MISSING

    def _create_fn(name: str, args: Any, body: Any, *, globals: Any = None, locals: Any = None,  # noqa: A002
                   return_type: Any = missing) -> Any:
        module = globals.get("__name__", "") if isinstance(globals, dict) else ""
        if not (module == "bastion" or module.startswith("bastion.")):
            return original(name, args, body, globals=globals, locals=locals, return_type=return_type)
        # the text exactly as Python 3.11's dataclasses._create_fn builds it
        if locals is None:
            locals = {}  # noqa: A001
        if return_type is not missing:
            locals["_return_type"] = return_type
        text = create_text(name, args, body, locals, return_type is not missing)
        namespace: dict[str, Any] = {}
        exec(_code(module, text), globals, namespace)  # noqa: S102 - the code dataclasses itself would exec
        return namespace["__create_fn__"](**locals)

    _create_fn._bastion = True  # type: ignore[attr-defined]
    _create_fn.__wrapped__ = original  # type: ignore[attr-defined]  # the standard one, for tests
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]


if TYPE_CHECKING:
    from dataclasses import dataclass, field, replace
else:  # the first of bastion's modules to import these loads dataclasses (with stand-ins) and installs the cache
    install()
    _dataclasses = sys.modules["dataclasses"]
    if "re" in sys.modules:  # else on bastion's first use of re (:func:`_standard`)
        install_patterns()
    dataclass, field, replace = _dataclasses.dataclass, _dataclasses.field, _dataclasses.replace
