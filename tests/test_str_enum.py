"""``bastion.str_enum.StrEnum`` classes behave as ``(str, Enum)`` classes do.

Every ``class X(StrEnum)`` in bastion's source is built again here from its own class
statement with ``(str, Enum)`` as its bases, and the two are compared on everything a
caller can observe: members, lookups, iteration, text forms, hashing, JSON, copies and
pickles, what may not be changed, and the class body's own methods and properties.
"""

from __future__ import annotations
import __future__

import ast
import copy
import enum
import importlib
import itertools
import json
import json.encoder
import operator
import pickle
import types
import warnings
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import model
from bastion.str_enum import EnumType, StrEnum

SRC = Path(__file__).resolve().parents[1] / "src" / "bastion"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _str_enum_classes() -> list[tuple[str, ast.ClassDef, str]]:
    """(module, class statement, source file) for each ``class X(StrEnum)`` in bastion."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "StrEnum" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(base, ast.Name) and base.id == "StrEnum" for base in node.bases):
                found.append((_module_name(path), node, str(path)))
    return found


CLASSES = _str_enum_classes()


def _by_enum(module: object, node: ast.ClassDef, filename: str) -> type:
    """The class statement run again, in the module's own namespace, as ``class X(str, Enum)``."""
    statement = copy.deepcopy(node)
    statement.bases = [ast.Name("str", ast.Load()), ast.Name("Enum", ast.Load())]
    ast.fix_missing_locations(statement)
    namespace = dict(vars(module), Enum=enum.Enum)
    code = compile(ast.Module(body=[statement], type_ignores=[]), filename, "exec",
                   flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, namespace)  # noqa: S102 - the module's own class statement
    return namespace[node.name]  # type: ignore[no-any-return]


def _outcome(action: Callable[..., object], *args: object) -> tuple[str, object]:
    """What ``action(*args)`` gives: its value, or its exception's type and message."""
    try:
        return "value", action(*args)
    except Exception as exc:  # noqa: BLE001 - the exception is what is compared
        return type(exc).__name__, str(exc)


def _shown(value: object) -> object:
    """A member as its class name, member name and value (the two classes' members are
    different objects); anything else as it is."""
    if isinstance(value, (enum.Enum, StrEnum)):
        return (type(value).__name__, value._name_, value._value_)
    if isinstance(value, (list, tuple)):
        return [_shown(v) for v in value]
    return value


def test_every_bastion_str_enum_is_found() -> None:
    names = {f"{module}.{node.name}" for module, node, _ in CLASSES}
    assert {f"bastion.model.{name}" for name in ("Verdict", "Kind", "Tier", "Mode", "Source", "Severity")} <= names


@pytest.fixture(params=CLASSES, ids=[f"{module}.{node.name}" for module, node, _ in CLASSES])
def pair(request: pytest.FixtureRequest) -> tuple[type, type]:
    """(bastion's class, the same class statement as a ``(str, Enum)``)."""
    module_name, node, filename = request.param
    module = importlib.import_module(module_name)
    ours = getattr(module, node.name)
    return ours, _by_enum(module, node, filename)


def test_the_class(pair: tuple[type, type]) -> None:
    ours, theirs = pair
    assert type(ours) is EnumType and issubclass(ours, str) and issubclass(ours, StrEnum)
    assert type(theirs) is enum.EnumType
    for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    assert repr(ours) == repr(theirs) == f"<enum {ours.__name__!r}>"
    assert bool(ours) is bool(theirs) is True
    assert len(ours) == len(theirs)
    assert _shown(list(ours)) == _shown(list(theirs))
    assert _shown(list(reversed(ours))) == _shown(list(reversed(theirs)))
    assert type(ours.__members__) is type(theirs.__members__) is types.MappingProxyType
    assert _shown(list(ours.__members__.items())) == _shown(list(theirs.__members__.items()))
    assert ours._member_names_ == theirs._member_names_
    assert list(ours._value2member_map_) == list(theirs._value2member_map_)
    assert ours._member_type_ is theirs._member_type_ is str
    assert dir(ours) == dir(theirs)
    assert [n for n in vars(ours) if not n.startswith("_")] == [n for n in vars(theirs) if not n.startswith("_")]


