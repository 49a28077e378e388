"""``bastion.std_lite`` does what the standard library's helpers do.

Each helper is run next to its original (``functools``, ``contextlib``, ``importlib``)
on the same input, and what comes out is compared: the wrapper and its attributes, the
cache's statistics, the value kept, the error raised and its message.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import subprocess
import sys

import pytest

from bastion import std_lite


def _calls(decorated: object, arguments: list[object]) -> list[object]:
    return [decorated(a) for a in arguments]  # type: ignore[operator]


def _square(x: float) -> float:
    """The square."""
    return x * x


_square.marker = "kept"  # type: ignore[attr-defined]  # a function attribute update_wrapper copies


def _wrapper_facts(wrapper: object) -> dict[str, object]:
    facts = {name: getattr(wrapper, name) for name in functools.WRAPPER_ASSIGNMENTS + ("__wrapped__",)}
    facts["__dict__"] = {k: v for k, v in vars(wrapper).items() if k != "cache_parameters"}
    facts["type"] = type(wrapper)
    facts["cache_parameters"] = wrapper.cache_parameters()  # type: ignore[attr-defined]
    return facts


@pytest.mark.parametrize("make", [
    lambda lru: lru(maxsize=2),
    lambda lru: lru(maxsize=-5),
    lambda lru: lru(maxsize=None),
    lambda lru: lru(maxsize=2, typed=True),
    lambda lru: lru(),
    lambda lru: lru,  # @lru_cache without arguments
], ids=["bounded", "negative", "unbounded", "typed", "called-empty", "bare"])
def test_lru_cache_makes_the_wrapper_functools_makes(make: object) -> None:
    ours = make(std_lite.lru_cache)(_square)  # type: ignore[operator]
    theirs = make(functools.lru_cache)(_square)  # type: ignore[operator]
    assert _wrapper_facts(ours) == _wrapper_facts(theirs)
    arguments: list[object] = [1, 2, 1, 3, 1.0, 2, 2, 4, 1]
    assert _calls(ours, arguments) == _calls(theirs, arguments)
    assert ours.cache_info() == theirs.cache_info()
    assert type(ours.cache_info()) is functools._CacheInfo  # type: ignore[attr-defined]
    ours.cache_clear()
    theirs.cache_clear()
    assert ours.cache_info() == theirs.cache_info()


def test_cache_is_functools_cache() -> None:
    ours, theirs = std_lite.cache(_square), functools.cache(_square)
    assert _wrapper_facts(ours) == _wrapper_facts(theirs)
    assert _calls(ours, [3, 3, 4]) == _calls(theirs, [3, 3, 4])
    assert ours.cache_info() == theirs.cache_info() == (1, 2, None, 2)


def test_lru_cache_refuses_what_functools_refuses() -> None:
    for lru in (std_lite.lru_cache, functools.lru_cache):
        with pytest.raises(TypeError, match="^Expected first argument to be an integer, a callable, or None$"):
            lru("64")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="unhashable"):
            lru()(_square)([1])  # type: ignore[arg-type]


def test_partial_is_functools_partial() -> None:
    assert std_lite.partial is functools.partial


class _Both:
    """One ``cached_property`` of each kind, counting the method's calls."""

    def __init__(self) -> None:
        self.calls = 0

    def _value(self) -> int:
        """The value."""
        self.calls += 1
        return 42

    ours = std_lite.cached_property(_value)
    theirs = functools.cached_property(_value)


def test_cached_property_keeps_the_value_as_functools_does() -> None:
    both = _Both()
    assert (both.ours, both.ours, both.calls) == (42, 42, 1)
    assert (both.theirs, both.theirs, both.calls) == (42, 42, 2)
    assert vars(both) == {"calls": 2, "ours": 42, "theirs": 42}
    del both.ours
    assert (both.ours, both.calls) == (42, 3)
    for name in ("ours", "theirs"):
        descriptor = vars(_Both)[name]
        assert getattr(_Both, name) is descriptor
        assert (descriptor.attrname, descriptor.__doc__, descriptor.func) == (name, "The value.", _Both._value)
    assert repr(std_lite.cached_property[int]) == repr(functools.cached_property[int]).replace(
        "functools.", "bastion.std_lite.")


