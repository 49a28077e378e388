"""What every layer shares about one call: the ``Layer`` protocol, the ``Context`` and
the ``Facts`` protocol its facts come from.

The core knows no tool. The shell parse and analysis, the files a call touches, the
workspace and the session's grants are *facts* supplied by per-kind providers
(``shell.provider``, ``files.provider``, ``mcp_args``, ``policy.grants``), which
``bastion.providers`` composes into one ``Facts`` for the engine. The Context computes
each fact once, on first use (so a call a deny rule settles never pays for the shell
analysis), and offers the same memo to layers for their own derived facts
(``ctx.once(key, fn)``).

This module imports only ``bastion.model``; the types of the facts are named under
``TYPE_CHECKING`` so layers can be typed without an import cycle.
"""

from __future__ import annotations

from _collections_abc import Callable  # collections.abc's classes, loaded with os

from ..model import LayerResult, Mode, ToolCall
from ..precompiled import dataclass  # dataclasses' own, with their code compiled once

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Generic, Protocol, TypeVar, overload

    from ..files.workspace import Workspace
    from ..policy.settings import Policy
    from ..shell.meaning.analyse import Analysis
    from ..shell.syntax.script import Script, SimpleCommand, TooComplex

    T = TypeVar("T")
else:
    # typing's parts are for type checkers; at runtime these plain stand-ins do (a fresh
    # decision does not import typing)
    Protocol = object  # a protocol's class is a plain one
    T = object

    class Generic:
        def __class_getitem__(cls, item: object) -> type:
            return cls


@dataclass
class PathUse:
    """One file the call touches: ``op`` is read, write, delete or exec; ``path`` is the
    resolved real path, ``raw`` the path as the call wrote it."""

    op: str
    path: str
    raw: str
    command: str = ""


class Layer(Protocol):
    """What the engine needs from a layer: a ``name`` and ``check``. Optional
    attributes: ``stage`` (DESIGN.md's 0–7), ``can_deny`` (False lets the engine skip it
    while an immune ask is held; default True) and ``timeout`` (seconds; the layer then
    runs under a watchdog — layers added with ``insert_layer`` always do). The engine
    reads ``name``, ``can_deny`` and ``timeout`` once, when the layer joins its list."""

    name: str

    def check(self, call: ToolCall, ctx: Context) -> LayerResult | None: ...


#: The stage-7 reviewer: ``(call, ctx, pending review) -> its result``.
Reviewer = Callable[[ToolCall, "Context", LayerResult], LayerResult]


class Facts(Protocol):
    """Where a Context's facts come from: one method per fact, each given the Context
    (its call, settings, home and the other facts). ``bastion.providers.ToolFacts``
    composes the per-kind providers; a test or library user may plug in another."""

    def workspace(self, ctx: Context) -> Workspace: ...

    def command(self, ctx: Context) -> str | None: ...

    def parsed(self, ctx: Context) -> Script | TooComplex | None: ...

    def analysis(self, ctx: Context) -> Analysis | None: ...

    def path_uses(self, ctx: Context) -> list[PathUse]: ...

    def paths_of(self, ctx: Context, cmd: SimpleCommand) -> list[PathUse]: ...

    def resolve(self, ctx: Context, raw: str, cwd: str) -> str: ...

    def session_grants(self, ctx: Context) -> frozenset[str]: ...


class _Fact(Generic[T]):
    """A fact of the call (``Context.analysis`` …): on first read it asks the Facts
    provider's method of the same name and keeps the value in the Context's memo and
    in its ``__dict__``. A non-data descriptor, so every later read finds the kept
    value before it finds this one. A provider that raises keeps nothing: the next
    read asks again (the layer that needed it has failed closed)."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    if TYPE_CHECKING:
        @overload
        def __get__(self, ctx: None, owner: type) -> _Fact[T]: ...

        @overload
        def __get__(self, ctx: Context, owner: type) -> T: ...

    def __get__(self, ctx: Context | None, owner: type) -> T | _Fact[T]:
        if ctx is None:
            return self
        name = self.name
        memo = ctx._memo
        value: T = memo[name] if name in memo else getattr(ctx._facts, name)(ctx)
        memo[name] = ctx.__dict__[name] = value
        return value


class Context:
    """What layers share about one call: settings, mode, workspace, and lazily computed
    facts (the shell parse and analysis, the files touched, the session's grants)."""

    def __init__(
        self,
        call: ToolCall,
        policy: Policy,
        *,
        mode: Mode,
        home: str,
        env: Mapping[str, str],
        facts: Facts,
        runs_sandboxed: bool = False,
        add_dirs: tuple[str, ...] = (),
    ) -> None:
        self.call = call
        self.policy = policy
        self.mode = mode
        self.home = home
        self.env = env
        #: The caller runs approved shell commands in bastion's sandbox.
        self.runs_sandboxed = runs_sandboxed
        #: Extra workspace directories (``--add-dir``), absolute.
        self.add_dirs = add_dirs
        self._facts = facts
        self._memo: dict[str, Any] = {}

    # -- the memo -----------------------------------------------------------------

    def once(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for in this call, the same
        value after (a fact, or a layer's own derived one such as the path verdicts)."""
        memo = self._memo
        if key not in memo:
            memo[key] = compute()
        return memo[key]  # type: ignore[no-any-return]

    def known(self, key: str) -> Any:
        """The value of ``key`` if it was computed already, else None: for the engine's
        post-steps, which must not pay for a fact no layer needed."""
        return self._memo.get(key)

    # -- facts --------------------------------------------------------------------
    # Each fact is a :class:`_Fact`: computed on first read, then kept both in the memo
    # (for ``known``) and as the Context's own attribute, so that the forty-odd later
    # reads a call makes run no Python code at all.

    workspace: _Fact[Workspace] = _Fact("The project folders the agent works in (settings, ``--add-dir``).")
    path_uses: _Fact[list[PathUse]] = _Fact("Files the call reads or writes, resolved through symlinks.")
    command: _Fact[str | None] = _Fact(
        "The shell command the call runs: a shell tool's, or the one an MCP tool's arguments carry "
        "(``mcp__shell__run {\"command\": …}``); None otherwise.")
    parsed: _Fact[Script | TooComplex | None] = _Fact(
        "The shell parse (Script or TooComplex), or None for calls without a command.")
    analysis: _Fact[Analysis | None] = _Fact("The shell analysis (catalog, intents, paths, hard blocks), or None.")

    def resolve(self, raw: str, *, cwd: str | None = None) -> str:
        """A path as the call means it: absolute, ``~`` expanded, symlinks resolved."""
        return self._facts.resolve(self, raw, cwd or self.call.cwd)

    def paths_of(self, cmd: SimpleCommand) -> list[PathUse]:
        """The files one shell sub-command touches, resolved (for per-command checks
        such as "an allow rule covers this command only if it writes inside")."""
        return self.once(f"paths_of:{id(cmd)}", lambda: self._facts.paths_of(self, cmd))

    @property
    def session_grants(self) -> frozenset[str]:
        """What a person allowed for this session (``Bash(npm test)`` keys)."""
        return self.once("grants", lambda: self._facts.session_grants(self))
