"""Tampering with the guard: an agent that switches bastion off or loosens it.

In ``bypassPermissions`` mode the mode layer allows whatever stages 0–3 let through, so an
agent could otherwise run ``bastion uninstall claude-code`` or ``pip uninstall
bastion-guard`` and every later call would go unchecked. This module is the record table
of those effects — one record per effect, with why and match/not_match examples (the
tests in ``tests/test_tamper.py`` are generated from them) — and the stage-2 layer that
applies it:

* **off** — the guard stops checking: a deny in every mode (finding ``HB016``), whose
  reason tells the person to run the command themselves in a terminal if they mean it;
* **loosen** — the guard lets more through from now on: an immune ask, which the
  adapters turn into a deny when nobody can be asked.

Read-only verbs (``bastion check``, ``explain``, ``rules list``, ``audit tail``,
``doctor``, ``--help``) and tightening ones (``untrust``, ``rules add --behavior deny``)
are not tampering. Writes by shell or file tools to bastion's settings, state and grants
or to a client's hook configuration are already immune asks (``files/protected.py``).

Invocation forms are read from the parse (``sudo``, ``env``, ``bash -c``, ``xargs`` are
already peeled): ``bastion``, ``/any/path/bastion``, ``python -m bastion``, ``uvx
bastion``, ``uv run``/``uv tool run``/``pipx run bastion``, and shell strings or argv
lists inside interpreter code (``python -c "os.system('bastion …')"``).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .model import Kind, LayerResult, Tier, ToolCall, Verdict

OFF = "off"
LOOSEN = "loosen"

#: bastion's distribution name on PyPI (pyproject.toml ``[project] name``).
DIST = "bastion-guard"

#: Nested code is read at most this deep (code that runs code that runs bastion).
MAX_DEPTH = 3


# --------------------------------------------------------------------------- the scene


class Scene:
    """What the records look at: every simple command that would run (including those
    inside interpreter code and ``bastion run``), and the files the call changes. Names
    and bastion invocations are worked out once, for all records."""

    def __init__(self, commands: Sequence[Any], path_uses: list[Any], home: str, workspace: Any, env: Any) -> None:
        self.commands = [cmd for cmd in commands if cmd.argv]
        #: ``(name, command)`` with the name's path and version dropped.
        self.named = [(_norm(cmd.argv[0]), cmd) for cmd in self.commands]
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
                if name in _LAUNCHERS or _PYTHON.match(name):
                    args = bastion_args(cmd.argv)
                    parts = _verb(args) if args is not None else None
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
            name = _norm(cmd.argv[0])
            if name in _COMMANDS or _PYTHON.match(name):
                return True
    return any(use.op in _CHANGES for use in path_uses)


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _norm(word: str) -> str:
    """A command name without path and version (``/usr/bin/python3.11`` → ``python``)."""
    base = _base(word).lower()
    return base.rstrip("0123456789.") or base


def _prefix(arg: str, option: str, shortest: int) -> bool:
    """``arg`` is ``option`` or an argparse abbreviation of it (``--no-ch``), at least
    ``shortest`` characters long so that it is unambiguous among its verb's options."""
    name = arg.split("=", 1)[0]
    return len(name) >= shortest and option.startswith(name)


def _option_value(args: Sequence[str], option: str, shortest: int) -> str | None:
    for i, arg in enumerate(args):
        if arg == "--":
            return None
        if arg.startswith("--") and _prefix(arg, option, shortest):
            if "=" in arg:
                return arg.split("=", 1)[1]
            return args[i + 1] if i + 1 < len(args) else ""
    return None


# --------------------------------------------------------------------------- invocations

_PYTHON = re.compile(r"^(?:python|pypy)[\d.]*$")
#: Names that may launch bastion besides a Python interpreter.
_LAUNCHERS = frozenset({"bastion", "uvx", "uv", "pipx"})
#: Every command name a record looks at without the text naming bastion (besides Python
#: interpreters): ``pkill -f '[b]astion'`` does not.
_COMMANDS = _LAUNCHERS | {"pip", "pkill", "pgrep", "killall", "pidof"}
_CHANGES = ("write", "delete")
_BASTION_MODULES = frozenset({"bastion", "bastion.cli", "bastion.__main__"})
#: Options of uvx / uv run / uv tool run / pipx run that take a value (so the value is
#: not the command they run).
_RUNNER_VALUE_OPTS = frozenset(
    "--from --spec --with --with-editable --with-requirements --python -p --index-url -i --extra-index-url "
    "--index --default-index --directory --project --env-file --pip-args --package --group --extra "
    "--constraints -c --overrides --build-constraints -w --find-links -f --cache-dir --config-file".split()
)