def _error(action: object) -> tuple[type[BaseException], str]:
    try:
        action()  # type: ignore[operator]
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        cause = error.__cause__ if isinstance(error, RuntimeError) and error.__cause__ else error
        return type(cause), str(cause)
    raise AssertionError("no error")


@pytest.mark.parametrize("kind", [std_lite.cached_property, functools.cached_property])
def test_cached_property_refuses_what_functools_refuses(kind: type) -> None:
    expected = {
        "slots": (TypeError, "No '__dict__' attribute on 'Slots' instance to cache 'value' property."),
        "class": (TypeError, "The '__dict__' attribute on 'Meta' instance does not support item assignment "
                             "for caching 'value' property."),
        "unnamed": (TypeError, "Cannot use cached_property instance without calling __set_name__ on it."),
        "two names": (TypeError, "Cannot assign the same cached_property to two different names ('a' and 'b')."),
    }

    def slots() -> object:
        class Slots:
            __slots__ = ()
            value = kind(lambda self: 1)
        return Slots().value

    def on_a_class() -> object:
        class Meta(type):
            value = kind(lambda cls: 1)
        return Meta("C", (), {}).value

    def unnamed() -> object:
        return kind(lambda self: 1).__get__(object())

    def two_names() -> object:
        shared = kind(lambda self: 1)
        return type("Two", (), {"a": shared, "b": shared})

    assert _error(slots) == expected["slots"]
    assert _error(on_a_class) == expected["class"]
    assert _error(unnamed) == expected["unnamed"]
    assert _error(two_names) == expected["two names"]


@pytest.mark.parametrize("raised, caught", [
    (None, (OSError,)),
    (FileNotFoundError, (OSError,)),
    (KeyError, (OSError, LookupError)),
    (ValueError, (OSError,)),
    (KeyboardInterrupt, (Exception,)),
    (OSError, ()),
])
def test_suppress_swallows_what_contextlib_swallows(raised: type[BaseException] | None,
                                                     caught: tuple[type[BaseException], ...]) -> None:
    outcomes = []
    for suppress in (std_lite.suppress, contextlib.suppress):
        reached = []
        try:
            with suppress(*caught) as entered:
                reached.append(entered)
                if raised is not None:
                    raise raised("x")
                reached.append("end of block")
            reached.append("after")
        except BaseException as error:  # noqa: BLE001 - which one got out is compared
            reached.append(type(error))
        outcomes.append(reached)
    assert outcomes[0] == outcomes[1]
    assert isinstance(std_lite.suppress(), contextlib.AbstractContextManager)


@pytest.mark.parametrize("name, package", [
    ("json", None),
    ("json.decoder", None),
    (".decoder", "json"),
    ("..decoder", "json.scanner"),
    ("bastion.std_lite", None),
    (".std_lite", "bastion"),
])
def test_import_module_finds_what_importlib_finds(name: str, package: str | None) -> None:
    assert std_lite.import_module(name, package) is importlib.import_module(name, package)


@pytest.mark.parametrize("name, package", [
    (".decoder", None),
    (".decoder", ""),
    ("bastion.no_such_module", None),
    ("...too_far", "json"),
    ("", None),
])
def test_import_module_refuses_what_importlib_refuses(name: str, package: str | None) -> None:
    assert _error(lambda: std_lite.import_module(name, package)) == _error(
        lambda: importlib.import_module(name, package))


def test_std_lite_loads_none_of_the_modules_it_stands_in_for() -> None:
    """In a fresh interpreter, importing the module and using each helper loads neither
    ``functools``, ``contextlib``, ``importlib`` nor what they import."""
    code = ("import sys\nfrom bastion import std_lite as s\n"
            "f = s.lru_cache(maxsize=4)(abs); f(-1); s.cache(abs)(2); s.partial(abs, 3)()\n"
            "class C:\n    p = s.cached_property(lambda self: 1)\nC().p\n"
            "with s.suppress(OSError):\n    raise OSError\n"
            "s.import_module('.digest', 'bastion')\n"
            "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, timeout=60)
    loaded = set(done.stdout.split())
    assert "bastion.digest" in loaded
    assert loaded.isdisjoint({"functools", "contextlib", "importlib", "collections", "types", "warnings", "keyword",
                              "operator", "reprlib"}), json.dumps(sorted(loaded))
