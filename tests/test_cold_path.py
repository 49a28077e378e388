"""What a decision in a fresh process imports: only what the verdict needs.

A hook deciding in its own process (``BASTION_HOOK_SERVER=0``, and every first call of a
session) and ``bastion check`` start a new interpreter each time, so every module they
import is paid on every such call. These tests name the modules that must stay out of
that path (they assert imports, never times)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

#: Never needed to decide ``git status``: the reviewer, the terminal prompt and its
#: toolkit, the explainer, the sandbox's runner, the MCP SDK, YAML, the injection
#: scanner, the full CLI parser's verbs, the shell checks of other commands (the checker
#: table imports a check when a command needs it), syntax validators that cannot fire on
#: it (their registry says when each can), and the stdlib modules bastion avoids on
#: purpose (``inspect`` and its ``ast``, ``dis``, ``tokenize``: ``dataclasses`` gets them
#: on first use, which only a dataclass without a docstring makes).
NOT_ON_THE_COLD_PATH = (
    "bastion.review", "bastion.approve.terminal", "bastion.approve.explainer", "bastion.explain",
    "bastion.sandbox.runner", "bastion.injection.scanner", "bastion.cli.doctor", "bastion.adapters.install",
    "bastion.shell.meaning.checks.code", "bastion.shell.meaning.checks.files", "bastion.shell.meaning.checks.admin",
    "bastion.shell.meaning.checks.network", "bastion.shell.meaning.checks.tools", "bastion.shell.meaning.verdicts",
    "bastion.shell.syntax.validators.sh001_incomplete", "bastion.shell.syntax.validators.sh004_obfuscated_flags",
    "bastion.shell.syntax.validators.sh014_malformed", "bastion.shell.syntax.validators.sh025_lookalike_words",
    # loaded by the line that needs them: planted text (a write to a file that runs later),
    # files a line wrote under another name, make's own command line, the long-tail
    # catalog, the code-effect tables, the approval helpers of an ask nobody can answer
    "bastion.shell.meaning.planted", "bastion.files.plants", "bastion.shell.syntax.carried",
    "bastion.shell.syntax.make_args", "bastion.shell.catalog.catalog_cli", "bastion.shell.meaning.effects",
    "bastion.approve.base",
    "prompt_toolkit", "yaml", "mcp", "anyio", "argparse", "hashlib", "threading", "subprocess", "asyncio",
    "inspect", "ast", "dis", "tokenize",
    "shutil", "bz2", "lzma",  # argparse's help formatter measures the terminal with shutil; bastion's does not
    # pathlib brings urllib.parse and ipaddress (~3.5 ms a fresh process): the decision
    # names its files with strings (``state.path_text``), the ``Path`` forms are for commands
    "pathlib", "urllib", "ipaddress",
    "signal",  # its enums (~0.5 ms); the deadline's alarm uses ``_signal``, the same calls
    "bisect",  # only a settings error's line:col needs it
    "math",  # only a float in a logged call and a scanned text's score need it
    # collections.abc's classes come from ``_collections_abc`` (``os`` loads it) or are named
    # for type checkers only; contextlib's and importlib's helpers from ``bastion.std_lite``
    # (importlib brings warnings)
    "collections.abc", "contextlib", "importlib", "warnings",
    # annotations are strings (``from __future__ import annotations``), so bastion imports
    # ``typing`` only for type checkers, and its named tuples come from ``bastion.named_tuple``
    # (``typing`` is ~2.3 ms to import, and its NamedTuple compiles a ForwardRef per field)
    "typing",
    # json's package imports ``re`` and compiles six patterns (~12 ms a fresh process):
    # bastion reads and writes JSON with json's C accelerator (``bastion.fastjson``)
    "json",
    # dataclasses loads with stand-ins (``bastion.stand_ins``): ``copy`` and its ``weakref``
    # only for ``asdict``/``astuple``
    "copy", "weakref",
    # ``re`` (~7 ms with its enum, functools and collections): bastion's patterns are built
    # from the precompiled cache without it, words are quoted by ``shell.syntax.quoting``
    # and everyday wildcards matched by ``shell.syntax.wildcards`` (shlex and fnmatch import re)
    "re", "shlex", "fnmatch",
)

#: Reports, at exit (so nothing imported late is missed), every module the process
#: imported, as a ``repr`` (printing JSON would import json itself).
_REPORT = "import atexit, sys\natexit.register(lambda: print(repr(sorted(sys.modules)), file=sys.stderr))\n"
#: Runs a verb, then reports every module the process imported.
_RUN = _REPORT + "from bastion.cli import main\nsys.exit(main({argv!r}))"


def _warm(code: str, cwd: Path, stdin: str) -> None:
    """Run ``code`` once where it may write bastion's caches beside its bytecode (the
    precompiled patterns among them), as the first call after an install or an upgrade
    does, with a state folder of its own: the run that is measured is still a fresh
    project's first call, and a pattern it needs is kept, not compiled by ``re``."""
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ, BASTION_HOOK_SERVER="0", BASTION_AUDIT="0", BASTION_CONFIG_DIR=f"{state}/.cfg",
                   BASTION_STATE_DIR=f"{state}/.state")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([sys.executable, "-I", "-c", code], input=stdin, capture_output=True, text=True, env=env,
                       cwd=cwd, timeout=60, check=False)


