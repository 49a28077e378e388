"""What a lower bound of the injection grey zone would send to the model check, per origin.

    .venv/bin/python scripts/injection_grey_zone.py [--corpus ../shared/corpus] [--bounds 0.1,0.15,0.2,0.25]

For each origin group (``default``, ``strict``) and candidate bound: how many benign texts
would be sent (the cost: requests, and benign text shown to a third party) and how many of
the injections the bar leaves below it would be (what a model's ``true`` could still
catch), over bastion's own sets (``tests/injection_sets``) and, when it is there, the
public corpus (``injection_texts.jsonl``). With the shipped weights, which were fitted
on these sets: in-sample figures. The bounds in use are ``src/bastion/data/injection_grey_zone.json``;
re-run this after the weights are fitted again.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "tests" / "injection_sets"


def records(corpus: Path) -> list[tuple[str, str, str]]:
    """``(text, source, set)`` for every labelled text; set is ``own-…`` or ``public-…``."""
    out = []
    for name in ("injections", "benign"):
        for line in (SETS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append((row["text"], row.get("source", ""), f"own-{row['label']}"))
    public = corpus / "injection_texts.jsonl"
    if public.is_file():
        for line in public.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append((row["text"], row.get("source", ""), f"public-{row['label']}"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--bounds", default="0.1,0.15,0.2,0.25")
    args = parser.parse_args()
    from bastion.injection.model_check import grey_bounds
    from bastion.injection.scanner import scan

    scored = []
    for text, source, group in records(args.corpus):
        result = scan(text, source)
        if result.origin == "instructions":
            continue
        key = "strict" if result.origin == "strict" else "default"
        scored.append((key, group, result.level, result.probability, len(result) > 0))
    print(f"bounds in use: {grey_bounds()}")
    for key in ("default", "strict"):
        total = Counter(group for k, group, *_ in scored if k == key)
        below = Counter(group for k, group, level, *_ in scored if k == key and level != "injection")
        print(f"\n{key}: texts {dict(total)}; below the injection bar {dict(below)}")
        for bound in (float(b) for b in args.bounds.split(",")):
            sent = Counter(group for k, group, level, p, found in scored
                           if k == key and level != "injection" and found and p >= bound)
            print(f"  from {bound:<5} sent {dict(sent)}")


if __name__ == "__main__":
    main()
