"""bastion's plain dataclasses made in fewer steps than ``dataclasses`` takes (Python 3.11).

Most of the cost of a dataclass in a fresh process is ``dataclasses``' own Python work: a
``Field`` per annotation with two string checks (is it ``KW_ONLY``? an ``InitVar``?), then
the source text of ``__init__``, ``__repr__``, ``__eq__``, ``__setattr__`` … built line by
line, only to look its compiled code up (:mod:`bastion.precompiled`). A fresh hook makes some
thirty classes. For the classes bastion writes — no ``order``, ``unsafe_hash``, ``kw_only``
or ``slots``, a docstring, string annotations, nothing in their module that could make an
annotation a pseudo-field — each method's text follows from a few facts about the fields:
their names, which have a default or a factory, which are in ``__init__``, the repr, the
comparison, the hash; frozen or not; ``__post_init__`` or not. :func:`process_class` keeps
the compiled code of a class's methods under those facts (in the cache of
:mod:`bastion.precompiled`, one entry a class) and makes the class as ``_process_class``
does: the same ``Field`` objects, the same functions (the code ``__create_fn__`` would
return, with the closure, defaults and annotations it would give it), the same attributes
set in the same order. Methods whose code is not kept yet are made by ``dataclasses``' own
builders, and their code kept for the next process. Every other class, and every other
interpreter, takes the standard path; tests/test_dataclass_shortcut.py makes every bastion
dataclass both ways and compares them.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # no `typing` import: a fresh decision does without it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: ``dataclasses._process_class`` of Python 3.11 (its arguments, then the names it uses):
#: the function :func:`process_class` mirrors. Another one takes the standard path.
_PROCESS_CLASS_SHAPE = (
    ("cls", "init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots",
     "weakref_slot"),
    ("__module__", "sys", "modules", "__dict__", "setattr", "_PARAMS", "_DataclassParams", "__mro__", "getattr",
     "_FIELDS", "values", "name", "frozen", "get", "__name__", "items", "_is_kw_only", "isinstance", "str",
     "_is_type", "KW_ONLY", "TypeError", "append", "_get_field", "Field", "default", "MISSING", "delattr",
     "ValueError", "_fields_in_init_order", "hasattr", "_POST_INIT_NAME", "_set_new_attribute", "_init_fn",
     "_repr_fn", "_tuple_str", "_cmp_fn", "_frozen_get_del_attr", "_hash_action", "bool", "__hash__", "inspect",
     "signature", "replace", "__doc__", "tuple", "_add_slots", "abc", "update_abstractmethods"))
#: The builders whose code is kept, called as ``_process_class`` calls them.
_BUILDERS = {"_init_fn": ("fields", "std_fields", "kw_only_fields", "frozen", "has_post_init", "self_name",
                          "globals", "slots"),
             "_repr_fn": ("fields", "globals"),
             "_cmp_fn": ("name", "op", "self_tuple", "other_tuple", "globals"),
             "_frozen_get_del_attr": ("cls", "fields", "globals"),
             "_hash_fn": ("fields", "globals")}

#: The methods each builder makes, in order.
_METHODS = {"_init_fn": ("__init__",), "_repr_fn": ("__repr__",), "_cmp_fn": ("__eq__",),
            "_frozen_get_del_attr": ("__setattr__", "__delattr__"), "_hash_fn": ("__hash__",)}

_dc: Any = None  # dataclasses, once install() found the one this mirrors
_standard: Any = None  # its own _process_class
_lookup: Callable[[str, Any], Any]  # precompiled's cache: (module, key) -> value or None
_keep: Callable[[str, Any, Any], None]  # (module, key, value): kept for the next process
_CODE: Any = type(sys._getframe().f_code)
_FUNCTION: Any = type(lambda: None)
_CELL: Any = type((lambda value: lambda: value)(None).__closure__[0])  # type: ignore[index]
_MEMBER: Any = None  # the type of a slot's descriptor: a field that is a base's slot has no default
#: The locals ``_create_fn`` is given, other than a field's type (``_type_NAME``) and
#: default (``_dflt_NAME``) and the class (``cls``): filled in by install().
_LOCALS: dict[str, Any] = {}


def create_text(name: str, args: Any, body: Any, local_names: Any, returns: bool) -> str:
    """The text Python 3.11's ``dataclasses._create_fn`` compiles for a method (``returns``:
    it was given a return type, which it passes as the local ``_return_type``)."""
    joined = ",".join(args)
    lines = "\n".join(f"  {b}" for b in body)
    text = f" def {name}({joined}){'->_return_type' if returns else ''}:\n{lines}"
    return f"def __create_fn__({', '.join(local_names)}):\n{text}\n return {name}"


def _functions(codes: Any, namespace: dict[str, Any], cls: type, fields: dict[str, Any],
               init_fields: tuple[Any, ...]) -> list[Any]:
    """The methods whose kept code is ``codes``, made as ``__create_fn__`` makes each: its
    closure holds the locals ``_create_fn`` passes (a field's default or factory as
    ``_dflt_NAME``, its type as ``_type_NAME``, the class as ``cls``, the module's
    :data:`_LOCALS`), and ``__init__`` has the defaults and annotations its text gives its
    parameters (``_init_param``: ``_dflt_NAME`` or ``_HAS_DEFAULT_FACTORY``; ``_type_NAME``;
    ``-> None``)."""
    missing, constants, made = _dc.MISSING, _LOCALS, []
    for code in codes:
        closure = []
        for name in code.co_freevars:
            head = name[:6]
            if head == "_type_":
                value = fields[name[6:]].type
            elif head == "_dflt_":
                f = fields[name[6:]]
                value = f.default if f.default_factory is missing else f.default_factory
            else:
                value = cls if name == "cls" else constants[name]
            closure.append(_CELL(value))
        if code.co_name == "__init__":
            factory = constants["_HAS_DEFAULT_FACTORY"]
            defaults = tuple(factory if f.default is missing else f.default for f in init_fields
                             if f.default is not missing or f.default_factory is not missing)
            function = _FUNCTION(code, namespace, None, defaults or None, tuple(closure) or None)
            annotations = {f.name: f.type for f in init_fields}
            annotations["return"] = None
            function.__annotations__ = annotations
        else:
            function = _FUNCTION(code, namespace, None, None, tuple(closure) or None)
        made.append(function)
    return made


def _arguments(builder: str, cls: Any, field_list: list[Any], init_fields: tuple[Any, ...], frozen: Any,
               has_post_init: bool, self_name: str, namespace: dict[str, Any]) -> tuple[Any, ...]:
    """The arguments ``_process_class`` passes ``builder`` (one of :data:`_BUILDERS`)."""
    if builder == "_init_fn":
        return (field_list, init_fields, (), frozen, has_post_init, self_name, namespace, False)
    if builder == "_repr_fn":
        return ([f for f in field_list if f.repr], namespace)
    if builder == "_cmp_fn":
        compared = [f for f in field_list if f.compare]
        return ("__eq__", "==", _dc._tuple_str("self", compared), _dc._tuple_str("other", compared), namespace)
    if builder == "_frozen_get_del_attr":
        return (cls, field_list, namespace)
    return ([f for f in field_list if (f.compare if f.hash is None else f.hash)], namespace)  # _hash_fn


def _built(steps: list[tuple[str, tuple[Any, ...]]]) -> tuple[list[Any], list[Any]]:
    """The methods ``dataclasses``' own builders make, each step ``(builder, arguments)``,
    and the code of each ``__create_fn__`` they ran: they run with a ``_create_fn`` of
    their own, which composes and compiles the same text (``dataclasses`` itself is left
    as it is, for any other thread)."""
    dc = _dc
    codes: list[Any] = []

    def create_fn(name: str, args: Any, body: Any, *, globals: Any = None, locals: Any = None,  # noqa: A002
                  return_type: Any = dc.MISSING) -> Any:
        local = {} if locals is None else locals
        if return_type is not dc.MISSING:
            local["_return_type"] = return_type
        text = create_text(name, args, body, local, return_type is not dc.MISSING)
        code = compile(text, "<string>", "exec", dont_inherit=True)  # no __future__ flag of this module
        namespace: dict[str, Any] = {}
        exec(code, globals, namespace)  # noqa: S102 - the text dataclasses itself would exec
        made = namespace["__create_fn__"]
        codes.extend(const for const in made.__code__.co_consts if type(const) is _CODE)  # the method's own
        return made(**local)

    own_globals = {**vars(dc), "_create_fn": create_fn}
    made: list[Any] = []
    for name, arguments in steps:
        builder = getattr(dc, name)
        result = _FUNCTION(builder.__code__, own_globals, builder.__name__)(*arguments)
        made.extend(result if type(result) is tuple else (result,))
    return made, codes


def _plain_namespace(namespace: dict[str, Any]) -> bool:
    """No string annotation of a class in this module can be a pseudo-field: nothing in it
    is what ``dataclasses._is_type`` looks for (``KW_ONLY``, ``InitVar`` or one of its
    instances, ``dataclasses`` itself; with ``typing`` loaded, ``typing``, ``ClassVar`` or
    one of its aliases)."""
    dc = _dc
    values = namespace.values()
    kinds = set(map(type, values))
    if dc.InitVar in kinds:
        return False
    markers = {id(dc), id(dc.KW_ONLY), id(dc.InitVar)}
    typing = sys.modules.get("typing")
    if typing is not None:
        class_var = getattr(typing, "ClassVar", None)
        markers |= {id(typing), id(class_var)}
        alias = getattr(typing, "_GenericAlias", None)
        if alias in kinds and any(type(v) is alias and v.__origin__ is class_var for v in values):
            return False
    return markers.isdisjoint(map(id, values))


def _make(cls: Any, module: str, init: Any, repr: Any, eq: Any, order: Any, unsafe_hash: Any,  # noqa: A002
          frozen: Any, match_args: Any, kw_only: Any) -> bool:
    """Make ``cls`` a dataclass as Python 3.11's ``_process_class`` does, for the shape this
    knows; False, with the class untouched, where the standard path must make it (another
    shape, or one it refuses with an error)."""
    dc = _dc
    missing, field_class, plain = dc.MISSING, dc.Field, dc._FIELD
    namespace = getattr(sys.modules.get(module), "__dict__", None)
    if namespace is None or not cls.__doc__ or not _plain_namespace(namespace):
        return False  # a class without a docstring gets one from inspect.signature

    fields: dict[str, Any] = {}
    dataclass_bases = frozen_base = False
    for base in cls.__mro__[-1:0:-1]:
        base_fields = getattr(base, "__dataclass_fields__", None)
        if base_fields is not None:
            dataclass_bases = True
            for f in base_fields.values():
                if f._field_type is not plain or f.kw_only:
                    return False
                fields[f.name] = f
            if base.__dataclass_params__.frozen:
                frozen_base = True
    if dataclass_bases and frozen_base != bool(frozen):
        return False

    own_dict = cls.__dict__
    annotations = own_dict.get("__annotations__", {})
    own = []
    for name, annotation in annotations.items():
        if type(annotation) is not str or name[:2] == "__":
            return False
        default = getattr(cls, name, missing)
        if isinstance(default, field_class):
            f = default
            if f.kw_only is not missing and f.kw_only:
                return False
        elif isinstance(default, _MEMBER):
            return False
        else:
            f = field_class(default, missing, True, True, None, True, None, missing)
        if f.default.__class__.__hash__ is None:
            return False  # a mutable default: dataclasses says why
        own.append((name, annotation, f))
    for name, value in own_dict.items():
        if isinstance(value, field_class) and name not in annotations:
            return False
    class_hash = own_dict.get("__hash__", missing)
    explicit_hash = not (class_hash is missing or (class_hash is None and "__eq__" in own_dict))
    hash_action = dc._hash_action[False, bool(eq), bool(frozen), explicit_hash]
    if hash_action not in (None, dc._hash_set_none, dc._hash_add):
        return False
    if frozen and ("__setattr__" in own_dict or "__delattr__" in own_dict):
        return False

    for name, annotation, f in own:  # what _get_field sets on each
        f.name, f.type, f._field_type = name, annotation, plain
        if f.kw_only is missing:
            f.kw_only = kw_only
        fields[name] = f
    field_list = list(fields.values())

    # what the text of each method depends on, and the order of defaults dataclasses checks
    facts = []
    seen_default = False
    for f in field_list:
        kind = 0 if f.default_factory is missing and f.default is missing else 1 if f.default_factory is missing else 2
        if f.init:
            if kind:
                seen_default = True
            elif seen_default and init:
                return False  # a field without a default after one with: dataclasses says why
        facts.append((f.name, True if f.init else False, kind, True if f.repr else False,
                      True if f.compare else False, True if (f.compare if f.hash is None else f.hash) else False))
    init_fields = tuple(f for f in field_list if f.init)
    has_post_init = hasattr(cls, "__post_init__") if init else False
    self_name = "__dataclass_self__" if "self" in fields else "self"
    steps: list[str] = []  # the builders _process_class calls, for methods it will set
    if init and "__init__" not in own_dict:
        steps.append("_init_fn")
    if repr and "__repr__" not in own_dict:
        steps.append("_repr_fn")
    if eq and "__eq__" not in own_dict:
        steps.append("_cmp_fn")
    if frozen:
        steps.append("_frozen_get_del_attr")
    if hash_action is dc._hash_add:
        steps.append("_hash_fn")
    names = tuple(method for name in steps for method in _METHODS[name])
    key = ("dataclass", names, self_name, True if frozen else False, has_post_init, tuple(facts))
    codes = _lookup(module, key)
    try:
        if type(codes) is tuple and tuple(getattr(code, "co_name", None) for code in codes) == names:
            made = _functions(codes, namespace, cls, fields, init_fields)
            if "__repr__" in names:
                at = names.index("__repr__")
                made[at] = dc._recursive_repr(made[at])
        else:  # the builders' arguments are needed only here
            facts_of_class = (cls, field_list, init_fields, frozen, has_post_init, self_name, namespace)
            made, new = _built([(name, _arguments(name, *facts_of_class)) for name in steps])
            _keep(module, key, tuple(new))
    except (KeyError, TypeError, ValueError):  # kept code that needs a local this does not know
        return False

    # the class, as _process_class leaves it, in the same order
    cls.__dataclass_params__ = dc._DataclassParams(init, repr, eq, order, unsafe_hash, frozen)
    for name, _, f in own:
        if isinstance(getattr(cls, name, None), field_class):
            if f.default is missing:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    cls.__dataclass_fields__ = fields
    qualname = cls.__qualname__
    for function in made:
        name = function.__name__
        function.__qualname__ = f"{qualname}.{name}"  # as dataclasses._set_qualname
        if name == "__hash__":
            cls.__hash__ = function
        else:
            setattr(cls, name, function)
    if hash_action is dc._hash_set_none:
        cls.__hash__ = None
    if match_args and "__match_args__" not in own_dict:
        cls.__match_args__ = tuple(f.name for f in init_fields)  # type: ignore[misc]
    dc.abc.update_abstractmethods(cls)
    return True


def process_class(cls: Any, init: Any, repr: Any, eq: Any, order: Any, unsafe_hash: Any,  # noqa: A002
                  frozen: Any, match_args: Any, kw_only: Any, slots: Any, weakref_slot: Any) -> Any:
    """``dataclasses._process_class``: bastion's plain classes by :func:`_make`, every other
    class by the standard path."""
    module = cls.__module__
    if (not (order or unsafe_hash or kw_only or slots or weakref_slot) and type(module) is str
            and (module == "bastion" or module.startswith("bastion."))
            and _make(cls, module, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only)):
        return cls
    return _standard(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots, weakref_slot)


def install(dataclasses: Any, lookup: Callable[[str, Any], Any], keep: Callable[[str, Any, Any], None]) -> None:
    """Put :func:`process_class` in front of ``dataclasses._process_class``, keeping code with
    ``lookup``/``keep`` (a no-op where ``dataclasses`` is not the one this mirrors)."""
    global _dc, _standard, _lookup, _keep, _MEMBER
    standard = getattr(dataclasses, "_process_class", None)
    if standard is None or standard is process_class or sys.version_info[:2] != (3, 11):
        return
    code = standard.__code__
    if (code.co_varnames[:code.co_argcount], code.co_names) != _PROCESS_CLASS_SHAPE:
        return
    for name, arguments in _BUILDERS.items():
        builder = getattr(dataclasses, name, None)
        if builder is None or builder.__code__.co_varnames[:builder.__code__.co_argcount] != arguments:
            return
    _LOCALS.update({"MISSING": dataclasses.MISSING, "_HAS_DEFAULT_FACTORY": dataclasses._HAS_DEFAULT_FACTORY,
                    "__dataclass_builtins_object__": object, "_return_type": None,
                    "FrozenInstanceError": dataclasses.FrozenInstanceError})
    _MEMBER = type(vars(dataclasses.Field)["name"])  # types.MemberDescriptorType, without importing types
    _dc, _standard, _lookup, _keep = dataclasses, standard, lookup, keep
    dataclasses._process_class = process_class
