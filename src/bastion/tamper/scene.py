"""What the records look at: the commands that would run — including those inside
interpreter code and ``bastion run`` — and the files the call changes."""

from __future__ import annotations

from ..model import Kind, ToolCall
from ..shell.syntax.lazyre import LazyPattern
from .commands import LAUNCHERS, PYTHON, base_name, bastion_args, command_name, verb_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ..core.context import Context

#: Nested code is read at most this deep (code that runs code that runs bastion).
MAX_DEPTH = 3

#: Every command name a record looks at without the text naming bastion (besides Python
#: interpreters): ``pkill -f '[b]astion'`` does not.
_COMMANDS = LAUNCHERS | {"pip", "pkill", "pgrep", "killall", "pidof"}

CHANGES = ("write", "delete")


class Scene:
    """What the records look at: every simple command that would run (including those
    inside interpreter code and ``bastion run``), and the files the call changes. Names
    and bastion invocations are worked out once, for all records."""

    def __init__(self, commands: Sequence[Any], path_uses: list[Any], home: str, workspace: Any, env: Any) -> None:
        self.commands = [cmd for cmd in commands if cmd.argv]
        #: ``(name, command)`` with the name's path and version dropped.
        self.named = [(command_name(cmd.argv[0]), cmd) for cmd in self.commands]
        self.path_uses = path_uses
        self.home = home
        self.workspace = workspace
        self.env = env
        self._invocations: list[tuple[Any, str, tuple[str, ...], tuple[str, ...]]] | None = None

    @property
    def invocations(self) -> list[tuple[Any, str, tuple[str, ...], tuple[str, ...]]]:
        """``(command, verb, options, after --)`` for every command that runs bastion."""
        if self._invocations is None:
            found = []
            for name, cmd in self.named:
                if name in LAUNCHERS or PYTHON.match(name):
                    args = bastion_args(cmd.argv)
                    parts = verb_of(args) if args is not None else None
                    if parts:
                        found.append((cmd, *parts))
            self._invocations = found
        return self._invocations


def _may_matter(commands: Sequence[Any], source: str, path_uses: list[Any]) -> bool:
    """Could any record fire? Most calls run no command a record looks at, never
    mention bastion and change no file: they end here."""
    lowered = source.lower()
    if "bastion" in lowered or "hookd" in lowered:
        return True
    for cmd in commands:
        if cmd.argv:
            name = command_name(cmd.argv[0])
            if name in _COMMANDS or PYTHON.match(name):
                return True
    return any(use.op in CHANGES for use in path_uses)

_ARGV_LIST = LazyPattern(
    r"(?:run|call|Popen|check_call|check_output|spawn\w*|exec\w*|execFile\w*)\s*\(\s*\[([^\]]*)\]"
)

_LITERAL = LazyPattern(r"""(['"])((?:\\.|(?!\1).)*)\1""")


def _code_strings(cmd: Any, source: str) -> list[str]:
    """Inline code an interpreter runs: ``-c``/``-e`` strings and here-documents."""
    from ..shell.catalog.catalog import INTERPRETERS, canonical_name

    name = canonical_name(command_name(cmd.argv[0]))
    options = INTERPRETERS.get(name)
    if options is None:
        return []
    codes = [cmd.argv[i + 1] for i, a in enumerate(cmd.argv[1:-1], start=1) if a in options]
    if any(r.op.startswith("<<") for r in cmd.redirects):
        from ..shell.meaning.inline import heredoc_bodies

        codes += heredoc_bodies(source, base_name(cmd.argv[0]))
    codes += [r.target for r in cmd.redirects if r.op == "<<<"]
    return codes


def _nested_commands(code: str) -> list[Any]:
    """Commands inside interpreter code: shell strings it hands to ``system()``-like calls
    and argv lists it runs (``subprocess.run(["bastion", "trust"])``)."""
    from ..shell.meaning.inline import code_intents
    from ..shell.syntax.parse import parse
    from ..shell.syntax.script import SimpleCommand

    found: list[Any] = []
    for text in code_intents(code).commands:
        found.extend(parse(text).commands)
    for match in _ARGV_LIST.finditer(code):
        items = [m.group(2) for m in _LITERAL.finditer(match.group(1))]
        if "sys.executable" in match.group(1):
            items.insert(0, "python")
        if items:
            found.append(SimpleCommand(tuple(items), origin="code"))
    return found


def inner_commands(cmd: Any) -> list[Any]:
    """The command ``bastion run``/``bastion mcp-proxy`` would start."""
    args = bastion_args(cmd.argv)
    parts = verb_of(args) if args is not None else None
    if not parts or parts[0] not in ("run", "mcp-proxy") or not parts[2]:
        return []
    from ..shell.syntax.parse import parse
    from ..shell.syntax.script import SimpleCommand

    tail = parts[2]
    return list(parse(tail[0]).commands) if len(tail) == 1 else [SimpleCommand(tail, origin="bastion run")]


def expand(commands: Sequence[Any], source: str, depth: int = 0) -> list[Any]:
    """``commands`` plus those inside interpreter code and ``bastion run`` — only read
    when the text mentions bastion at all, so ordinary commands cost one substring test."""
    out = list(commands)
    lowered = source.lower()
    if depth >= MAX_DEPTH or ("bastion" not in lowered and "hookd" not in lowered):
        return out
    for cmd in commands:
        if not cmd.argv:
            continue
        inner: list[Any] = inner_commands(cmd)
        for code in _code_strings(cmd, source):
            low = code.lower()
            if "bastion" in low or "hookd" in low:
                inner.extend(_nested_commands(code))
        if inner:
            text = " ".join(" ".join(c.argv) for c in inner)
            out.extend(expand(inner, text, depth + 1))
    return out


def scene_of(call: ToolCall, ctx: Context) -> Scene | None:
    """What the records look at for this call, or None when none of them can fire."""
    commands: Sequence[Any] = ()
    source = ""
    if call.kind is Kind.SHELL:
        parsed = ctx.parsed
        commands = parsed.commands if parsed is not None else ()
        source = call.command or ""
    uses = ctx.path_uses
    if not _may_matter(commands, source, uses):
        return None
    return Scene(expand(commands, source), uses, ctx.home, ctx.workspace, ctx.env)
