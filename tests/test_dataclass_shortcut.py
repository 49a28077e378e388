"""bastion's dataclasses made by ``bastion.dataclass_shortcut`` are the classes
``dataclasses`` makes; anything it does not know takes the standard path."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import dataclass_shortcut, precompiled
from conftest import empty_precompiled_cache, module_from_source
from dataclass_both_ways import _addressless, behaviour, caught_templates, describe

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the shortcut mirrors Python 3.11's dataclasses")

HERE = Path(__file__).resolve().parent


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, int]:
    """An empty cache in a file of the test's own, and a count of the classes that took
    the standard path and of the times dataclasses' own builders were run."""
    empty_precompiled_cache(monkeypatch, tmp_path)
    counts = {"standard": 0, "built": 0}
    standard, built = dataclass_shortcut._standard, dataclass_shortcut._built

    def counting_standard(*args: object) -> object:
        counts["standard"] += 1
        return standard(*args)

    def counting_built(*args: object) -> object:
        counts["built"] += 1
        return built(*args)

    monkeypatch.setattr(dataclass_shortcut, "_standard", counting_standard)
    monkeypatch.setattr(dataclass_shortcut, "_built", counting_built)
    return counts


def _by_dataclasses(make: Callable[[], object]) -> object:
    """``make()`` with ``dataclasses`` as the standard library has it."""
    process, create_fn = dataclasses._process_class, dataclasses._create_fn  # type: ignore[attr-defined]
    dataclasses._process_class = dataclass_shortcut._standard  # type: ignore[attr-defined]
    dataclasses._create_fn = getattr(create_fn, "__wrapped__", create_fn)  # type: ignore[attr-defined]
    try:
        return make()
    finally:
        dataclasses._process_class, dataclasses._create_fn = process, create_fn  # type: ignore[attr-defined]


def _same(name: str, source: str, counts: dict[str, int]) -> int:
    """Each class of ``source`` (as module ``name``) made both ways, from the same class
    statement, shows and does the same; how many the shortcut left to dataclasses."""
    with caught_templates() as templates:
        module = module_from_source(name, source)
    sys.modules[name] = module  # as while its class statements ran
    left = 0
    try:
        for template in templates:
            standard = _by_dataclasses(lambda template=template: template.make(dataclass_shortcut._standard))
            counts["standard"] = 0
            made = template.make(dataclass_shortcut.process_class)
            left += counts["standard"]
            assert describe(*made) == describe(*standard)  # type: ignore[misc]
            assert _addressless(behaviour(made[0])) == _addressless(behaviour(standard[0]))  # type: ignore[index]
    finally:
        del sys.modules[name]
    return left


