"""What an MCP call's arguments do: the files they name and the shell command they carry.

An allow rule for a server or a tool (``mcp__files``, ``mcp__files__write_file``) says the
tool may be used — not that any file or command is fine. So the engine reads the
arguments as facts, and they meet the same checks as a file tool's path or a ``Bash``
command: deny rules, hard blocks, protected paths, removal targets, the workspace
boundary. ``mcp__files__write_file {"path": ".git/hooks/pre-commit"}`` is a write of a
git hook; ``mcp__shell__run {"command": "rm -rf ~"}`` is that command.

* **Files**: arguments whose name says path (``path``, ``file_path``, ``paths``,
  ``output_dir`` …), any ``file://`` URI, and — when the value looks like a path —
  ``source``, ``destination``, ``target`` and friends, at any depth. The operation
  comes from the tool's name: read-ish verbs read, delete verbs delete, a move takes its
  source away and writes its destination, anything else writes.
* **Commands**: ``command`` or ``cmd`` when the server's or tool's name says it runs
  commands (``shell``, ``exec``, ``run``, ``terminal`` …); ``script``, ``code`` or a
  ``shell`` holding more than a program name when the name says shell or terminal. A
  tool that runs another language runs that language (``run_python {"code": …}`` is
  ``python3 -c …``, analysed as such); code in a language bastion cannot place is not
  read as shell.
"""

from __future__ import annotations

from .model import ToolCall
from .precompiled import regex
from .shell.syntax.quoting import join as shell_join
from .uris import file_uri_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

READ, WRITE, DELETE = "read", "write", "delete"

