"""A one-shot process loads bastion's modules from the bundle (``bastion.bundle``) only
while each entry says what the normal import would load, and the modules look exactly
as they do when imported the normal way.

Every test works on a copy of the package (with its ``.pyc`` files), so that sources can
be edited; each run is a fresh interpreter deciding a hook call in its own process."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bastion

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the bundle is used on Python 3.11 only")

#: Decides one hook call with the bundle, then reports how each of bastion's modules looks.
_RUN = """
import atexit, json, sys
sys.path.insert(0, {root!r})
def report():
    import importlib.resources
    from importlib.machinery import SourceFileLoader
    modules = {{}}
    for name, module in sorted(sys.modules.items()):
        if name.split(".")[0] != "bastion" or name == "bastion.bundle":
            continue
        spec = module.__spec__
        modules[name] = {{
            "file": module.__file__, "cached": module.__cached__, "package": module.__package__,
            "path": getattr(module, "__path__", None), "origin": spec.origin, "spec_cached": spec.cached,
            "has_location": spec.has_location, "search": spec.submodule_search_locations, "parent": spec.parent,
            "loader": [isinstance(spec.loader, SourceFileLoader), spec.loader.name, spec.loader.path,
                       module.__loader__ is spec.loader],
            "source": spec.loader.get_source(name) == open(spec.origin, encoding="utf-8").read(),
            "code_files": sorted({{f.__code__.co_filename for f in vars(module).values()
                                  if getattr(f, "__module__", None) == name and hasattr(f, "__code__")}}),
        }}
    bundle = sys.modules["bastion.bundle"]
    served = sorted(n for n, m in sys.modules.items() if type(getattr(m, "__loader__", None)) is bundle._Loader)
    shell = importlib.resources.files("bastion.shell")
    print(json.dumps({{"modules": modules, "served": served, "resource": shell.joinpath("__init__.py").is_file(),
                      "mark": getattr(sys.modules.get("bastion.engine"), "BUNDLE_MARK", None),
                      "chunks_read": len(bundle._CHUNKS)}}), file=sys.stderr)
atexit.register(report)
from bastion.cli import main
from bastion.one_shot import finish
finish(main(["hook", "claude-code"], one_shot=True))
"""


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """bastion's package, sources and ``.pyc`` files (their mtimes kept), with no bundle."""
    root = tmp_path / "site"
    shutil.copytree(Path(bastion.__file__).parent, root / "bastion",
                    ignore=shutil.ignore_patterns("bundle.*.marshal", "*.tmp"))
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return root


def _run(root: Path, *flags: str) -> dict[str, Any]:
    project = root.parent / "project"
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"},
                       "cwd": str(project), "session_id": "bundle", "permission_mode": "default"})
    env = dict(os.environ, BASTION_HOOK_SERVER="0", BASTION_AUDIT="0", BASTION_CONFIG_DIR=str(project / ".cfg"),
               BASTION_STATE_DIR=str(project / ".state"))
    done = subprocess.run([sys.executable, "-I", *flags, "-c", _RUN.format(root=str(root))], input=call, capture_output=True,
                          text=True, env=env, cwd=project, timeout=120, check=False)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    report["stdout"] = done.stdout
    return report


def _bundle(root: Path) -> list[Path]:
    return sorted((root / "bastion" / "__pycache__").glob("bundle.*.marshal"))


def test_modules_from_the_bundle_look_as_imported_normally(copy: Path) -> None:
    normal = _run(copy)
    assert normal["served"] == [], "no bundle yet: everything came the normal way"
    assert len(_bundle(copy)) == 1, "written at exit"
    bundled = _run(copy)
    assert "bastion.engine" in bundled["served"] and len(bundled["served"]) > 50
    assert bundled["modules"] == normal["modules"]
    assert bundled["stdout"] == normal["stdout"] and '"allow"' in normal["stdout"]
    assert bundled["resource"] is True
    engine = bundled["modules"]["bastion.engine"]
    assert engine["code_files"] == [engine["file"]] == [str(copy / "bastion" / "engine.py")]


def _chunks(root: Path) -> list[list[str]]:
    """The bundle's modules, chunk by chunk, each in its place."""
    data = _bundle(root)[0].read_bytes()
    index = marshal.loads(data[8:8 + int.from_bytes(data[4:8], "little")])
    chunks: dict[int, list[str]] = {}
    for name, (*_, offset, _length, place) in sorted(index.items(), key=lambda item: item[1][-1]):
        chunks.setdefault(offset, []).append(name)
        assert chunks[offset].index(name) == place
    return [chunks[offset] for offset in sorted(chunks)]


