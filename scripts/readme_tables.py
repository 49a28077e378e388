"""Regenerate the measured parts of README.md from real runs.

    python scripts/readme_tables.py [--skip-bench] [--corpus ../shared/corpus]

Each generated block sits between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``
markers: ``demo`` (``bastion demo``), ``accuracy`` (``bastion eval`` over the corpus)
and ``speed`` (``benchmarks/bench.py``). Run it whenever decisions or speed change.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def _replace(text: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- {name}:start -->\n)(?:.*?\n)?(<!-- {name}:end -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"README.md has no <!-- {name}:start --> … <!-- {name}:end --> block")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--skip-bench", action="store_true")
    args = parser.parse_args()
    python = sys.executable
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")

    demo = _run([python, "-m", "bastion", "demo"])
    demo = re.sub(r"/tmp/bastion-demo-\w+", "/tmp/bastion-demo-…", demo)
    text = _replace(text, "demo", "```\n$ make demo\n" + demo + "\n```")

    corpus = Path(args.corpus)
    files = [str(corpus / name) for name in ("dangerous_commands.jsonl", "benign_commands.jsonl")]
    accuracy = _run([python, "-m", "bastion", "eval", *files])
    text = _replace(text, "accuracy", accuracy)

    attacks = _run([python, str(ROOT / "scripts" / "attack_report.py")]).replace("#### ", "##### ")
    text = _replace(text, "attacks", attacks.strip())

    if not args.skip_bench:
        speed = _run([python, str(ROOT / "benchmarks" / "bench.py")]).replace("## ", "#### ")
        text = _replace(text, "speed", speed)

    readme.write_text(text, encoding="utf-8")
    print("README.md updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
