"""String enumerations that behave as bastion's ``(str, Enum)`` classes did, without ``enum``.

``enum`` costs a fresh process about three milliseconds to import (it brings ``types``,
``operator`` and ``functools``, and through them ``collections``), and each ``Enum`` class
some tenths of a millisecond to create. A decision needs none of its machinery: bastion's
enumerations (``Verdict``, ``Kind``, ``Tier``, ``Mode``, ``Source``, ``Severity`` in
``bastion.model``) are fixed sets of strings. So they write::

    class Verdict(StrEnum):
        ALLOW = "allow"
        DENY = "deny"

and get what ``class Verdict(str, Enum)`` gives in Python 3.11: members are instances of
the class and of ``str`` (equal to, hashing as, and JSON-encoding as their value);
``.name``/``.value`` (read-only); ``Verdict("allow")`` (the same ``ValueError`` for an unknown
value), ``Verdict["ALLOW"]``, iteration in definition order, ``len``, ``in``,
``__members__``; ``repr`` ``<Verdict.ALLOW: 'allow'>``, ``str`` and ``format``
``Verdict.ALLOW``; copies and pickles that are the member itself; members that cannot be
reassigned or deleted; methods, properties and classmethods of the class body.
``tests/test_str_enum.py`` builds bastion's classes both ways and compares them.

Type checkers see ``enum.Enum`` (with ``str``), so they check these as real enumerations.
Left out, on purpose: ``isinstance(member, enum.Enum)`` is false and ``dir(member)`` lists
``enum``'s private helpers no more; aliases, ``auto()``, non-string values, other
underscore names in the class body, members named ``name`` or ``value``, ``_missing_``
and the functional API (``Enum("Name", "A B")``) are refused or absent.
"""

from __future__ import annotations

TYPE_CHECKING = False  # no `typing` import: a fresh hook starts here
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

_MappingProxy = type(type.__dict__)  # ``types.MappingProxyType``, without importing ``types``


def _members(name: str, namespace: dict[str, Any]) -> dict[str, str]:
    """The members a class body defines: its public names bound to strings. Functions,
    properties and other descriptors belong to the class. ``enum`` gives other names
    meanings this module does not copy, so they are refused rather than misread."""
    members: dict[str, str] = {}
    for key, value in namespace.items():
        if key[:2] == key[-2:] == "__" or (type(value) is not str and _is_descriptor(value)):
            continue
        if key[0] == "_" or key in ("name", "value"):
            raise TypeError(f"{name}.{key}: a StrEnum class body may not define {key!r}")
        if type(value) is not str:
            raise TypeError(f"{name}.{key}: a StrEnum member's value must be a str, not {type(value).__name__}")
        members[key] = value
    if len(set(members.values())) < len(members):
        raise TypeError(f"{name}: two members have the same value (aliases are not supported)")
    return members


def _is_descriptor(value: object) -> bool:
    kind = type(value)
    return hasattr(kind, "__get__") or hasattr(kind, "__set__") or hasattr(kind, "__delete__")


