"""``bastion scan``: look for prompt injection in a file, stdin, or a batch of texts.

Exit status (a contract scripts rely on): 0 clean, 5 an injection was found, 2 bad
input (one line on stderr naming the problem, never a traceback).

    bastion scan README.md            # findings for a person
    curl -s URL | bastion scan - --json --source URL
    bastion scan --batch < texts.jsonl   # {"id", "text", "source"?} → {"id", "injection", "findings"}
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..injection.scanner import InjectionFinding

__all__ = ["run", "EXIT_CLEAN", "EXIT_INJECTION", "EXIT_BAD_INPUT"]

EXIT_CLEAN, EXIT_BAD_INPUT, EXIT_INJECTION = 0, 2, 5


class _BadInput(Exception):
    pass


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _finding_dict(text: str, finding: InjectionFinding) -> dict[str, Any]:
    data = finding.to_dict(text)
    data["line"], data["column"] = _line_column(text, finding.start)
    return data


def _shown(findings: Any) -> list[InjectionFinding]:
    """The findings a person is shown: the tables' always, the model's signals only when they
    add up to something (level suspicious or injection)."""
    return [f for f in findings if not f.signal or findings.level != "none"]


def report(text: str, source: str) -> dict[str, Any]:
    """The JSON shape of one scanned text."""
    from ..injection.scanner import THRESHOLD, is_injection, scan, score

    findings = scan(text, source)
    noticed = findings.level != "none"
    return {
        "source": source,
        "injection": is_injection(findings),
        "level": findings.level,
        "probability": round(findings.probability, 3),
        "signals": list(findings.signals) if noticed else [],
        "score": score(findings),
        "threshold": THRESHOLD,
        "findings": [_finding_dict(text, f) for f in _shown(findings)],
    }


def render(result: dict[str, Any]) -> str:
    """``report`` for a person: a verdict line, then one line per finding."""
    findings = result["findings"]
    name = result["source"]
    if result["injection"]:
        head = f"{name}: possible prompt injection (score {result['score']}, threshold {result['threshold']})"
    elif result.get("level") == "suspicious":
        head = f"{name}: no injection — suspicious (probability {result['probability']:.2f}), {len(findings)} indicator(s)"
    elif findings:
        head = f"{name}: no injection — {len(findings)} weak indicator(s), score {result['score']} of {result['threshold']}"
    else:
        head = f"{name}: clean"
    lines = [head]
    for f in findings:
        where = f"{f['line']}:{f['column']}"
        lines.append(f"  {where:>8}  {f['severity']:<6}  {f['kind']:<20}  \"{f['excerpt']}\"  {f['message']}")
    return "\n".join(lines)


def _read(path: str | None, stdin: TextIO) -> tuple[str, str]:
    """``(text, default source name)`` of a file or of stdin."""
    if path in (None, "-"):
        data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode("utf-8", "surrogateescape")
        return data.decode("utf-8", "replace"), "stdin"
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace"), path
    except IsADirectoryError:
        raise _BadInput(f"{path}: is a directory (give a file, or - for stdin)") from None
    except FileNotFoundError:
        raise _BadInput(f"{path}: no such file") from None
    except OSError as exc:
        raise _BadInput(f"{path}: cannot read ({exc.strerror or type(exc).__name__})") from None


def _batch(path: str | None, source: str | None, stdin: TextIO, out: TextIO) -> int:
    """JSON Lines in (``{"id", "text", "source"?}``), one result per line out."""
    from ..injection import scanner

    text, where = _read(path, stdin)
    status = EXIT_CLEAN
    bad = False
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        ident: Any = None
        try:
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise _BadInput(f"{where} line {number}: invalid JSON at column {exc.colno}: {exc.msg}") from None
            if not isinstance(record, dict):
                raise _BadInput(f'{where} line {number}: expected an object like {{"id": 1, "text": "..."}}')
            ident = record.get("id")
            if "id" not in record:
                raise _BadInput(f'{where} line {number}: missing "id" (results are matched to inputs by it)')
            body = record.get("text")
            if not isinstance(body, str):
                raise _BadInput(f'{where} line {number}: "text" must be a string')
            name = record.get("source", source or "")
            if not isinstance(name, str):
                raise _BadInput(f'{where} line {number}: "source" must be a string')
            findings = scanner.scan(body, name)
            injected = scanner.is_injection(findings)
            result = {"id": ident, "injection": injected, "findings": [_finding_dict(body, f) for f in _shown(findings)]}
            if injected:
                status = EXIT_INJECTION
        except _BadInput as exc:
            print(f"bastion: {exc}", file=sys.stderr)
            result = {"id": ident, "error": str(exc)}
            bad = True
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return EXIT_BAD_INPUT if bad else status


def run(args: Any, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run ``bastion scan`` for parsed arguments (``file``, ``json``, ``source``, ``batch``)."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    try:
        if args.batch:
            return _batch(args.file, args.source, stdin, out)
        text, default_name = _read(args.file, stdin)
    except _BadInput as exc:
        print(f"bastion: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    result = report(text, args.source or default_name)
    out.write((json.dumps(result, ensure_ascii=False) if args.json else render(result)) + "\n")
    return EXIT_INJECTION if result["injection"] else EXIT_CLEAN


def add_parser(sub: Any) -> None:
    """The ``scan`` sub-command, for ``cli.app.build_parser``."""
    scan_parser = sub.add_parser("scan", help="look for prompt injection in a file, stdin or a batch of texts")
    scan_parser.add_argument("file", nargs="?", metavar="FILE|-", help="file to scan (default, or -: stdin)")
    scan_parser.add_argument("--json", action="store_true", help="machine-readable result")
    scan_parser.add_argument("--source", help="where the text came from (names it in the output)")
    scan_parser.add_argument(
        "--batch", action="store_true", help='JSON Lines {"id", "text", "source"?} in, one result per line out'
    )
