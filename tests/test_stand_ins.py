"""``dataclasses`` loaded with stand-ins for the standard modules it uses now and then
(``bastion.stand_ins``): a fresh process that imports ``bastion.precompiled`` and makes
bastion's dataclasses loads none of them, the classes are the standard ones, and the real
modules take the stand-ins' places the first time they are needed."""

from __future__ import annotations

import ast
import dataclasses
import functools
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from bastion import stand_ins, std_lite

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                                reason="the stand-ins answer for Python 3.11's dataclasses")

HERE = Path(__file__).resolve().parent
#: Always loaded when an interpreter starts: no stand-in needed.
ALWAYS_LOADED = {"sys", "builtins", "abc", "_thread"}


def _fresh(code: str) -> object:
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120,
                          check=False, cwd=HERE.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_classes_made_with_the_stand_ins_are_the_standard_ones() -> None:
    """A fresh process: ``bastion.precompiled`` loads ``dataclasses`` without ``re``,
    ``copy``, ``functools``, ``collections``, ``weakref`` …; the shortcut's classes need
    none of them; each class made meanwhile (``bastion.model``'s, a probe's, one with
    slots, one without a docstring) is the class ``dataclasses`` makes with the real
    modules, its ``__repr__`` wrapped as ``functools.wraps`` wraps it; afterwards the real
    modules are in ``sys.modules`` and in ``dataclasses``' globals."""
    done = subprocess.run([sys.executable, "-I", str(HERE / "dataclass_stand_ins.py")], capture_output=True,
                          text=True, timeout=300, check=False, cwd=HERE.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["after precompiled"] == report["after the shortcut's classes"] == []
    assert report["stand-ins"] == sorted(stand_ins._STAND_INS)
    # a class with slots takes itertools, and its string annotations the pattern, which is
    # built from its kept compiled form without ``re`` (compiled with ``re`` the first time)
    with_slots = set(report["after a class with slots"])
    assert with_slots == {"itertools"} or (report["pattern compiled afresh"] and "re" in with_slots)
    assert "inspect" in report["after a class without a docstring"]  # a class without a docstring needs it
    assert report["real modules in sys.modules"] == sorted(stand_ins._STAND_INS)
    assert report["classes"] >= 10 and report["reprs wrapped"] == report["classes"]
    assert report["mismatches"] == [] and report["reprs wrapped otherwise"] == []
    assert report["uses"] == ["Node(label='a', child=..., size=1)",  # the repr guard still stops recursion
                              "{'name': 'b', 'tags': ('t',), 'extra': {}, 'depth': 1}", "True",
                              "Branch(name='b', tags=('t',), extra={}, depth=3)", "('b', ('t',), {}, 1)"]
    assert report["in dataclasses' globals"] == {"re": True, "copy": True, "functools": True, "pattern": True}


_LOADED_FIRST = """
import json, sys
{first}
import bastion.precompiled, dataclasses
names = {names!r}
print(json.dumps({{name: vars(dataclasses)[name] is sys.modules.get(name) for name in names}}
                 | {{"pattern": type(dataclasses._MODULE_IDENTIFIER_RE).__name__}}))
"""


def test_a_module_someone_loaded_first_is_used_as_it_is() -> None:
    names = sorted(stand_ins._STAND_INS)
    everything = _fresh(_LOADED_FIRST.format(first=f"import {', '.join(names)}", names=names))
    assert everything == dict.fromkeys(names, True) | {"pattern": "Pattern"}
    # re brings enum, functools, types and itertools with it: the others still stand in
    only_re = _fresh(_LOADED_FIRST.format(first="import re", names=names))
    assert only_re == {"copy": False, "functools": True, "inspect": False, "itertools": True, "keyword": True,
                       "re": True, "types": True, "pattern": "Pattern"}


def test_the_stand_ins_cover_what_dataclasses_imports() -> None:
    """Every module ``dataclasses`` imports that an interpreter has not loaded when it starts."""
    tree = ast.parse(Path(dataclasses.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module}
    assert imported - ALWAYS_LOADED == set(stand_ins._STAND_INS)


def test_wraps_does_what_functools_does() -> None:
    """``functools.update_wrapper``'s attributes, for whatever is wrapped: the same values
    (the same objects), the same ``__dict__`` and ``__wrapped__``."""
    assert (std_lite.WRAPPER_ASSIGNMENTS, std_lite.WRAPPER_UPDATES) == (functools.WRAPPER_ASSIGNMENTS, functools.WRAPPER_UPDATES)

    def plain(x: int) -> str:
        """A docstring."""
        return str(x)

    plain.marker = "kept"  # type: ignore[attr-defined]
    wrapped_ones: list[Any] = [plain, lambda: None, functools.partial(plain, 1), len, type("K", (), {"a": 1}), object()]
    for wrapped in wrapped_ones:
        made: list[Any] = []
        for wrap in (functools.update_wrapper, std_lite.update_wrapper):
            def wrapper() -> None:
                pass

            wrapper.own = 1  # type: ignore[attr-defined]
            made.append(wrap(wrapper, wrapped, functools.WRAPPER_ASSIGNMENTS, functools.WRAPPER_UPDATES))
        by_functools, by_stand_in = made
        for attr in (*functools.WRAPPER_ASSIGNMENTS, "__wrapped__"):
            mine, theirs = getattr(by_stand_in, attr), getattr(by_functools, attr)
            assert type(mine) is type(theirs) and mine == theirs, (wrapped, attr)
        if hasattr(wrapped, "__annotations__"):  # shared, not copied
            assert by_stand_in.__annotations__ is by_functools.__annotations__ is wrapped.__annotations__
        assert by_stand_in.__wrapped__ is wrapped
        assert list(vars(by_stand_in)) == list(vars(by_functools))
        assert all(vars(by_stand_in)[key] is value for key, value in vars(by_functools).items())


def test_the_types_stand_in_answers_with_the_real_objects() -> None:
    own = {name: value for name, value in vars(stand_ins._Types).items() if not name.startswith("_")}
    assert sorted(own) == ["FunctionType", "GenericAlias", "MappingProxyType", "MemberDescriptorType"]
    assert all(value is getattr(types, name) for name, value in own.items())


def test_a_stand_in_hands_over_to_the_real_module() -> None:
    """Once the real module is loaded, a stand-in still in ``dataclasses``' globals gives
    way to it on its next use, and its own answers come from it."""
    stand_in = stand_ins._Functools("functools")
    was = vars(dataclasses).get("functools")
    dataclasses.functools = stand_in  # type: ignore[attr-defined]
    try:
        assert stand_in.wraps is not functools.wraps  # its own, until it is used

        def wrapper() -> None:
            pass

        assert stand_in.wraps(len)(wrapper).__wrapped__ is len
        assert dataclasses.functools is functools  # type: ignore[attr-defined]
        assert stand_in.reduce is functools.reduce
    finally:
        dataclasses.functools = was  # type: ignore[attr-defined]
    pattern = stand_ins._Re("re").compile(r"\d+")
    assert type(pattern).__name__ == "Pattern" and pattern.pattern == r"\d+"  # re is loaded here: re's own


_QUERY = """
import sys
from bastion.shell.syntax.parse import _parser, parse
parse("cd src && pytest | tail -5")  # through tree-sitter
before = "re" in sys.modules
from tree_sitter import Language, Query, QueryCursor
import tree_sitter_bash
query = Query(Language(tree_sitter_bash.language()), '((command_name) @n (#match? @n "^ec"))')
found = QueryCursor(query).captures(_parser().parse(b"echo hi; ls").root_node)
import re
print(before, [n.text.decode() for n in found["n"]], type(sys.modules["re"]) is type(sys), re.compile is sys.modules["re"].compile)
"""


def test_tree_sitters_compiled_module_loads_without_re_and_its_predicates_still_match() -> None:
    """``tree_sitter._binding`` takes ``re.compile`` as it loads (for ``#match?``): loaded
    with the stand-in, a parse imports no ``re``, and a query predicate later compiles with
    the real one, which is then the one in ``sys.modules``."""
    done = subprocess.run([sys.executable, "-I", "-c", _QUERY], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "['echo']", "True", "True"]
