"""The cached code of bastion's dataclasses (``bastion.precompiled``) makes the same
classes as ``dataclasses`` itself, and only bastion's own classes use it."""

from __future__ import annotations

import dataclasses
import marshal
import sys
import types

import pytest

from bastion import precompiled

SOURCE = '''
from __future__ import annotations
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Frozen:
    """A frozen record."""
    name: str
    tags: tuple[str, ...] = ()
    size: int | None = None

@dataclass(order=True)
class Plain:
    items: list[int] = field(default_factory=list)
    note: str = "x"

    def __post_init__(self) -> None:
        self.items.append(len(self.note))
'''

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache mirrors Python 3.11's dataclasses")


def _module(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(compile(SOURCE, name, "exec"), module.__dict__)  # noqa: S102 - the classes under test
    finally:
        del sys.modules[name]
    return module


def _behaviour(module: types.ModuleType) -> list[object]:
    a, b = module.Frozen("a", ("t",)), module.Frozen("a", ("t",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "b"
    p = module.Plain(note="abc")
    return [repr(a), a == b, hash(a) == hash(b), repr(p), p < module.Plain([9]), module.Plain() == module.Plain(),
            module.Frozen.__doc__, [f.name for f in dataclasses.fields(module.Plain)]]


def test_bastion_classes_behave_as_dataclasses_makes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    precompiled.install()
    monkeypatch.setattr(precompiled, "_CACHE", {})
    cached = _module("bastion._test_precompiled")
    assert precompiled._CACHE, "bastion's classes went through the cache"
    before = dict(precompiled._CACHE)
    again = _module("bastion._test_precompiled")  # now every text is a hit
    assert precompiled._CACHE == before
    other = _module("not_bastion_module")
    assert _behaviour(cached) == _behaviour(again) == [
        x.replace("not_bastion_module", "bastion._test_precompiled") if isinstance(x, str) else x
        for x in _behaviour(other)]


def test_other_classes_never_touch_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    precompiled.install()
    monkeypatch.setattr(precompiled, "_CACHE", {})
    _module("someone_else")
    assert precompiled._CACHE == {}


def test_the_cache_file_round_trips_and_a_broken_one_is_ignored(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "__pycache__" / "cache.marshal"
    monkeypatch.setattr(precompiled, "_path", lambda: str(path))
    monkeypatch.setattr(precompiled, "_CACHE", {"x = 1": compile("x = 1", "<string>", "exec")})
    monkeypatch.setattr(precompiled, "_ADDED", True)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    precompiled._save()
    assert set(precompiled._load()) == {"x = 1"}
    path.write_bytes(marshal.dumps({"y": "not code", 3: compile("1", "<string>", "exec")}))
    assert precompiled._load() == {}
    path.write_bytes(b"\x00garbage")
    assert precompiled._load() == {}


NAMED = '''
from __future__ import annotations
from typing import NamedTuple

class Hit(NamedTuple):
    """A named tuple with string annotations."""
    name: str
    tags: tuple[str, ...] = ()
    size: int | None = None
'''


def _named(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(compile(NAMED, name, "exec", dont_inherit=True), module.__dict__)  # noqa: S102 - the class under test
    finally:
        del sys.modules[name]
    return module


def _named_behaviour(module: types.ModuleType) -> list[object]:
    hit = module.Hit("a", ("t",))
    return [repr(hit), hit == ("a", ("t",), None), hit._fields, hit._field_defaults, hit._replace(size=3),
            repr(module.Hit.__annotations__), module.Hit.__new__.__doc__, module.Hit.__doc__,
            module.Hit.__new__.__defaults__]


def test_bastion_named_tuples_behave_as_typing_makes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    precompiled.install_named_tuples()
    monkeypatch.setattr(precompiled, "_CACHE", {})
    other = _named("not_bastion_module")
    assert precompiled._CACHE == {}, "other classes never touch the cache"
    cached = _named("bastion._test_named")
    assert any(key.startswith("eval\0lambda _cls, name, tags, size") for key in precompiled._CACHE)
    assert "eval\0tuple[str, ...]" in precompiled._CACHE  # an annotation's ForwardRef
    before = dict(precompiled._CACHE)
    again = _named("bastion._test_named")
    assert precompiled._CACHE == before
    assert _named_behaviour(cached) == _named_behaviour(again) == _named_behaviour(other)
