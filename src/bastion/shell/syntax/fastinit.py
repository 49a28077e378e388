"""Building frozen dataclasses without ``object.__setattr__`` per field.

A frozen dataclass sets each field through ``object.__setattr__``, which costs more than
the rest of handling a simple command. The shell analyser builds a few such records on
every call (each simple command, the script, the analysis context), so it builds them
from a ready dictionary instead.
"""

from __future__ import annotations

import dataclasses

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = ["fast_factory"]


def fast_factory(cls: type[T], given: tuple[str, ...]) -> Callable[[dict[str, Any]], T]:
    """A constructor for ``cls`` taking a fresh dict that holds every field in ``given``.

    Works for a plain (non-slots) dataclass without ``__post_init__``: the dict becomes
    the instance's state, with every other field's default filled in (so fields added
    later keep working). Any other class gets its normal constructor.
    """
    if hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        return lambda values: cls(**values)
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in given:
            continue
        if f.default is not dataclasses.MISSING:
            defaults[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            factories[f.name] = f.default_factory
        else:  # a required field the caller does not pass: use the real constructor
            return lambda values: cls(**values)
    new = object.__new__
    set_state = object.__setattr__

    def make(values: dict[str, Any]) -> T:
        # ``values`` is a fresh dict holding every given field: it becomes the state
        for name, value in defaults.items():
            values.setdefault(name, value)
        for name, factory in factories.items():
            values.setdefault(name, factory())
        obj = new(cls)
        set_state(obj, "__dict__", values)
        return obj

    return make
