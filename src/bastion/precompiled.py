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
untouched, and any other interpreter keeps the standard path.

The modules a decision starts from (``model``, ``engine``, ``hook.protocol``) take
``dataclass``, ``field`` and ``replace`` from here, so ``dataclasses`` is first loaded here:
without ``inspect``, until a class without a docstring needs it (:class:`_InspectOnUse`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING as _TYPING, Any

if _TYPING:
    from types import FrameType

_CACHE: dict[str, Any] | None = None
_ADDED = False
#: A cache that grew past this is started afresh (old texts pile up across edits).
_MAX_ENTRIES = 4000


def _path() -> str:
    """``bastion/__pycache__/dataclass-code.VERSION.TAG-MAGIC.marshal``: a new bastion or a
    new bytecode format starts a new file."""
    import os

    version = getattr(sys.modules.get(__package__ or ""), "__version__", "0")  # the parent package, always loaded
    magic = getattr(sys.modules.get("_frozen_importlib_external"), "MAGIC_NUMBER", b"").hex()
    tag = f"{sys.implementation.cache_tag}-{magic}"
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"dataclass-code.{version}.{tag}.marshal")


def _load() -> dict[str, Any]:
    import marshal

    global _CACHE
    _CACHE = {}
    try:
        with open(_path(), "rb") as handle:
            loaded = marshal.loads(handle.read())  # one read: marshal.load reads in small pieces
    except (OSError, EOFError, ValueError, TypeError):
        return _CACHE
    if isinstance(loaded, dict) and len(loaded) <= _MAX_ENTRIES:
        code_type = type(_load.__code__)
        _CACHE = {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, code_type)}
    return _CACHE


def _save() -> None:
    """At exit, when this process compiled something new: write the cache atomically."""
    import marshal
    import os

    if not _ADDED or _CACHE is None or sys.dont_write_bytecode:
        return
    path = _path()
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as handle:
            marshal.dump(_CACHE, handle)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _code(text: str, mode: str = "exec") -> Any:
    """The code ``compile(text, "<string>", mode)`` makes (for ``eval``, with no inherited
    ``__future__`` flags, as neither ``collections`` nor ``typing`` has any)."""
    global _ADDED
    cache = _CACHE if _CACHE is not None else _load()
    key = text if mode == "exec" else f"{mode}\0{text}"
    code = cache.get(key)
    if code is None:
        if not _ADDED:
            import atexit

            atexit.register(_save)
            if len(cache) >= _MAX_ENTRIES:
                cache.clear()
        code = cache[key] = (compile(text, "<string>", mode) if mode == "exec"
                             else compile(text, "<string>", mode, dont_inherit=True))
        _ADDED = True
    return code


def _for_bastion(depth: int) -> bool:
    """Whether a frame within ``depth`` levels above the caller's caller runs bastion's
    code (a class body of one of its modules)."""
    frame: FrameType | None = sys._getframe(2)
    for _ in range(depth):
        if frame is None:
            return False
        module = frame.f_globals.get("__name__", "")
        if module == "bastion" or module.startswith("bastion."):
            return True
        frame = frame.f_back
    return False


def install_named_tuples() -> None:
    """Give bastion's ``NamedTuple`` classes cached code. Python 3.11 compiles two kinds
    of text for each: ``collections.namedtuple`` evaluates its ``__new__`` (a lambda over
    the fields) and ``typing`` compiles every string annotation (``from __future__ import
    annotations``) into a ``ForwardRef``: some seventy compiles in a fresh decision. The
    two modules call the builtins ``eval`` and ``compile`` by name, so a module-level name
    in each answers first: the cached code for the same text when bastion's class body is
    on the stack, the builtin unchanged for everyone else."""
    import builtins

    if sys.version_info[:2] != (3, 11):
        return
    collections = sys.modules.get("collections")
    typing = sys.modules.get("typing")
    if collections is not None and "eval" not in vars(collections):
        def eval(source: Any, globals: Any = None, locals: Any = None) -> Any:  # noqa: A001,A002
            if isinstance(source, str) and _for_bastion(5):
                source = _code(source, "eval")
            return builtins.eval(source, globals, locals)  # noqa: S307 - the code namedtuple itself evaluates

        collections.eval = eval  # type: ignore[attr-defined]
    if typing is not None and "compile" not in vars(typing):
        def compile(source: Any, filename: Any, mode: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
            if (not args and not kwargs and filename == "<string>" and mode == "eval" and isinstance(source, str)
                    and _for_bastion(8)):
                return _code(source, "eval")
            return builtins.compile(source, filename, mode, *args, **kwargs)

        typing.compile = compile  # type: ignore[attr-defined]


class _InspectOnUse(type(sys)):  # type: ignore[misc]  # a module object: ``types`` is not needed for it
    """``inspect`` for ``dataclasses``, imported when first used. ``dataclasses`` imports
    ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``: a few milliseconds, a tenth of
    a fresh decision) only to write a signature docstring for a class without one."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("inspect") is self:
            del sys.modules["inspect"]
        import inspect

        dataclasses = sys.modules.get("dataclasses")
        if dataclasses is not None and getattr(dataclasses, "inspect", None) is self:
            dataclasses.inspect = inspect  # type: ignore[attr-defined]
        return getattr(inspect, name)


def _import_dataclasses() -> Any:
    """``dataclasses``, loaded (if nobody loaded it yet) with :class:`_InspectOnUse` in
    place of ``inspect``: the same module, the real ``inspect`` the first time it is used."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        import dataclasses

        return dataclasses
    stand_in = _InspectOnUse("inspect")
    sys.modules["inspect"] = stand_in
    try:
        import dataclasses
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]
    return dataclasses


def install() -> None:
    """Give bastion's dataclasses the cached code (once per process; a no-op where the
    standard library's ``_create_fn`` is not the one this mirrors)."""
    dataclasses = _import_dataclasses()

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
        return_annotation = ""
        if return_type is not missing:
            locals["_return_type"] = return_type
            return_annotation = "->_return_type"
        joined = ",".join(args)
        lines = "\n".join(f"  {b}" for b in body)
        text = f" def {name}({joined}){return_annotation}:\n{lines}"
        text = f"def __create_fn__({', '.join(locals.keys())}):\n{text}\n return {name}"
        namespace: dict[str, Any] = {}
        exec(_code(text), globals, namespace)  # noqa: S102 - the code dataclasses itself would exec
        return namespace["__create_fn__"](**locals)

    _create_fn._bastion = True  # type: ignore[attr-defined]
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]


TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass, field, replace
else:  # the first of bastion's modules to import these loads dataclasses (without inspect) and installs the cache
    _dataclasses = _import_dataclasses()
    install()
    install_named_tuples()
    dataclass, field, replace = _dataclasses.dataclass, _dataclasses.field, _dataclasses.replace
