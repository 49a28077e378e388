"""The commands a text becomes once written to a file that runs later.

A systemd unit runs its ``Exec*=`` lines, a crontab line runs what follows its schedule
(and, in ``/etc/crontab`` and ``/etc/cron.d``, its user field); a CI or hook file runs
the shell of its steps; a program file (``setup.py``, ``vite.config.ts``, a hook with a
``#!/usr/bin/env node`` line) runs as that language's code; anything else runs as
shell. The shell analysis (text echoed into such a file), the patch check and the file
layer (``files.runs_later``) all read planted text through this one module.

:func:`planted_programs` gives the pieces as ``(language, text)``: ``"sh"`` for shell,
else an interpreter the code models read (``models.MODELS``). :func:`as_commands` gives
them as one shell text, a program piece being the command line that runs it
(``python3 -c '…'``, ``node -e '…'``), so the shell analysis judges planted code exactly
as it judges the same code typed.

Which file is which format is read from its name; which files run later at all is the
path table's (``paths.table``), not this module's. The readers are written for whole
files and for the fragments an Edit or an appended line plants (a bare ``- curl … | sh``
list item, a ``"postCreateCommand": …`` pair): they read approximately, erring towards
reading a value as a command.
"""

from __future__ import annotations

from ...precompiled import IGNORECASE, MULTILINE
from ..syntax.lazyre import LazyPattern
from ..syntax.quoting import join as shell_join, quote as shell_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

#: ``ExecStart=…`` and friends in a systemd unit: the command each one runs.
UNIT_EXEC = LazyPattern(r"^\s*Exec[A-Za-z]*\s*=\s*[-@:+!]*(.*)$", MULTILINE)
#: A crontab line's schedule (five fields, or ``@reboot`` and friends).
CRON_FIELDS = LazyPattern(r"^\s*(?:@\w+|(?:[\d*/,\-]+\s+){5})\s*")

Piece = tuple[str, str]

#: YAML keys whose values are shell: GitHub Actions and lefthook ``run``, GitLab,
#: Bitbucket and Azure ``script``/``before_script``/``after_script``, CircleCI
#: ``command``, Azure ``bash``, pre-commit ``entry``.
YAML_RUN_KEYS = frozenset({"run", "script", "before_script", "after_script", "command", "bash", "sh", "entry",
                           "pre_script", "post_script"})
#: How a program is run, written as the command line the shell analysis reads.
_RUN_AS = {"python": "python3 -c", "node": "node -e", "perl": "perl -e", "ruby": "ruby -e"}
#: Interpreters a ``#!`` line may name, by the language their code is read as.
_SHEBANG = (("python", "python"), ("node", "node"), ("nodejs", "node"), ("bun", "node"), ("deno", "node"),
            ("perl", "perl"), ("ruby", "ruby"))
_JSON_COMMAND = LazyPattern(r'"(\w*command)"\s*:\s*', IGNORECASE)
_JSON_ARGS = LazyPattern(r'\s*,\s*"args"\s*:\s*')
_GROOVY_SH = LazyPattern(r"\bsh\s*\(?\s*(?:script\s*:\s*)?('''|\"\"\"|'|\")")
#: A YAML list item's dash; a backslash escape inside a Groovy string.
_YAML_LIST_ITEM = LazyPattern(r"^\s*-\s+")
_GROOVY_ESCAPE = LazyPattern(r"\\([\\'\"$])")
_NIX_HOOK = LazyPattern(r"\bshellHook\s*=\s*(''|\")")
_JS_CONFIG = LazyPattern(r"^(?:jest|vitest|vite|vitest\.workspace)\.config\.[cm]?[jt]s$|^vitest\.workspace\.[cm]?[jt]s$")
#: Tiltfile built-ins that run a command on this machine, and where the command is:
#: ``(positional index or None, keywords)``.
_TILT_RUNS = {"local": (0, ("command",)), "local_resource": (1, ("cmd", "serve_cmd")),
              "cmd_button": (None, ("argv",)), "custom_build": (1, ("command",))}


def as_commands(text: str, path: str) -> str:
    """The commands ``text`` becomes once written to ``path``, as one shell text (see
    the module): a program piece is the command line that runs it."""
    return "\n".join(run_line(language, body) for language, body in planted_programs(text, path) if body.strip())


def run_line(language: str, text: str) -> str:
    """The shell that runs ``text`` as ``language``: shell as it is, a program as
    ``python3 -c '…'``, ``node -e '…'`` …"""
    return text if language == "sh" else f"{_RUN_AS.get(language, language + ' -e')} {shell_quote(text)}"


