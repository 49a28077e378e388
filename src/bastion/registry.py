"""Every piece of bastion's own knowledge as one record, gathered from where it is declared.

Each family keeps its records next to the code that raises them, as plain tuples (cheap
to import on the hot path); this module only collects them, and is never imported by
the guard itself:

==========  ====================================  =========================================
family      declared in                           examples are
==========  ====================================  =========================================
hard block  ``shell.catalog.intents.CODES``        commands (denied in every mode)
shell       ``shell.catalog.intents.CODES``        commands (asked; ``low`` ones are notes)
syntax      ``shell.syntax.validators.sh0NN_*``    commands (``EXAMPLE`` / ``BENIGN``)
file        ``files.check.CODES``                  tool calls (``"Read ~/.aws/credentials"``)
landing     ``files.landing.FINDINGS`` + ``FORMS``  commands in the landing scene
injection   ``injection.kinds.RECORDS``            texts (a tool result)
tool        ``injection.tools.TOOL_RECORDS``       MCP tool descriptions
taint       ``injection.taint.CODES``              (earlier call, its result, later call)
catalog     ``shell.catalog.catalog_cli_data.CLI`` commands generated from the spec
core        ``shell.catalog.catalog_examples``     commands, one table entry each
==========  ====================================  =========================================

``tests/test_registry.py`` runs every example through the real ``Guard.check`` (or the
scanner), as Codex's execpolicy checks a rule's examples at load; ``scripts/rule_pages.py``
writes ``docs/rules/`` from the same records.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from .named_tuple import NamedTuple

__all__ = [
    "NO_EXAMPLE", "CatalogExample", "CoreExample", "Record", "by_id", "catalog_examples", "core_catalog_examples",
    "core_entries_without_examples", "records", "unreachable_keys",
]


class Record(NamedTuple):
    """One finding code: what it flags, why, what it leads to, and its examples."""

    id: str
    family: str
    title: str
    why: str
    #: In default mode: ``deny`` (every mode), ``immune ask`` (every mode asks; nobody to
    #: ask → deny), ``ask``, ``note`` (recorded in the analysis, decides nothing) or
    #: ``flag`` (injection: the result is marked and the session tainted).
    verdict: str
    severity: str
    match: tuple[Any, ...]
    not_match: tuple[Any, ...]
    source: str  # the module the record is declared in


#: Records that have no example, and why none can be given.
NO_EXAMPLE: dict[str, str] = {
    "FS000": "raised only for input no tool call can produce: every path producer passes a resolved "
             "absolute path and one of the four access kinds; it is the fail-closed answer for a future producer",
    "INJ000": "the code for a kind the scanner does not declare; every kind it reports has its own code "
              "(injection.kinds.RECORDS), so no text can raise it",
    "TAINT000": "an I/O failure of bastion's own state folder while recording a session, not something a "
                "tool call or its result can say",
}


def _shell_records() -> list[Record]:
    from .shell.catalog.intents import CODES

    out = []
    for code in CODES.values():
        if code.hard:
            family, verdict = "hard block", "deny"
        else:
            family, verdict = "shell", "note" if code.severity.value == "low" else "ask"
        out.append(Record(code.code, family, code.title, code.why, verdict, code.severity.value,
                          code.match, code.not_match, "bastion.shell.catalog.intents"))
    return out


def _syntax_records() -> list[Record]:
    from .shell.syntax.validators import validators

    return [
        Record(m.ID, "syntax", m.WHAT, m.WHY, "ask", "", (m.EXAMPLE,), (m.BENIGN,), m.__name__)
        for m in validators()
    ]


def _file_records() -> list[Record]:
    from .files.check import CODES
    from .files.landing import FINDINGS, FORMS

    out = [
        Record(r.code, "file", r.title, r.why, ("immune " if r.immune and r.verdict == "ask" else "") + r.verdict,
               "", r.match, r.not_match, "bastion.files.check")
        for r in CODES
    ]
    landed = {
        "FS007": ("immune ask", tuple(c for f in FORMS for c in f.match)),
        "FS008": ("ask", tuple(c for f in FORMS for c in f.unlistable)),
    }
    not_match = tuple(c for f in FORMS for c in f.not_match)
    for code, (title, why) in FINDINGS.items():
        verdict, match = landed[code]
        out.append(Record(code, "landing", title, why, verdict, "", match, not_match, "bastion.files.landing"))
    return out


def _injection_records() -> list[Record]:
    from .injection.kinds import RECORDS, UNKNOWN_KIND
    from .injection.tools import TOOL_RECORDS

    out = [Record(r.code, "injection", r.title, r.why, "flag", "", r.match, r.not_match, "bastion.injection.kinds")
           for r in (UNKNOWN_KIND, *RECORDS)]
    out += [Record(r.code, "tool", r.title, r.why, "flag", "", r.match, r.not_match, "bastion.injection.tools")
            for r in TOOL_RECORDS]
    return out


def _taint_records() -> list[Record]:
    from .injection.taint import CODES

    return [Record(code, "taint", title, why, "immune ask", "high", match, not_match, "bastion.injection.taint")
            for code, title, why, match, not_match in CODES]


def records() -> list[Record]:
    """Every finding-code record, sorted by id."""
    found = _shell_records() + _syntax_records() + _file_records() + _injection_records() + _taint_records()
    return sorted(found, key=lambda r: r.id)


def by_id() -> dict[str, Record]:
    return {r.id: r for r in records()}


# --------------------------------------------------------------------------- catalog


class CatalogExample(NamedTuple):
    """A command generated from one long-tail catalog spec, and what the spec says of it.

    ``value`` is the spec's value: ``r`` (read-only), ``l`` (routine), ``?`` (unknown)
    or a finding code. ``expect`` is what ``Guard.check`` must answer in default mode:
    ``allow`` (a listed read-only sub-command), ``not deny`` (routine, or read-only only
    through the spec's default ``*``, where other checks may still ask), ``ask``
    (unknown), or the finding code itself (raised, and asked; a ``low`` code is a note)."""

    tool: str
    command: str
    value: str
    expect: str


def _command(tool: str, key: str, subs: dict[str, str] | Any) -> str:
    """``tool KEY`` as typed: ``KEY$`` matches only with nothing after it, so a plain
    key that also has a ``KEY$`` form gets an operand."""
    if key.endswith("$"):
        return f"{tool} {key[:-1]}"
    return f"{tool} {key} x" if f"{key}$" in subs else f"{tool} {key}"


def _expect(value: str, listed: bool) -> str:
    if value == "r":
        return "allow" if listed else "not deny"
    if value == "l":
        return "not deny"
    return "ask" if value == "?" else value


def catalog_examples(tool: str) -> list[CatalogExample]:
    """Examples generated from ``tool``'s spec: the first read-only, routine and coded
    sub-command it lists (or the bare tool, a risky option, or the default)."""
    from .shell.catalog.catalog_cli import cli_spec

    spec = cli_spec(tool)
    if spec is None:
        return []
    out: list[CatalogExample] = []
    if spec.bare is not None:
        out.append(CatalogExample(tool, tool, spec.bare, _expect(spec.bare, True)))
    seen: set[str] = {"code" if e.value.startswith(("CAT", "HB")) else e.value for e in out}
    for key, value in spec.subs.items():
        kind = "code" if value.startswith(("CAT", "HB")) else value
        if kind in seen or kind == "?":
            continue
        seen.add(kind)
        out.append(CatalogExample(tool, _command(tool, key, spec.subs), value, _expect(value, True)))
    if "code" not in seen:
        for option, value in spec.risky.items():
            if value.startswith(("CAT", "HB")):
                sub = next((k for k, v in spec.subs.items() if v in ("r", "l")), None)
                base = _command(tool, sub, spec.subs) if sub is not None else tool
                out.append(CatalogExample(tool, f"{base} {option}", value, value))
                break
    if not out:
        out.append(CatalogExample(tool, f"{tool} anything", spec.default, _expect(spec.default, False)))
    return out


def unreachable_keys() -> list[tuple[str, str]]:
    """Sub-command keys the matcher never reaches: ``(tool, key)`` for each key of a core
    tool or a long-tail spec that, typed as it reads (``pyenv install --list``), is looked
    up as some other key. The answer comes from the guard's own lookups."""
    from .shell.catalog.catalog import TOOLS
    from .shell.catalog.catalog_cli import cli_spec, table
    from .shell.meaning.checks.tools import _cli_lookup, tool_lookup
    from .shell.syntax.options import parse_args

    out = []
    for name, core in TOOLS.items():
        for key in core.subs:
            args = tuple(key.split())
            if tool_lookup(core, args, parse_args(args, core.value_opts))[0] != key:
                out.append((name, key))
    for name in table():
        spec = cli_spec(name)
        for key in spec.subs if spec is not None else ():
            args = tuple(key.rstrip("$").split())
            parsed = parse_args(args, spec.value_opts)  # type: ignore[union-attr]
            if _cli_lookup(spec, args, parsed.operands, parsed)[0] != key.rstrip("$"):  # type: ignore[arg-type]
                out.append((name, key))
    return out


# --------------------------------------------------------------------------- core catalog


class CoreExample(NamedTuple):
    """A command for one entry of a core catalog table (``catalog.py``) and what
    ``Guard.check`` must answer (see ``shell.catalog.catalog_examples``); ``gap`` says why
    the guard does not answer it yet (the test then expects the example to fail)."""

    table: str
    entry: str
    command: str
    expect: str
    gap: str


def _core_entries(table: str) -> set[str]:
    from .shell.catalog import catalog

    return set(getattr(catalog, table))


def core_catalog_examples() -> list[CoreExample]:
    """Every example of every core catalog entry."""
    from .shell.catalog.catalog_examples import EXAMPLES, GAPS

    return [CoreExample(table, entry, command, expect, GAPS.get((table, entry), ""))
            for table, entries in EXAMPLES.items() for entry, examples in entries.items()
            for command, expect in examples]


def core_entries_without_examples() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(missing, stale)``: entries of the covered tables with no example, and examples
    for entries the tables no longer hold."""
    from .shell.catalog.catalog_examples import EXAMPLES

    missing, stale = [], []
    for table, entries in EXAMPLES.items():
        have = _core_entries(table)
        missing += [(table, e) for e in sorted(have - set(entries)) if not entries.get(e)]
        stale += [(table, e) for e in sorted(set(entries) - have)]
    return missing, stale
