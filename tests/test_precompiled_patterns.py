"""The regular expressions compiled while bastion's modules load, and those its
``LazyPattern`` records compile on first use, come from the precompiled cache
(``bastion.precompiled.install_patterns``, ``pattern``) exactly as ``re`` makes them, and
no other pattern compiled while a decision runs is ever kept.

Each test runs fresh interpreters with a cache file of its own: the first compiles every
pattern through the cache's own steps and writes the file, the next builds each one from
the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache mirrors Python 3.11's re compiler")

#: Texts every pattern is matched against (its own text, commands, paths, JSON, Unicode).
SAMPLES = [
    "git status", "rm -rf ~/build && echo done", "curl -fsSL https://x.sh | sh", 'python3 -c "import os"',
    '{"permissions": {"deny": ["Bash(rm:*)"], "ask": []}} // note', "/etc/passwd ../../x ./a/b/", "chmod -R u+rwx d",
    "FOO=1 gcc -o a a.c", "\\ud83d\\ude00 caf\u00e9 \U0001f600", "1.5e10 -3 0x1f", "…[truncated 12 bytes]", "",
]

#: Imports every module of bastion with the cache in ``path``, then reports what was
#: asked of it: each pattern's key, the module it was kept for, whether it was a hit.
_COLLECT = """
import json, marshal, pkgutil, importlib, re, sys, warnings
original = re._compiler.compile
import bastion, bastion.precompiled as pc
pc._path = lambda: {path!r}
pc._FILE, pc._OPENED, pc._USED, pc._CHANGED = None, {{}}, {{}}, set()
asked = []
cached = pc._cached
def recording(module, key):
    value = cached(module, key)
    if isinstance(key, tuple):
        asked.append((module, key, value is not None))
    return value
pc._cached = recording
for info in pkgutil.walk_packages(bastion.__path__, "bastion."):
    if not info.name.endswith("__main__"):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional dependency
            pass
import gc
from bastion.shell.syntax.lazyre import LazyPattern
lazy = [o for o in gc.get_objects() if type(o) is LazyPattern]
for o in lazy:
    o.compiled  # through precompiled.pattern
samples = {samples!r}
report = []
for module, (pattern, flags, magic), hit in asked:
    args = marshal.loads(marshal.dumps(pc._USED[module][(pattern, flags, magic)]))
    import _sre
    cached_pattern = _sre.compile(pattern, *args)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = original(pattern, flags)
    texts = samples + ([pattern] if isinstance(pattern, str) else [])
    if isinstance(pattern, bytes):
        texts = [t.encode("utf-8", "surrogatepass") for t in samples] + [pattern]
    def matches(p):
        return [[(m.span(), m.groups()) for m in p.finditer(t)] for t in texts]
    report.append({{"module": module, "pattern": repr(pattern), "hit": hit,
                   "equal": cached_pattern == plain, "flags": [cached_pattern.flags, plain.flags],
                   "groups": [cached_pattern.groups, plain.groups],
                   "groupindex": [dict(cached_pattern.groupindex), dict(plain.groupindex)],
                   "matches": matches(cached_pattern) == matches(plain)}})
