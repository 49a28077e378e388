"""Dataclasses made while ``dataclasses`` still has its stand-ins (``bastion.stand_ins``),
compared with the same classes made by ``dataclasses`` itself with the real modules. Run
as a script in a fresh interpreter (``python -I``); prints one JSON report. Used by
tests/test_stand_ins.py.

The process imports ``bastion.precompiled`` before anything else, so ``dataclasses``
loads with the stand-ins; then ``bastion.model`` and a probe module make their classes
(by the shortcut, and by the standard path: ``__slots__``, no docstring) while no real
``re``, ``copy``, ``functools`` … is loaded, each caught before ``dataclasses`` sees it.
Only then does it import the real modules (with tests/dataclass_both_ways.py), make each
class again the standard way and compare everything a class shows and does.
"""

from __future__ import annotations

import os
import sys

from bastion import precompiled  # first: dataclasses loads with its stand-ins

#: What dataclasses imports (and what those bring), that a decision should not pay for.
WATCHED = ("re", "copy", "functools", "collections", "weakref", "copyreg", "reprlib", "operator", "enum",
           "types", "keyword", "itertools", "inspect", "ast", "dis", "tokenize")
STAND_INS = ("re", "copy", "functools", "types", "keyword", "itertools", "inspect")

PROBE = '''
from __future__ import annotations
from bastion.precompiled import dataclass, field

@dataclass(frozen=True)
class Leaf:
    """A frozen record with a default and a factory."""
    name: str
    tags: tuple = ()
    extra: dict = field(default_factory=dict, metadata={"why": "metadata goes through types.MappingProxyType"})

@dataclass
class Node:
    """A mutable node that may hold itself: the repr guard stops the recursion."""
    label: str
    child: object = None
    size: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        self.size = len(self.label)

@dataclass(frozen=True)
class Branch(Leaf):
    """A subclass with a field of its own."""
    depth: int = 1
'''

STANDARD_PATH = '''
from __future__ import annotations
from bastion.precompiled import dataclass, field

@dataclass(frozen=True, slots=True)
class Slotted:
    """A class with __slots__: the standard path, string annotations read with its pattern."""
    name: str
    size: int = 0
'''

NO_DOCSTRING = '''
from __future__ import annotations
from bastion.precompiled import dataclass

@dataclass
class Bare:
    name: str
    size: int = 0
'''


def watched() -> list[str]:
    return sorted(name for name in WATCHED if name in sys.modules)


def run(name: str, source: str) -> object:
    """``source`` as bastion module ``name`` (compiled without this file's ``__future__`` flags)."""
    module = type(sys)(name)
    sys.modules[name] = module
    exec(compile(source, f"<{name}>", "exec", dont_inherit=True), module.__dict__)  # noqa: S102 - the probe
    return module


def main() -> None:
    import dataclasses

    report: dict[str, object] = {"after precompiled": watched(),
                                 "stand-ins": sorted(name for name in STAND_INS
                                                     if type(vars(dataclasses).get(name)) is not type(sys))}
    caught: list[tuple[type, tuple[object, ...], dict[str, object], dict[str, object]]] = []
    process = dataclasses._process_class  # type: ignore[attr-defined]

    def catch(cls: type, *params: object) -> type:
        namespace = dict(cls.__dict__)  # the Field objects as the statement made them
        made: type = process(cls, *params)  # a class with slots is made anew
        caught.append((made, params, namespace, dict(made.__dict__)))
        return made

    dataclasses._process_class = catch  # type: ignore[attr-defined]
    try:
        probe = run("bastion._stand_in_probe", PROBE)
        report["after the shortcut's classes"] = watched()
        run("bastion._stand_in_standard", STANDARD_PATH)
        report["after a class with slots"] = watched()
        report["pattern compiled afresh"] = precompiled._ON_FIRST_USE in precompiled._CHANGED
        import bastion.model  # noqa: F401 - the classes a decision starts with
        run("bastion._stand_in_bare", NO_DOCSTRING)
        report["after a class without a docstring"] = watched()
    finally:
        dataclasses._process_class = process  # type: ignore[attr-defined]

    # now the real modules: they go where the stand-ins were
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import copy
    import functools
    import re

    from dataclass_both_ways import FUNCTION, Template, _addressless, _function, behaviour, describe

    report["real modules in sys.modules"] = sorted(name for name in STAND_INS
                                                   if type(sys.modules.get(name)) is type(sys))

    # each class made with the stand-ins, against the same statement made the standard way
    standard = dataclasses._create_fn.__wrapped__  # type: ignore[attr-defined]
    cached = dataclasses._create_fn  # type: ignore[attr-defined]
    from bastion import dataclass_shortcut

    mismatches = []
    for cls, params, namespace, as_made in caught:
        template = Template.__new__(Template)
        template.meta, template.name, template.bases, template.params = type(cls), cls.__name__, cls.__bases__, params
        template.namespace = {key: value for key, value in namespace.items() if key not in ("__dict__", "__weakref__")
                              and not (key == "__doc__" and value is None)}  # type() adds these where it did
        template.namespace["__qualname__"] = cls.__qualname__
        dataclasses._create_fn = standard  # type: ignore[attr-defined]
        try:
            again = template.make(dataclass_shortcut._standard)
        finally:
            dataclasses._create_fn = cached  # type: ignore[attr-defined]
        label = f"{cls.__module__}.{cls.__qualname__}"
        view, standard_view = describe(cls, namespace, as_made), describe(*again)
        if view != standard_view:
            keys = sorted(key for key in set(view) | set(standard_view) if view.get(key) != standard_view.get(key))
            mismatches.append(f"{label} shows otherwise: {keys}")
        if _addressless(behaviour(cls)) != _addressless(behaviour(again[0])):
            mismatches.append(f"{label} behaves otherwise")
    wrapped = [vars(cls)["__repr__"] for cls, *_ in caught if isinstance(vars(cls).get("__repr__"), FUNCTION)]
    by_functools = [dataclasses._recursive_repr(f.__wrapped__) for f in wrapped]  # type: ignore[attr-defined]
    for f, g in zip(wrapped, by_functools, strict=True):
        g.__qualname__ = f.__qualname__  # as dataclasses sets it on the class

    # then the uses that need them (after the comparison: a deep copy marks its class)
    node = probe.Node("a")  # type: ignore[attr-defined]
    node.child = node
    leaf = probe.Branch("b", ("t",))  # type: ignore[attr-defined]
    report["uses"] = [repr(node), repr(dataclasses.asdict(leaf)), repr(copy.deepcopy(leaf) == leaf),
                      repr(dataclasses.replace(leaf, depth=3)), repr(dataclasses.astuple(leaf))]
    dataclasses.re.escape("x")  # type: ignore[attr-defined]
    now = vars(dataclasses)
    report["in dataclasses' globals"] = {
        "re": now["re"] is re, "copy": now["copy"] is copy, "functools": now["functools"] is functools,
        "pattern": now["_MODULE_IDENTIFIER_RE"] == re.compile(r"^(?:\s*(\w+)\s*\.)?\s*(\w+)")}
    report["classes"] = len(caught)
    report["reprs wrapped"] = len(wrapped)
    report["reprs wrapped otherwise"] = [
        f.__qualname__ for f, g in zip(wrapped, by_functools, strict=True)
        if _function(f, object) != _function(g, object)
        or (f.__annotations__ is f.__wrapped__.__annotations__) != (g.__annotations__ is g.__wrapped__.__annotations__)]
    report["mismatches"] = mismatches
    print(__import__("json").dumps(report))


if __name__ == "__main__":
    main()
