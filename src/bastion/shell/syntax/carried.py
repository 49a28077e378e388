"""Files a command line wrote that reach a program under another name.

The parser remembers the literal text a line writes to each file (``_Walker.files``) and
reads it when the line runs that file. Two ways the same text runs under a name the
line never wrote to:

* a copy, link or move of the file (``printf '#!/bin/sh …' > /tmp/p && ln -sf /tmp/p
  .venv/bin/python && .venv/bin/python -V``): the new name holds the same text;
* a Python module the interpreter imports from a folder the line wrote it into
  (``PYTHONPATH=/tmp/m python3 -c 'import json'`` with ``/tmp/m/json.py`` written
  first; ``python3 -c 'import evilmod'`` or ``-m evilmod`` from the current folder, which
  ``-c`` and ``-m`` put first on the import path): the module runs on import;
* a Python script the line wrote and then changed (``cat > x.py <<'EOF' … EOF`` then
  ``echo … >> x.py``, ``printf … > x.py``): ``python3 x.py`` runs the text as it stands;
* a start-up file a variable names (``BASH_ENV=/tmp/env.sh bash x.sh``: bash sources it
  before the script; ``ENV`` for sh).

Both are read from argv alone; :mod:`.parse` does the bookkeeping.
"""

from __future__ import annotations

import posixpath

from ...precompiled import regex

__all__ = ["COPIERS", "copies", "module_files", "script_file", "startup_files"]

#: Commands whose destination holds the source's text afterwards.
COPIERS = frozenset({"cp", "ln", "mv", "install", "link"})
#: Options of those commands that take a value.
_VALUED = frozenset({"-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group"})
#: The top-level module names a Python program imports (``import a.b, c``, ``from d import e``),
#: searched in the program after a newline (the start of the text is a statement's start
#: too): a pattern that starts with a character set is searched for that set.
_IMPORT = regex(r"[;\n]\s*(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+(\w+)[\w.]*\s+import\b)")


def copies(argv: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(source, destination)`` as written for ``cp``/``ln``/``mv``/``install`` argv; a
    destination folder (``-t DIR``, several sources, a trailing slash) is joined with each
    source's name, and a relative symbolic link's source is read from the link's folder."""
    ops: list[str] = []
    into: str | None = None
    symbolic = relative = False
    words = iter(argv[1:])
    for word in words:
        if word == "--":
            ops.extend(words)
            break
        if word.startswith("--"):
            key, eq, value = word.partition("=")
            if key == "--target-directory":
                into = value if eq else next(words, None)
            elif key in _VALUED and not eq:
                next(words, None)
            symbolic |= key == "--symbolic"
            relative |= key == "--relative"
        elif word.startswith("-") and len(word) > 1:
            letters = word[1:]
            symbolic |= "s" in letters and argv[0].rsplit("/", 1)[-1] == "ln"
            relative |= "r" in letters and argv[0].rsplit("/", 1)[-1] == "ln"
            if letters[-1:] in ("t", "S", "m", "o", "g"):
                given = next(words, None)
                if letters[-1] == "t":
                    into = given
        else:
            ops.append(word)
    if into is not None:
        pairs = [(op, posixpath.join(into, posixpath.basename(op.rstrip("/")))) for op in ops]
    elif len(ops) < 2:
        return []
    elif len(ops) > 2 or ops[-1].endswith("/"):
        pairs = [(op, posixpath.join(ops[-1], posixpath.basename(op.rstrip("/")))) for op in ops[:-1]]
    else:
        pairs = [(ops[0], ops[1])]
    if symbolic and not relative:
        pairs = [(src if src.startswith(("/", "~")) else posixpath.join(posixpath.dirname(dst), src), dst)
                 for src, dst in pairs]
    return pairs


def module_files(argv: tuple[str, ...], env: list[tuple[str, str]]) -> list[str]:
    """The files, as written, a Python command would import first for the modules it
    names: each module in each ``PYTHONPATH`` folder, and in the current folder for
    ``-c`` and ``-m`` (``python x.py`` puts the script's folder first instead)."""
    names: list[str] = []
    here = False
    for i, word in enumerate(argv[1:], start=1):
        if word in ("-c", "-m") and i + 1 < len(argv):
            here = True
            if word == "-m":
                names.append(argv[i + 1].split(".")[0])
            else:
                for match in _IMPORT.finditer("\n" + argv[i + 1]):
                    listed = match.group(1) or match.group(2) or ""
                    names += [n.strip().split(".")[0] for n in listed.split(",") if n.strip()]
            break
        if not word.startswith("-"):
            break
    if not names:
        return []
    folders = [f for k, v in env if k == "PYTHONPATH" for f in v.split(":") if f]
    if here:
        folders.append(".")
    return [posixpath.join(folder, f"{name}{tail}") for name in dict.fromkeys(names) for folder in folders
            for tail in (".py", "/__init__.py")]


#: Variables naming a file a non-interactive shell sources before its script.
_STARTUP_VARS = frozenset({"BASH_ENV", "ENV"})


def startup_files(env: list[tuple[str, str]]) -> list[str]:
    """The files, as written, a shell with ``env`` sources before anything else."""
    return [value for key, value in env if key in _STARTUP_VARS and value]


#: Python options that take no value (any other option: the script is not looked for).
_PYTHON_FLAGS = frozenset({"-u", "-B", "-E", "-I", "-O", "-OO", "-s", "-S", "-q", "-b", "-bb", "-d", "-v", "-P"})


def script_file(argv: tuple[str, ...]) -> str | None:
    """The script, as written, that ``python [flags] FILE args`` runs."""
    for word in argv[1:]:
        if not word.startswith("-") or word == "-":
            return word if word != "-" else None
        if word not in _PYTHON_FLAGS:
            return None
    return None