def _imported(code: str, cwd: Path, stdin: str = "") -> set[str]:
    _warm(code, cwd, stdin)
    env = dict(os.environ, BASTION_HOOK_SERVER="0", BASTION_AUDIT="0", BASTION_CONFIG_DIR=str(cwd / ".cfg"),
               BASTION_STATE_DIR=str(cwd / ".state"))
    done = subprocess.run([sys.executable, "-I", "-c", code], input=stdin, capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60, check=False)
    return set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))


def _offenders(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == bad or m.startswith(bad + ".") for bad in NOT_ON_THE_COLD_PATH))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_a_hook_deciding_in_its_own_process(project: Path) -> None:
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"},
                       "cwd": str(project), "session_id": "cold", "permission_mode": "default"})
    modules = _imported(_RUN.format(argv=["hook", "claude-code"]), project, call)
    assert "bastion.engine" in modules  # it did decide here
    assert _offenders(modules) == []


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Bash", {"command": "ls"}),
    ("Bash", {"command": "cat README.md"}),
    ("Bash", {"command": "rm -rf build"}),  # a delete: is it a settings file holding bastion's hook?
    ("Bash", {"command": "rm -rf /"}),  # denied
    ("Bash", {"command": "printf '%s\\n' a b > notes.txt"}),  # echoed text read as what it plants
    ("Bash", {"command": "git checkout -b feature"}),  # the files a git command puts in place
    ("Write", {"file_path": "src/new.py", "content": "print(1)\n"}),
    ("Edit", {"file_path": "README.md", "old_string": "a", "new_string": "b"}),
    ("Read", {"file_path": "README.md"}),
])
def test_other_calls_a_hook_decides_in_its_own_process(project: Path, tool: str, tool_input: dict[str, str]) -> None:
    (project / "README.md").write_text("a\n")
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
                       "cwd": str(project), "session_id": "cold", "permission_mode": "default"})
    modules = _imported(_RUN.format(argv=["hook", "claude-code"]), project, call)
    assert "bastion.engine" in modules
    assert _offenders({m for m in modules if not m.startswith("bastion.")}) == []  # bastion's own: what each needs


def test_a_hook_reading_a_tool_result_in_its_own_process(project: Path) -> None:
    """PostToolUse runs after every tool call: the result is scanned for planted
    instructions (the scanner is bastion's own, its patterns from google-re2)."""
    call = json.dumps({"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": "README.md"},
                       "tool_response": {"file": {"content": "# title\nsome text, aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ="}},
                       "cwd": str(project), "session_id": "cold", "permission_mode": "default"})
    modules = _imported(_RUN.format(argv=["hook", "claude-code"]), project, call)
    assert "bastion.injection.scanner" in modules  # it did scan here
    assert _offenders({m for m in modules if not m.startswith("bastion.")}) == ["math"]  # the text's score


