"""bastion's modules import each other without cycles.

The graph is read from the source with ``ast``: every ``import`` counts, at the top of a
module or inside a function (a function-level import still ties the two modules
together); imports under ``if TYPE_CHECKING:`` do not (they never run).
``from package import name`` counts as importing ``package.name`` when that is a module,
else ``package``. A cycle is a set of modules that reach each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "bastion"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module, name: str, is_package: bool) -> list[tuple[str, str]]:
    """``(module, module.name)`` for each imported name, fully qualified."""
    package = name if is_package else name.rpartition(".")[0]
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.extend((module, f"{module}.{alias.name}") for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(root: Path = SRC) -> dict[str, set[str]]:
    """Module name → the bastion modules it imports."""
    files = {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets = set()
        for module, attribute in _imports(tree, name, path.name == "__init__.py"):
            target = attribute if attribute in files else module
            if target in files and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _describe(graph: dict[str, set[str]], component: list[str]) -> str:
    """One shortest loop through the component's first module: ``a -> b -> a``."""
    members, start = set(component), component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                return " -> ".join([*paths[node], start])
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return ", ".join(component)


def test_bastion_has_no_import_cycle() -> None:
    graph = import_graph()
    assert "bastion.engine" in graph and "bastion.shell.syntax.parse" in graph
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(_describe(graph, c) for c in found)


def test_shell_wings_import_downward_only() -> None:
    """``syntax`` imports nothing from ``catalog`` or ``meaning``; ``catalog`` nothing
    from ``meaning``."""
    rank = {"syntax": 0, "catalog": 1, "meaning": 2}

    def wing(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and parts[1] == "shell" and parts[2] in rank else None

    upward = [f"{a} -> {b}" for a, targets in import_graph().items() for b in targets
              if wing(a) and wing(b) and rank[wing(b)] > rank[wing(a)]]  # type: ignore[index]
    assert not upward


@pytest.mark.parametrize("source, planted", [
    ({"a.py": "from . import b\n", "b.py": "def f():\n    from .a import x\n"}, True),
    ({"a.py": "from . import b\n", "b.py": "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .a import x\n"}, False),
    ({"a.py": "import pkg.b\n", "b.py": "import pkg.c\n", "c.py": "from pkg.a import y\n"}, True),
    ({"a.py": "from .b import x\n", "b.py": "x = 1\n"}, False),
])
def test_a_planted_cycle_is_found(tmp_path: Path, source: dict[str, str], planted: bool) -> None:
    """The check itself: a cycle through a function-level import is one, a
    ``TYPE_CHECKING`` import is not."""
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    for name, text in source.items():
        (root / name).write_text(text)
    assert bool(cycles(import_graph(root))) is planted
