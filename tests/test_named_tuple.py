"""``bastion.named_tuple.NamedTuple`` makes the class ``typing.NamedTuple`` makes.

Every named tuple class in bastion's source is built again here from its own class
statement with ``typing.NamedTuple`` and compared with the class bastion's module holds:
fields, defaults, docstring, module, qualified name, methods and attributes, and what
its instances do. The one difference allowed: ``__annotations__`` holds the annotation
strings, where ``typing`` holds ``ForwardRef`` objects made from them.

``bastion.named_tuple.namedtuple`` (Python 3.11's ``collections.namedtuple``, made without
importing ``collections``) is compared with the original the same way, errors included.
Its methods are the same code with the same closures; they are defined in
``bastion.named_tuple`` rather than ``collections`` (their ``__module__``, ``__globals__``
and file), and compiled under its ``from __future__ import annotations`` (a flag that
changes nothing for functions without annotations).
"""

from __future__ import annotations
import __future__

import ast
import collections
import importlib
import subprocess
import sys
import types
import typing
from pathlib import Path

import pytest

from bastion import named_tuple

SRC = Path(__file__).resolve().parents[1] / "src" / "bastion"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _named_tuple_classes() -> list[tuple[str, ast.ClassDef, str]]:
    """(module, class statement, source file) for each ``class X(NamedTuple)`` in bastion."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(base, ast.Name) and base.id == "NamedTuple" for base in node.bases):
                found.append((_module_name(path), node, str(path)))
    return found


CLASSES = _named_tuple_classes()


def _by_typing(module: object, node: ast.ClassDef, filename: str) -> type:
    """The class statement run again, in the module's own namespace, with ``typing``'s base."""
    namespace = dict(vars(module), NamedTuple=typing.NamedTuple)
    code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec",
                   flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, namespace)  # noqa: S102 - the module's own class statement
    return namespace[node.name]  # type: ignore[no-any-return]


#: The flag ``from __future__ import annotations`` sets on code compiled under it.
_FUTURE_ANNOTATIONS = __future__.annotations.compiler_flag


def _function(function: typing.Any) -> tuple[object, ...]:
    """A function as far as it can differ in what it does and says: its code (the two
    runs compile the same text), names, docstring, defaults and what its closure holds."""
    code = function.__code__
    return (function.__name__, function.__qualname__, function.__doc__, function.__defaults__,
            function.__kwdefaults__, function.__annotations__ if function.__name__ != "__new__" else None,
            [cell.cell_contents for cell in function.__closure__ or ()],
            code.co_code, code.co_names, code.co_consts, code.co_varnames, code.co_freevars, code.co_cellvars,
            code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_name,
            code.co_flags & ~_FUTURE_ANNOTATIONS)


def _members(cls: type) -> dict[str, object]:
    """What the class holds: functions by :func:`_function`, objects that compare only by
    identity by their type and repr."""
    out: dict[str, object] = {}
    for name, value in vars(cls).items():
        if name in ("__annotations__", "__orig_bases__"):
            continue
        function = getattr(value, "__func__", value)  # classmethod / staticmethod
        if isinstance(value, property):
            function = value.fget
        code = getattr(function, "__code__", None)
        if code is not None:
            out[name] = (type(value).__name__, _function(function))
        elif type(value).__eq__ is object.__eq__:  # a field's getter: equal when its repr (index, doc) is
            out[name] = (type(value).__name__, repr(value))
        else:
            out[name] = value
    return out


def _sample(cls: type) -> tuple[object, ...]:
    """Values for the fields without a default: distinct, comparable and hashable."""
    required = [f for f in cls._fields if f not in cls._field_defaults]  # type: ignore[attr-defined]
    return tuple(f"value of {name}" for name in required)


def _hash(value: object) -> int | None:
    """The hash, or None for a tuple holding something unhashable (a mapping default)."""
    try:
        return hash(value)
    except TypeError:
        return None


def test_every_bastion_named_tuple_is_found() -> None:
    names = {f"{module}.{node.name}" for module, node, _ in CLASSES}
    assert {"bastion.paths.table.Row", "bastion.shell.syntax.words.Word", "bastion.injection.taint.Taint"} <= names


@pytest.mark.parametrize(("module_name", "node", "filename"), CLASSES,
                         ids=[f"{module}.{node.name}" for module, node, _ in CLASSES])
def test_a_bastion_named_tuple_is_the_class_typing_makes(module_name: str, node: ast.ClassDef, filename: str) -> None:
    module = importlib.import_module(module_name)
    ours = getattr(module, node.name)
    theirs = _by_typing(module, node, filename)
    assert ours is not theirs
    assert isinstance(ours, type) and issubclass(ours, tuple)
    assert type(ours) is type(theirs) is type
    for attribute in ("_fields", "_field_defaults", "__doc__", "__module__", "__qualname__", "__name__"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    assert ours.__mro__[1:] == theirs.__mro__[1:] == (tuple, object)
    assert ours.__new__.__defaults__ == theirs.__new__.__defaults__
    assert _members(ours) == _members(theirs)
    assert (ours.__orig_bases__, theirs.__orig_bases__) == ((named_tuple.NamedTuple,), (typing.NamedTuple,))
    # annotations: the same names, strings where typing keeps a ForwardRef of the string
    assert list(ours.__annotations__) == list(theirs.__annotations__)
    for name, value in theirs.__annotations__.items():
        assert ours.__annotations__[name] == getattr(value, "__forward_arg__", value)
    assert ours.__new__.__annotations__ == ours.__annotations__
    values = _sample(ours)
    a, b = ours(*values), theirs(*values)
    assert a == b and repr(a) == repr(b)
    assert _hash(a) == _hash(b)
    assert a._asdict() == b._asdict()
    first = ours._fields[0]
    assert a._replace(**{first: "other"}) == b._replace(**{first: "other"})
    assert ours._make(list(a)) == a


def _class(base: object, body: dict[str, object]) -> type:
    """``class X(base): <body>``."""
    return types.new_class("X", (base,), exec_body=lambda ns: ns.update(body, __module__=__name__))


def test_a_class_body_may_not_redefine_the_tuple_machinery() -> None:
    for base in (named_tuple.NamedTuple, typing.NamedTuple):
        with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):
            _class(base, {"__annotations__": {"a": "int"}, "_replace": None})
        with pytest.raises(TypeError, match="Non-default namedtuple field b cannot follow default field a"):
            _class(base, {"__annotations__": {"a": "int", "b": "int"}, "a": 1})
    with pytest.raises(TypeError):
        types.new_class("X", (named_tuple.NamedTuple, int))


def test_bastion_names_typing_named_tuple_only_for_type_checkers() -> None:
    """At runtime bastion's named tuples come from :mod:`bastion.named_tuple`: ``typing``'s
    is imported only under ``TYPE_CHECKING`` (it would load ``typing`` in a fresh decision)."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = {id(inner) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for stmt in node.body for inner in ast.walk(stmt)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.ImportFrom) and node.module == "typing" and id(node) not in guarded
                    and any(alias.name == "NamedTuple" for alias in node.names)):
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert offenders == []