def test_bastion_check(project: Path) -> None:
    modules = _imported(_RUN.format(argv=["check", "--isolated", "--", "git status"]), project)
    assert "bastion.engine" in modules
    assert _offenders(modules) == []  # the plain form of the command line is read without argparse
    assert not {"gettext", "locale"} & modules  # what argparse brings
    assert sorted(m for m in modules if m.startswith("bastion.cli.")) == ["bastion.cli.app", "bastion.cli.check",
                                                                          "bastion.cli.common",
                                                                          "bastion.cli.plain_args"]  # no other verb


def test_bastion_explain(project: Path) -> None:
    """A person typing ``bastion explain`` waits for a fresh process too."""
    modules = _imported(_RUN.format(argv=["explain", "--", "git status"]), project)
    assert "bastion.explain" in modules and "bastion.engine" in modules
    assert _offenders(modules) == ["bastion.explain"]  # its own renderer, off the hook's path


def test_a_library_guard_deciding(project: Path) -> None:
    code = (_REPORT + "from bastion import Guard, ToolCall\n"
            f"Guard.from_settings({str(project)!r}, isolated=True).check(ToolCall('Bash', {{'command': 'git status'}}, "
            f"cwd={str(project)!r}))")
    modules = _imported(code, project)
    assert "bastion.shell.meaning.semantics" in modules
    assert _offenders(modules) == []


@pytest.mark.parametrize("parts", [
    ("/a/b",), ("a/b/",), ("./a",), (".",), ("",), ("/",), ("//a",), ("///a",), ("/a//b/./c/",), ("a/../b",),
    ("/home/u/", ".claude", "settings.json"), ("/r", "/abs.json"), ("/r", "./s.json"), ("/r", ""), ("x", "..", "y"),
])
def test_the_decision_paths_strings_read_as_pathlib_writes_them(parts: tuple[str, ...]) -> None:
    """A settings file's name is in messages and rule origins: the string form the
    decision path uses must read exactly as ``str(Path(...))`` did."""
    from bastion.state import path_text

    assert path_text(*parts) == str(Path(*parts))


def test_dataclasses_still_write_a_signature_docstring() -> None:
    """``inspect`` comes on first use: a dataclass without a docstring gets the one
    ``dataclasses`` writes."""
    code = ("import sys\nfrom bastion.precompiled import dataclass\nassert 'inspect' not in sys.modules\n"
            "@dataclass\nclass P:\n    x: int = 1\nprint(P.__doc__, 'inspect' in sys.modules, sys.modules['dataclasses'].inspect"
            " is sys.modules['inspect'])")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["P(x:", "int", "=", "1)", "True", "True"]


def test_a_line_tree_sitter_parses_loads_only_its_compiled_parts(project: Path) -> None:
    """``tree_sitter``'s and ``tree_sitter_bash``'s own ``__init__`` bring ``typing`` and
    ``importlib.resources`` (with ``pathlib``, ``tempfile``, ``shutil`` …): a parse needs only
    their compiled modules; ``re``, which the compiled ``tree_sitter._binding`` takes for
    query predicates, waits until one is used. (It imports ``enum`` itself.)"""
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "cd src && pytest -q tests/test_1.py | tail -5"},
                       "cwd": str(project), "session_id": "cold", "permission_mode": "default"})
    modules = _imported(_RUN.format(argv=["hook", "claude-code"]), project, call)
    assert {"tree_sitter._binding", "tree_sitter_bash._binding"} <= modules  # it did parse with tree-sitter
    assert not {"tree_sitter", "tree_sitter_bash", "typing", "importlib.resources", "pathlib", "json", "re"} & modules


def test_every_dataclass_of_bastion_has_a_docstring() -> None:
    """``dataclasses`` writes a docstring for a class without one from
    ``inspect.signature``: on a decision's path that would import ``inspect`` (with
    ``ast``, ``dis``, ``tokenize``, ``re``), several milliseconds of a fresh hook. (And the
    standards ask each class to say why it is there.)"""
    import importlib
    import pkgutil

    import bastion

    missing = []
    for info in pkgutil.walk_packages(bastion.__path__, "bastion."):
        if info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional dependency
            continue
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ and "__dataclass_fields__" in vars(value):
                doc = vars(value).get("__doc__") or ""
                if not doc or doc.startswith(f"{value.__name__}("):
                    missing.append(f"{module.__name__}.{value.__qualname__}")
    assert missing == []
