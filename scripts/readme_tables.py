"""Regenerate the measured parts of README.md and docs/*.md from real runs.

    python scripts/readme_tables.py [--skip-bench] [--corpus ../shared/corpus]

Each generated block sits between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` markers,
in whichever of README.md and docs/**/*.md holds it; its headings are set one level below
the heading it sits under. The blocks: ``demo`` (``bastion demo``), ``accuracy``
(``bastion eval`` over the corpus), ``attacks`` (``scripts/attack_report.py``), ``effects``
(``bastion eval`` over the effects attack sets), ``runs`` (``scripts/runs_report.py``),
``real-sessions`` (``scripts/real_sessions_report.py``), ``peer-suites``
(``scripts/peer_suites_report.py``), ``injection-accuracy`` (``scripts/injection_report.py``:
the injection model on bastion's own sets with each style held out of fitting, the public
corpus, real files), ``speed`` (``benchmarks/bench.py``), and the README's
summaries ``headline-accuracy`` (from the runs above) and ``headline-speed`` (read from the
``speed`` block, so ``--skip-bench`` keeps both as they were). A block whose data is absent
(no ``../shared``) keeps its last values, with a message. Run it whenever decisions or speed
change.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^(#{1,6}) ", re.M)


def _run(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=True)
    if done.stderr.strip().startswith("skipped:"):
        print(done.stderr.strip(), file=sys.stderr)
    return done.stdout.strip()


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- {re.escape(name)}:start -->\n)(?:.*?\n)?(<!-- {re.escape(name)}:end -->)", re.S)


def _nest(text: str, before: str) -> str:
    """Shift the block's headings so its top one sits one level below the heading above it
    (outside code fences), so a block reads right wherever it lives."""
    levels = [len(m.group(1)) for m in HEADING.finditer(_outside_fences(text))]
    if not levels:
        return text
    above = [len(m.group(1)) for m in HEADING.finditer(_outside_fences(before))]
    shift = (above[-1] + 1 if above else 2) - min(levels)
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else HEADING.match(line)
        if match:
            line = "#" * min(6, max(1, len(match.group(1)) + shift)) + line[len(match.group(1)):]
        lines.append(line)
    return "\n".join(lines)


def _outside_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def fill(texts: dict[Path, str], name: str, body: str) -> None:
    """Put ``body`` into every ``name`` block; a block that appears nowhere is an error."""
    found = False
    for path, text in texts.items():
        pattern = _block(name)
        match = pattern.search(text)
        if match:
            found = True
            nested = _nest(body, text[: match.start()])
            texts[path] = pattern.sub(lambda m, b=nested: m.group(1) + b + "\n" + m.group(2), text)
    if not found:
        raise SystemExit(f"no <!-- {name}:start --> … <!-- {name}:end --> block in README.md or docs/")


def current(texts: dict[Path, str], name: str) -> str:
    """The body of a block as it stands (the first one found)."""
    for text in texts.values():
        match = re.search(rf"<!-- {re.escape(name)}:start -->\n(.*?)<!-- {re.escape(name)}:end -->", text, re.S)
        if match:
            return match.group(1)
    return ""


def _pct(part: float, whole: float, digits: int = 1) -> str:
    return f"{100 * part / whole:.{digits}f}%"


def accuracy_rows(reports: list[dict]) -> list[str]:
    """Headline rows from ``bastion eval --json``."""
    rows = []
    for report in reports:
        every = report["overall"]["all"]
        if report["kind"] == "dangerous":
            rows.append(f"| dangerous commands ({every['n']:,}, {len(report['by_source'])} sources): asked or denied | "
                        f"{_pct(every['ask'] + every['deny'], every['n'])} |")
        elif report["kind"] == "benign":
            rows.append(f"| benign commands ({every['n']:,}): denied / allowed without a question | "
                        f"{_pct(every['deny'], every['n'], 2)} / {_pct(every['allow'], every['n'])} |")
    return rows


def attack_rows(attacks: str) -> list[str]:
    """Headline row from ``scripts/attack_report.py``'s text."""
    held = re.findall(r"#+ (\w+)/catastrophic\.jsonl\s+catastrophic: (\d+);.*?never allowed where nobody answers \d+ \(([\d.]+%)\)", attacks, re.S)
    if not held:
        return []
    names = " / ".join(name for name, _, _ in held)
    return [f"| catastrophic attack commands never allowed where nobody answers ({names}) | "
            + " / ".join(f"{pct} of {n}" for _, n, pct in held) + " |"]


