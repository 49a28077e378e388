"""``bastion.named_tuple.NamedTuple`` makes the class ``typing.NamedTuple`` makes.

Every named tuple class in bastion's source is built again here from its own class
statement with ``typing.NamedTuple`` and compared with the class bastion's module holds:
fields, defaults, docstring, module, qualified name, methods and attributes, and what
its instances do. The one difference allowed: ``__annotations__`` holds the annotation
strings, where ``typing`` holds ``ForwardRef`` objects made from them.
"""

from __future__ import annotations
import __future__

import ast
import importlib
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


def _members(cls: type) -> dict[str, object]:
    """What the class holds: functions by their code (the two runs compile the same text),
    objects that compare only by identity by their type and repr."""
    out: dict[str, object] = {}
    for name, value in vars(cls).items():
        if name in ("__annotations__", "__orig_bases__"):
            continue
        function = getattr(value, "__func__", value)  # classmethod / staticmethod
        if isinstance(value, property):
            function = value.fget
        code = getattr(function, "__code__", None)
        if code is not None:
            out[name] = (type(value).__name__, code.co_code, code.co_names, code.co_consts)
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
