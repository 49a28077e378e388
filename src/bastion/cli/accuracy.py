"""``bastion eval``: accuracy on labelled JSON Lines corpora (``evaluate`` does the
counting; this prints its report)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def add_parsers(sub: Any) -> None:
    evaluate = sub.add_parser("eval", help="accuracy on labelled JSON Lines corpora")
    evaluate.add_argument("files", nargs="+", metavar="FILE.jsonl")
    evaluate.add_argument("--json", action="store_true", help="machine-readable report")
    evaluate.add_argument("--misses", type=int, default=0, metavar="N", help="also print N misses per file")


def cmd_eval(args: Any) -> int:
    from ..evaluate import evaluate, render_markdown

    reports = evaluate(args.files)
    if args.json:
        print(json.dumps(reports, ensure_ascii=False))
        return 0
    print(render_markdown(reports))
    if args.misses:
        for report in reports:
            for miss in report["misses"][:args.misses]:
                print(f"miss [{Path(report['file']).name}]: {json.dumps(miss, ensure_ascii=False)}")
    return 0
