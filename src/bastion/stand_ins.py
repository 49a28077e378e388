"""``dataclasses``, loaded without the standard modules it uses only now and then.

``dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``), ``re``
(``enum``, ``functools``, ``collections``), ``copy`` (``weakref``, ``copyreg``),
``functools``, ``types``, ``keyword`` and ``itertools``: several milliseconds of a fresh
decision, for a signature docstring of a class without one (``inspect``), one pattern for
string annotations on the standard path (``re``), ``asdict``/``astuple``
(``copy.deepcopy``), the ``__repr__`` guard's ``functools.wraps``, ``make_dataclass``
(``keyword``, ``types.new_class``), a class with ``__slots__`` (``itertools``).

So while ``dataclasses`` loads, each of them nobody has loaded yet is a stand-in in
``sys.modules`` (:class:`_OnUse`), which ``dataclasses`` keeps as its global. The first
time ``dataclasses`` uses it for something else, the stand-in imports the real module and
puts it in its own place there. ``sys.modules`` holds a stand-in only during that import,
so everyone else's ``import`` gets the real module; and a stand-in whose real module
someone loaded since hands every use to it. What ``dataclasses`` uses of them while it
loads and while it makes a class, the stand-in answers itself, exactly as the real module
would: ``re.compile`` (a pattern compiled the first time it is used), ``functools.wraps``
(``update_wrapper``'s steps, its attributes), the four type objects of ``types``. Those are
the uses of Python 3.11's ``dataclasses``; another version's gets a stand-in for
``inspect`` alone.

tree-sitter's compiled module takes ``re.compile`` as it loads, for query predicates
(``#match?``) a parse never uses: :func:`load_with_re_on_call` loads it with a stand-in
``re`` whose ``compile`` imports the real one when first called.
"""

from __future__ import annotations

import sys

from .std_lite import WRAPPER_ASSIGNMENTS, WRAPPER_UPDATES, update_wrapper

TYPE_CHECKING = False  # no `typing` import: a fresh decision does without it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class _OnUse(type(sys)):  # type: ignore[misc]  # a module object: ``types`` is not needed for it
    """A module ``dataclasses`` imported, loaded the first time ``dataclasses`` uses it."""

    def __getattr__(self, name: str) -> Any:
        if name == "__path__" and sys.modules.get(self.__name__) is self:
            # ``from types import …`` while dataclasses loads: the import machinery asks
            # whether it is a package (it is not asked for a submodule), not a use
            raise AttributeError(name)
        return getattr(_real(self), name)


def _real(stand_in: Any) -> Any:
    """The module ``stand_in`` stands for (imported now if nobody has), in its place in
    ``dataclasses``' globals."""
    name = stand_in.__name__
    if sys.modules.get(name) is stand_in:
        del sys.modules[name]
    module = __import__(name)
    _put_in_place(stand_in, module)
    return module


def _loaded(stand_in: Any) -> Any:
    """The real module, when someone has imported it since (then in ``stand_in``'s place);
    else None."""
    module = sys.modules.get(stand_in.__name__)
    if module is None or module is stand_in:
        return None
    _put_in_place(stand_in, module)
    return module


def _put_in_place(stand_in: object, real: object) -> None:
    """``real`` in ``dataclasses``' globals wherever ``stand_in`` is."""
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None:
        namespace = vars(dataclasses)
        for name, value in list(namespace.items()):
            if value is stand_in:
                namespace[name] = real


def _compile_with_re(text: Any, flags: int) -> Any:
    return __import__("re").compile(text, flags)


#: How a pattern of ``dataclasses``' is compiled on first use (bastion gives its own,
#: which keeps the compiled form: :func:`import_dataclasses`).
_compile: Callable[[Any, int], Any] = _compile_with_re


