"""Write ``docs/rules/``: one page per finding code, an index, and the long-tail catalog.

    .venv/bin/python scripts/rule_pages.py

The pages come from the records (``bastion.registry``), which live beside the code that
raises each finding; ``tests/test_registry.py`` fails when the committed pages differ
from what this script writes, so regenerate after changing a record.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bastion.registry import NO_EXAMPLE, Record, catalog_examples, records  # noqa: E402

OUT = ROOT / "docs" / "rules"

FAMILIES = {
    "hard block": "Hard blocks: denied in every mode",
    "shell": "Shell findings: asked (low ones are notes)",
    "syntax": "Shell syntax validators: asked",
    "file": "File and path findings",
    "landing": "Files a command puts in place",
    "taint": "Session taint",
    "injection": "Prompt-injection kinds (tool results)",
    "tool": "Tool-poisoning kinds (MCP tool descriptions)",
}

VERDICTS = {
    "deny": "**deny** in every mode (no approval, no mode and no allow rule can let it through)",
    "immune ask": "**ask** in every mode (no mode or allow rule skips it; with nobody to ask it is denied)",
    "ask": "**ask** (a mode or an allow rule may let it through)",
    "note": "**note**: recorded in the analysis for the person; it decides nothing on its own",
    "flag": "**flag**: the tool result is marked as untrusted, the model is warned and the session is tainted",
}

SYNTAX_VERDICT = ("**ask** when the finding is medium or high (a command that hides what it does); "
                  "a low-severity finding is a note only")

SHOWN = {"hard block": "command", "shell": "command", "syntax": "command", "landing": "command",
         "file": "tool call", "injection": "text", "tool": "tool description", "taint": "session"}


def _show(text: str) -> str:
    """An example as a reader can see it: long texts shortened, invisible characters escaped."""
    if len(text) > 200:
        text = f"{text[:60]}… ({len(text)} characters)"
    if all(ch.isprintable() or ch == "\n" for ch in text):
        return text
    return repr(text)[1:-1]


def _block(example: Any) -> str:
    if isinstance(example, tuple):  # taint: (earlier call, its result, later call)
        earlier, result, later = example
        return f"```text\n{earlier}\n  → result: {_show(result)}\n{later}\n```"
    return f"```text\n{_show(example)}\n```"


def page(record: Record) -> str:
    lines = [f"# {record.id}: {record.title}", "",
             f"*{FAMILIES[record.family]}* · declared in `{record.source}`", "",
             "## What it flags", "", record.title[0].upper() + record.title[1:] + ".", "",
             "## Why", "", record.why[0].upper() + record.why[1:] + ".", "",
             "## Verdict", "", (SYNTAX_VERDICT if record.family == "syntax" else VERDICTS[record.verdict]) + "."]
    if record.severity:
        lines += ["", f"Severity: {record.severity}."]
    lines += ["", "## Examples", ""]
    if record.id in NO_EXAMPLE:
        lines += [f"None can be given: {NO_EXAMPLE[record.id]}."]
    else:
        what = SHOWN[record.family]
        lines += [f"Flagged ({what}):", ""]
        for example in record.match:
            lines += [_block(example), ""]
        if record.not_match:
            lines += [f"Not flagged ({what}):", ""]
            for example in record.not_match:
                lines += [_block(example), ""]
        lines.pop()
    lines += ["", "Every example here is checked by `tests/test_registry.py`.", ""]
    return "\n".join(lines)


def index(found: list[Record]) -> str:
    lines = ["# Rules", "",
             "One page per finding code bastion can report, generated from the records beside the",
             "code that raises each one (`scripts/rule_pages.py`; do not edit by hand). Every example",
             "on these pages is run through the real guard by `tests/test_registry.py`.", "",
             "The long-tail command catalog has one page of its own: [catalog.md](catalog.md); which",
             "finding each effect raises on each class of target is [effects.md](effects.md).", ""]
    for family, heading in FAMILIES.items():
        members = [r for r in found if r.family == family]
        lines += [f"## {heading}", "", "| code | what it flags |", "| --- | --- |"]
        lines += [f"| [{r.id}]({r.id}.md) | {r.title.replace('|', '/')} |" for r in members]
        lines += [""]
    return "\n".join(lines)


def catalog() -> str:
    from bastion.shell.catalog.catalog_cli import table

    tools = list(table())
    lines = ["# The long-tail command catalog", "",
             f"{len(tools)} command-line tools beyond the core catalog, each described by a spec string in",
             "`bastion.shell.catalog.catalog_cli_data` (grammar: `bastion.shell.catalog.catalog_cli`).",
             "Each entry's examples are generated from its spec and checked by `tests/test_registry.py`:",
             "a read-only sub-command is allowed, a routine one is not denied, an unknown one asks, and a",
             "sub-command the spec gives a finding code raises that code and asks.", "",
             "| tool | example | expected |", "| --- | --- | --- |"]
    for tool in tools:
        for ex in catalog_examples(tool):
            expect = f"[{ex.expect}]({ex.expect}.md)" if ex.expect[:1].isupper() else ex.expect
            lines.append(f"| {tool} | `{ex.command.replace('|', '/')}` | {expect} |")
    return "\n".join(lines) + "\n"


def effects() -> str:
    from bastion.shell.meaning.verdicts import TABLE

    lines = ["# The effect × target table", "",
             "Which finding each effect raises, by the class of what it acts on",
             "(`bastion.shell.meaning.verdicts.TABLE`; target classes come from the one path table).",
             "A command's effects include those of the code inside it: the shell string an option",
             "runs, a program's process, file and network calls (read by the code models), a decoded",
             "literal. Every example is run through the real guard by `tests/test_effect_table.py`.", "",
             "| effect | target | finding | why | e.g. | not e.g. |", "| --- | --- | --- | --- | --- | --- |"]
    for c in TABLE:
        shown = ", ".join(f"`{_cell(m)}`" for m in c.match)
        neighbours = ", ".join(f"`{_cell(m)}`" for m in c.not_match)
        lines.append(f"| {c.effect} | {c.target} | [{c.code}]({c.code}.md) | {c.why} | {shown} | {neighbours} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "\\n")


def pages() -> dict[str, str]:
    """File name → content of every page."""
    found = records()
    out = {f"{r.id}.md": page(r) for r in found}
    out["index.md"] = index(found)
    out["catalog.md"] = catalog()
    out["effects.md"] = effects()
    return out


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    written = pages()
    for stale in OUT.glob("*.md"):
        if stale.name not in written:
            stale.unlink()
    for name, text in written.items():
        path = OUT / name
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
    print(f"{len(written)} pages in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