def planted_programs(text: str, path: str) -> list[Piece]:
    """What ``text`` runs once written to ``path``, as ``(language, text)`` pieces."""
    lower = path.lower()
    name = lower.rpartition("/")[2]
    if name.endswith((".service", ".timer", ".socket", ".path")) or "/systemd/" in lower:
        return [("sh", "\n".join(m.group(1) for m in UNIT_EXEC.finditer(text)))]
    if "cron" in lower:
        return [("sh", _cron(text, path.startswith(("/etc/crontab", "/etc/cron.d/"))))]
    reader = _reader(lower, name)
    if reader is not None:
        try:
            return reader(text)
        except (ValueError, RecursionError):  # an approximate reader failed: read the text as shell
            return [("sh", text)]
    language = _shebang(text)
    if language != "sh":  # the model reads the program, not the line that names its interpreter
        text = text.partition("\n")[2]
    return [(language, text)]


def _reader(lower: str, name: str) -> Callable[[str], list[Piece]] | None:
    if name.endswith((".yml", ".yaml")):
        return _yaml
    if name.endswith(".json"):
        return _json_commands
    if name == "jenkinsfile" or name.endswith(".jenkinsfile"):
        return _groovy
    if name.endswith(".nix"):
        return _nix
    if name == "tiltfile":
        return _tilt
    if _JS_CONFIG.match(name):
        return lambda text: [("node", text)]
    if name.endswith(".py"):
        return lambda text: [("python", text)]
    if name.endswith(".pth"):
        return _pth
    return None


def _pth(text: str) -> list[Piece]:
    """A .pth file: Python runs its lines that start with ``import`` (the others are
    folders added to the import path)."""
    return [("python", "\n".join(line for line in text.splitlines() if line.startswith(("import ", "import\t"))))]


def _cron(text: str, system: bool) -> str:
    lines = []
    for line in text.splitlines():
        stripped = CRON_FIELDS.sub("", line, count=1)
        if stripped != line and system:
            stripped = stripped.split(None, 1)[1] if len(stripped.split(None, 1)) > 1 else ""
        lines.append(stripped)
    return "\n".join(lines)


def _shebang(text: str) -> str:
    """The language a ``#!`` line names; shell without one (the shell runs the file)."""
    if not text.startswith("#!"):
        return "sh"
    words = text[2:].split("\n", 1)[0].split()
    if words and words[0].endswith("/env"):
        words = [w for w in words[1:] if not w.startswith("-")]
    program = words[0].rpartition("/")[2] if words else ""
    return next((language for prefix, language in _SHEBANG if program.startswith(prefix)), "sh")


# --------------------------------------------------------------------------- YAML (CI, hooks)


