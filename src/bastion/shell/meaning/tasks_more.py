"""What ``tox``, ``nox``, ``just`` and ``task`` will run, read from their files.

* ``tox``: the ``commands_pre``/``commands``/``commands_post`` of the environments run
  (``-e a,b``; every environment otherwise), from ``tox.ini``, ``setup.cfg``'s
  ``[tox:tox]``, ``pyproject.toml`` (``legacy_tox_ini`` or ``[tool.tox]``) or ``tox.toml``;
  ``{posargs}`` is what follows ``--``;
* ``nox``: ``noxfile.py`` (Python: importing it runs it, ``nox -l`` included);
* ``just``: the recipes named (the first one by default) and their dependencies, with
  ``{{name}}`` replaced by fixed variables and arguments; backtick assignments run
  whenever the justfile is read; a shebang recipe is its interpreter's code;
* ``task`` (go-task): only where a Taskfile exists (otherwise ``task`` is Taskwarrior):
  the ``cmds`` of the tasks named (``default`` otherwise) and of their ``deps``.
"""

from __future__ import annotations

import configparser
import posixpath

from ...precompiled import regex
from ..syntax.quoting import quote as shell_quote
from .facts import Ctx, Facts
from .tasks_files import Runs, absolute, cd_line, find_up, read_cached

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any

__all__ = ["READERS"]

#: Recipes or tasks followed from the ones named.
MAX_TASKS = 128


# --------------------------------------------------------------------------- tox

_TOX_NO_RUN = frozenset({"list", "l", "config", "c", "depends", "de", "quickstart", "q", "legacy", "le", "exec", "e"})
_TOX_NO_RUN_OPTS = frozenset({"-l", "-a", "--listenvs", "--listenvs-all", "--showconfig", "--help", "-h", "--version",
                              "--help-ini", "--hi", "--notest", "--no-test"})
_TOX_KEYS = ("commands_pre", "commands", "commands_post")
#: Settings that are command lines tox runs too (installing and listing packages).
_TOX_COMMANDS = ("install_command", "list_dependencies_command") + _TOX_KEYS


def _tox_ini(text: str, path: str) -> dict[str, dict[str, str]]:
    parser = configparser.RawConfigParser(strict=False)
    parser.read_string(text, path)
    return {name: dict(parser.items(name)) for name in parser.sections()}


def _tox_pyproject(text: str, path: str) -> dict[str, dict[str, str]] | None:
    import tomllib

    data = tomllib.loads(text).get("tool", {}).get("tox")
    if not isinstance(data, dict):
        return None
    legacy = data.get("legacy_tox_ini")
    if isinstance(legacy, str):
        return _tox_ini(legacy, path)
    return _tox_toml_sections(data)


def _tox_toml(text: str, path: str) -> dict[str, dict[str, str]]:
    import tomllib

    return _tox_toml_sections(tomllib.loads(text))


