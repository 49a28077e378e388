"""Which languages a tool call involves, so the guard agent starts with the right skills.

Spec 001: a shell call is always ``bash``; a shell command that runs python, node, go …
adds that language; a file tool adds the language of the file's extension. Detection is
deliberately generous — a wrong guess only adds a page of context to the prompt, a
missed one leaves the model without it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from ..model import Kind, ToolCall
from ..precompiled import regex

#: Program names (basename of a word in the command) → language.
PROGRAMS: dict[str, str] = {
    **dict.fromkeys(
        ("python", "python2", "python3", "pypy", "pypy3", "ipython", "pip", "pip3", "pipx", "pytest", "uv", "uvx",
         "poetry", "pipenv", "hatch", "pdm", "tox", "nox"),
        "python",
    ),
    **dict.fromkeys(
        ("node", "nodejs", "deno", "bun", "bunx", "npx", "npm", "pnpm", "pnpx", "yarn", "tsx", "ts-node", "tsc"),
        "js",
    ),
    **dict.fromkeys(("go", "gofmt"), "go"),
    **dict.fromkeys(("bash", "sh", "dash", "zsh", "ksh", "busybox"), "bash"),
}

#: File extensions → language.
EXTENSIONS: dict[str, str] = {
    **dict.fromkeys((".py", ".pyw", ".pyi", ".ipynb"), "python"),
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"), "js"),
    ".go": "go",
    **dict.fromkeys((".sh", ".bash", ".zsh", ".ksh"), "bash"),
}

#: Versioned interpreter names: python3.12, pypy3.10, node20 …
_VERSIONED = (("python", regex(r"(?:python|pypy)\d+(?:\.\d+)*")), ("js", regex(r"node\d+")))
_WORDS = regex(r"[\s;|&()<>'\"`=,{}]+")


def _language_of_word(word: str) -> str | None:
    name = posixpath.basename(word)
    if not name:
        return None
    language = PROGRAMS.get(name)
    if language:
        return language
    for lang, pattern in _VERSIONED:
        if pattern.fullmatch(name):
            return lang
    return EXTENSIONS.get(posixpath.splitext(name)[1].lower())


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def detect_languages(call: ToolCall) -> tuple[str, ...]:
    """The languages ``call`` involves, most certain first (``bash`` for any shell call)."""
    found: list[str] = []
    command = call.command
    if call.kind is Kind.SHELL:
        found.append("bash")
    if command is not None:
        for word in _WORDS.split(command):
            language = _language_of_word(word)
            if language:
                found.append(language)
    for path in call.paths:
        language = EXTENSIONS.get(posixpath.splitext(path)[1].lower())
        if language:
            found.append(language)
    return _unique(found)