#: Argument names that always hold a path (the last word of the name decides:
#: ``path``, ``file_path``, ``outputPath``, ``paths``).
PATH_WORDS = frozenset({"path", "paths", "filepath", "filepaths", "filename", "filenames", "pathname"})
#: Argument names that hold a path when the value looks like one (``source: "github"``
#: is not a file, ``source: "./a.txt"`` is).
MAYBE_PATH_WORDS = frozenset({
    "file", "files", "dir", "dirs", "directory", "directories", "folder", "folders", "source", "src",
    "destination", "dest", "target", "from", "to", "output", "input", "location", "root",
})
#: In a move or rename, these name what is taken away (the rest name where it goes).
MOVE_SOURCES = frozenset({"source", "src", "from", "old"})
#: Verbs of a tool's name that only read.
READ_VERBS = frozenset({
    "read", "get", "list", "search", "view", "show", "find", "stat", "info", "head", "tail", "tree", "ls", "cat",
    "grep", "glob", "fetch", "describe", "inspect", "exists", "diff", "status", "query", "lookup", "preview", "count",
})
DELETE_VERBS = frozenset({"delete", "remove", "rm", "unlink", "trash", "erase", "purge", "destroy", "rmdir"})
MOVE_VERBS = frozenset({"move", "rename", "mv"})
#: Verbs that change something: a name holding one of these is not read-only even if it
#: also holds a read verb (``search_and_replace``, ``read_and_update``).
CHANGE_VERBS = DELETE_VERBS | MOVE_VERBS | frozenset({
    "write", "edit", "create", "update", "set", "put", "save", "replace", "append", "insert", "patch", "copy",
    "mkdir", "upload", "modify", "apply", "add", "make", "touch", "chmod", "chown", "commit", "push", "install",
    "download", "extract", "unzip", "format", "generate", "new", "change", "store", "run", "exec", "execute",
})
#: Argument names that carry a command, and name words of tools that run one.
COMMAND_KEYS = ("command", "cmd", "script", "shell", "code")
#: ``script``, ``code`` and ``shell`` are shell only for a shell or terminal tool
#: (``run_code`` may well run Python).
CODE_KEYS = frozenset({"script", "shell", "code"})
TERMINAL_WORDS = frozenset({"shell", "bash", "sh", "zsh", "terminal", "console"})
SHELL_WORDS = TERMINAL_WORDS | frozenset({"exec", "execute", "run", "command", "cmd", "process", "cli"})
#: Interpreters for code an MCP tool runs in another language (``run_python {"code"}``):
#: the code is analysed as that interpreter's inline code (``python3 -c CODE``), so a
#: ``os.system("rm -rf ~")`` in it is found as in a shell command.
LANGUAGE_RUNNERS: dict[str, tuple[str, str]] = {
    "python": ("python3", "-c"), "py": ("python3", "-c"), "ipython": ("python3", "-c"),
    "node": ("node", "-e"), "nodejs": ("node", "-e"), "js": ("node", "-e"), "javascript": ("node", "-e"),
    "ruby": ("ruby", "-e"), "perl": ("perl", "-e"), "php": ("php", "-r"),
}
#: Name words of tools whose code is another language than the shell.
OTHER_LANGUAGES = frozenset({
    "python", "py", "ipython", "node", "nodejs", "js", "javascript", "typescript", "ts", "deno", "ruby", "rb",
    "perl", "php", "lua", "sql", "sqlite", "postgres", "mysql", "query", "jupyter", "notebook", "r", "julia",
    "applescript", "osascript", "powershell", "pwsh", "java", "go", "rust", "swift", "kotlin",
})
_WORD = regex(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_FILE_NAME = regex(r"^[\w.-]+\.[A-Za-z0-9]{1,8}$")


def words(name: str) -> list[str]:
    """``read_text_file`` / ``readTextFile`` / ``read-text-file`` → ``[read, text, file]``."""
    return [w.lower() for w in _WORD.findall(name)]


def tool_words(call: ToolCall) -> list[str]:
    server_tool = call.mcp_server_tool
    return words(server_tool[1] if server_tool else call.tool)


def operation(call: ToolCall) -> str:
    """What the tool does to the files it names, from its name."""
    names = set(tool_words(call))
    if names & DELETE_VERBS:
        return DELETE
    if names & READ_VERBS and not names & CHANGE_VERBS:
        return READ
    return WRITE


def _looks_like_path(value: str) -> bool:
    if not value or len(value) > 4096 or "\n" in value:
        return False
    return "/" in value or value.startswith((".", "~")) or bool(_FILE_NAME.match(value))


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    """``(argument name, value)`` for every named value, nested ones included (however
    deep: the input's size is bounded by ``validate``)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if isinstance(key, str):
                    yield key, inner
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(reversed(item))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def path_arguments(call: ToolCall) -> list[tuple[str, str]]:
    """``(op, path as written)`` for every file the arguments name."""
    op = operation(call)
    moves = bool(set(tool_words(call)) & MOVE_VERBS)
    found: list[tuple[str, str]] = []
    for key, value in _walk(dict(call.input)):
        for text in _strings(value):
            uri = file_uri_path(text)
            if uri is not None:
                found.append((op, uri))
                continue
            key_words = words(key)
            last = key_words[-1] if key_words else ""
            if last in PATH_WORDS or (last in MAYBE_PATH_WORDS and _looks_like_path(text)) or (
                    "path" in key_words and text):
                if not text:
                    continue
                this = op
                if moves:
                    this = DELETE if set(key_words) & MOVE_SOURCES else WRITE
                found.append((this, text))
    return list(dict.fromkeys(found))


def _name_words(call: ToolCall) -> set[str]:
    server_tool = call.mcp_server_tool
    return set(words(server_tool[0]) + words(server_tool[1])) if server_tool else set(words(call.tool))


def runs_commands(call: ToolCall) -> bool:
    """The server's or tool's name says it runs shell commands (and no other language)."""
    names = _name_words(call)
    return bool(names & SHELL_WORDS) and not names & OTHER_LANGUAGES


def shell_command(call: ToolCall) -> str | None:
    """The shell command an MCP call's arguments carry, or None. Several command fields
    are all analysed (bastion cannot know which one the server runs); a command given
    as a program plus an ``args`` list is joined as the exact argv."""
    names = _name_words(call)
    data = call.input
    parts: list[str] = []
    runner = next((LANGUAGE_RUNNERS[w] for w in sorted(names) if w in LANGUAGE_RUNNERS), None)
    if runner is not None and names & SHELL_WORDS:
        for key in ("code", "script"):
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                parts.append(shell_join([*runner, value]))
        return "\n".join(parts) or None
    if not runs_commands(call):
        return None
    terminal = bool(names & TERMINAL_WORDS)
    for key in COMMAND_KEYS:
        value = data.get(key)
        if key in CODE_KEYS and not terminal:
            continue
        if isinstance(value, str) and value.strip():
            if key == "shell" and len(value.split()) < 2:
                continue  # the program to run the command with (``"shell": "bash"``)
            args = data.get("args", data.get("arguments"))
            if isinstance(args, list) and args and all(isinstance(a, str) for a in args):
                parts.append(shell_join([value, *args]))
            else:
                parts.append(value)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            parts.append(shell_join(value))
    return "\n".join(dict.fromkeys(parts)) or None
