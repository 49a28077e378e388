"""Regular expressions compiled on first use.

bastion's hook is a short-lived process: a pattern that a given call never needs
should cost nothing. :class:`LazyPattern` takes the arguments of ``re.compile`` and
compiles once, the first time a method is used, through ``bastion.precompiled.pattern``
(which keeps the compiled form across processes, and builds a kept one without importing
``re``): only for patterns written in code, never for text built from a command or a setting.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

__all__ = ["LazyPattern"]


class LazyPattern:
    """``re.compile(pattern, flags)``, deferred until first use; kept for the module that
    wrote it."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags, sys._getframe(1).f_globals.get("__name__", ""))
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            from ...precompiled import pattern

            self._compiled = pattern(*self._args)
        return self._compiled

    # the common calls skip ``__getattr__`` (checks run them on every command)
    def search(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self.compiled).search(*args)

    def match(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self.compiled).match(*args)

    def fullmatch(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self.compiled).fullmatch(*args)

    def __getattr__(self, name: str) -> Any:  # finditer, sub …
        return getattr(self.compiled, name)