class _PatternOnUse:
    """``re.compile(text, flags)``, compiled the first time it is used, then in its place
    in ``dataclasses``' globals. ``dataclasses`` compiles one pattern as it loads and uses
    it only for a string annotation of a class it makes the standard way."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, text: Any, flags: int) -> None:
        self._args = (text, flags)
        self._compiled: Any = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = _compile(*self._args)
            _put_in_place(self, compiled)
        return getattr(compiled, name)


class _Re(_OnUse):
    """``re``: its ``compile`` defers the pattern (:class:`_PatternOnUse`)."""

    def compile(self, pattern: Any, flags: int = 0) -> Any:  # noqa: A003 - re's own name
        real = _loaded(self)
        return real.compile(pattern, flags) if real is not None else _PatternOnUse(pattern, flags)


class _Functools(_OnUse):
    """``functools``: its ``wraps`` gives a wrapper what ``functools.wraps`` gives it
    (``dataclasses`` wraps every ``__repr__`` it makes)."""

    def wraps(self, wrapped: Any, assigned: Any = WRAPPER_ASSIGNMENTS, updated: Any = WRAPPER_UPDATES) -> Any:
        real = _loaded(self)
        if real is not None:
            return real.wraps(wrapped, assigned, updated)

        def decorator(wrapper: Any) -> Any:
            return update_wrapper(wrapper, wrapped, assigned, updated)

        return decorator


class _Types(_OnUse):
    """``types``: the type objects ``dataclasses`` takes from it as it loads and as it
    makes a class, made as ``types`` makes them (the same objects)."""

    FunctionType = type(update_wrapper)
    GenericAlias = type(list[int])
    MappingProxyType = type(type.__dict__)
    MemberDescriptorType = type(FunctionType.__globals__)  # type: ignore[attr-defined]


#: The modules Python 3.11's ``dataclasses`` imports that a stand-in takes the place of.
_STAND_INS = {"inspect": _OnUse, "re": _Re, "copy": _OnUse, "functools": _Functools, "types": _Types,
              "keyword": _OnUse, "itertools": _OnUse}


def import_dataclasses(compile: Callable[[Any, int], Any] | None = None) -> Any:  # noqa: A002
    """``dataclasses``, loaded (if nobody loaded it yet) with a stand-in for each module of
    :data:`_STAND_INS` nobody loaded yet; ``compile(text, flags)`` compiles its pattern
    when first used (``re.compile`` without it)."""
    global _compile
    if "dataclasses" in sys.modules:
        import dataclasses

        return dataclasses
    if compile is not None:
        _compile = compile
    kinds = _STAND_INS if sys.version_info[:2] == (3, 11) else {"inspect": _OnUse}
    stand_ins = [kind(name) for name, kind in kinds.items() if name not in sys.modules]
    for stand_in in stand_ins:
        sys.modules[stand_in.__name__] = stand_in
    try:
        import dataclasses
    finally:
        for stand_in in stand_ins:
            if sys.modules.get(stand_in.__name__) is stand_in:
                del sys.modules[stand_in.__name__]
    return dataclasses


class _ReOnCall(type(sys)):  # type: ignore[misc]
    """``re`` for a compiled module that takes ``re.compile`` as it loads: ``compile`` is
    ``re.compile``, importing ``re`` the first time it is called; any other use imports it
    at once."""

    @staticmethod
    def compile(pattern: Any, flags: int = 0) -> Any:  # noqa: A003 - re's own name
        return _real_re().compile(pattern, flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_re(), name)


def _real_re() -> Any:
    stand_in = sys.modules.get("re")
    if type(stand_in) is _ReOnCall:
        del sys.modules["re"]
    import re

    return re


def load_with_re_on_call(load: Callable[[], Any]) -> Any:
    """``load()``, with ``re`` a :class:`_ReOnCall` in ``sys.modules`` meanwhile unless
    someone loaded the real one."""
    if "re" in sys.modules:
        return load()
    stand_in = _ReOnCall("re")
    sys.modules["re"] = stand_in
    try:
        return load()
    finally:
        if sys.modules.get("re") is stand_in:
            del sys.modules["re"]