def test_the_members(pair: tuple[type, type]) -> None:
    ours, theirs = pair
    for mine, real in zip(ours, theirs, strict=True):
        value = real.value
        assert type(mine) is ours and isinstance(mine, ours) and isinstance(mine, str)
        assert type(mine.name) is type(mine.value) is type(mine._name_) is type(mine._value_) is str
        assert (mine.name, mine.value, mine._name_, mine._value_) == (real.name, real.value, real._name_, real._value_)
        assert {k: v for k, v in vars(mine).items() if k != "__objclass__"} == {
            k: v for k, v in vars(real).items() if k != "__objclass__"}
        assert vars(mine)["__objclass__"] is ours
        # equality, hashing and order are the string's
        assert mine == value and value == mine and mine != value + "x"
        assert hash(mine) == hash(real) == hash(value)
        assert {mine: 1}[value] == 1 and {value: 1}[mine] == 1
        assert (mine < value + "x") is (real < value + "x")
        assert str.__str__(mine) == value and mine.upper() == real.upper() and mine + "!" == real + "!"
        # text forms
        assert repr(mine) == repr(real) == f"<{ours.__name__}.{real.name}: {value!r}>"
        assert str(mine) == str(real) == f"{ours.__name__}.{real.name}"
        for spec in ("", "s", ">30", "<30", "^31", "*^40"):
            assert format(mine, spec) == format(real, spec), spec
        assert f"{mine}|{mine!s}|{mine!r}|{mine:>25}" == f"{real}|{real!s}|{real!r}|{real:>25}"
        assert "%s %r" % (mine, mine) == "%s %r" % (real, real)  # noqa: UP031 - %-formatting is compared too
        assert ", ".join([mine, mine]) == ", ".join([real, real])
        # public attributes (enum's private helpers are not copied)
        assert [n for n in dir(mine) if not n.startswith("_")] == [n for n in dir(real) if not n.startswith("_")]
        assert weakref.ref(mine)() is mine


def test_lookups(pair: tuple[type, type]) -> None:
    ours, theirs = pair
    for mine, real in zip(ours, theirs, strict=True):
        assert ours(mine.value) is mine and ours(mine) is mine and ours(real) is mine
        assert ours[mine.name] is mine and getattr(ours, mine.name) is mine
        assert ours.__new__(ours, mine.value) is mine
        assert mine in ours and real in theirs
    probes: list[object] = ["no such value", "", None, 0, ["unhashable"], list(ours)[0].value.upper() + "?"]
    for probe in probes:
        assert _outcome(ours, probe) == _outcome(theirs, probe), probe
    for key in ("NO_SUCH", "", list(ours)[0].value):
        assert _outcome(ours.__getitem__, key) == _outcome(theirs.__getitem__, key), key
    for plain in (list(ours)[0].value, 3):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert _outcome(operator.contains, ours, plain) == _outcome(operator.contains, theirs, plain)
        assert [(w.category, str(w.message)) for w in caught[:1]] == [(w.category, str(w.message)) for w in caught[1:]]
        assert caught and caught[0].category is DeprecationWarning
    other = model.Kind if ours is not model.Kind else model.Verdict
    assert not any(member in ours for member in other)