def effects_rows(reports: list[dict]) -> list[str]:
    """Headline row for the effects sets' holdout files (``bastion eval`` on attack sets)."""
    held = [r for r in reports if r["kind"] == "attacks" and r["file"].endswith("holdout.jsonl")]
    deny = [r["overall"].get("deny", {}) for r in held]
    look = [r["overall"].get("not_deny", {}) for r in held]
    n, caught, denied = (sum(d.get(k, 0) for d in deny) for k in ("deny n", "deny caught", "deny denied"))
    if not n:
        return []
    looks, look_denied = (sum(d.get(k, 0) for d in look) for k in ("not_deny n", "not_deny deny"))
    return [f"| danger one level down, held-out effects sets ({n} catastrophic, {looks} look-alikes): caught / "
            f"denied in every mode / look-alikes denied | {_pct(caught, n)} / {_pct(denied, n)} / {look_denied} |"]


def runs_rows(runs: str) -> list[str]:
    """Headline row for the read-before-run holdout set (``scripts/runs_report.py``)."""
    match = re.search(r"#+ runs/holdout\.jsonl.*?\*\*total\*\* \| \*\*(\d+)/(\d+) \(([\d.]+%)\)\*\* \| \*\*(\d+)/(\d+) \(([\d.]+%)\)", runs, re.S)
    if not match:
        return []
    return [f"| code in the files a command runs, held-out set: dangerous sequences not allowed / harmless controls allowed "
            f"| {match.group(3)} of {match.group(2)} / {match.group(6)} of {match.group(5)} |"]


def _cell(block: str, section: str, row: str, column: int) -> str | None:
    """One cell of a table under the heading that starts with ``section`` in a block."""
    part = re.split(r"^#+ ", block, flags=re.M)
    for chunk in part:
        if chunk.startswith(section):
            for line in chunk.splitlines():
                cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
                if cells and cells[0] == row:
                    return cells[column]
    return None


