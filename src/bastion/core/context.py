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
    from typing import Any, Protocol, TypeVar

    from ..files.workspace import Workspace
    from ..policy.settings import Policy
    from ..shell.meaning.analyse import Analysis
    from ..shell.syntax.script import Script, SimpleCommand, TooComplex

    T = TypeVar("T")
else:
    Protocol = object  # a protocol is for type checkers: at runtime its class is a plain one


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
    # Each fact reads the memo itself rather than through ``once``: layers ask for the
    # parse and the analysis some forty times a call, and the lambda and the extra call
    # were a large part of answering from the memo.

    @property
    def workspace(self) -> Workspace:
        """The project folders the agent works in (settings, ``--add-dir``)."""
        memo = self._memo
        if "workspace" in memo:
            return memo["workspace"]  # type: ignore[no-any-return]
        value = memo["workspace"] = self._facts.workspace(self)
        return value

    @property
    def path_uses(self) -> list[PathUse]:
        """Files the call reads or writes, resolved through symlinks."""
        memo = self._memo
        if "path_uses" in memo:
            return memo["path_uses"]  # type: ignore[no-any-return]
        value = memo["path_uses"] = self._facts.path_uses(self)
        return value

    def resolve(self, raw: str, *, cwd: str | None = None) -> str:
        """A path as the call means it: absolute, ``~`` expanded, symlinks resolved."""
        return self._facts.resolve(self, raw, cwd or self.call.cwd)

    def paths_of(self, cmd: SimpleCommand) -> list[PathUse]:
        """The files one shell sub-command touches, resolved (for per-command checks
        such as "an allow rule covers this command only if it writes inside")."""
        return self.once(f"paths_of:{id(cmd)}", lambda: self._facts.paths_of(self, cmd))

    @property
    def command(self) -> str | None:
        """The shell command the call runs: a shell tool's, or the one an MCP tool's
        arguments carry (``mcp__shell__run {"command": …}``); None otherwise."""
        memo = self._memo
        if "command" in memo:
            return memo["command"]  # type: ignore[no-any-return]
        value = memo["command"] = self._facts.command(self)
        return value

    @property
    def parsed(self) -> Script | TooComplex | None:
        """The shell parse (Script or TooComplex), or None for calls without a command."""
        memo = self._memo
        if "parsed" in memo:
            return memo["parsed"]  # type: ignore[no-any-return]
        value = memo["parsed"] = self._facts.parsed(self)
        return value

    @property
    def analysis(self) -> Analysis | None:
        """The shell analysis (catalog, intents, paths, hard blocks), or None."""
        memo = self._memo
        if "analysis" in memo:
            return memo["analysis"]  # type: ignore[no-any-return]
        value = memo["analysis"] = self._facts.analysis(self)
        return value

    @property
    def session_grants(self) -> frozenset[str]:
        """What a person allowed for this session (``Bash(npm test)`` keys)."""
        return self.once("grants", lambda: self._facts.session_grants(self))