def test_json_encodes_the_value(pair: tuple[type, type], monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs = pair
    documents = [([m, {m: [m]}], [r, {r: [r]}]) for m, r in zip(ours, theirs, strict=True)]
    for mine, real in documents:  # the C encoder
        assert json.dumps(mine) == json.dumps(real) == json.dumps(json.loads(json.dumps(real)))
    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    monkeypatch.setattr(json.encoder, "encode_basestring_ascii", json.encoder.py_encode_basestring_ascii)
    monkeypatch.setattr(json.encoder, "encode_basestring", json.encoder.py_encode_basestring)
    for mine, real in documents:  # the Python encoder
        for options in ({}, {"indent": 1}, {"ensure_ascii": False}):
            assert json.dumps(mine, **options) == json.dumps(real, **options), options  # type: ignore[arg-type]


def test_copies_and_pickles_are_the_member(pair: tuple[type, type]) -> None:
    ours, theirs = pair
    for mine, real in zip(ours, theirs, strict=True):
        assert copy.copy(mine) is mine and copy.deepcopy(mine) is mine
        assert copy.deepcopy({"k": [mine]})["k"][0] is mine
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert mine.__reduce_ex__(protocol) == (ours, (mine.value,))
            assert real.__reduce_ex__(protocol) == (theirs, (real.value,))
            assert pickle.loads(pickle.dumps(mine, protocol)) is mine


def test_nothing_can_be_changed(pair: tuple[type, type]) -> None:
    ours, theirs = pair
    name = ours._member_names_[0]
    assert _outcome(setattr, ours, name, "x") == _outcome(setattr, theirs, name, "x")
    assert _outcome(delattr, ours, name) == _outcome(delattr, theirs, name)
    mine, real = ours[name], theirs[name]
    for attribute in ("name", "value"):
        assert _outcome(setattr, mine, attribute, "x") == _outcome(setattr, real, attribute, "x")
        assert _outcome(delattr, mine, attribute) == _outcome(delattr, real, attribute)
        assert _outcome(getattr, ours, attribute) == _outcome(getattr, theirs, attribute)
    assert (mine.name, mine.value, ours[name]) == (real.name, real.value, mine)


def test_the_class_body_methods_and_properties() -> None:
    """``Tier.rank``, ``Tier.max`` and ``Mode.parse``, on bastion's class and on the same
    statement run as a ``(str, Enum)``."""
    tier = _by_enum(model, _statement("Tier"), model.__file__ or "")
    for a, b in itertools.product(model.Tier, model.Tier):
        theirs_a, theirs_b = tier(a.value), tier(b.value)
        assert a.rank == theirs_a.rank
        assert _shown(a.max(b))[1:] == _shown(theirs_a.max(theirs_b))[1:]
    mode = _by_enum(model, _statement("Mode"), model.__file__ or "")
    for text in (None, "", "default", "PLAN", "bypasspermissions", "dontAsk", "acceptedits", "nope", " plan"):
        assert _shown(_outcome(model.Mode.parse, text)) == _shown(_outcome(mode.parse, text))


def _statement(name: str) -> ast.ClassDef:
    return next(node for module, node, _ in CLASSES if module == "bastion.model" and node.name == name)


def _class(base: tuple[type, ...], body: dict[str, object]) -> type:
    """``class X(*base): <body>``."""
    def fill(ns: dict[str, object]) -> None:
        for key, value in {"__module__": __name__, **body}.items():
            ns[key] = value  # one by one: enum's namespace checks each name as it is set
    return types.new_class("X", base, exec_body=fill)


def test_what_str_enum_refuses() -> None:
    """What ``enum`` would read in a way this module does not copy is refused, loudly."""
    for body in ({"A": 1}, {"A": "a", "B": "a"}, {"_A": "a"}, {"_ignore_": ["A"]}, {"name": "n"}, {"value": "v"}):
        with pytest.raises(TypeError):
            _class((StrEnum,), body)
    with pytest.raises(TypeError, match="cannot extend"):
        _class((_class((StrEnum,), {"A": "a"}),), {"B": "b"})
    with pytest.raises(TypeError, match="has no members defined"):
        StrEnum("a")


def test_descriptors_and_dunders_stay_on_the_class() -> None:
    ours = _class((StrEnum,), {"A": "a", "__doc__": "doc", "helper": staticmethod(len), "twice": property(lambda s: s * 2)})
    theirs = _class((str, enum.Enum), {"A": "a", "__doc__": "doc", "helper": staticmethod(len),
                                       "twice": property(lambda s: s * 2)})
    assert list(ours.__members__) == list(theirs.__members__) == ["A"]
    assert ours.A.twice == theirs.A.twice == "aa" and ours.helper("ab") == 2
    assert ours.__doc__ == theirs.__doc__ == "doc"


def test_bastion_imports_enum_only_for_type_checkers() -> None:
    """``enum`` stays off a fresh decision's path: bastion's modules that define a
    :class:`StrEnum` import ``enum`` only under ``TYPE_CHECKING``."""
    offenders = []
    for path in sorted({Path(filename) for _, _, filename in CLASSES} | {SRC / "str_enum.py"}):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = {id(inner) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for stmt in node.body for inner in ast.walk(stmt)}
        for node in ast.walk(tree):
            imported = ([node.module] if isinstance(node, ast.ImportFrom)
                        else [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            if "enum" in imported and id(node) not in guarded:
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert offenders == []
