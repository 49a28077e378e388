"""The cached code of bastion's dataclasses (``bastion.precompiled``) makes the same
classes as ``dataclasses`` itself, and only bastion's own classes use it."""

from __future__ import annotations

import dataclasses
import marshal
import os
import sys
import types

import pytest

from bastion import precompiled
from conftest import empty_precompiled_cache, module_from_source

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
    return module_from_source(name, SOURCE)


def _behaviour(module: types.ModuleType) -> list[object]:
    a, b = module.Frozen("a", ("t",)), module.Frozen("a", ("t",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "b"
    p = module.Plain(note="abc")
    return [repr(a), a == b, hash(a) == hash(b), repr(p), p < module.Plain([9]), module.Plain() == module.Plain(),
            module.Frozen.__doc__, [f.name for f in dataclasses.fields(module.Plain)]]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """An empty cache in a file of the test's own, saved only when a test says so."""
    empty_precompiled_cache(monkeypatch, tmp_path)


def test_bastion_classes_behave_as_dataclasses_makes_them(fresh: None) -> None:
    precompiled.install()
    cached = _module("bastion._test_precompiled")
    assert precompiled._USED["bastion._test_precompiled"], "bastion's classes went through the cache"
    assert precompiled._CHANGED == {"bastion._test_precompiled"}
    before = dict(precompiled._OPENED["bastion._test_precompiled"])
    again = _module("bastion._test_precompiled")  # now every text is a hit
    assert precompiled._OPENED["bastion._test_precompiled"] == before
    other = _module("not_bastion_module")
    assert _behaviour(cached) == _behaviour(again) == [
        x.replace("not_bastion_module", "bastion._test_precompiled") if isinstance(x, str) else x
        for x in _behaviour(other)]


def test_other_classes_never_touch_the_cache(fresh: None) -> None:
    precompiled.install()
    _module("someone_else")
    assert precompiled._USED == {} and precompiled._CHANGED == set()


def _write(path: str, index: object, data: bytes) -> None:
    """A cache file laid out as precompiled writes it, with any index."""
    head = marshal.dumps(index)
    with open(path, "wb") as handle:
        handle.write(precompiled._MAGIC + len(head).to_bytes(4, "little") + head + data)


def test_the_cache_file_round_trips_and_a_broken_one_is_ignored(fresh: None) -> None:
    precompiled._remember("bastion.x", "x = 1", compile("x = 1", "<string>", "exec"))
    precompiled._save()
    path = precompiled._path()
    precompiled._FILE, precompiled._OPENED = None, {}
    assert set(precompiled._load()) == {"bastion.x"}
    assert isinstance(precompiled._cached("bastion.x", "x = 1"), types.CodeType)
    _write(path, {"bastion.y": (0, 11), 3: (0, 0), "bastion.z": "not a place", "bastion.w": (11, 99)},
           b"not marshal")
    precompiled._FILE, precompiled._OPENED = None, {}
    assert set(precompiled._load()) == {"bastion.y", "bastion.w"}
    assert precompiled._cached("bastion.y", "x = 1") is None  # a part that does not unmarshal
    assert precompiled._cached("bastion.w", "x = 1") is None  # a part past the end of the file
    for garbage in (b"\x00garbage", b"", marshal.dumps({"bastion.x": b""})):  # not this layout
        with open(path, "wb") as handle:
            handle.write(garbage)
        assert precompiled._load() == {}


def _reads_of_a_new_process(patch: pytest.MonkeyPatch) -> list[str]:
    """The saved file as a new process finds it, each part it reads listed as it reads it."""
    precompiled._FILE, precompiled._OPENED, precompiled._USED, precompiled._CHANGED = None, {}, {}, set()
    read: list[str] = []
    get = precompiled._Parts.get

    def counting(self: precompiled._Parts, module: str, default: bytes | None = None) -> bytes | None:
        read.append(module)
        return get(self, module, default)

    patch.setattr(precompiled._Parts, "get", counting)
    return read


def test_only_the_parts_a_process_needs_are_read(fresh: None) -> None:
    """The file holds what every kind of process compiled; a module's part is read when
    that module first needs it, and a save keeps the parts nobody read."""
    code = compile("x = 1", "<string>", "exec")
    for module in ("bastion.a", "bastion.b", "bastion.c"):
        precompiled._remember(module, "x = 1", code)
    precompiled._save()
    with pytest.MonkeyPatch.context() as patch:
        read = _reads_of_a_new_process(patch)
        assert precompiled._cached("bastion.b", "x = 1") is not None
        assert read == ["bastion.b"]
        precompiled._remember("bastion.d", "x = 1", code)
        precompiled._save()
    precompiled._FILE, precompiled._OPENED = None, {}
    assert set(precompiled._load()) == {"bastion.a", "bastion.b", "bastion.c", "bastion.d"}
    assert all(isinstance(precompiled._cached(m, "x = 1"), types.CodeType) for m in ("bastion.a", "bastion.c"))


def test_a_pattern_compiled_on_first_use_is_read_from_the_part_of_the_module_that_wrote_it(fresh: None) -> None:
    """A ``LazyPattern`` is kept for the module whose code wrote it: a process that needs
    one module's pattern reads that module's part, not every pattern bastion's code holds
    (hundreds, some milliseconds to unmarshal, where a decision uses a few)."""
    from bastion.shell.syntax.lazyre import LazyPattern

    patterns = {name: module_from_source(name, "from bastion.shell.syntax.lazyre import LazyPattern\n"
                                               f"P = LazyPattern(r'{name}-[0-9]+')\n").P
                for name in ("bastion.first", "bastion.second")}
    for lazy in patterns.values():
        assert type(lazy) is LazyPattern and lazy.fullmatch(lazy.pattern.replace("[0-9]+", "42"))
    precompiled._save()
    with pytest.MonkeyPatch.context() as patch:
        read = _reads_of_a_new_process(patch)
        patch.setattr(precompiled, "_compile_and_keep", lambda *args: pytest.fail(f"compiled again: {args}"))
        assert precompiled.pattern(r"bastion.second-[0-9]+", 0, "bastion.second").fullmatch("bastion.second-7")
    assert read == ["(patterns compiled on first use) by bastion.second"]


def _open_files() -> set[str]:
    return {os.path.realpath(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")}


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_no_file_is_left_open_and_a_replaced_file_is_not_read_with_an_old_index(fresh: None) -> None:
    """A command naming ``/proc/self/fd/N`` resolves in the process that decides: the
    cache file must not be one of its open files. A part is read only from the file whose
    index was read."""
    code = compile("x = 1", "<string>", "exec")
    for module in ("bastion.a", "bastion.b"):
        precompiled._remember(module, "x = 1", code)
    precompiled._save()
    precompiled._FILE, precompiled._OPENED = None, {}
    assert precompiled._cached("bastion.a", "x = 1") is not None
    assert os.path.realpath(precompiled._path()) not in _open_files()
    precompiled._remember("bastion.c", "x = 1", code)  # another process rewrites the file
    precompiled._save()
    assert precompiled._cached("bastion.b", "x = 1") is None  # the old index does not fit the new file
    assert set(precompiled._load()) == {"bastion.a", "bastion.b", "bastion.c"}  # the save kept every part


def test_a_module_that_needed_something_new_keeps_only_what_it_used(fresh: None) -> None:
    """The texts of an edited class do not pile up: a module's part is rewritten with
    what the process that imported it used; other modules' parts stay as they were."""
    old, new = compile("x = 1", "<string>", "exec"), compile("x = 2", "<string>", "exec")
    a, b = marshal.dumps({"x = 1": old}), marshal.dumps({"x = 1": old})
    os.makedirs(os.path.dirname(precompiled._path()))
    _write(precompiled._path(), {"bastion.a": (0, len(a)), "bastion.b": (len(a), len(b))}, a + b)
    precompiled._FILE = None
    assert precompiled._cached("bastion.a", "x = 1") is not None  # used
    precompiled._remember("bastion.a", "x = 2", new)  # and something new
    assert precompiled._cached("bastion.b", "gone") is None
    precompiled._save()
    precompiled._FILE, precompiled._OPENED = None, {}
    parts = precompiled._load()
    assert set(marshal.loads(parts.get("bastion.a") or b"")) == {"x = 1", "x = 2"}
    assert set(marshal.loads(parts.get("bastion.b") or b"")) == {"x = 1"}


NAMED = '''
from __future__ import annotations
from {source} import NamedTuple

class Hit(NamedTuple):
    """A named tuple with string annotations."""
    name: str
    tags: tuple[str, ...] = ()
    size: int | None = None
'''


def _named(name: str, source: str = "bastion.named_tuple") -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        code = compile(NAMED.format(source=source), name, "exec", dont_inherit=True)
        exec(code, module.__dict__)  # noqa: S102 - the class under test
    finally:
        del sys.modules[name]
    return module


def _named_behaviour(module: types.ModuleType) -> list[object]:
    hit = module.Hit("a", ("t",))
    return [repr(hit), hit == ("a", ("t",), None), hit._fields, hit._field_defaults, hit._replace(size=3),
            list(module.Hit.__annotations__), module.Hit.__new__.__doc__, module.Hit.__doc__,
            module.Hit.__new__.__defaults__]


def test_bastion_named_tuples_behave_as_typing_makes_them(fresh: None) -> None:
    """The code of a class ``bastion.named_tuple`` builds is kept for the module whose
    class statement it is, not for the helper that builds it."""
    other = _named("not_bastion_module")
    by_typing = _named("not_bastion_module", source="typing")
    assert precompiled._USED == {}, "other classes never touch the cache"
    cached = _named("bastion._test_named")
    assert set(precompiled._OPENED) == {"bastion._test_named"}
    keys = precompiled._OPENED["bastion._test_named"]
    assert [key for key in keys if key.startswith("eval\0lambda _cls, name, tags, size")] == list(keys)
    before = dict(keys)
    again = _named("bastion._test_named")
    assert precompiled._OPENED["bastion._test_named"] == before
    assert (_named_behaviour(cached) == _named_behaviour(again) == _named_behaviour(other)
            == _named_behaviour(by_typing))
