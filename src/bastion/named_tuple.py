"""``NamedTuple`` for bastion's classes, without importing ``typing`` or ``collections``.

``typing`` costs a fresh process some two milliseconds to import, and its ``NamedTuple``
turns every field annotation into a ``ForwardRef`` (each one a ``compile``: about a
tenth of a millisecond a class); ``collections`` another two (with ``keyword``,
``operator`` and ``reprlib``). A decision uses nothing else of them at runtime, so its
modules write::

    TYPE_CHECKING = False
    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from bastion.named_tuple import NamedTuple

    class Row(NamedTuple):
        \"\"\"...\"\"\"
        id: str
        level: int = 0

Type checkers see ``typing.NamedTuple``; at runtime this module makes the class the way
Python 3.11's ``typing`` does, with :func:`namedtuple`, Python 3.11's
``collections.namedtuple`` copied for what bastion asks of it (no ``rename``): the same
fields, defaults, module, qualified name, docstring, methods (the same code) and field
getters (``_collections._tuplegetter``, as there). ``tests/test_named_tuple.py`` builds
every bastion class both ways and compares them. The one difference: ``__annotations__``
keeps the annotation strings rather than ``ForwardRef`` objects made from them.

Each class's ``__new__`` is a lambda over its fields that ``namedtuple`` compiles from
text; for bastion's own classes the compiled code is kept (:func:`bastion.precompiled._code`,
under the class's module), some twenty compiles saved in a fresh decision.
This module imports nothing of bastion's.
"""

from __future__ import annotations

import sys as _sys
from _collections import _tuplegetter  # type: ignore[import-not-found]  # the C getter namedtuple uses

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: What a class body may not define: the named tuple's own machinery (as in ``typing``).
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                         "_make", "_replace", "_asdict", "_source"})
#: What ``namedtuple`` already set from the class statement (as in ``typing``).
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})


def _iskeyword(name: str) -> bool:
    """``keyword.iskeyword(name)``, loading ``keyword`` only for a name that can be one:
    every keyword is lower-case letters, but ``False``, ``None`` and ``True``."""
    if not name[:1].islower() and name not in ("False", "None", "True"):
        return False
    from keyword import iskeyword

    return iskeyword(name)


def _check_names(typename: str, field_names: list[str], fields_too: bool) -> None:
    """``namedtuple``'s checks of the names, in its order. A field name that is a keyword
    is looked for only when ``fields_too``: else :func:`namedtuple` leaves it to the
    compile of ``__new__``, whose parameters the field names are (a keyword cannot be
    one), and comes back here with ``fields_too`` when anything fails."""
    for name in [typename] + field_names:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not name.isidentifier():
            raise ValueError('Type names and field names must be valid '
                             f'identifiers: {name!r}')
        if (fields_too or name is typename) and _iskeyword(name):
            raise ValueError('Type names and field names cannot be a '
                             f'keyword: {name!r}')
    seen = set()
    for name in field_names:
        if name.startswith('_'):
            raise ValueError('Field names cannot start with an underscore: '
                             f'{name!r}')
        if name in seen:
            raise ValueError(f'Encountered duplicate field name: {name!r}')
        seen.add(name)


def _new_code(module: str | None, text: str) -> Any:
    """The code of ``eval(text)`` in ``collections`` (no ``__future__`` flag): for a class
    of bastion's, the code :mod:`bastion.precompiled` keeps, once something loaded it (a
    decision loads it first, with :mod:`bastion.model`; this module imports nothing of
    bastion's); else compiled."""
    precompiled = _sys.modules.get("bastion.precompiled")
    if precompiled is not None and module is not None and (module == "bastion" or module.startswith("bastion.")):
        return precompiled._code(module, text, "eval")
    return compile(text, "<string>", "eval", dont_inherit=True)


