"""Every bastion dataclass made both ways: by ``dataclasses`` itself and by
``bastion.dataclass_shortcut``. Run as a script in a fresh interpreter (the classes are
caught as their modules define them); prints one JSON report. Used by
tests/test_dataclass_shortcut.py.

Each class is caught before ``dataclasses`` sees it (its namespace, bases, decorator
arguments) and made three times from copies: the standard way; by the shortcut with an
empty cache (the methods come from dataclasses' own builders, their code kept); by the
shortcut again (the methods from the kept code). The three must agree on everything a
class shows — its ``__dict__`` in order, the ``Field`` objects, the parameters, each
method's code, name, defaults, annotations and closure — and instances must behave alike.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import dataclasses
import importlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from bastion import dataclass_shortcut, precompiled

SRC = Path(__file__).resolve().parents[1] / "src" / "bastion"
FUNCTION = type(lambda: None)
MEMBER = type(vars(dataclasses.Field)["name"])


def modules_with_dataclasses() -> dict[str, int]:
    """bastion's modules that define a dataclass, and how many each defines (read with ast)."""
    found: dict[str, int] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        count = sum(1 for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                    and any("dataclass" in ast.unparse(decorator) for decorator in node.decorator_list))
        if count:
            parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = count
    return found


class Template:
    """A class as its statement made it, before ``dataclasses`` saw it."""

    def __init__(self, cls: type, params: tuple[object, ...]) -> None:
        self.meta, self.name, self.bases, self.params = type(cls), cls.__name__, cls.__bases__, params
        self.namespace = {key: value for key, value in cls.__dict__.items() if key not in ("__dict__", "__weakref__")}
        self.namespace["__qualname__"] = cls.__qualname__
        self.label = f"{cls.__module__}.{cls.__qualname__}"

    def make(self, process: object) -> tuple[type, dict[str, object]]:
        """A fresh copy (its own ``Field`` objects), made a dataclass by ``process``."""
        namespace = {key: copy.copy(value) if isinstance(value, dataclasses.Field) else value
                     for key, value in self.namespace.items()}
        cls = self.meta(self.name, self.bases, dict(namespace))
        return process(cls, *self.params), namespace  # type: ignore[operator]


def _ident(value: object, cls: type) -> object:
    """A value by identity, except what each making makes anew: the class itself (or the
    one it replaced, for slots), functions, a slot's descriptor, the repr guard's set."""
    if value is cls:
        return "<the class>"
    if isinstance(value, type) and (value.__module__, value.__qualname__) == (cls.__module__, cls.__qualname__):
        return "<the class before slots>"
    if isinstance(value, FUNCTION):
        return _function(value, cls)
    if type(value) is MEMBER:
        return ("slot", value.__name__)  # type: ignore[attr-defined]
    if type(value) is set:
        return ("set", len(value))
    return ("id", id(value))


def _function(f: object, cls: type) -> object:
    if not isinstance(f, FUNCTION):
        return ("not a function", _ident(f, cls))
    code = f.__code__
    return {"code": code, "qualname in code": code.co_qualname, "filename": code.co_filename,
            "name": f.__name__, "qualname": f.__qualname__, "module": f.__module__, "doc": f.__doc__,
            "globals": id(f.__globals__),
            "defaults": [_ident(x, cls) for x in f.__defaults__ or ()],
            "kwdefaults": {k: _ident(v, cls) for k, v in (f.__kwdefaults__ or {}).items()},
            "annotations": {k: _ident(v, cls) for k, v in f.__annotations__.items()},
            "closure": [_ident(c.cell_contents, cls) for c in f.__closure__ or ()],
            "dict": {k: _ident(v, cls) for k, v in vars(f).items()}}


def _field(f: dataclasses.Field[object], cls: type, namespace: dict[str, object]) -> object:
    if namespace.get(f.name) is f:
        origin = "the class's own field()"
    else:
        bases = [base.__qualname__ for base in cls.__mro__[1:]
                 if any(g is f for g in getattr(base, "__dataclass_fields__", {}).values())]
        origin = f"a base's: {bases}" if bases else "new"
    return {slot: _ident(getattr(f, slot), cls) for slot in dataclasses.Field.__slots__ if slot != "name"} | {
        "name": f.name, "origin": origin, "type": f.type}


def describe(cls: type, namespace: dict[str, object], made: dict[str, object] | None = None) -> dict[str, object]:
    """Everything a made class shows, with shared objects by identity; ``made`` is its
    ``__dict__`` as ``dataclasses`` left it, when its module changed the class afterwards
    (``Decision`` puts in descriptors for the fields it works out when read)."""
    own = cls.__dict__ if made is None else made
    out: dict[str, object] = {"__dict__ order": list(own)}
    for name, value in own.items():
        if name in ("__dict__", "__weakref__"):  # the class's own descriptors
            continue
        if name == "__dataclass_fields__":
            out[name] = {key: _field(f, cls, namespace) for key, f in value.items()}
        elif name == "__dataclass_params__":
            out[name] = {slot: getattr(value, slot) for slot in type(value).__slots__}
        elif isinstance(value, (str, tuple, frozenset, bool, int)) or value is None:
            out[name] = value
        else:
            out[name] = _ident(value, cls)
    return out


