"""bastion's own verbs that switch it off or loosen it, and uninstalling its package."""

from __future__ import annotations

from ..shell.syntax.lazyre import LazyPattern
from ..std_lite import lru_cache
from .commands import PYTHON, command_name, first_operand, is_abbreviation, option_value, python_module
from .scene import Scene

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


def verb_is(verb: str) -> Callable[[Scene], str | None]:
    """A record test: some command runs ``bastion VERB`` (help alone does not count)."""

    def test(scene: Scene) -> str | None:
        for cmd, found, _, _ in scene.invocations:
            if found == verb:
                return " ".join(cmd.argv)
        return None

    return test


def trusts_mcp_tools(scene: Scene) -> str | None:
    """``bastion mcp trust SERVER``: accepts tool descriptions an MCP server changed."""
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "mcp" and opts[:1] == ("trust",):
            return " ".join(cmd.argv)
    return None


def runs_unchecked(scene: Scene) -> str | None:
    """``bastion run --no-check`` (or an abbreviation argparse accepts, ``--no-ch``)."""
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "run" and any(o.startswith("--") and is_abbreviation(o, "--no-check", 6) for o in opts):
            return " ".join(cmd.argv)
    return None


def runs_isolated(scene: Scene) -> str | None:
    """``bastion run --isolated``: the inner check without managed and user settings."""
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "run" and any(o.startswith("--") and is_abbreviation(o, "--isolated", 4) for o in opts):
            return " ".join(cmd.argv)
    return None


def adds_allow_rule(scene: Scene) -> str | None:
    """``bastion rules add`` saving an allow rule (allow is the default behaviour)."""
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "rules" and opts[:1] == ("add",):
            behavior = option_value(opts, "--behavior", 3) or "allow"
            if behavior not in ("deny", "ask"):
                return " ".join(cmd.argv)
    return None

#: bastion's distribution name on PyPI (pyproject.toml ``[project] name``).
DIST = "bastion-guard"


#: A requirement's name ends at its extras, version, marker or URL; its separators
#: are one (PEP 503 normalisation). Only an uninstall needs them.
_REQUIREMENT_END = LazyPattern(r"[\[<>=!~;@ ]")
_SEPARATORS = LazyPattern(r"[-_.]+")


def _dist_name(word: str) -> str:
    return _SEPARATORS.sub("-", _REQUIREMENT_END.split(word, maxsplit=1)[0]).lower()


@lru_cache(maxsize=1)
def _installed_by() -> str:
    """``pipx`` or ``uv tool`` when this very guard was installed by one of them."""
    import sys

    prefix = sys.prefix.replace("\\", "/").lower()
    if "/pipx/venvs/" in prefix:
        return "pipx"
    if "/uv/tools/" in prefix:
        return "uv tool"
    return ""

_UNINSTALLERS = frozenset({"pip", "uv", "pipx"})


def _uninstall_operands(argv: Sequence[str]) -> tuple[str, tuple[str, ...]] | None:
    """``(tool, operands)`` when ``argv`` uninstalls Python packages."""
    name, args = command_name(argv[0]), tuple(argv[1:])
    if PYTHON.match(name):
        found = python_module(args)
        if found is None or found[0] != "pip":
            return None
        name, args = "pip", found[1]
    i = first_operand(args)
    sub = args[i : i + 2]
    if name == "pip" and "uninstall" in args:
        return "pip", args[args.index("uninstall") + 1 :]
    if name == "uv" and sub in (("pip", "uninstall"), ("tool", "uninstall")):
        return f"uv {sub[0]}", args[i + 2 :]
    if name == "pipx" and sub[:1] in (("uninstall",), ("uninstall-all",)):
        return "pipx", args[i + 1 :] + (("--all",) if sub[0] == "uninstall-all" else ())
    return None


def uninstalls_package(scene: Scene) -> str | None:
    for name, cmd in scene.named:
        if name not in _UNINSTALLERS and not PYTHON.match(name):
            continue
        found = _uninstall_operands(cmd.argv)
        if found is None:
            continue
        tool, operands = found
        if any(not o.startswith("-") and _dist_name(o) == DIST for o in operands):
            return " ".join(cmd.argv)
        if "--all" in operands and tool in ("pipx", "uv tool") and _installed_by() == tool:
            return f"{' '.join(cmd.argv)} (bastion was installed with {tool})"
    return None
