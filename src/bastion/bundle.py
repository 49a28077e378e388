"""bastion's own modules for a one-shot process, read from one file.

A hook that decides in its own process imports about a hundred of bastion's modules, and
each pays some sixty microseconds of import machinery before its code runs: the path
finder's look-ups, the source's stat, the ``.pyc`` opened, read and checked. The bundle
keeps their compiled code in one file beside them,
``bastion/__pycache__/bundle.VERSION.TAG-MAGIC.optN.marshal`` (the trust of the ``.pyc``
files there, which Python runs too; written only where Python writes bytecode). Modules
are kept in chunks of :data:`_CHUNK`, in the order a process first imported them, each
chunk one marshalled tuple of ``(name, code)``: the names and constants the modules of a chunk share
are read once, where a module a piece would make each again (some 15% fewer instructions
to read a decision's code), and a process reads only the chunks of what it imports.

An entry is used only while it still says what the normal import would load: its
source's mtime and size are those recorded with the code (as a ``.pyc`` is checked), and
the folder the module is found in has the mtime it had then (no file appeared beside it
that the path finder would take first, such as a package of the same name). A missing or
stale entry imports the normal way, and at exit the file is rewritten, atomically, from
the ``.pyc`` files that import just validated.

A module from the bundle looks as it always does: the same ``__file__``, ``__cached__``,
``__spec__.origin``, package ``__path__``, and a ``SourceFileLoader`` for the same file
(its source text, the resources beside it). Only one-shot processes install the finder (a
hook deciding in its own process, ``bastion check`` and ``explain``); the warm server, the
MCP proxy and a library embedding bastion import the normal way. Imports only modules
every interpreter has loaded when it starts.
"""

from __future__ import annotations

import _frozen_importlib as _bootstrap
import _frozen_importlib_external as _external
import _imp
import marshal
import os
import sys

TYPE_CHECKING = False  # no `typing` import: a fresh hook starts here
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import CodeType, ModuleType
    from typing import Any, BinaryIO

_HERE = os.path.dirname(__file__)
_MAGIC = b"bnd3"  # the layout: magic, index length, marshalled index, then the chunks
#: Modules a chunk: imported one after another, they are read together.
_CHUNK = 16
#: name -> (path below the package, source mtime ns, source size, folder mtime ns, chunk offset
#: after the index, chunk length, place in the chunk)
_INDEX: dict[str, tuple[str, int, int, int, int, int, int]] = {}
_START = 0  # where the chunks begin in the file
_SIZE = 0  # the file's size when its index was read
_FILE = -1  # the bundle, open for the rest of this short process once read
#: bastion's modules this process looked for that the bundle did not serve
_MISSED: set[str] = set()
#: where the code of a module just found lies: (chunk offset, chunk length, place)
_FOUND: dict[str, tuple[int, int, int]] = {}
_CHUNKS: dict[int, tuple[Any, ...]] = {}  # chunk offset -> its (name, code) pairs, once read (() when unreadable)
_FOLDERS: dict[str, int] = {}  # folder -> mtime ns, stat'ed once per process
#: what follows a module's name in its ``.pyc``'s (``cpython-311.pyc``, ``cpython-311.opt-1.pyc``)
_CACHE_SUFFIX = (f"{sys.implementation.cache_tag}{f'.opt-{sys.flags.optimize}' if sys.flags.optimize else ''}"
                 f"{_external.BYTECODE_SUFFIXES[0]}")


def _path() -> str:
    """A new bastion, bytecode format or optimisation level starts a new file."""
    version = getattr(sys.modules.get(__package__ or ""), "__version__", "0")
    tag = f"{sys.implementation.cache_tag}-{_external.MAGIC_NUMBER.hex()}.opt{sys.flags.optimize}"
    return os.path.join(_HERE, "__pycache__", f"bundle.{version}.{tag}.marshal")


def _folder_mtime(folder: str) -> int:
    mtime = _FOLDERS.get(folder)
    if mtime is None:
        try:
            mtime = os.stat(folder).st_mtime_ns
        except OSError:
            mtime = -1
        _FOLDERS[folder] = mtime
    return mtime