def test_modules_imported_one_after_another_are_read_together(copy: Path) -> None:
    """Each chunk is one marshalled tuple of the code of modules the first process
    imported one after another: a process reads a chunk for many modules, and an edited
    module keeps its place."""
    normal = _run(copy)
    chunks = _chunks(copy)
    imported = [name for name in normal["modules"] if name in {n for chunk in chunks for n in chunk}]
    assert all(len(chunk) <= 16 for chunk in chunks) and all(len(chunk) == 16 for chunk in chunks[:-1])
    bundled = _run(copy)
    assert 0 < bundled["chunks_read"] <= len(chunks) and len(bundled["served"]) >= 8 * bundled["chunks_read"]
    assert sorted(imported) == sorted(bundled["served"])
    engine = copy / "bastion" / "engine.py"
    engine.write_text(engine.read_text() + "\nBUNDLE_MARK = 1\n")
    assert _run(copy)["mark"] == 1
    assert _chunks(copy) == chunks, "rewritten with the edited module in its place"
    assert (again := _run(copy))["mark"] == 1 and "bastion.engine" in again["served"]


def test_an_edited_source_is_never_served_stale(copy: Path) -> None:
    _run(copy)
    before = _bundle(copy)[0].stat().st_mtime_ns
    engine = copy / "bastion" / "engine.py"
    engine.write_text(engine.read_text() + "\nBUNDLE_MARK = 1\n")
    edited = _run(copy)
    assert edited["mark"] == 1
    assert "bastion.engine" not in edited["served"] and "bastion.model" in edited["served"]
    assert _bundle(copy)[0].stat().st_mtime_ns != before, "rewritten with the edited module"
    assert "bastion.engine" in (again := _run(copy))["served"] and again["mark"] == 1
    # the same size, a later mtime (as any save makes): still the new text
    engine.write_text(engine.read_text().replace("BUNDLE_MARK = 1", "BUNDLE_MARK = 2"))
    later = engine.stat().st_mtime + 5
    os.utime(engine, (later, later))
    assert _run(copy)["mark"] == 2
    assert (last := _run(copy))["mark"] == 2 and "bastion.engine" in last["served"]


def test_a_folder_that_changed_is_looked_up_again(copy: Path) -> None:
    """A new file beside a module (a package of the same name, say) could be what the
    path finder takes first: the folder's entries wait until the normal import runs."""
    _run(copy)
    folder = copy / "bastion" / "policy"
    (folder / "unrelated.txt").write_text("a new file\n")
    changed = _run(copy)
    assert not [name for name in changed["served"] if name.startswith("bastion.policy.")]
    assert "bastion.engine" in changed["served"]
    assert [name for name in _run(copy)["served"] if name.startswith("bastion.policy.")], "rewritten"


def test_a_broken_bundle_is_ignored_and_rewritten(copy: Path) -> None:
    normal = _run(copy)
    path = _bundle(copy)[0]
    path.write_bytes(b"bnd1\xff\xff\x00\x00garbage")
    broken = _run(copy)
    assert broken["served"] == [] and broken["stdout"] == normal["stdout"]
    assert len(_run(copy)["served"]) > 50


def test_entries_not_as_bastion_writes_them_are_imported_the_normal_way(copy: Path) -> None:
    """An index entry of the wrong shape, a place outside its chunk or another module's
    place, a length past the end of the file, a path that cannot be a file: that module
    comes the normal way, the decision is the same, nothing escapes into the import."""
    normal = _run(copy)
    path = _bundle(copy)[0]
    data = path.read_bytes()
    size = int.from_bytes(data[4:8], "little")
    index = marshal.loads(data[8:8 + size])
    names = [name for name in index if name != "bastion.engine"][:8]
    other_place = 1 if index[names[7]][6] == 0 else 0  # another module of the same chunk
    bad = [("x", "y"), (1, 2, 3, 4, 5, 6, 7), ("a\0b.py", 0, 0, 0, 0, 0, 0), (*index[names[3]][:6], -1),
           (*index[names[4]][:4], "offset", 1, 0), (*index[names[5]][:6], 99),
           (*index[names[6]][:5], 2 ** 40, index[names[6]][6]), (*index[names[7]][:6], other_place)]
    index.update(zip(names, bad, strict=True))
    head = marshal.dumps(index)
    path.write_bytes(data[:4] + len(head).to_bytes(4, "little") + head + data[8 + size:])
    broken = _run(copy)
    assert broken["stdout"] == normal["stdout"] and broken["modules"] == normal["modules"]
    assert "bastion.engine" in broken["served"]
    data = path.read_bytes()  # rewritten at exit, each of them as bastion writes an entry
    index = marshal.loads(data[8:8 + int.from_bytes(data[4:8], "little")])
    assert all(len(index[name]) == 7 and isinstance(index[name][0], str) and index[name][0].endswith(".py")
               and all(type(n) is int and n >= 0 for n in index[name][1:]) for name in names)


def test_written_only_where_python_writes_bytecode(copy: Path) -> None:
    assert _run(copy, "-B")["served"] == []
    assert _bundle(copy) == []


def test_only_one_shot_processes_use_it() -> None:
    code = ("import sys\nfrom bastion import Guard\nfrom bastion.cli import main\n"
            "print(any(type(f).__name__ == '_Finder' for f in sys.meta_path), 'bastion.bundle' in sys.modules)")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "False"]