def test_every_bastion_dataclass_comes_out_the_same_both_ways() -> None:
    """Each of bastion's dataclasses, made by dataclasses itself and by the shortcut (with
    the code built, then with the code kept), with and without ``typing`` loaded: the
    same ``__dict__``, fields, parameters, methods (code, defaults, annotations, closure),
    and instances that behave alike. Run in a fresh interpreter, which catches each class
    as its module defines it."""
    done = subprocess.run([sys.executable, "-I", str(HERE / "dataclass_both_ways.py")], capture_output=True,
                          text=True, timeout=300, check=False, cwd=HERE.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["classes"] == report["expected"] >= 100  # every class ast finds was made, each way
    assert report["mismatches"] == []
    assert report["built_again"] == [], "the second making took the kept code"
    # the standard way only for a class the shortcut does not know: no docstring (dataclasses
    # writes one with inspect), slots, or a module that imports dataclasses itself
    assert set(report["standard_because"].values()) <= {"no docstring", "slots", "module imports dataclasses"}
    assert len(report["standard_because"]) < report["classes"] / 4


PSEUDO = {
    "KW_ONLY": "from dataclasses import KW_ONLY\n@dataclass\nclass C:\n    '''doc'''\n    a: int\n    _: KW_ONLY\n"
               "    b: int = 2\n",
    "InitVar": "from dataclasses import InitVar\n@dataclass\nclass C:\n    '''doc'''\n    a: int\n    b: InitVar[int]\n"
               "    def __post_init__(self, b):\n        self.c = b\n",
    "dataclasses.InitVar": "import dataclasses\n@dataclass\nclass C:\n    '''doc'''\n    a: int\n"
                           "    b: dataclasses.InitVar[int] = 1\n",
    "an InitVar alias": "from dataclasses import InitVar\nIV = InitVar[int]\n@dataclass\nclass C:\n    '''doc'''\n"
                        "    a: int\n    b: IV = 1\n",
    "ClassVar": "from typing import ClassVar\n@dataclass\nclass C:\n    '''doc'''\n    a: int\n    b: ClassVar[int] = 1\n",
    "a ClassVar alias": "import typing\nCV = typing.ClassVar[int]\n@dataclass\nclass C:\n    '''doc'''\n    a: int\n"
                        "    b: CV = 1\n",
    "typing.ClassVar": "import typing\n@dataclass\nclass C:\n    '''doc'''\n    a: int\n    b: typing.ClassVar[int] = 1\n",
}
HEAD = "from __future__ import annotations\nfrom dataclasses import dataclass, field\n"


@pytest.mark.parametrize("kind", sorted(PSEUDO))
def test_a_class_whose_module_could_make_a_pseudo_field_goes_the_standard_way(fresh: dict[str, int],
                                                                             kind: str) -> None:
    """``dataclasses`` reads a string annotation as ``KW_ONLY``, an ``InitVar`` or a
    ``ClassVar`` by looking its first name up in the module; the shortcut knows none of
    them, so a class in a module where one could be found is made the standard way."""
    assert _same("bastion._probe_pseudo", HEAD + PSEUDO[kind], fresh) == 1


def test_the_same_class_without_them_takes_the_shortcut(fresh: dict[str, int]) -> None:
    plain = HEAD + "@dataclass\nclass C:\n    '''doc'''\n    a: int\n    b: int = 1\n"
    assert _same("bastion._probe_plain", plain, fresh) == 0


SHAPES = {
    "order": "@dataclass(order=True)\nclass C:\n    '''doc'''\n    a: int\n",
    "unsafe_hash": "@dataclass(unsafe_hash=True)\nclass C:\n    '''doc'''\n    a: int\n",
    "kw_only": "@dataclass(kw_only=True)\nclass C:\n    '''doc'''\n    a: int\n",
    "slots": "@dataclass(frozen=True, slots=True)\nclass C:\n    '''doc'''\n    a: int\n",
    "no docstring": "@dataclass\nclass C:\n    a: int\n    b: tuple = ()\n",
    "a keyword-only field": "@dataclass\nclass C:\n    '''doc'''\n    a: int = field(kw_only=True)\n",
    "a dunder field": "@dataclass\nclass C:\n    '''doc'''\n    __x__: int = 1\n",
}
ERRORS = {
    "a mutable default": "@dataclass\nclass C:\n    '''doc'''\n    a: list = []\n",
    "a default, then none": "@dataclass\nclass C:\n    '''doc'''\n    a: int = 1\n    b: int\n",
    "a field without annotation": "@dataclass\nclass C:\n    '''doc'''\n    a = field(default=1)\n",
    "frozen from non-frozen": "@dataclass\nclass B:\n    '''doc'''\n    a: int\n"
                              "@dataclass(frozen=True)\nclass C(B):\n    '''doc'''\n    b: int = 1\n",
    "frozen with its own __setattr__": "@dataclass(frozen=True)\nclass C:\n    '''doc'''\n    a: int\n"
                                       "    def __setattr__(self, name, value):\n        pass\n",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_shape_it_does_not_mirror_goes_the_standard_way(fresh: dict[str, int], shape: str) -> None:
    assert _same("bastion._probe_shape", HEAD + SHAPES[shape], fresh) == 1


@pytest.mark.parametrize("error", sorted(ERRORS))
def test_a_class_dataclasses_refuses_gets_its_error(fresh: dict[str, int], error: str) -> None:
    """The shortcut sends it the standard way, which raises what it always raises."""
    with pytest.raises((TypeError, ValueError)) as standard:
        _by_dataclasses(lambda: module_from_source("bastion._probe_error", HEAD + ERRORS[error]))
    with pytest.raises(type(standard.value), match=f"^{standard.value}$".replace("(", r"\(").replace(")", r"\)")):
        module_from_source("bastion._probe_error", HEAD + ERRORS[error])


def test_inheritance_post_init_defaults_and_factories(fresh: dict[str, int]) -> None:
    source = HEAD + (
        "@dataclass(frozen=True)\nclass B:\n    '''doc'''\n    a: int\n    b: str = 'x'\n"
        "@dataclass(frozen=True)\nclass C(B):\n    '''doc'''\n    c: tuple = field(default_factory=tuple)\n"
        "    b: str = field(default='y', repr=False, compare=False)\n    d: int = field(default=4, init=False)\n"
        "    self: int = 0\n"
        "    def __post_init__(self):\n        object.__setattr__(self, 'd', self.a + 1)\n"
        "@dataclass(eq=False)\nclass E:\n    '''doc'''\n    a: int = field(default=1, hash=True)\n"
        "    def __repr__(self):\n        return 'E'\n")
    assert _same("bastion._probe_tree", source, fresh) == 0
    made = module_from_source("bastion._probe_tree", source)
    c = made.C(1)
    assert (repr(c), c.d, c.c, hash(c) == hash(made.C(1)), dataclasses.replace(c, a=2).d) == (
        "C(a=1, c=(), d=2, self=0)", 2, (), True, 3)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        c.a = 5  # type: ignore[misc]


def test_someone_elses_classes_never_take_it(fresh: dict[str, int]) -> None:
    module_from_source("someone_else", HEAD + "@dataclass\nclass C:\n    '''doc'''\n    a: int\n")
    assert fresh["standard"] == 1 and precompiled._USED == {} and precompiled._CHANGED == set()


def test_the_code_is_kept_under_what_its_text_depends_on(fresh: dict[str, int]) -> None:
    """Two classes whose fields say the same share their methods' code; another default
    makes another key; the next process makes the class from the kept code."""
    same = HEAD + ("@dataclass(frozen=True)\nclass A:\n    '''doc'''\n    x: int\n    y: str = ''\n"
                   "@dataclass(frozen=True)\nclass B:\n    '''other doc'''\n    x: str\n    y: int = 0\n")
    module_from_source("bastion._probe_keys", same)
    assert fresh["built"] == 1 and len(precompiled._USED["bastion._probe_keys"]) == 1
    module_from_source("bastion._probe_keys", same.replace("y: int = 0", "y: list = field(default_factory=list)"))
    assert fresh["built"] == 2 and len(precompiled._USED["bastion._probe_keys"]) == 2
    precompiled._save()
    precompiled._FILE, precompiled._OPENED, precompiled._USED, precompiled._CHANGED = None, {}, {}, set()
    fresh["built"] = 0
    made = module_from_source("bastion._probe_keys", same)
    assert fresh["built"] == 0 and precompiled._CHANGED == set()
    assert (repr(made.A(1)), made.B("b", 2) == made.B("b", 2)) == ("A(x=1, y='')", True)


def test_another_dataclasses_keeps_the_standard_path() -> None:
    """``install`` leaves a ``dataclasses`` whose ``_process_class`` is not the one the
    shortcut mirrors as it is."""
    other = types.ModuleType("dataclasses")

    def _process_class(cls: type, init: bool) -> type:  # another signature
        return cls

    other._process_class = _process_class  # type: ignore[attr-defined]
    dataclass_shortcut.install(other, precompiled._cached, precompiled._remember)
    assert other._process_class is _process_class  # type: ignore[attr-defined]


_DECIDING = """
import json, sys
from bastion import dataclass_shortcut, precompiled  # precompiled installs the shortcut
standard, left = dataclass_shortcut._standard, []
def recording(cls, *params):
    left.append(cls.__module__ + "." + cls.__qualname__)
    return standard(cls, *params)
dataclass_shortcut._standard = recording
from bastion import Guard, ToolCall
Guard.from_settings({cwd!r}, isolated=True).check(ToolCall("Bash", {{"command": "git status"}}, cwd={cwd!r}))
print(json.dumps([name for name in left if name.startswith("bastion.")]))
"""


def test_a_decision_makes_every_dataclass_by_the_shortcut(tmp_path: Path) -> None:
    """The classes a fresh decision defines all qualify (a docstring, no slots, a module
    that does not import ``dataclasses`` itself): none is left to the standard path."""
    code = _DECIDING.format(cwd=str(tmp_path))
    env = {"BASTION_CONFIG_DIR": str(tmp_path / ".cfg"), "BASTION_STATE_DIR": str(tmp_path / ".state"),
           "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120,
                          check=False, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
