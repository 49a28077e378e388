"""Killing bastion's processes: ``pkill``/``killall`` patterns, and ``kill`` fed by
``pgrep``/``pidof``. A pattern counts when it picks bastion's processes specifically."""

from __future__ import annotations

from .commands import base_name
from .scene import Scene

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

#: Command lines bastion's processes run under (hook, warm server, sandbox, MCP proxy).
_PROCESS_LINES = (
    "/home/u/.local/bin/bastion hook claude-code",
    "/home/u/.local/share/uv/tools/bastion-guard/bin/python3 -I -m bastion hook codex",
    "/home/u/.venv/bin/python3 -I -c from bastion.hook.client import cli; cli() bastion hook gemini",
    "/home/u/.venv/bin/python3 -I -m bastion.hook.server /run/user/1000/bastion-1000/hookd-0.sock",
    "/home/u/.venv/bin/python3 -I -m bastion run --no-check --no-prompt --cwd /w -- make test",
    "/usr/bin/python3 /home/u/.local/bin/bastion mcp-proxy -- server",
)

#: Process names (what ``pkill NAME`` and ``killall NAME`` compare with).
_PROCESS_NAMES = ("bastion",)


def _neutral(text: str) -> str:
    return text.replace("bastion", "xyzzy").replace("hookd", "xyzzd")


def _targets_bastion(pattern: str, *, full: bool, exact: bool, icase: bool) -> bool:
    """Does a pkill/pgrep pattern pick bastion's processes *specifically*? It must match
    one of them and none of the same lines with bastion's names swapped out (so
    ``pkill -f python`` is an ordinary kill, ``pkill -f '[b]astion'`` is not)."""
    import re2

    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not icase
    try:
        regex = re2.compile(f"^(?:{pattern})$" if exact else pattern, options)
    except Exception:  # noqa: BLE001 - a pattern RE2 cannot read: judge its text
        return "bastion" in pattern.lower() or "hookd" in pattern.lower()
    subjects = _PROCESS_LINES if full else _PROCESS_NAMES
    return any(regex.search(s) for s in subjects) and not any(regex.search(_neutral(s)) for s in subjects)

#: pkill/pgrep options that take a value.
_PGREP_VALUES = frozenset("d g G P s t u U F q r".split())

_PGREP_LONG_VALUES = frozenset(
    "--delimiter --pgroup --group --parent --session --terminal --euid --uid --pidfile --signal "
    "--older --ns --nslist --cgroup --env --runstates --queue".split()
)


def _pgrep_pattern(args: Sequence[str]) -> tuple[str, bool, bool, bool] | None:
    """``(pattern, full, exact, icase)`` of a pkill/pgrep command line."""
    full = exact = icase = False
    pattern: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            pattern = args[i + 1] if i + 1 < len(args) else pattern
            break
        if arg.startswith("--"):
            name = arg.split("=", 1)[0]
            full |= name == "--full"
            exact |= name == "--exact"
            icase |= name == "--ignore-case"
            i += 2 if name in _PGREP_LONG_VALUES and "=" not in arg else 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            if arg[1:].isdigit() or arg[1:].isupper():
                i += 1  # a signal: -9, -KILL, -SIGTERM
                continue
            skip = 1
            for j, ch in enumerate(arg[1:], start=1):
                full |= ch == "f"
                exact |= ch == "x"
                icase |= ch == "i"
                if ch in _PGREP_VALUES:
                    skip = 1 if arg[j + 1 :] else 2
                    break
            i += skip
            continue
        pattern = arg
        break
    return (pattern, full, exact, icase) if pattern is not None else None


def _killall_targets(args: Sequence[str]) -> bool:
    regex = icase = False
    names: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-s", "--signal", "-u", "--user", "-o", "--older-than", "-y", "--younger-than", "-n", "--ns", "-Z", "--context"):
            i += 2
            continue
        if arg.startswith("--"):
            regex |= arg == "--regexp"
            icase |= arg == "--ignore-case"
        elif arg.startswith("-") and len(arg) > 1:
            if not (arg[1:].isdigit() or arg[1:].isupper()):
                regex |= "r" in arg
                icase |= "I" in arg
        else:
            names.append(arg)
        i += 1
    for name in names:
        if regex:
            if _targets_bastion(name, full=False, exact=False, icase=icase):
                return True
        elif (base_name(name).lower() if icase else base_name(name)) in _PROCESS_NAMES:
            return True
    return False


def kills_bastion(scene: Scene) -> str | None:
    finders: list[str] = []
    killers = False
    for name, cmd in scene.named:
        args = cmd.argv[1:]
        if name in ("pkill", "pgrep"):
            found = _pgrep_pattern(args)
            if found and _targets_bastion(found[0], full=found[1], exact=found[2], icase=found[3]):
                if name == "pkill":
                    return " ".join(cmd.argv)
                finders.append(" ".join(cmd.argv))
        elif name == "killall" and _killall_targets(args):
            return " ".join(cmd.argv)
        elif name == "pidof" and any(base_name(a) in _PROCESS_NAMES for a in args if not a.startswith("-")):
            finders.append(" ".join(cmd.argv))
        elif name == "kill":
            killers = True
    if finders and killers:
        return f"kill {finders[0]}"
    return None
