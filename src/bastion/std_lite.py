"""The standard library's small helpers bastion's cold path needs, without their modules' import cost.

A hook that decides in its own process pays for every module it imports. ``functools``
brings ``collections`` (with ``keyword``, ``operator``, ``reprlib``) and ``types``;
``contextlib`` brings ``functools``; ``importlib`` brings ``warnings``: some three
milliseconds, for a cache decorator, ``partial``, ``cached_property``, ``suppress`` and
``import_module``. The machinery behind each is built into the interpreter
(``_functools``, ``_thread``, ``_frozen_importlib``), so this module puts the same small
Python around it that the standard library does, copied from Python 3.11:

* :func:`lru_cache` and :func:`cache` make the very wrapper ``functools`` makes (the C
  ``_lru_cache_wrapper``, with the attributes ``functools.update_wrapper`` sets, and
  ``cache_parameters``); ``cache_info()`` returns ``functools``' own ``CacheInfo``,
  importing ``functools`` on that (rare) call;
* :data:`partial` *is* ``functools.partial`` (``functools`` re-exports ``_functools``'s);
* :class:`cached_property` is ``functools.cached_property``'s code;
* :class:`suppress` is ``contextlib.suppress``'s code;
* :func:`import_module` is ``importlib.import_module``'s code, over the import system's
  own ``_gcd_import``.

``tests/test_std_lite.py`` holds each against the standard library's. Type checkers see
the standard library's own (the names are imported from there under ``TYPE_CHECKING``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from contextlib import suppress
    from functools import (
        WRAPPER_ASSIGNMENTS,
        WRAPPER_UPDATES,
        cache,
        cached_property,
        lru_cache,
        partial,
        update_wrapper,
    )
    from importlib import import_module
else:
    from _frozen_importlib import _gcd_import
    from _functools import _lru_cache_wrapper, partial
    from _thread import RLock

    #: What ``functools.update_wrapper`` copies from the function to its wrapper, and the
    #: attributes of the wrapper it updates from the function's.
    WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__", "__annotations__")
    WRAPPER_UPDATES = ("__dict__",)

    def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
        """``functools.update_wrapper`` of Python 3.11, step for step."""
        for attr in assigned:
            try:
                value = getattr(wrapped, attr)
            except AttributeError:
                pass
            else:
                setattr(wrapper, attr, value)
        for attr in updated:
            getattr(wrapper, attr).update(getattr(wrapped, attr, {}))
        wrapper.__wrapped__ = wrapped  # last, so that it is not copied from the wrapped function's __dict__
        return wrapper

    def _cache_info(hits, misses, maxsize, currsize):
        """``functools``' ``CacheInfo(hits, misses, maxsize, currsize)``: the C wrapper calls
        this for ``cache_info()``, which nothing on a decision's path asks for."""
        from functools import _CacheInfo

        return _CacheInfo(hits, misses, maxsize, currsize)

    def lru_cache(maxsize=128, typed=False):
        """``functools.lru_cache``: a least-recently-used cache of ``maxsize`` calls (no
        bound for ``None``), with ``cache_info()``, ``cache_clear()`` and ``__wrapped__``."""
        if isinstance(maxsize, int):
            if maxsize < 0:  # a negative maxsize is 0
                maxsize = 0
        elif callable(maxsize) and isinstance(typed, bool):  # @lru_cache without arguments
            user_function, maxsize = maxsize, 128
            wrapper = _lru_cache_wrapper(user_function, maxsize, typed, _cache_info)
            wrapper.cache_parameters = lambda: {"maxsize": maxsize, "typed": typed}
            return update_wrapper(wrapper, user_function)
        elif maxsize is not None:
            raise TypeError("Expected first argument to be an integer, a callable, or None")

        def decorating_function(user_function):
            wrapper = _lru_cache_wrapper(user_function, maxsize, typed, _cache_info)
            wrapper.cache_parameters = lambda: {"maxsize": maxsize, "typed": typed}
            return update_wrapper(wrapper, user_function)

        return decorating_function

    def cache(user_function, /):
        """``functools.cache``: an unbounded cache of the function's calls."""
        return lru_cache(maxsize=None)(user_function)

    _NOT_FOUND = object()

    class cached_property:  # the standard library's name, lower-case
        """``functools.cached_property``: the method's value, worked out on the first read
        and kept in the instance's ``__dict__`` (a class with ``__slots__`` has none)."""

        def __init__(self, func):
            self.func = func
            self.attrname = None
            self.__doc__ = func.__doc__
            self.lock = RLock()

        def __set_name__(self, owner, name):
            if self.attrname is None:
                self.attrname = name
            elif name != self.attrname:
                raise TypeError("Cannot assign the same cached_property to two different names "
                                f"({self.attrname!r} and {name!r}).")

        def __get__(self, instance, owner=None):
            if instance is None:
                return self
            if self.attrname is None:
                raise TypeError("Cannot use cached_property instance without calling __set_name__ on it.")
            try:
                cache = instance.__dict__
            except AttributeError:  # not all objects have __dict__ (e.g. class defines slots)
                msg = (f"No '__dict__' attribute on {type(instance).__name__!r} "
                       f"instance to cache {self.attrname!r} property.")
                raise TypeError(msg) from None
            val = cache.get(self.attrname, _NOT_FOUND)
            if val is _NOT_FOUND:
                with self.lock:
                    # check if another thread filled cache while we awaited lock
                    val = cache.get(self.attrname, _NOT_FOUND)
                    if val is _NOT_FOUND:
                        val = self.func(instance)
                        try:
                            cache[self.attrname] = val
                        except TypeError:
                            msg = (f"The '__dict__' attribute on {type(instance).__name__!r} instance "
                                   f"does not support item assignment for caching {self.attrname!r} property.")
                            raise TypeError(msg) from None
            return val

        __class_getitem__ = classmethod(type(list[int]))  # types.GenericAlias

    class suppress:  # the standard library's name, lower-case
        """``contextlib.suppress``: the block's exceptions of the given types end the block
        quietly; execution goes on after the ``with`` statement."""

        def __init__(self, *exceptions):
            self._exceptions = exceptions

        def __enter__(self):
            pass

        def __exit__(self, exctype, excinst, exctb):
            return exctype is not None and issubclass(exctype, self._exceptions)

    def import_module(name, package=None):
        """``importlib.import_module``: the module ``name`` names, imported if need be (a
        relative name, with leading dots, is read from ``package``)."""
        level = 0
        if name.startswith("."):
            if not package:
                msg = "the 'package' argument is required to perform a relative import for {!r}"
                raise TypeError(msg.format(name))
            for character in name:
                if character != ".":
                    break
                level += 1
        return _gcd_import(name[level:], package, level)


__all__ = ["WRAPPER_ASSIGNMENTS", "WRAPPER_UPDATES", "cache", "cached_property", "import_module", "lru_cache", "partial",
           "suppress", "update_wrapper"]