print(json.dumps({{"report": report, "lazy": len(lazy)}}))
"""


def _collect(path: Path) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-I", "-c", _COLLECT.format(path=str(path), samples=SAMPLES)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["lazy"] >= 40, "bastion's LazyPattern records"
    return result["report"]  # type: ignore[no-any-return]


def test_every_pattern_written_in_bastions_code_equals_what_re_makes(tmp_path: Path) -> None:
    """Those compiled while bastion's modules load, and every ``LazyPattern`` (compiled
    on first use through ``precompiled.pattern``)."""
    path = tmp_path / "cache.marshal"
    first = _collect(path)
    on_first_use = [row for row in first if row["module"].startswith("(patterns compiled on first use) by ")]
    assert len(first) - len(on_first_use) >= 15, "bastion's modules (and json, shlex) compile patterns while they load"
    assert len(on_first_use) >= 30
    # each kept for the module that wrote it, so a process reads the parts of the modules it uses
    assert {row["module"].rpartition(" by ")[2] for row in on_first_use} >= {
        "bastion.shell.meaning.analyse", "bastion.shell.syntax.words"}
    seen: set[tuple[str, str]] = set()
    for row in first:  # a new file: every pattern compiled through the cache's steps (once)
        assert row["hit"] == ((row["module"], row["pattern"]) in seen), row
        seen.add((row["module"], row["pattern"]))
    second = _collect(path)
    assert all(row["hit"] for row in second), "the next process takes them from the file"
    assert {row["pattern"] for row in second} == {row["pattern"] for row in first}
    for row in first + second:
        assert row["equal"] and row["matches"], row
        for name in ("flags", "groups", "groupindex"):
            assert row[name][0] == row[name][1], (name, row)


_RUNTIME = """
import re, sys, types
import bastion.precompiled as pc
pc._path = lambda: {path!r}
pc._FILE, pc._OPENED, pc._USED, pc._CHANGED = None, {{}}, {{}}, set()
namespace = {{"__name__": "bastion.fake_checks"}}
exec("import re\\ndef check(command):\\n    return re.compile(re.escape(command) + '[0-9]+')", namespace)
namespace["check"]("secret-token-abc")  # built from a command while deciding
module = types.ModuleType("bastion.fake_loading")
exec(compile("import re\\nPATTERN = re.compile('written-in-code[0-9]+')", "fake.py", "exec"), module.__dict__)
other = types.ModuleType("someone_else")
exec(compile("import re\\nPATTERN = re.compile('someone-else[0-9]+')", "other.py", "exec"), other.__dict__)
print(sorted((module, key[0]) for module, part in pc._USED.items() for key in part if isinstance(key, tuple)))
"""


def test_only_patterns_written_in_bastions_code_are_kept(tmp_path: Path) -> None:
    """A pattern built from a command (or a setting) while a decision runs never reaches
    the file, nor one someone else's module compiles."""
    code = _RUNTIME.format(path=str(tmp_path / "cache.marshal"))
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[('bastion.fake_loading', 'written-in-code[0-9]+')]"


_REGEX = """
import sys, types
import bastion.precompiled as pc
pc._path = lambda: {path!r}
compiled = []
compile_and_keep = pc._compile_and_keep
pc._compile_and_keep = lambda *args: compiled.append(args[1]) or compile_and_keep(*args)
module = types.ModuleType("bastion.fake_regex")
exec(compile("from bastion.precompiled import regex, IGNORECASE\\nP = regex('kept-([0-9]+)', IGNORECASE)\\n"
             "def later(text):\\n    return regex(text)", "fake.py", "exec"), module.__dict__)
found = module.P.fullmatch("KEPT-42")
module.later("built-while-deciding[0-9]+")
print(found.group(1), module.P.flags & 2, compiled, sorted(key[0] for part in pc._USED.values() for key in part if isinstance(key, tuple)))
"""


def test_a_pattern_a_module_body_compiles_through_regex_is_kept_for_the_next_process(tmp_path: Path) -> None:
    """``regex()`` in a module body of bastion's: compiled by ``re`` and kept the first
    time; the next process builds it from the kept ``_sre.compile`` arguments (which needs
no ``re``; tests/test_cold_path.py checks that a decision imports none). Called from
    a function (text that may come from a command), it is plain ``re.compile``, never kept."""
    code = _REGEX.format(path=str(tmp_path / "cache.marshal"))
    runs = [subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=True)
            for _ in range(2)]
    assert runs[0].stdout.strip() == "42 2 ['kept-([0-9]+)'] ['kept-([0-9]+)']"
    assert runs[1].stdout.strip() == "42 2 [] ['kept-([0-9]+)']"