def _outcome(call: object) -> object:
    try:
        return ("ok", call())  # type: ignore[operator]
    except Exception as error:  # noqa: BLE001 - the same error both ways is what counts
        return ("raised", type(error).__name__, str(error))


def behaviour(cls: type) -> list[object]:
    """What an instance does: made with a string for every required argument."""
    fields = dataclasses.fields(cls)
    required = {f.name: f"<{f.name}>" for f in fields if f.init and f.default is dataclasses.MISSING
                and f.default_factory is dataclasses.MISSING}
    made = _outcome(lambda: cls(**required))
    if made[0] != "ok":
        return [made]
    a, b = made[1], cls(**required)
    first = fields[0].name if fields else "anything"
    return [repr(a), a == b, a != b, _outcome(lambda: hash(a) == hash(b)),
            {f.name: repr(getattr(a, f.name, "<unset>")) for f in fields},
            _outcome(lambda: setattr(a, first, "x")), _outcome(lambda: delattr(b, first)),
            _outcome(lambda: dataclasses.replace(cls(**required)) == cls(**required)),
            [f.name for f in dataclasses.fields(a)], _outcome(lambda: repr(dataclasses.asdict(cls(**required)))),
            cls.__match_args__ if hasattr(cls, "__match_args__") else None]


def _addressless(value: object) -> str:
    """A repr without the addresses of objects each making made anew."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


@contextlib.contextmanager
def caught_templates() -> Iterator[list[Template]]:
    """The class statement of each dataclass made inside the block, in order."""
    templates: list[Template] = []
    process = dataclasses._process_class  # type: ignore[attr-defined]

    def catch(cls: type, *params: object) -> type:
        templates.append(Template(cls, params))
        return process(cls, *params)  # type: ignore[no-any-return]

    dataclasses._process_class = catch  # type: ignore[attr-defined]
    try:
        yield templates
    finally:
        dataclasses._process_class = process  # type: ignore[attr-defined]


def main() -> None:
    expected = modules_with_dataclasses()
    with caught_templates() as templates:
        for module in expected:
            importlib.import_module(module)

    standard, built = dataclass_shortcut._standard, dataclass_shortcut._built
    calls = {"standard": 0, "built": 0}

    def counting(name: str, function: object) -> object:
        def counted(*args: object) -> object:
            calls[name] += 1
            return function(*args)  # type: ignore[operator]
        return counted

    dataclass_shortcut._standard = counting("standard", standard)
    dataclass_shortcut._built = counting("built", built)
    cached_create_fn = dataclasses._create_fn  # type: ignore[attr-defined]
    mismatches, built_again, because = [], [], {}
    typing = sys.modules.get("typing")
    for world in ("typing loaded", "typing not loaded"):  # ClassVar is looked for only with typing loaded
        if world == "typing not loaded":
            sys.modules.pop("typing", None)
        # an empty cache, never saved: the shortcut's first pass builds, its second reads
        precompiled._FILE, precompiled._OPENED, precompiled._SAVING = {}, {}, True
        for template in templates:
            dataclasses._create_fn = cached_create_fn.__wrapped__  # type: ignore[attr-defined]  # dataclasses as is
            try:
                by_standard = template.make(standard)
            finally:
                dataclasses._create_fn = cached_create_fn  # type: ignore[attr-defined]
            calls.update(standard=0, built=0)
            first = template.make(dataclass_shortcut.process_class)
            if calls["standard"]:
                because[template.label] = _why_standard(template)
            calls.update(standard=0, built=0)
            second = template.make(dataclass_shortcut.process_class)
            if calls["built"]:
                built_again.append(f"{template.label} ({world})")
            views = [describe(cls, namespace) for cls, namespace in (by_standard, first, second)]
            acts = [behaviour(cls) for cls, _ in (by_standard, first, second)]
            for which, view, act in (("first", views[1], acts[1]), ("kept code", views[2], acts[2])):
                if view != views[0]:
                    keys = sorted(k for k in set(view) | set(views[0]) if view.get(k) != views[0].get(k))
                    mismatches.append(f"{template.label} ({which}, {world}): {keys}")
                if _addressless(act) != _addressless(acts[0]):
                    mismatches.append(f"{template.label} ({which}, {world}) behaves otherwise: {act} != {acts[0]}")
        if typing is not None:
            sys.modules["typing"] = typing
    print(json.dumps({"classes": len(templates), "expected": sum(expected.values()), "mismatches": mismatches,
                      "standard_because": because, "built_again": built_again}))


def _why_standard(template: Template) -> str:
    """Why the shortcut left a class to ``dataclasses`` (as far as bastion's classes go)."""
    if not template.namespace.get("__doc__"):
        return "no docstring"
    if template.params[8]:  # slots
        return "slots"
    module = sys.modules[template.label.rsplit(".", template.namespace["__qualname__"].count(".") + 1)[0]]
    if any(value is dataclasses for value in vars(module).values()):
        return "module imports dataclasses"
    return "unknown"


if __name__ == "__main__":
    main()