def speed_rows(speed: str) -> list[str]:
    """Headline rows read from the ``speed`` block (the last bench run)."""
    wanted = [
        ("deciding a `git status` call in process (`Guard.check`)", "In-process Guard.check", "`git status`", 1, "µs"),
        ("shell parse + analyse of `git status`", "Shell parse + analyse", "`git status`", 1, "µs"),
        ("whole hook process, `bastion hook claude-code`, warm decision server", "Against the floor",
         "hook with the warm decision server", 1, ""),
        ("the same, deciding in its own process (first call, `BASTION_HOOK_SERVER=0`)", "Against the floor",
         "hook deciding in its own process (`BASTION_HOOK_SERVER=0`)", 1, ""),
        ("the same, for a line tree-sitter parses (`grep -rn 'TODO' src \\| head -20`)", "Against the floor",
         "the same, for `grep -rn 'TODO' src \\| head -20` (a line tree-sitter parses)", 1, ""),
        ("`bastion check -- 'git status'`, a whole process", "Against the floor", "`bastion check -- 'git status'`", 1, ""),
        ("`Guard.check` on 900 varied everyday commands, each seen once", "Against the floor",
         "`Guard.check`, 900 varied everyday commands, each once", 1, ""),
        ("prompt-injection scan of a 10 KB README", "Injection scanner", "10 KB README (prose, shell, links)", 1, "µs"),
        ("sandbox's added time for `true` (bubblewrap)", "Sandbox overhead", "`true`", 3, "ms"),
    ]
    rows = []
    for label, section, row, column, unit in wanted:
        value = _cell(speed, section, row, column)
        if value and section == "Against the floor":  # with its ratio to the floor of the same run
            value = f"{value} ({_cell(speed, section, row, 4)} {_cell(speed, section, row, 2)})"
        if value:
            rows.append(f"| {label} | {value} {unit} |".replace("  |", " |"))
    return ["| speed (median, on a 2-core machine) | result |", "|---|---:|", *rows] if rows else []


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--skip-bench", action="store_true")
    args = parser.parse_args()
    python = sys.executable
    texts = {path: path.read_text(encoding="utf-8") for path in _pages()}

    demo = _run([python, "-m", "bastion", "demo"])
    demo = re.sub(r"/tmp/bastion-demo-\w+", "/tmp/bastion-demo-…", demo)
    fill(texts, "demo", "```\n$ make demo\n" + demo + "\n```")

    headline: list[str] | None = []
    corpus = Path(args.corpus)
    files = [corpus / name for name in ("dangerous_commands.jsonl", "benign_commands.jsonl")]
    if all(f.is_file() for f in files):
        sys.path.insert(0, str(ROOT / "src"))
        from bastion.evaluate import render_markdown

        reports = json.loads(_run([python, "-m", "bastion", "eval", "--json", *map(str, files)]))
        fill(texts, "accuracy", render_markdown(reports).strip())
        headline += accuracy_rows(reports)
    else:
        print(f"skipped: no corpus at {corpus}; the accuracy tables keep their last values", file=sys.stderr)
        headline = None

    attacks = _run([python, str(ROOT / "scripts" / "attack_report.py")]).strip()
    fill(texts, "attacks", attacks)
    if headline is not None:
        headline += attack_rows(attacks)

    sys.path.insert(0, str(ROOT / "src"))
    from bastion.evaluate import render_markdown as render

    sets = [str(p) for p in sorted((ROOT / "tests" / "attacks").glob("effects*/*.jsonl"))]
    effects = json.loads(_run([python, "-m", "bastion", "eval", "--json", *sets]))
    fill(texts, "effects", render(effects).strip())
    if headline is not None:
        headline += effects_rows(effects)

    runs = _run([python, str(ROOT / "scripts" / "runs_report.py")]).strip()
    fill(texts, "runs", runs)
    if headline is not None:
        headline += runs_rows(runs)

    for name, script in (("real-sessions", "real_sessions_report.py"), ("peer-suites", "peer_suites_report.py")):
        extra = ["--disagreements"] if name == "peer-suites" else []  # also rewrites docs/peer-suites.md
        out = _run([python, str(ROOT / "scripts" / script), "--json", *extra])
        if not out:  # the script said why on stderr
            headline = None
            continue
        report = json.loads(out)
        fill(texts, name, report["markdown"])
        if headline is not None:
            headline += report["headline"]

    injection = _run([python, str(ROOT / "scripts" / "injection_report.py"), "--json", "--corpus", args.corpus])
    if injection:
        report = json.loads(injection)
        fill(texts, "injection-accuracy", report["markdown"])
        if headline is not None:
            headline += report["headline"]

    if headline:
        fill(texts, "headline-accuracy", "\n".join(["| accuracy (built-in defaults) | result |", "|---|---:|", *headline]))
    else:
        print("skipped: the headline accuracy table keeps its last values (some data is absent)", file=sys.stderr)

    if not args.skip_bench:
        fill(texts, "speed", _run([python, str(ROOT / "benchmarks" / "bench.py")]))
    speed = speed_rows(current(texts, "speed"))
    if speed:
        fill(texts, "headline-speed", "\n".join(speed))

    for path, text in texts.items():
        if text != path.read_text(encoding="utf-8"):
            path.write_text(text, encoding="utf-8")
            print(f"{path.relative_to(ROOT)} updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