class EnumType(type):
    """The class of a :class:`StrEnum` class: turns the body's strings into members and
    answers the class-level questions (``Verdict("allow")``, ``Verdict["ALLOW"]``,
    iteration, ``len``, ``in``) as ``enum.EnumType`` does. Named as ``enum``'s, whose
    messages name it."""

    _member_names_: list[str]
    _member_map_: dict[str, Any]
    _value2member_map_: dict[str, Any]

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kw: Any) -> EnumType:
        for base in bases:
            if isinstance(base, EnumType) and base.__dict__.get("_member_names_"):
                raise TypeError(f"<enum {name!r}> cannot extend {base!r}")
        members = _members(name, namespace)
        body = {key: value for key, value in namespace.items() if key not in members}
        cls = super().__new__(mcls, name, bases, body, **kw)
        names: list[str] = []
        by_name: dict[str, Any] = {}
        by_value: dict[str, Any] = {}
        for order, (key, value) in enumerate(members.items()):
            member: Any = str.__new__(cls, value)  # type: ignore[arg-type]  # cls is a str subclass
            member.__dict__.update(_value_=value, _name_=key, __objclass__=cls, _sort_order_=order)
            type.__setattr__(cls, key, member)
            names.append(key)
            by_name[key] = by_value[value] = member
        type.__setattr__(cls, "_member_names_", names)
        type.__setattr__(cls, "_member_map_", by_name)
        type.__setattr__(cls, "_value2member_map_", by_value)
        type.__setattr__(cls, "_member_type_", str)
        return cls

    def __call__(cls, value: object) -> Any:
        """The member with this value (``Verdict("allow")``), as ``enum`` looks it up."""
        return cls.__new__(cls, value)  # type: ignore[arg-type, call-arg]  # the class's __new__, not ours

    def __getitem__(cls, name: str) -> Any:
        return cls._member_map_[name]

    def __iter__(cls) -> Iterator[Any]:
        return (cls._member_map_[name] for name in cls._member_names_)

    def __reversed__(cls) -> Iterator[Any]:
        return (cls._member_map_[name] for name in reversed(cls._member_names_))

    def __len__(cls) -> int:
        return len(cls._member_names_)

    def __bool__(cls) -> bool:
        return True  # a class is true, even one whose ``len`` is 0

    def __contains__(cls, member: object) -> bool:
        if not isinstance(member, StrEnum):
            import warnings

            warnings.warn(
                "in 3.12 __contains__ will no longer raise TypeError, but will return True or\n"
                "False depending on whether the value is a member or the value of a member",
                DeprecationWarning,
                stacklevel=2,
            )
            raise TypeError(
                f"unsupported operand type(s) for 'in': '{type(member).__qualname__}' and "
                f"'{cls.__class__.__qualname__}'"
            )
        return isinstance(member, cls) and member._name_ in cls._member_map_

    @property
    def __members__(cls) -> Any:
        """Name → member, read-only."""
        return _MappingProxy(cls._member_map_)

    def __repr__(cls) -> str:
        return f"<enum {cls.__name__!r}>"

    def __setattr__(cls, name: str, value: Any) -> None:
        if name in cls.__dict__.get("_member_map_", {}):
            raise AttributeError(f"cannot reassign member {name!r}")
        super().__setattr__(name, value)

    def __delattr__(cls, name: str) -> None:
        if name in cls.__dict__.get("_member_map_", {}):
            raise AttributeError(f"{cls.__name__!r} cannot delete member {name!r}.")
        super().__delattr__(name)

    def __dir__(cls) -> list[str]:
        interesting = {"__class__", "__contains__", "__doc__", "__getitem__", "__iter__", "__len__", "__members__",
                       "__module__", "__name__", "__qualname__", "__new__", *cls._member_names_}
        return sorted(set(dir(str)) | interesting)


class _MemberField:
    """A member's ``name`` or ``value``: read-only, as ``enum.property`` makes them."""

    def __init__(self, slot: str) -> None:
        self.slot = slot  # where the member keeps it: ``_name_`` or ``_value_``
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            raise AttributeError(self.name)
        return instance.__dict__[self.slot]

    def __set__(self, instance: Any, value: Any) -> None:
        raise AttributeError(f"<enum 'Enum'> cannot set attribute {self.name!r}")

    def __delete__(self, instance: Any) -> None:
        raise AttributeError(f"<enum 'Enum'> cannot delete attribute {self.name!r}")


if TYPE_CHECKING:
    from enum import Enum

    class StrEnum(str, Enum):
        """Type checkers see a real ``(str, Enum)``."""

else:

    class StrEnum(str, metaclass=EnumType):
        """Base of a string enumeration: see the module's docstring."""

        name = _MemberField("_name_")
        value = _MemberField("_value_")

        def __new__(cls, value: object) -> StrEnum:
            """The member with this value (called by ``Verdict(value)`` and by pickle)."""
            if type(value) is cls:
                return value
            try:
                return cls._value2member_map_[value]
            except KeyError:
                pass
            except TypeError:  # an unhashable value matches no member
                pass
            if not cls._member_map_:
                raise TypeError(f"{cls!r} has no members defined")
            raise ValueError(f"{value!r} is not a valid {cls.__qualname__}")

        def __repr__(self) -> str:
            return f"<{self.__class__.__name__}.{self._name_}: {str.__repr__(self._value_)}>"

        def __str__(self) -> str:
            return f"{self.__class__.__name__}.{self._name_}"

        def __format__(self, format_spec: str) -> str:
            return str.__format__(str(self), format_spec)

        def __reduce_ex__(self, proto: object) -> tuple[type, tuple[str]]:
            return self.__class__, (self._value_,)

        def __copy__(self) -> StrEnum:
            return self

        def __deepcopy__(self, memo: object) -> StrEnum:
            return self