def _tox_toml_sections(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """tox's TOML form (``env_run_base``, ``env.NAME``) as ini-like sections of command lines."""

    def lines(table: Any) -> dict[str, str]:
        out: dict[str, str] = {}
        if not isinstance(table, dict):
            return out
        for key in _TOX_COMMANDS:
            commands = table.get(key)
            if isinstance(commands, list):
                out[key] = "\n".join(" ".join(str(w) for w in c) if isinstance(c, list) else str(c) for c in commands)
        return out

    sections = {"testenv": lines(data.get("env_run_base"))}
    envs = data.get("env")
    if isinstance(envs, dict):
        for name, table in envs.items():
            sections[f"testenv:{name}"] = lines(table)
    return sections


def _tox(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    if args[:1] and args[0] in _TOX_NO_RUN or any(a in _TOX_NO_RUN_OPTS for a in args):
        return []
    before, dashdash, posargs = _split_dashdash(args)
    config = envs = None
    for k, arg in enumerate(before):
        name, eq, value = arg.partition("=")
        if name in ("-c", "--conf", "--configfile", "-e", "--env"):
            value = value if eq else (before[k + 1] if k + 1 < len(before) else "")
            if name in ("-e", "--env"):
                envs = [e.strip() for e in value.split(",") if e.strip()]
            else:
                config = absolute(value, f.base, ctx)
    found = _tox_config(config, f.base)
    if found is None:
        return []
    path, sections = found
    folder = posixpath.dirname(path)
    if envs is None or "ALL" in envs:
        chosen = [s for s in sections if s == "testenv" or s.startswith("testenv:")]
    else:
        chosen = []
        for env in envs:
            own = f"testenv:{env}"
            chosen.append(own if own in sections and any(k in sections[own] for k in _TOX_KEYS) else "testenv")
    steps: list[str] = []
    for section in dict.fromkeys(chosen):
        values = sections.get(section, {})
        base = sections.get("testenv", {})
        for key in _TOX_COMMANDS:
            text = values.get(key, base.get(key, ""))
            for line in text.split("\n"):
                line = line.strip().lstrip("-!").strip()
                if line and not line.startswith("#"):
                    steps.append(_tox_substitute(line, folder, section.partition(":")[2] or "py", posargs, ctx))
    _ = dashdash
    return [("sh", cd_line(folder, ctx) + "\n".join(steps), path)] if steps else []


def _tox_config(config: str | None, base: str) -> tuple[str, dict[str, dict[str, str]]] | None:
    if config is not None and not config.endswith((".ini", ".cfg", ".toml")):
        base, config = config, None  # ``-c DIR``
    candidates = [config] if config else []
    if not candidates:
        found = find_up(base, ("tox.ini", "tox.toml", "pyproject.toml", "setup.cfg"))
        if found is None:
            return None
        folder = posixpath.dirname(found)
        candidates = [posixpath.join(folder, n) for n in ("tox.ini", "setup.cfg", "pyproject.toml", "tox.toml")]
    for path in candidates:
        name = posixpath.basename(path)
        if name.endswith(".toml"):
            sections = read_cached(path, _tox_pyproject if name == "pyproject.toml" else _tox_toml, "tox")
        else:
            sections = read_cached(path, _tox_ini, "tox-ini")
            if sections is not None and name == "setup.cfg":
                sections = {k.replace("tox:tox", "tox"): v for k, v in sections.items() if "tox" in k or "testenv" in k} or None
        if sections:
            return path, sections
    return None


#: tox's ``{key}`` / ``{key:default}`` substitutions.
_TOX_SUBSTITUTION = regex(r"\{([^{}\s]+)\}")


def _tox_substitute(line: str, folder: str, env: str, posargs: list[str], ctx: Ctx) -> str:
    given = " ".join(shell_quote(a) for a in posargs)
    work = posixpath.join(folder, ".tox")

    def one(match: re.Match[str]) -> str:
        key, _, default = match.group(1).partition(":")
        known = {"toxinidir": folder, "toxworkdir": work, "envdir": f"{work}/{env}", "envname": env,
                 "envpython": "python", "envbindir": f"{work}/{env}/bin", "envtmpdir": f"{work}/{env}/tmp",
                 "envlogdir": f"{work}/{env}/log", "homedir": ctx.home, "envsitepackagesdir": f"{work}/{env}/lib",
                 "temp_dir": f"{work}/.tmp", "tox_root": folder, "work_dir": work, "env_name": env,
                 "env_dir": f"{work}/{env}", "env_bin_dir": f"{work}/{env}/bin", "env_python": "python", "/": "/"}
        if key == "posargs":
            return given or default
        if key in ("packages", "opts"):
            return ""
        if key == "env":
            name, _, fallback = default.partition(":")
            return "${" + name + (":-" + fallback if fallback else "") + "}"
        return known.get(key, match.group(0))

    return _TOX_SUBSTITUTION.sub(one, line)


def _split_dashdash(args: tuple[str, ...]) -> tuple[tuple[str, ...], bool, list[str]]:
    if "--" in args:
        at = args.index("--")
        return args[:at], True, list(args[at + 1:])
    return args, False, []


# --------------------------------------------------------------------------- nox


def _nox(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    if any(a in ("--help", "-h", "--version") for a in args):
        return []
    path = "noxfile.py"
    for k, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if name in ("-f", "--noxfile"):
            path = value if eq else (args[k + 1] if k + 1 < len(args) else path)
    path = absolute(path, f.base, ctx)
    read = read_cached(path, _noxfile, "noxfile")
    if read is None:
        return []
    text, commands = read
    out: Runs = [("python", text, path)]
    if commands:
        out.append(("sh", cd_line(posixpath.dirname(path), ctx) + "\n".join(commands), path))
    return out


#: nox's session methods that run a command given as argv words.
_NOX_RUNS = frozenset({"run", "run_always", "run_install"})


def _noxfile(text: str, path: str) -> tuple[str, list[str]]:
    """The noxfile's text, and the commands its sessions run (``session.run('rm', '-rf',
    x)`` with every word a literal; an unknown word stays a shell variable)."""
    import ast

    commands: list[str] = []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return text, commands
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _NOX_RUNS and node.args:
            words = [shell_quote(a.value) if isinstance(a, ast.Constant) and isinstance(a.value, str) else "${NOX_ARG}"
                     for a in node.args if not isinstance(a, ast.Starred)]
            commands.append(" ".join(words))
    return text, commands


# --------------------------------------------------------------------------- just

_JUST_NO_RUN = frozenset({"-l", "--list", "--dump", "--summary", "--show", "-s", "--variables", "--groups", "--fmt", "--init",
                          "--help", "-h", "--version", "-V", "--completions", "--changelog", "--man", "--edit", "-e"})
_RECIPE = regex(r"^@?([A-Za-z_][\w-]*)((?:\s+[^:=]*?)?)\s*:(?![=:])\s*(.*)$")
_JUST_SET = regex(r"^set\s+([\w-]+)\s*:=\s*(.*)$")
_JUST_ASSIGN = regex(r"^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$")
#: A quoted word of a ``set shell`` list; a value that is one quoted string; a recipe's
#: dependency names.
_QUOTED_WORD = regex(r"""["']([^"']*)["']""")
_QUOTED_VALUE = regex(r"""(["'])(.*)\1""")
_DEPENDENCY = regex(r"\(?([A-Za-z_][\w-]*)")


class _Justfile:
    def __init__(self) -> None:
        self.recipes: dict[str, tuple[list[str], list[str], list[str]]] = {}  # name → (params, deps, body lines)
        self.first: str | None = None
        self.values: dict[str, str] = {}
        self.backticks: list[str] = []
        self.shell: str = "sh"


def _parse_justfile(text: str, path: str) -> _Justfile:
    out = _Justfile()
    lines = text.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#") or line[0] in " \t" or line.startswith("["):
            continue
        setting = _JUST_SET.match(line)
        if setting:
            if setting.group(1) == "shell":
                words = _QUOTED_WORD.findall(setting.group(2))
                if words:
                    out.shell = posixpath.basename(words[0])
            continue
        assign = _JUST_ASSIGN.match(line)
        if assign:
            value = assign.group(2).strip()
            literal = _QUOTED_VALUE.fullmatch(value)
            if literal:
                out.values[assign.group(1)] = literal.group(2)
            elif value.startswith("`") and value.endswith("`"):
                out.backticks.append(value.strip("`"))
                out.values[assign.group(1)] = "$(" + value.strip("`") + ")"
            continue
        recipe = _RECIPE.match(line)
        if not recipe:
            continue
        name = recipe.group(1)
        params = [p.lstrip("+*$").split("=", 1)[0] for p in recipe.group(2).split()]
        deps = _DEPENDENCY.findall(recipe.group(3).split("#", 1)[0])
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i][0] in " \t"):
            body.append(lines[i].strip())
            i += 1
        out.recipes[name] = (params, deps, body)
        if out.first is None:
            out.first = name
    return out


def _just(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    if any(a.partition("=")[0] in _JUST_NO_RUN for a in args):
        return []
    path = folder = None
    words: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        name, eq, value = arg.partition("=")
        if name in ("-f", "--justfile", "-d", "--working-directory"):
            if not eq:
                value = args[k + 1] if k + 1 < len(args) else ""
                k += 1
            if name in ("-f", "--justfile"):
                path = absolute(value, f.base, ctx)
            else:
                folder = absolute(value, f.base, ctx)
        elif name in ("--set",):
            k += 2
        elif not arg.startswith("-"):
            words.append(arg)
        k += 1
    if path is None:
        path = _find_justfile(f.base)
        if path is None:
            return []
    parsed = read_cached(path, _parse_justfile, "justfile")
    if parsed is None:
        return []
    folder = folder or posixpath.dirname(path)
    values = dict(parsed.values)
    for word in list(words):
        name, eq, value = word.partition("=")
        if eq and name in values:
            values[name] = value  # ``just name=value recipe`` overrides a variable
            words.remove(word)
    named: list[tuple[str, list[str]]] = []
    while words:
        head = words.pop(0)
        recipe = parsed.recipes.get(head)
        if recipe is None:
            break
        given = words[: len(recipe[0])]
        words = words[len(recipe[0]):]
        named.append((head, given))
    if not named and parsed.first:
        named = [(parsed.first, [])]
    language = parsed.shell if parsed.shell in ("python", "python3", "node") else "sh"
    out: Runs = []
    lines: list[str] = [f"$({b})" for b in parsed.backticks]
    seen: set[str] = set()
    todo = list(reversed(named))
    while todo and len(seen) < MAX_TASKS:
        name, given = todo.pop()
        if name in seen or name not in parsed.recipes:
            continue
        seen.add(name)
        params, deps, body = parsed.recipes[name]
        scope = {**values, **dict(zip(params, given, strict=False))}
        todo.extend((d, []) for d in reversed(deps))
        text = [_just_interpolate(line, scope) for line in body if line]
        if text and text[0].startswith("#!"):
            interpreter = _shebang_language(text[0])
            out.append((interpreter, "\n".join(text[1:]), path))
            continue
        lines.extend(line.lstrip("@-") for line in text)
    if lines:
        out.append((language, cd_line(folder, ctx) + "\n".join(lines) if language == "sh" else "\n".join(lines), path))
    return out


def _find_justfile(base: str) -> str | None:
    import os

    here = base
    for _ in range(32):
        try:
            names = os.listdir(here)
        except OSError:
            names = []
        for name in names:
            if name.lower() in ("justfile", ".justfile"):
                return posixpath.join(here, name)
        if here == "/":
            return None
        here = posixpath.dirname(here)
    return None


#: just's ``{{expr}}``; what a made-up variable name cannot hold.
_JUST_INTERPOLATION = regex(r"\{\{(.*?)\}\}")
_NOT_WORD = regex(r"\W")


def _just_interpolate(line: str, scope: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        expr = match.group(1).strip()
        return scope.get(expr, "${JUST_" + _NOT_WORD.sub("_", expr)[:40] + "}")

    return _JUST_INTERPOLATION.sub(one, line)


_VERSION_SUFFIX = regex(r"[\d.]+$")  # python3.12 -> python


def _shebang_language(line: str) -> str:
    from .models import MODELS

    words = line[2:].split()
    if words and posixpath.basename(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    name = posixpath.basename(words[0]) if words else "sh"
    name = _VERSION_SUFFIX.sub("", name) or name
    if name in ("sh", "bash", "dash", "zsh", "ksh"):
        return "sh"
    return name if name in MODELS else "sh"


# --------------------------------------------------------------------------- task (go-task)

_TASKFILES = ("Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml",
              "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml")


def _parse_taskfile(text: str, path: str) -> dict[str, Any]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    return data if isinstance(data, dict) else {}


def _task(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    if any(a in ("-l", "--list", "-a", "--list-all", "--help", "-h", "--version", "--init", "-i", "--summary", "-n",
                 "--dry") for a in args):
        return []
    path = folder = None
    names: list[str] = []
    before, _dashdash, cli_args = _split_dashdash(args)
    k = 0
    while k < len(before):
        arg = before[k]
        name, eq, value = arg.partition("=")
        if name in ("-t", "--taskfile", "-d", "--dir"):
            if not eq:
                value = before[k + 1] if k + 1 < len(before) else ""
                k += 1
            if name in ("-t", "--taskfile"):
                path = absolute(value, f.base, ctx)
            else:
                folder = absolute(value, f.base, ctx)
        elif not arg.startswith("-") and not eq:
            names.append(arg)
        k += 1
    if path is None:
        path = find_up(folder or f.base, _TASKFILES)
        if path is None:
            return []  # no Taskfile: ``task`` is Taskwarrior here
    data = read_cached(path, _parse_taskfile, "taskfile")
    if not data:
        return []
    tasks = data.get("tasks") if isinstance(data.get("tasks"), dict) else {}
    home = posixpath.dirname(path)
    steps: list[str] = []
    variables = _task_vars(data.get("vars"), steps, home, ctx)
    variables["CLI_ARGS"] = " ".join(shell_quote(a) for a in cli_args)
    seen: set[str] = set()
    todo = list(reversed(names or ["default"]))
    while todo and len(seen) < MAX_TASKS:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        spec = tasks.get(name)
        if isinstance(spec, (str, list)):
            spec = {"cmds": spec if isinstance(spec, list) else [spec]}
        if not isinstance(spec, dict):
            continue
        where = absolute(str(spec["dir"]), home, ctx) if isinstance(spec.get("dir"), str) else home
        variables = {**variables, **_task_vars(spec.get("vars"), steps, where, ctx)}
        for dep in reversed(spec.get("deps") or []):
            dep_name = dep.get("task") if isinstance(dep, dict) else dep
            if isinstance(dep_name, str):
                todo.append(dep_name)
        for cmd in spec.get("cmds") or []:
            if isinstance(cmd, dict):
                if isinstance(cmd.get("task"), str):
                    todo.insert(0, cmd["task"])
                cmd = cmd.get("cmd")
            if isinstance(cmd, str) and cmd.strip():
                steps.append(cd_line(where, ctx) + _task_template(cmd, variables))
    return [("sh", "\n".join(steps), path)] if steps else []


def _task_vars(table: Any, steps: list[str], where: str, ctx: Ctx) -> dict[str, str]:
    """Fixed values of a ``vars:`` table; a dynamic one (``sh: CMD``) runs ``CMD`` when
    the Taskfile is read, and its value is that command's output."""
    out: dict[str, str] = {}
    if not isinstance(table, dict):
        return out
    for name, value in table.items():
        if isinstance(value, (str, int, float)):
            out[str(name)] = str(value)
        elif isinstance(value, dict) and isinstance(value.get("sh"), str):
            steps.append(cd_line(where, ctx) + value["sh"])
            out[str(name)] = "$(" + value["sh"] + ")"
    return out


_TASK_TEMPLATE = regex(r"\{\{\s*\.([A-Za-z_]\w*)\s*\}\}")  # Task's ``{{.NAME}}``


def _task_template(text: str, variables: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        return variables.get(name, "${" + name + "}")

    return _TASK_TEMPLATE.sub(one, text)


READERS: dict[str, Callable[[Facts, tuple[str, ...], Ctx], Runs]] = {
    "tox": _tox,
    "nox": _nox,
    "just": _just,
    "task": _task,
}