@pytest.mark.parametrize(("typename", "fields", "defaults", "module"), [
    ("Point", ["x", "y"], None, "somewhere"),
    ("Point", ("x", "y"), [0], "somewhere"),
    ("One", ["only"], ["default"], "bastion.example"),
    ("Empty", [], [], "bastion.example"),
    ("Many", ["a", "b", "c", "d", "e"], [1, 2, 3, 4, 5], None),
    ("Mixed", ["match", "case", "type", "\u00e9t\u00e9"], None, None),  # soft keywords and non-ASCII
    ("lower", ["a"], (), "m"),
])
def test_namedtuple_makes_the_class_collections_makes(typename: str, fields: typing.Sequence[str],
                                                      defaults: typing.Sequence[object] | None,
                                                      module: str | None) -> None:
    ours = named_tuple.namedtuple(typename, fields, defaults=defaults, module=module)
    theirs = collections.namedtuple(typename, fields, defaults=defaults, module=module)  # type: ignore[misc]
    assert _members(ours) == _members(theirs)
    assert (ours.__name__, ours.__qualname__, ours.__mro__[1:]) == (theirs.__name__, theirs.__qualname__,
                                                                   theirs.__mro__[1:])
    assert ours.__new__.__globals__ == theirs.__new__.__globals__
    values = tuple(range(len(fields)))
    a, b = ours(*values), theirs(*values)
    assert (a, repr(a), hash(a), a._asdict(), a.__getnewargs__()) == (b, repr(b), hash(b), b._asdict(),
                                                                      b.__getnewargs__())
    assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    assert _error(lambda: ours._make([1] * (len(fields) + 1))) == _error(lambda: theirs._make([1] * (len(fields) + 1)))
    assert _error(lambda: a._replace(nope=1)) == _error(lambda: b._replace(nope=1))


def _error(action: typing.Callable[[], object]) -> tuple[type[BaseException], str]:
    try:
        action()
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return type(error), str(error)
    raise AssertionError("no error")


@pytest.mark.parametrize(("typename", "fields", "defaults"), [
    ("Point", ["x", "if"], None),  # a field that is a keyword
    ("Point", ["None"], None),
    ("class", ["x"], None),  # a type name that is a keyword
    ("True", ["x"], None),
    ("Point", ["x", "_y"], None),
    ("Point", ["_y", "for"], None),  # two faults: namedtuple names the keyword first
    ("Point", ["x", "x"], None),
    ("Point", ["x", "x", "in"], None),
    ("Point", ["x-y"], None),
    ("9lives", ["x"], None),
    ("Point", ["x"], [1, 2]),
    ("Point", ["x", "pass"], [1, 2, 3]),
    ("Point", ["\ufb01", "fi"], None),  # the same name once normalised: compile refuses it
])
def test_namedtuple_refuses_what_collections_refuses(typename: str, fields: list[str],
                                                     defaults: list[object] | None) -> None:
    assert _error(lambda: named_tuple.namedtuple(typename, fields, defaults=defaults)) == _error(
        lambda: collections.namedtuple(typename, fields, defaults=defaults))


def test_bastion_named_tuples_load_neither_collections_nor_keyword() -> None:
    """A fresh interpreter that makes a named tuple (lower-case field names, a default)
    imports neither ``collections`` nor ``keyword`` nor ``typing``."""
    code = ("import sys\nfrom bastion.named_tuple import NamedTuple\n"
            "class Row(NamedTuple):\n    id: str\n    level: int = 0\n"
            "assert Row('a')._replace(level=2) == ('a', 2)\n"
            "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert {"collections", "keyword", "typing", "operator", "reprlib"}.isdisjoint(done.stdout.split())


def test_field_names_given_as_one_string_are_read_as_collections_reads_them() -> None:
    import collections

    from bastion.named_tuple import namedtuple

    for names in ("a b", "a, b", " a ,b ", "ab"):
        assert namedtuple("P", names)._fields == collections.namedtuple("P", names)._fields
