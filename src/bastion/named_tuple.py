"""``NamedTuple`` for bastion's classes, without importing ``typing``.

``typing`` costs a fresh process some two milliseconds to import, and its ``NamedTuple``
turns every field annotation into a ``ForwardRef`` (each one a ``compile``: about a
tenth of a millisecond a class). A decision uses nothing else of it at runtime, so its
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
Python 3.11's ``typing`` does (``collections.namedtuple`` with the same fields, defaults,
module, qualified name, docstring and methods: ``tests/test_named_tuple.py`` builds every
bastion class both ways and compares them). The one difference: ``__annotations__`` keeps
the annotation strings rather than ``ForwardRef`` objects made from them.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: What a class body may not define: the named tuple's own machinery (as in ``typing``).
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                         "_make", "_replace", "_asdict", "_source"})
#: What ``namedtuple`` already set from the class statement (as in ``typing``).
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})


class _NamedTupleMeta(type):
    """Turns ``class X(NamedTuple): ...`` into ``collections.namedtuple``'s class, as
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
        built = namedtuple(typename, list(types), defaults=defaults, module=ns["__module__"])  # type: ignore[misc]
        built.__annotations__ = built.__new__.__annotations__ = dict(types)
        built.__orig_bases__ = bases  # type: ignore[attr-defined]  # the bases as written, as typing keeps them
        for key in ns:  # the class body's own attributes: docstring, qualified name, methods
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in built._fields:
                setattr(built, key, ns[key])
        return built


#: The base to write in a class statement; never itself instantiated.
NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {"__module__": __name__})
