"""The Python model does each piece of work once, and its shortcuts give what the long
way gives: aliases found by lookup, statements and expressions found by node type,
branches merged over the names they rebound, a program read again taken from the
recent reads, a model's unquoted shell line split at its spaces."""

from __future__ import annotations

import ast
import shlex

import pytest

from bastion.shell.meaning import models, pymodel
from bastion.shell.meaning.checks.code import _words
from bastion.shell.meaning.pymodel import _ALIASES, _canon, read


def _canon_by_scan(name: str) -> str:
    """``_canon`` as a scan of every alias (what the lookup must agree with)."""
    for alias, real in _ALIASES.items():
        if name == alias or name.startswith(alias + "."):
            rest = name[len(alias) + 1:]
            return f"{real}.{rest}" if real and rest else (real or rest)
    return name


def test_aliases_are_one_or_two_parts_and_never_overlap() -> None:
    """The lookup reads a name's first one and two parts, so no alias may be longer, and
    no two-part alias may start with a one-part one (both would match)."""
    assert all(1 <= alias.count(".") + 1 <= 2 for alias in _ALIASES)
    heads = {alias for alias in _ALIASES if "." not in alias}
    assert not any(alias.split(".")[0] in heads for alias in _ALIASES if "." in alias)


@pytest.mark.parametrize("name", sorted(
    {n for alias in _ALIASES for n in (alias, f"{alias}.x", f"{alias}.x.y", f"{alias}.", f"{alias}x", f"x.{alias}")}
    | {"", ".", "os", "os.system", "os.path.join", "posixpath.join", "pathlib.Path", "pathlib.PosixPath.home",
       "subprocess.run", "subprocess.os.system", "builtins.open", "__builtins__.exec", "a.b.c.d"}
))
def test_alias_lookup_agrees_with_a_scan(name: str) -> None:
    assert _canon(name) == _canon_by_scan(name)


def test_every_statement_and_expression_kind_has_its_handler() -> None:
    """A program using each kind is read (the handlers are filled on first use), and a
    subclass of a node type takes the handler of the type it derives from."""
    read("x = 1", "python")
    for kind in (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.If, ast.For,
                 ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.FunctionDef,
                 ast.AsyncFunctionDef, ast.ClassDef, ast.Return, ast.Raise, ast.Assert, ast.Match, ast.Delete):
        assert kind in pymodel._STMT
    for kind in (ast.Constant, ast.Name, ast.Attribute, ast.Call, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
                 ast.IfExp, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Subscript, ast.JoinedStr, ast.FormattedValue,
                 ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp, ast.Lambda, ast.NamedExpr, ast.Await,
                 ast.Yield, ast.YieldFrom, ast.Starred, ast.Slice):
        assert kind in pymodel._EV

    class Derived(ast.Call):
        pass

    assert pymodel._handler(pymodel._EV, Derived) is pymodel._EV[ast.Call]


@pytest.mark.parametrize(("code", "line"), [
    # a name rebound in one branch only is unknown after it; one no branch touched keeps its value
    ("import os\np = '/srv/a'\nq = '/srv/b'\nif x:\n    p = '/srv/c'\nos.remove(q)", "rm -f -- /srv/b"),
    ("import os\np = '/srv/a'\nif x:\n    p = '/srv/a'\nelse:\n    pass\nos.remove(p)", "rm -f -- /srv/a"),
    ("import os\nq = '/srv/d'\nfor n in names:\n    r = n\nos.remove(q)", "rm -f -- /srv/d"),
])
def test_branches_merge_what_they_rebound(code: str, line: str) -> None:
    effects = read(code, "python")
    assert effects is not None and line in effects.shell


def test_a_name_rebound_differently_is_not_known() -> None:
    effects = read("import os\np = '/srv/a'\nif x:\n    p = '/srv/c'\nos.remove(p)", "python")
    assert effects is not None and not effects.shell and effects.opaque


def test_a_loop_with_a_break_is_not_unrolled_however_often_it_runs() -> None:
    code = ("import os\ndef f():\n    for p in ['/srv/a', '/srv/b']:\n        os.remove(p)\n        break\n"
            "f()\nf()\nfor p in ['/srv/c']:\n    os.remove(p)")
    effects = read(code, "python")
    assert effects is not None
    assert "rm -f -- /srv/c" in effects.shell and "rm -f -- /srv/a" not in effects.shell


def test_a_program_read_again_is_the_same_and_each_caller_has_its_own() -> None:
    code = "import os\nos.system('rm -rf /srv/x')"
    first = models.read_program("python", code)
    assert first is not None
    first.shell.append("changed by a caller")
    first.opaque.append("changed by a caller")
    again = models.read_program("python", code)
    assert again == read(code, "python")
    assert again is not None and "changed by a caller" not in again.shell + again.opaque


def test_recent_reads_are_bounded() -> None:
    for i in range(models.RECENT_PROGRAMS * 2):
        models.read_program("python", f"print({i})")
    assert len(models._RECENT) <= models.RECENT_PROGRAMS


def test_an_unreadable_program_read_again_is_still_unreadable() -> None:
    assert models.read_program("python", "def (:") is None
    assert models.read_program("python", "def (:") is None


@pytest.mark.parametrize("line", [
    "rm -f -- build/x.o", "rm  -rf   --  /srv/a", "", " ", "printf %s 'a b' > out.txt", 'echo "a\\"b"',
    "cat -- a\\ b", "mv -- a\tb c", "x\ny", "a\rb", "a\x0bb", "a\xa0b", "#x y", "a#b", "f 'unclosed", "*.py ~/x $HOME",
])
def test_unquoted_lines_split_as_shlex_does(line: str) -> None:
    try:
        want: list[str] | str = shlex.split(line)
    except ValueError:
        want = "error"
    try:
        got: list[str] | str = _words(line)
    except ValueError:
        got = "error"
    assert got == want


def test_recent_reads_hold_when_threads_read_at_once() -> None:
    """The warm decision server decides in threads: reads that evict and reread the same
    texts at once neither fail nor give another text's effects."""
    import sys
    import threading

    texts = [f"import os; os.remove('/tmp/f{i}')" for i in range(3 * models.RECENT_PROGRAMS)]
    failures: list[BaseException] = []

    def read_all() -> None:
        try:
            for _ in range(3):
                for i, text in enumerate(texts):
                    effects = models.read_program("python", text)
                    assert effects is not None and effects.shell == [f"rm -f -- /tmp/f{i}"], text
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=read_all) for _ in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns between any two steps
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures, failures[0]
    assert len(models._RECENT) <= models.RECENT_PROGRAMS


@pytest.mark.parametrize("links", [1, 50, 900])
def test_long_operator_chains_are_read_to_their_value(links: int) -> None:
    """``'r' + 'm' + …`` and ``- - … 1`` nest one level per link; the model walks them in a
    loop, so a long one is read like a short one (not given up at the recursion limit)."""
    spelled = "+".join(repr(c) for c in "rm -rf /srv/data") + "+''" * links
    effects = read(f"import os\nos.system({spelled})", "python")
    assert effects is not None and effects.shell == ["rm -rf /srv/data"]
    negated = read(f"import os\nn = {'-' * (links + 1)}1\nos.system('sleep %d' % n)", "python")
    assert negated is not None and negated.shell == [f"sleep {-1 if links % 2 == 0 else 1}"]