def namedtuple(typename: str, field_names: Iterable[str], *, defaults: Iterable[Any] | None = None,
               module: str | None = None) -> type:
    """``collections.namedtuple(typename, field_names, defaults=defaults, module=module)``
    of Python 3.11: the same class, the same methods (their code is the same text, with
    the same closures; hence no annotations here), the same errors."""
    if isinstance(field_names, str):  # "a b" or "a, b", as collections reads it
        field_names = field_names.replace(',', ' ').split()
    field_names = list(map(str, field_names))
    typename = _sys.intern(str(typename))
    try:
        _check_names(typename, field_names, fields_too=False)

        field_defaults = {}
        if defaults is not None:
            defaults = tuple(defaults)
            if len(defaults) > len(field_names):
                raise TypeError('Got more default values than field names')
            field_defaults = dict(reversed(list(zip(reversed(field_names),  # noqa: B905 - namedtuple's line
                                                    reversed(defaults)))))

        # Variables used in the methods and docstrings
        field_names = tuple(map(_sys.intern, field_names))
        num_fields = len(field_names)
        arg_list = ', '.join(field_names)
        if num_fields == 1:
            arg_list += ','
        repr_fmt = '(' + ', '.join(f'{name}=%r' for name in field_names) + ')'
        tuple_new = tuple.__new__
        _dict, _tuple, _len, _map, _zip = dict, tuple, len, map, zip

        # Create all the named tuple methods to be added to the class namespace

        namespace = {
            '_tuple_new': tuple_new,
            '__builtins__': {},
            '__name__': f'namedtuple_{typename}',
        }
        code = f'lambda _cls, {arg_list}: _tuple_new(_cls, ({arg_list}))'
        __new__ = eval(_new_code(module, code), namespace)  # noqa: S307 - the code namedtuple itself evaluates
    except (TypeError, ValueError, SyntaxError):
        _check_names(typename, list(field_names), fields_too=True)  # the error namedtuple raises first
        raise
    __new__.__name__ = '__new__'
    __new__.__doc__ = f'Create new instance of {typename}({arg_list})'
    if defaults is not None:
        __new__.__defaults__ = defaults

    @classmethod  # type: ignore[misc]  # on a function inside a function, as namedtuple writes it
    def _make(cls, iterable):
        result = tuple_new(cls, iterable)
        if _len(result) != num_fields:
            raise TypeError(f'Expected {num_fields} arguments, got {len(result)}')
        return result

    _make.__func__.__doc__ = (f'Make a new {typename} object from a sequence '  # type: ignore[attr-defined]
                              'or iterable')

    def _replace(self, /, **kwds):
        result = self._make(_map(kwds.pop, field_names, self))
        if kwds:
            raise ValueError(f'Got unexpected field names: {list(kwds)!r}')
        return result

    _replace.__doc__ = (f'Return a new {typename} object replacing specified '
                        'fields with new values')

    def __repr__(self):
        'Return a nicely formatted representation string'
        return self.__class__.__name__ + repr_fmt % self

    def _asdict(self):
        'Return a new dict which maps field names to their values.'
        return _dict(_zip(self._fields, self))

    def __getnewargs__(self):
        'Return self as a plain tuple.  Used by copy and pickle.'
        return _tuple(self)

    # Modify function metadata to help with introspection and debugging
    method: Any
    for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):  # type: ignore[attr-defined]
        method.__qualname__ = f'{typename}.{method.__name__}'

    # Build-up the class namespace dictionary
    # and use type() to build the result class
    class_namespace = {
        '__doc__': f'{typename}({arg_list})',
        '__slots__': (),
        '_fields': field_names,
        '_field_defaults': field_defaults,
        '__new__': __new__,
        '_make': _make,
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': field_names,
    }
    for index, name in enumerate(field_names):
        doc = _sys.intern(f'Alias for field number {index}')
        class_namespace[name] = _tuplegetter(index, doc)

    result = type(typename, (tuple,), class_namespace)

    # For pickling to work, the __module__ variable needs to be set to the frame
    # where the named tuple is created.
    if module is None:
        try:
            module = _sys._getframe(1).f_globals.get('__name__', '__main__')
        except (AttributeError, ValueError):
            pass
    if module is not None:
        result.__module__ = module

    return result


class _NamedTupleMeta(type):
    """Turns ``class X(NamedTuple): ...`` into :func:`namedtuple`'s class, as
    ``typing.NamedTupleMeta`` does (without ``Generic`` bases, which bastion has none of)."""

    def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> type:
        if bases != (NamedTuple,):
            raise TypeError("can only inherit from NamedTuple alone")
        types: dict[str, Any] = ns.get("__annotations__", {})
        default_names: list[str] = []
        for field_name in types:
            if field_name in ns:
                default_names.append(field_name)
            elif default_names:
                raise TypeError(f"Non-default namedtuple field {field_name} cannot follow default field"
                                f"{'s' if len(default_names) > 1 else ''} {', '.join(default_names)}")
        defaults = [ns[n] for n in default_names]
        built: Any = namedtuple(typename, list(types), defaults=defaults, module=ns["__module__"])
        built.__annotations__ = built.__new__.__annotations__ = dict(types)
        built.__orig_bases__ = bases  # the bases as written, as typing keeps them
        for key in ns:  # the class body's own attributes: docstring, qualified name, methods
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in built._fields:
                setattr(built, key, ns[key])
        return built  # type: ignore[no-any-return]


#: The base to write in a class statement; never itself instantiated.
NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {"__module__": __name__})