class _Loader(_external.SourceFileLoader):  # type: ignore[misc]
    """The file's own loader; its code comes from the bundle the one time the finder
    found it there (a reload reads the ``.pyc`` as usual)."""

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """The new module, its ``__file__`` and ``__cached__`` already set: the import
        sets them only where it finds none, and looking for one that is not there costs
        a formatted ``AttributeError`` each (some 240 in a fresh hook)."""
        module = type(sys)(spec.name)
        module.__dict__.update(__file__=spec.origin, __cached__=spec.cached)
        return module

    def get_code(self, fullname: str) -> CodeType | None:
        where = _FOUND.pop(fullname, None) if fullname == self.name else None
        code = _code_at(*where, fullname) if where is not None else None
        if code is not None:
            _imp._fix_co_filename(code, self.path)  # type: ignore[attr-defined]  # as the .pyc's loader does
            return code
        _MISSED.add(fullname)
        return super().get_code(fullname)


def _code_at(offset: int, length: int, place: int, name: str) -> CodeType | None:
    """The code of module ``name`` at ``place`` in the chunk at ``offset`` (the chunk read
    the first time); None for anything the file does not hold as it should."""
    try:
        chunk = _CHUNKS.get(offset)
        if chunk is None:
            fits = 0 <= offset and 0 <= length and offset + length <= _SIZE
            data = os.pread(_FILE, length, offset) if fits else b""
            loaded = marshal.loads(data) if fits and len(data) == length else ()
            _CHUNKS[offset] = chunk = loaded if type(loaded) is tuple else ()
        named, code = chunk[place] if 0 <= place < len(chunk) else (None, None)
    except (OSError, EOFError, ValueError, TypeError, OverflowError, MemoryError):
        return None
    return code if named == name and isinstance(code, type(_folder_mtime.__code__)) else None


class _Finder:
    """First on the meta path: bastion's modules whose entry still matches their files."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        entry = _INDEX.get(name)
        if entry is None:
            if name.startswith("bastion."):
                _MISSED.add(name)
            return None
        try:
            return _spec(name, path, entry)
        except (TypeError, ValueError, AttributeError, IndexError):  # an entry not as this writes them
            _MISSED.add(name)
            return None


def _spec(name: str, path: Sequence[str] | None, entry: tuple[str, int, int, int, int, int, int]) -> ModuleSpec | None:
    """The spec of ``name`` served from its ``entry``, while the entry still matches the files."""
    relative, mtime_ns, size, folder_mtime_ns, offset, length, place = entry
    origin = f"{_HERE}/{relative}"
    package = relative.endswith("/__init__.py")
    folder = origin.rpartition("/")[0]
    searched = folder.rpartition("/")[0] if package else folder  # where the path finder looks for it
    try:
        info = os.stat(origin)
    except OSError:
        info = None
    if (not path or path[0] != searched or info is None or info.st_mtime_ns != mtime_ns or info.st_size != size
            or _folder_mtime(searched) != folder_mtime_ns):
        _MISSED.add(name)
        return None
    _FOUND[name] = (_START + offset, length, place)
    spec = _bootstrap.ModuleSpec(name, _Loader(name, origin), origin=origin, is_package=package)
    spec.has_location = True
    # the .pyc path ``cache_from_source`` would work out for ``__cached__`` (sys.pycache_prefix
    # is None here, and the file's name is its module's), in one step
    spec.cached = f"{folder}/__pycache__/{relative.rpartition('/')[2][:-3]}.{_CACHE_SUFFIX}"
    if package:
        spec.submodule_search_locations = [folder]
    return spec


def _read() -> None:
    """The index (code is read module by module: a decision needs only part of it)."""
    global _FILE, _INDEX, _START, _SIZE
    try:
        fd = os.open(_path(), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        head = os.pread(fd, 8, 0)
        if head[:4] != _MAGIC:
            raise ValueError
        size = int.from_bytes(head[4:], "little")
        index = marshal.loads(os.pread(fd, size, 8))
        if type(index) is not dict:
            raise ValueError
        _INDEX, _START, _SIZE, _FILE = index, 8 + size, os.fstat(fd).st_size, fd
    except (OSError, EOFError, ValueError, TypeError, AttributeError, IndexError):
        _INDEX = {}
        os.close(fd)


def install() -> None:
    """Serve bastion's modules from the bundle in this process, and keep it current."""
    if _Finder in sys.meta_path or sys.version_info[:2] != (3, 11) or sys.pycache_prefix is not None:
        return
    _read()
    sys.meta_path.insert(0, _Finder)
    import atexit

    atexit.register(_save)


