"""No bastion dataclass has a field whose meaning depends on ``typing`` being loaded.

A fresh decision runs without ``typing``. With ``from __future__ import annotations``
every annotation is a string, and ``dataclasses`` reads a string ``ClassVar[...]`` as a
class variable only when ``typing`` is already in ``sys.modules``: otherwise it becomes a
field, and the class changes (its ``__init__``, ``__eq__``, ``__repr__``) with whatever
else the process happened to import. ``InitVar`` and ``KW_ONLY`` are read through
``dataclasses`` itself, but are kept out too, so that no dataclass needs a pseudo-field:
every one of them can take ``bastion.dataclass_shortcut`` (which sends a class whose module
could make an annotation a pseudo-field the standard way).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bastion"
PSEUDO_FIELDS = frozenset({"ClassVar", "InitVar", "KW_ONLY"})


def _names(node: ast.AST, quoted: bool = True) -> set[str]:
    """Every name an expression mentions; for an annotation (``quoted``), the names in
    the text of a quoted one too."""
    out: set[str] = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            out.add(part.id)
        elif isinstance(part, ast.Attribute):
            out.add(part.attr)
        elif quoted and isinstance(part, ast.Constant) and isinstance(part.value, str):
            try:
                out |= _names(ast.parse(part.value, mode="eval"))
            except (SyntaxError, ValueError):  # text that is no expression
                pass
    return out


def _spellings(tree: ast.Module) -> set[str]:
    """``ClassVar``, ``InitVar``, ``KW_ONLY`` and the other names a module gives them (``import ... as``,
    ``CV = ClassVar``)."""
    spellings = set(PSEUDO_FIELDS)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            spellings |= {alias.asname for alias in node.names if alias.name in PSEUDO_FIELDS and alias.asname}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _names(node.value, quoted=False) & spellings:
            spellings |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return spellings


def _is_dataclass(node: ast.ClassDef) -> bool:
    return any("dataclass" in ast.unparse(decorator) for decorator in node.decorator_list)


def offenders(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spellings = _spellings(tree)
    return [f"{path.name}:{statement.lineno} {node.name}.{ast.unparse(statement.target)}"
            for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and _is_dataclass(node)
            for statement in node.body
            if isinstance(statement, ast.AnnAssign) and _names(statement.annotation) & spellings]


def test_no_bastion_dataclass_has_a_class_variable_init_only_field_or_keyword_marker() -> None:
    assert [found for path in sorted(SRC.rglob("*.py")) for found in offenders(path)] == []


def test_the_check_sees_every_spelling(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "from __future__ import annotations\nimport typing, dataclasses as dc\nfrom typing import ClassVar as CV\n"
        "Alias = typing.ClassVar\n"
        "@dc.dataclass(frozen=True)\nclass A:\n    a: ClassVar[int] = 1\n    b: typing.ClassVar[int] = 2\n"
        "    c: CV[int] = 3\n    d: 'ClassVar[int]' = 4\n    e: Alias[int] = 5\n    f: dc.InitVar[int] = 6\n"
        "    g: int = 7\n    _: dc.KW_ONLY\n    i: int = 9\n"
        "class Plain:\n    h: ClassVar[int] = 8\n",
        encoding="utf-8")
    assert [found.split()[1] for found in offenders(source)] == ["A.a", "A.b", "A.c", "A.d", "A.e", "A.f", "A._"]