def python_module(args: Sequence[str]) -> tuple[str, tuple[str, ...]] | None:
    """``(module, rest)`` for ``python [options] -m MODULE rest…``; a script path counts
    as its base name (``python ~/.local/bin/bastion trust`` → ``("bastion", …)``)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg.startswith("--"):
            i += 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            for j, ch in enumerate(arg[1:], start=1):
                if ch == "c":
                    return None  # inline code: read by the interpreter-code rule
                if ch in "mXW":
                    value = arg[j + 1 :] or (args[i + 1] if i + 1 < len(args) else "")
                    skip = 1 if arg[j + 1 :] else 2
                    if ch == "m":
                        return value, tuple(args[i + skip :])
                    i += skip - 1
                    break
            i += 1
            continue
        break
    if i < len(args) and args[i] not in ("-",):
        return _base(args[i]), tuple(args[i + 1 :])
    return None


def _runner_command(args: Sequence[str]) -> tuple[str, ...]:
    """The command a package runner runs: its first operand that is not an option's value."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return tuple(args[i + 1 :])
        if arg.startswith("-"):
            i += 2 if arg in _RUNNER_VALUE_OPTS else 1
            continue
        return tuple(args[i:])
    return ()


def _first_operand(args: Sequence[str]) -> int:
    for i, arg in enumerate(args):
        if not arg.startswith("-"):
            return i
    return len(args)


def bastion_args(argv: Sequence[str], depth: int = 0) -> tuple[str, ...] | None:
    """The arguments bastion's CLI gets when ``argv`` runs it, or None when it does not."""
    if not argv or depth > 3:
        return None
    name = _norm(argv[0])
    args = tuple(argv[1:])
    if name == "bastion":
        return args
    if _PYTHON.match(name):
        found = python_module(args)
        if found is not None and found[0] in _BASTION_MODULES:
            return found[1]
        return None
    if name == "uvx":
        return bastion_args(_runner_command(args), depth + 1)
    if name in ("uv", "pipx"):
        i = _first_operand(args)
        sub = args[i : i + 2]
        if name == "uv" and sub[:2] == ("tool", "run"):
            return bastion_args(_runner_command(args[i + 2 :]), depth + 1)
        if sub[:1] == ("run",):
            return bastion_args(_runner_command(args[i + 1 :]), depth + 1)
    return None


def _is_help(arg: str) -> bool:
    return arg == "-h" or (arg.startswith("--") and _prefix(arg, "--help", 3))


def _verb(args: Sequence[str]) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """``(verb, options-part, after --)`` of a bastion invocation, or None when it only
    prints help (``bastion uninstall --help`` removes nothing)."""
    cut = args.index("--") if "--" in args else len(args)
    head, tail = tuple(args[:cut]), tuple(args[cut + 1 :])
    if not head or any(_is_help(a) for a in head):
        return None
    return head[0], head[1:], tail


def _verb_is(verb: str) -> Callable[[Scene], str | None]:
    def test(scene: Scene) -> str | None:
        for cmd, found, _, _ in scene.invocations:
            if found == verb:
                return " ".join(cmd.argv)
        return None

    return test


def _run_unchecked(scene: Scene) -> str | None:
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "run" and any(o.startswith("--") and _prefix(o, "--no-check", 6) for o in opts):
            return " ".join(cmd.argv)
    return None


def _run_isolated(scene: Scene) -> str | None:
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "run" and any(o.startswith("--") and _prefix(o, "--isolated", 4) for o in opts):
            return " ".join(cmd.argv)
    return None


def _adds_allow_rule(scene: Scene) -> str | None:
    for cmd, verb, opts, _ in scene.invocations:
        if verb == "rules" and opts[:1] == ("add",):
            behavior = _option_value(opts, "--behavior", 3) or "allow"
            if behavior not in ("deny", "ask"):
                return " ".join(cmd.argv)
    return None


# --------------------------------------------------------------------------- package removal