def _entry(name: str) -> tuple[str, int, int, int, CodeType] | None:
    """A module the normal import loaded, from the ``.pyc`` it validated, when that
    still matches the source: ``(path below the package, mtime, size, folder mtime, code)``."""
    spec = getattr(sys.modules.get(name), "__spec__", None)
    origin = getattr(spec, "origin", None)
    if (not isinstance(origin, str) or not origin.startswith(_HERE + "/") or not origin.endswith(".py")
            or type(getattr(spec, "loader", None)) not in (_external.SourceFileLoader, _Loader)):
        return None
    relative = origin[len(_HERE) + 1:]
    folder = origin.rpartition("/")[0]
    try:
        info = os.stat(origin)
        folder_mtime = os.stat(folder.rpartition("/")[0] if relative.endswith("/__init__.py") else folder).st_mtime_ns
        with open(spec.cached, "rb") as handle:  # type: ignore[union-attr]
            pyc = handle.read()
        code = marshal.loads(memoryview(pyc)[16:])
    except (OSError, TypeError, NotImplementedError, EOFError, ValueError):
        return None
    if (pyc[:4] != _external.MAGIC_NUMBER or pyc[4:8] != b"\0\0\0\0"  # a timestamp .pyc
            or int.from_bytes(pyc[8:12], "little") != int(info.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(pyc[12:16], "little") != info.st_size & 0xFFFFFFFF
            or not isinstance(code, type(_folder_mtime.__code__))):
        return None
    return relative, info.st_mtime_ns, info.st_size, folder_mtime, code


def _save() -> None:
    """At exit, when one of bastion's modules came the normal way: rewrite the bundle
    with it (entries of modules this process did not import stay as they were)."""
    names = [name for name in list(sys.modules) if name in _MISSED]  # in the order they were imported
    if not names or sys.dont_write_bytecode:
        return
    path = _path()
    temporary = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"  # processes in other PID namespaces too
    try:  # first, so that a folder nobody may write to costs no reading
        handle = open(temporary, "wb")  # noqa: SIM115 - closed below, removed when not used
    except OSError:
        return
    try:
        with handle:
            _write(handle, names)
        os.replace(temporary, path)
    except (OSError, ValueError, TypeError, OverflowError):  # a cache: never a traceback at exit
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _write(handle: BinaryIO, names: list[str]) -> None:
    """The bundle: the entries still read from the old file, in their places, and the
    modules ``names`` from their ``.pyc`` files, after them in the order given
    (ValueError when none of them could be added)."""
    fresh = {name: entry for name in names if (entry := _entry(name)) is not None}
    if not fresh:
        raise ValueError("nothing new")
    entries: dict[str, tuple[str, int, int, int, CodeType]] = {}
    for name, kept in _INDEX.items():
        if type(kept) is not tuple or len(kept) != 7:
            continue
        relative, mtime_ns, size, folder_mtime_ns, offset, length, place = kept
        if name in fresh:
            entries[name] = fresh.pop(name)  # an edited module keeps its place
        elif name not in _MISSED and (code := _code_at(_START + offset, length, place, name)) is not None:
            entries[name] = (relative, mtime_ns, size, folder_mtime_ns, code)
    entries.update(fresh)
    index, chunks, offset = {}, [], 0
    listed = list(entries.items())
    for start in range(0, len(listed), _CHUNK):
        part = listed[start:start + _CHUNK]
        chunk = marshal.dumps(tuple((name, code) for name, (*_, code) in part))
        for place, (name, (relative, mtime_ns, size, folder_mtime_ns, _)) in enumerate(part):
            index[name] = (relative, mtime_ns, size, folder_mtime_ns, offset, len(chunk), place)
        chunks.append(chunk)
        offset += len(chunk)
    head = marshal.dumps(index)
    handle.write(_MAGIC + len(head).to_bytes(4, "little") + head)
    for chunk in chunks:
        handle.write(chunk)
