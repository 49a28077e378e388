"""Check that README.md and docs/**/*.md point at things that exist.

    .venv/bin/python scripts/check_docs.py

* every relative link ``[text](path#anchor)`` names an existing file, and its anchor a
  heading of that file (GitHub's slugs);
* every ``src/bastion/…`` path names an existing file or folder;
* every dotted name ``bastion.x.y`` imports (the module, or an attribute of it); on the
  pages in :data:`RECORD_KEYS`, a two-part ``bastion.x`` is the name of a record's
  attribute (an OpenTelemetry log record's ``bastion.verdict``), not a module.

Prints one line per broken reference; exit status 1 when there is any. Run it after
moving a page, a heading or a module.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"\]\(([^)\s]+)\)")
SRC_PATH = re.compile(r"\bsrc/bastion/[\w/.]*\w")
DOTTED = re.compile(r"\bbastion(?:\.[A-Za-z_]\w*)+")


#: Pages whose ``bastion.x`` names are attributes of the records bastion sends.
RECORD_KEYS = frozenset({"docs/telemetry.md"})


def slugs(path: Path) -> set[str]:
    """GitHub's anchors for a page's headings (repeats get -1, -2 …)."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    for match in re.finditer(r"^#{1,6} (.*)$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def _imports(dotted: str) -> bool:
    """``bastion.a.b.C``: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


def check(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    prose = FENCE.sub("", text)
    problems = []
    for target in LINK.findall(prose):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            problems.append(f"no file for link {target}")
        elif anchor and (dest.is_dir() or anchor not in slugs(dest)):
            problems.append(f"no heading for link {target}")
    for path in sorted(set(SRC_PATH.findall(text))):
        if not (ROOT / path).exists():
            problems.append(f"no such path {path}")
    keys = page.relative_to(ROOT).as_posix() in RECORD_KEYS
    for dotted in sorted(set(DOTTED.findall(text))):
        if keys and dotted.count(".") == 1:
            continue
        if not dotted.endswith((".md", ".json", ".jsonl")) and not _imports(dotted):
            problems.append(f"does not import: {dotted}")
    return [f"{page.relative_to(ROOT)}: {p}" for p in problems]


def main() -> int:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
    problems = [line for page in pages for line in check(page)]
    print("\n".join(problems) or f"{len(pages)} pages: every link, path and module name resolves")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