def _yaml(text: str) -> list[Piece]:
    """The shell of a CI or hook file's steps: every string under a run key. A fragment
    that is not a mapping (an Edit's ``- curl … | sh`` item, a line inside a block
    scalar) is read as shell; text PyYAML refuses (GitLab's ``!reference`` tags, a
    broken fragment) is read line by line (:func:`_yaml_lines`)."""
    import yaml

    try:
        docs = list(yaml.load_all(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except yaml.YAMLError:
        return [("sh", _yaml_lines(text))]
    out: list[str] = []
    for doc in docs:
        if isinstance(doc, (dict, list)):
            _walk(doc, not isinstance(doc, dict), out)
        elif doc is not None:
            return [("sh", text)]  # a bare scalar: lines of a block scalar, read as written
    return [("sh", "\n".join(out))]


def _walk(node: Any, runs: bool, out: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            _walk(value, str(key).lower() in YAML_RUN_KEYS, out)
        args = node.get("args")
        if isinstance(node.get("entry"), str) and isinstance(args, list):  # pre-commit: entry plus its args
            out.append(f"{node['entry']} {shell_join(str(a) for a in args)}")
    elif isinstance(node, list):
        for item in node:
            _walk(item, runs, out)
    elif runs and isinstance(node, str):
        out.append(node)


_YAML_KEY = LazyPattern(r"^\s*(?:-\s+)?([\w.-]+)\s*:(?:\s+(.*))?$")


def _yaml_lines(text: str) -> str:
    """Approximate: a ``key: value`` line gives its value when the key is a run key,
    any other line (a list item, a block scalar's body) is read as shell."""
    out = []
    for line in text.splitlines():
        match = _YAML_KEY.match(line)
        if match is None:
            out.append(_YAML_LIST_ITEM.sub("", line))
        elif match.group(1).lower() in YAML_RUN_KEYS and match.group(2) and match.group(2).strip() not in "|>":
            value = match.group(2).strip()
            items = value[1:-1].split(",") if value.startswith("[") and value.endswith("]") else [value]
            out.extend(_unquote(item.strip()) for item in items)
    return "\n".join(out)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        import json

        try:
            return str(json.loads(value))
        except ValueError:
            return value[1:-1]
    return value


# --------------------------------------------------------------------------- JSON (devcontainer, tasks)


def _json_commands(text: str) -> list[Piece]:
    """The value of every ``…Command`` key (devcontainer's ``postCreateCommand`` and
    friends, a VS Code task's ``command`` with its ``args``): a string is shell, an
    array is an argv, an object holds several of either. Read pair by pair, so comments
    elsewhere in the file and an Edit's lone ``"key": value`` pair read the same."""
    import json

    decoder = json.JSONDecoder()
    out: list[str] = []
    for match in _JSON_COMMAND.finditer(text):
        try:
            value, end = decoder.raw_decode(text, match.end())
        except ValueError:
            continue
        line = "\n".join(_argv_or_shell(value))
        args = _JSON_ARGS.match(text, end)
        if args is not None:
            try:
                extra = decoder.raw_decode(text, args.end())[0]
            except ValueError:
                extra = None
            if isinstance(extra, list):
                line = f"{line} {shell_join(str(a) for a in extra)}"
        out.append(line)
    return [("sh", "\n".join(out))]


def _argv_or_shell(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield shell_join(str(v) for v in value)
    elif isinstance(value, dict):
        for item in value.values():
            yield "\n".join(_argv_or_shell(item))


# --------------------------------------------------------------------------- Jenkinsfile, Nix


def _groovy(text: str) -> list[Piece]:
    """A Jenkinsfile's ``sh '…'``, ``sh \"\"\"…\"\"\"`` and ``sh(script: '…')`` bodies."""
    out = []
    for match in _GROOVY_SH.finditer(text):
        quote = match.group(1)
        body = _until(text, match.end(), quote)
        if body is not None:
            out.append(_GROOVY_ESCAPE.sub(r"\1", body))
    return [("sh", "\n".join(out))]


def _until(text: str, start: int, quote: str) -> str | None:
    """The string body from ``start`` to its closing ``quote`` (a one-character quote
    skips backslash escapes), or None when it never closes."""
    if len(quote) == 3:
        end = text.find(quote, start)
        return text[start:end] if end >= 0 else None
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return text[start:i]
        i += 1
    return None


def _nix(text: str) -> list[Piece]:
    """A ``shell.nix``/``flake.nix`` ``shellHook``: ``nix-shell``, ``nix develop`` and
    direnv's ``use nix`` run it in the person's own shell, outside any build sandbox."""
    out = []
    for match in _NIX_HOOK.finditer(text):
        if match.group(1) == '"':
            body = _until(text, match.end(), '"')
            out.append(body.replace('\\"', '"').replace("\\$", "$") if body is not None else "")
            continue
        i, start = match.end(), match.end()
        while True:
            end = text.find("''", i)
            if end < 0:
                break
            if text[end + 2:end + 3] in ("'", "$", "\\"):  # ''' ''$ ''\ are escapes, not the end
                i = end + 3
                continue
            out.append(text[start:end].replace("'''", "''").replace("''$", "$"))
            break
    return [("sh", "\n".join(out))]


# --------------------------------------------------------------------------- Tiltfile (Starlark)


def _tilt(text: str) -> list[Piece]:
    """The commands a Tiltfile runs on this machine: ``local(cmd)``,
    ``local_resource(name, cmd, serve_cmd=…)``, ``cmd_button(argv=…)``,
    ``custom_build(ref, command)`` (a list is an argv). Starlark parses as Python; a
    fragment that does not is read line by line."""
    import ast

    try:
        trees = [ast.parse(text)]
    except SyntaxError:
        trees = []
        for line in text.splitlines():
            try:
                trees.append(ast.parse(line.strip()))
            except SyntaxError:
                continue
    out: list[str] = []
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            where = _TILT_RUNS.get(node.func.id)
            if where is None:
                continue
            index, keywords = where
            values = [node.args[index]] if index is not None and len(node.args) > index else []
            values += [k.value for k in node.keywords if k.arg in keywords]
            for value in values:
                try:
                    literal = ast.literal_eval(value)
                except ValueError:
                    continue
                out.extend(_argv_or_shell(list(literal) if isinstance(literal, tuple) else literal))
    return [("sh", "\n".join(out))]