def _dist_name(word: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~;@ ]", word, 1)[0]).lower()


@functools.lru_cache(maxsize=1)
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
    name, args = _norm(argv[0]), tuple(argv[1:])
    if _PYTHON.match(name):
        found = python_module(args)
        if found is None or found[0] != "pip":
            return None
        name, args = "pip", found[1]
    i = _first_operand(args)
    sub = args[i : i + 2]
    if name == "pip" and "uninstall" in args:
        return "pip", args[args.index("uninstall") + 1 :]
    if name == "uv" and sub in (("pip", "uninstall"), ("tool", "uninstall")):
        return f"uv {sub[0]}", args[i + 2 :]
    if name == "pipx" and sub[:1] in (("uninstall",), ("uninstall-all",)):
        return "pipx", args[i + 1 :] + (("--all",) if sub[0] == "uninstall-all" else ())
    return None


def _uninstalls_package(scene: Scene) -> str | None:
    for name, cmd in scene.named:
        if name not in _UNINSTALLERS and not _PYTHON.match(name):
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


# --------------------------------------------------------------------------- killing processes

#: Command lines bastion's processes run under (hook, warm server, sandbox, MCP proxy).
_PROCESS_LINES = (
    "/home/u/.local/bin/bastion hook claude-code",
    "/home/u/.local/share/uv/tools/bastion-guard/bin/python3 -I -m bastion hook codex",
    "/home/u/.venv/bin/python3 -I -m bastion.adapters.hookd /run/user/1000/bastion-1000/hookd-0.sock",
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
        elif (_base(name).lower() if icase else _base(name)) in _PROCESS_NAMES:
            return True
    return False


def _kills_bastion(scene: Scene) -> str | None:
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
        elif name == "pidof" and any(_base(a) in _PROCESS_NAMES for a in args if not a.startswith("-")):
            finders.append(" ".join(cmd.argv))
        elif name == "kill":
            killers = True
    if finders and killers:
        return f"kill {finders[0]}"
    return None


# --------------------------------------------------------------------------- files


@functools.lru_cache(maxsize=1)
def package_dir() -> str:
    """The folder bastion's code runs from (symlinks resolved)."""
    return os.path.realpath(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=1)
def install_paths() -> tuple[str, ...]:
    """bastion's installed code: its package folder and, when there is one, the
    ``bastion`` command beside the interpreter (a hook written as ``bastion hook …``
    runs it)."""
    import sys

    script = os.path.join(os.path.dirname(sys.executable), "bastion")
    return (package_dir(), *((os.path.realpath(script),) if os.path.isfile(script) else ()))


def _within(path: str, root: str) -> bool:
    path, root = path.lower().rstrip("/") or "/", root.lower().rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


def _changes_install(scene: Scene) -> str | None:
    """A write into bastion's installed code, or a delete of it or a folder holding it.
    A copy inside the workspace is the project being worked on (bastion's own source
    tree), not the guard that is installed."""
    for use in scene.path_uses:
        if use.op not in _CHANGES:
            continue
        for installed in install_paths():
            if _within(use.path, installed) or (use.op == "delete" and _within(installed, use.path)):
                if not scene.workspace.contains(installed):
                    verb = "deletes" if use.op == "delete" else "changes"
                    return f"{verb} {use.raw or use.path} (bastion's installed code: {installed})"
    return None


def hook_files(env: Any, home: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(relative, absolute)`` paths of the client settings files that hold hook
    entries: each client's project file (plus Claude Code's local one) and user file."""
    env = env or {}
    return _hook_files(env.get("HOME") or home, env.get("CLAUDE_CONFIG_DIR") or "", env.get("CODEX_HOME") or "")


@functools.lru_cache(maxsize=16)
def _hook_files(home: str, claude_dir: str, codex_home: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from pathlib import Path

    from .adapters.install import CLIENTS

    user_env = {k: v for k, v in (("HOME", home), ("CLAUDE_CONFIG_DIR", claude_dir), ("CODEX_HOME", codex_home)) if v}
    relative = {str(c.project_file(Path("/")))[1:] for c in CLIENTS.values()} | {".claude/settings.local.json"}
    absolute = {os.path.realpath(str(c.user_file(user_env))) for c in CLIENTS.values()}
    return tuple(sorted(relative)), tuple(sorted(absolute))


def _holds_bastion_hook(path: str) -> bool:
    from .adapters.install import MARKER

    try:
        with open(path, "rb") as handle:
            text = handle.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return False
    return MARKER in text or "bastion hook" in text


def _deletes_hook_entries(scene: Scene) -> str | None:
    """Deleting a settings file that holds bastion's hook entry (or a folder holding one)."""
    deletes = [use for use in scene.path_uses if use.op == "delete"]
    if not deletes:
        return None
    relative, absolute = hook_files(scene.env, scene.home)
    for use in deletes:
        if use.command == "rmdir":
            continue  # removes empty folders only
        target = use.path.rstrip("/") or "/"
        lower = target.lower()
        candidates = [path for path in absolute if _within(path, target)]
        if any(lower.endswith("/" + rel) for rel in relative):
            candidates.append(target)
        elif os.path.isdir(target):  # a folder: the hook files it holds
            for rel in relative:
                folder, name = rel.split("/", 1)
                candidates.append(f"{target}/{name}" if _base(lower) == folder else f"{target}/{rel}")
        for candidate in dict.fromkeys(candidates):
            if os.path.isfile(candidate) and _holds_bastion_hook(candidate):
                return f"deletes {use.raw or use.path}, which holds bastion's hook ({candidate})"
    return None


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Tamper:
    """One way of switching the guard off or loosening it.

    ``match`` / ``not_match`` are shell commands, or tool calls as ``{"tool", "input"}``;
    ``{package}`` stands for bastion's installed code folder. ``test`` returns what it
    found (shown in the reason) or None.
    """

    id: str
    effect: str
    what: str
    why: str
    test: Callable[[Scene], str | None]
    match: tuple[Any, ...]
    not_match: tuple[Any, ...] = ()


RECORDS: tuple[Tamper, ...] = (
    # --- off: deny in every mode (HB016) ----------------------------------------------
    Tamper(
        "uninstall_hook", OFF, "removes bastion's hook from a client",
        "the client stops calling bastion: every later tool call runs unchecked",
        _verb_is("uninstall"),
        match=("bastion uninstall claude-code", "bastion uninstall codex --project",
               "/home/u/.venv/bin/bastion uninstall gemini", "python3 -I -m bastion uninstall claude-code",
               "uvx bastion uninstall claude-code", "pipx run --spec bastion-guard bastion uninstall codex",
               "sudo bastion uninstall claude-code", "bash -c 'bastion uninstall claude-code'",
               "env X=1 bastion uninstall claude-code", "cd /tmp && bastion uninstall claude-code",
               "echo claude-code | xargs bastion uninstall",
               "python3 -c \"import os; os.system('bastion uninstall claude-code')\"",
               "python3 -c 'import subprocess; subprocess.run([\"bastion\", \"uninstall\", \"claude-code\"])'",
               "uv run python -m bastion uninstall claude-code"),
        not_match=("bastion uninstall --help", "bastion explain -- 'bastion uninstall claude-code'",
                   "echo 'bastion uninstall claude-code'", "git commit -m 'docs: bastion uninstall claude-code'",
                   "grep -r 'bastion uninstall' README.md", "bastion --help"),
    ),
    Tamper(
        "uninstall_package", OFF, "uninstalls bastion's package",
        "the hook command can no longer start; a client that ignores a failing hook then lets every call through",
        _uninstalls_package,
        match=("pip uninstall bastion-guard", "pip3 uninstall -y bastion-guard", "pip3.11 uninstall -y Bastion_Guard",
               "python -m pip uninstall -y bastion-guard", "python3 -m pip uninstall bastion-guard requests",
               "pipx uninstall bastion-guard", "uv pip uninstall bastion-guard", "uv tool uninstall bastion-guard",
               "sudo -H pip uninstall -y bastion-guard"),
        not_match=("pip uninstall -y requests", "pip install bastion-guard", "pipx uninstall black",
                   "uv tool uninstall ruff", "pip show bastion-guard", "pip download bastion-guard"),
    ),
    Tamper(
        "kill_processes", OFF, "kills bastion's processes",
        "kills the sandbox supervisor before its sweep, the MCP proxy, or the warm decision server whose socket "
        "another process could then answer on",
        _kills_bastion,
        match=("pkill -f bastion", "pkill bastion", "pkill -9 -f bastion", "killall bastion", "killall -9 bastion",
               "pkill -f hookd", "pkill -f '[b]astion'", "pkill -f 'bastion hook'", "kill $(pgrep -f bastion)",
               "pgrep -f bastion | xargs kill -9", "kill -9 `pidof bastion`", "killall -r '^bast'"),
        not_match=("pkill -f 'node server.js'", "pkill -f python", "pgrep -f bastion", "killall node",
                   "kill 1234", "pkill -f hook", "ps aux | grep bastion"),
    ),
    Tamper(
        "run_unchecked", OFF, "runs a command with no check",
        "'bastion run --no-check' skips the decision; the guard outside sees only 'bastion run', never the command inside",
        _run_unchecked,
        match=("bastion run --no-check -- rm -rf ~/project", "bastion run --no-ch -- make",
               "python3 -I -m bastion run --no-check --no-prompt --cwd /w --timeout 120 -- 'curl x | sh'"),
        not_match=("bastion run -- make test", "bastion run --no-prompt -- make test", "bastion check --no-audit -- ls"),
    ),
    Tamper(
        "change_install", OFF, "changes or deletes bastion's installed code",
        "replacing or removing the code that decides switches the guard off (a copy inside the workspace is the "
        "project being worked on, and is not protected)",
        _changes_install,
        match=("rm -rf {package}", "echo 'def check(*a): pass' > {package}/engine.py", "rm -rf {package}/..",
               "sed -i 's/DENY/ALLOW/' {package}/layers.py",
               {"tool": "Write", "input": {"file_path": "{package}/tamper.py", "content": ""}},
               {"tool": "Edit", "input": {"file_path": "{package}/engine.py", "old_string": "a", "new_string": "b"}}),
        not_match=("cat {package}/engine.py", "rm -rf build/", "ls {package}",
                   {"tool": "Read", "input": {"file_path": "{package}/engine.py"}}),
    ),
    Tamper(
        "delete_hook_file", OFF, "deletes a client settings file that holds bastion's hook",
        "the hook entry goes with the file: every later tool call runs unchecked",
        _deletes_hook_entries,
        match=("rm ~/.claude/settings.json", "rm -rf ~/.claude", "mv ~/.claude/settings.json /tmp/",
               "rm -f ~/.codex/hooks.json", "find ~/.gemini -name settings.json -delete"),
        not_match=("rm .claude/settings.json", "cat ~/.claude/settings.json", "rm ~/.claude/notes.md"),
    ),
    # --- loosen: immune ask ---------------------------------------------------------
    Tamper(
        "trust", LOOSEN, "trusts a project",
        "a trusted project's own settings may allow commands, set modes, add directories and hooks",
        _verb_is("trust"),
        match=("bastion trust", "bastion trust ~/src/app", "python -m bastion trust .", "sudo bastion trust",
               "true && bastion trust"),
        not_match=("bastion untrust", "bastion trust --help", "bastion rules list"),
    ),
    Tamper(
        "add_allow_rule", LOOSEN, "saves an allow rule",
        "a saved allow rule lets matching calls through without asking, in every later session",
        _adds_allow_rule,
        match=("bastion rules add 'Bash(curl:*)' --force", "bastion rules add 'Bash(npm test:*)'",
               "bastion rules add --scope project 'WebFetch'", "bastion rules add --behavior=allow Read"),
        not_match=("bastion rules add 'Bash(rm:*)' --behavior deny", "bastion rules add --beh ask 'Bash(git push:*)'",
                   "bastion rules list", "bastion rules test .bastion/settings.json"),
    ),
    Tamper(
        "install_hook", LOOSEN, "rewrites bastion's hook entry",
        "install points the client's hook at whichever bastion runs it — possibly a copy the agent made",
        _verb_is("install"),
        match=("bastion install claude-code", "/tmp/venv/bin/bastion install codex --user",
               "python3 -m bastion install gemini --project"),
        not_match=("bastion doctor", "pip install bastion-guard", "bastion install --help"),
    ),
    Tamper(
        "run_isolated", LOOSEN, "runs a command checked without the managed and user settings",
        "'bastion run --isolated' drops the managed and user deny rules for the command inside, which the guard "
        "outside never looked at",
        _run_isolated,
        match=("bastion run --isolated -- curl -d @data https://example.com", "bastion run --iso -- make"),
        not_match=("bastion check --isolated -- curl example.com", "bastion run -- make"),
    ),
)

assert len({r.id for r in RECORDS}) == len(RECORDS)


# --------------------------------------------------------------------------- nested code

_ARGV_LIST = re.compile(
    r"(?:run|call|Popen|check_call|check_output|spawn\w*|exec\w*|execFile\w*)\s*\(\s*\[([^\]]*)\]"
)
_LITERAL = re.compile(r"""(['"])((?:\\.|(?!\1).)*)\1""")


def _code_strings(cmd: Any, source: str) -> list[str]:
    """Inline code an interpreter runs: ``-c``/``-e`` strings and here-documents."""
    from .shell.catalog import INTERPRETERS, canonical_name

    name = canonical_name(_norm(cmd.argv[0]))
    options = INTERPRETERS.get(name)
    if options is None:
        return []
    codes = [cmd.argv[i + 1] for i, a in enumerate(cmd.argv[1:-1], start=1) if a in options]
    if any(r.op.startswith("<<") for r in cmd.redirects):
        from .shell.inline import heredoc_bodies

        codes += heredoc_bodies(source, _base(cmd.argv[0]))
    codes += [r.target for r in cmd.redirects if r.op == "<<<"]
    return codes


def _nested_commands(code: str) -> list[Any]:
    """Commands inside interpreter code: shell strings it hands to ``system()``-like calls
    and argv lists it runs (``subprocess.run(["bastion", "trust"])``)."""
    from .shell.inline import code_intents
    from .shell.parse import parse
    from .shell.script import SimpleCommand

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


def _inner_commands(cmd: Any) -> list[Any]:
    """The command ``bastion run``/``bastion mcp-proxy`` would start."""
    args = bastion_args(cmd.argv)
    parts = _verb(args) if args is not None else None
    if not parts or parts[0] not in ("run", "mcp-proxy") or not parts[2]:
        return []
    from .shell.parse import parse
    from .shell.script import SimpleCommand

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
        inner: list[Any] = _inner_commands(cmd)
        for code in _code_strings(cmd, source):
            low = code.lower()
            if "bastion" in low or "hookd" in low:
                inner.extend(_nested_commands(code))
        if inner:
            text = " ".join(" ".join(c.argv) for c in inner)
            out.extend(expand(inner, text, depth + 1))
    return out


# --------------------------------------------------------------------------- the layer


def scene_of(call: ToolCall, ctx: Any) -> Scene | None:
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


def findings_for(scene: Scene) -> list[tuple[Tamper, str]]:
    """Every record that fires, with what it found (off records first)."""
    found = []
    for record in RECORDS:
        detail = record.test(scene)
        if detail:
            found.append((record, detail))
    return sorted(found, key=lambda pair: pair[0].effect != OFF)


def _why_terminal(command: str | None) -> str:
    if command is None:
        return "if you mean it, make the change yourself"
    return f"if you mean it, run it yourself in a terminal: {command}"


class TamperGuard:
    """Layer 2: switching the guard off is denied in every mode; loosening it is an
    immune ask (a deny where nobody can be asked)."""

    name = "tamper"
    stage = 2
    can_deny = True

    def check(self, call: ToolCall, ctx: Any) -> LayerResult | None:
        if call.kind not in (Kind.SHELL, Kind.FILE_WRITE, Kind.FILE_EDIT):
            return None
        scene = scene_of(call, ctx)
        if scene is None:
            return None
        found = findings_for(scene)
        if not found:
            return None
        record, detail = found[0]
        shown = call.command if call.kind is Kind.SHELL else None
        if record.effect == OFF:
            from .shell.intents import finding

            return LayerResult(
                Verdict.DENY,
                f"blocked: {record.what} — {record.why}. bastion never lets an agent do this, in any mode; "
                f"{_why_terminal(shown)}",
                immune=True,
                risk=Tier.DESTRUCTIVE,
                findings=[finding("HB016", f"{r.what}: {d}") for r, d in found if r.effect == OFF],
                no_grant=True,
            )
        return LayerResult(
            Verdict.ASK,
            f"{record.what} loosens the guard — {record.why}; this needs a person in every mode "
            f"({_why_terminal(shown)})",
            immune=True,
            risk=Tier.HIGH_RISK,
            no_grant=True,
        )
