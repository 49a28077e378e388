"""Fit the injection model's weights and write src/bastion/data/injection_weights.json.

    .venv/bin/python scripts/injection_fit.py [--corpus ../shared/corpus]

Plain logistic regression with an L2 penalty, fitted by full-batch gradient descent on
sparse features (no numpy): the features are what ``scan`` reports for each text
(``ScanResult.features``: fired signals, signals meeting in one passage, the indicator
tables' findings). Fitted on

* bastion's own sets (``tests/injection_sets/``, written by ``scripts/injection_sets.py``);
* the public corpus ``injection_texts.jsonl``, lines ≢ 3 (mod 4) only — lines ≡ 3 (mod 4)
  stay held out, as the indicator tables were written without them. Without the corpus the
  fit uses the own sets alone, and says so in the file;
* background: ordinary text files on this machine (package READMEs in the virtualenv's
  ``site-packages``, the standard library's modules, ``/usr/share/doc``), cut into pieces of
  at most 4,000 characters, all benign: they teach the model how often its signals occur in
  text nobody wrote as an attack (install commands, "send", "delete", "token" …).

Texts from agent instruction files are left out: there only hidden channels count, by rule.
(Tried and dropped: fitting also on copies of each text without the tables' features, so
that signals must stand alone. Held-out recall rose to 96%, but false positives rose to 8%
on the look-alikes and to 0.2% on real files; pooling the signals of a group into one
feature, ``weigh.POOLED``, gives the signals their weight without that.)
``scripts/injection_report.py`` measures the result, leaving whole styles out of fitting.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

SETS = ROOT / "tests" / "injection_sets"
WEIGHTS = ROOT / "src" / "bastion" / "data" / "injection_weights.json"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
#: Fixed, not fitted: a text is an injection at p ≥ 0.5 (0.35 from a strict origin) and
#: suspicious at p ≥ 0.3 (0.22). A suspicious text taints the session, which makes the next
#: test run an immune ask, so the bar sits close to the injection one: it catches what
#: falls just short, not every text with one weak sign.
THRESHOLDS = {"injection": {"default": 0.5, "strict": 0.35}, "suspicious": {"default": 0.3, "strict": 0.22}}
L2 = 0.002
EPOCHS = 600
RATE = 0.5

Example = tuple[dict[str, float], int]


def own_records() -> list[dict[str, Any]]:
    out = []
    for name in ("injections", "benign"):
        with open(SETS / f"{name}.jsonl", encoding="utf-8") as handle:
            out += [json.loads(line) for line in handle if line.strip()]
    return out


def corpus_records(corpus: Path) -> list[dict[str, Any]] | None:
    path = corpus / "injection_texts.jsonl"
    if not path.is_file():
        return None
    with open(path, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    for number, record in enumerate(records, 1):
        record["line"] = number
    return records


BACKGROUND_PIECE = 4000
BACKGROUND_PER_FILE = 3


def background_records(limit: int = 1500) -> list[dict[str, Any]]:
    """Benign pieces of real files (see the module docstring), in a fixed order."""
    import sysconfig

    roots = [Path(sysconfig.get_paths()["purelib"]), Path(sysconfig.get_paths()["stdlib"]), Path("/usr/share/doc")]
    files: list[Path] = []
    for root in roots:
        if not root.is_dir():
            continue
        for pattern in ("**/METADATA", "**/*.md", "**/*.rst", "**/README*", "*.py"):
            files += [p for p in root.glob(pattern) if p.is_file() and not p.name.endswith((".gz", ".bz2"))]
    files = sorted(set(files))
    out: list[dict[str, Any]] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for piece in range(BACKGROUND_PER_FILE):
            chunk = text[piece * BACKGROUND_PIECE:(piece + 1) * BACKGROUND_PIECE]
            if len(chunk.strip()) < 200:
                break
            out.append({"text": chunk, "label": "benign", "style": "background", "source": path.name})
    kinds: dict[str, list[dict[str, Any]]] = {}
    for record in out:  # interleave the kinds of file, so no one kind fills the quota
        kinds.setdefault(Path(record["source"]).suffix or record["source"], []).append(record)
    mixed = [r for batch in itertools.zip_longest(*kinds.values()) for r in batch if r is not None]
    return mixed[:limit]


def featurize(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each record with ``features``, ``origin`` and ``y`` (1 for an injection)."""
    from bastion.injection.scanner import scan

    out = []
    for record in records:
        result = scan(record["text"], record.get("source", ""))
        features = {k: v for k, v in result.features.items() if not k.startswith("rule:")}
        out.append({**record, "features": features, "origin": result.origin, "level": result.level,
                    "rule": any(k.startswith("rule:") for k in result.features),
                    "y": 1 if record["label"] == "injection" else 0})
    return out


def fit(examples: list[Example], *, l2: float = L2, epochs: int = EPOCHS, rate: float = RATE) -> tuple[float, dict[str, float]]:
    """Bias and weights minimising mean log-loss + l2/2·|w|² (Adagrad steps)."""
    names = sorted({name for values, _ in examples for name in values})
    index = {name: i for i, name in enumerate(names)}
    rows = [([(index[k], v) for k, v in values.items()], y) for values, y in examples]
    w = [0.0] * len(names)
    bias = 0.0
    g2 = [1e-8] * len(names)
    b2 = 1e-8
    n = len(rows)
    for _ in range(epochs):
        grad = [l2 * wi for wi in w]
        gb = 0.0
        for active, y in rows:
            z = bias + sum(w[i] * v for i, v in active)
            p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
            err = (p - y) / n
            gb += err
            for i, v in active:
                grad[i] += err * v
        for i, g in enumerate(grad):
            g2[i] += g * g
            w[i] -= rate * g / math.sqrt(g2[i])
        b2 += gb * gb
        bias -= rate * gb / math.sqrt(b2)
    return bias, {name: w[i] for name, i in index.items()}


def predict(bias: float, weights: dict[str, float], values: dict[str, float]) -> float:
    z = bias + sum(weights.get(k, 0.0) * v for k, v in values.items())
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def level(p: float, origin: str) -> str:
    key = "strict" if origin == "strict" else "default"
    if p >= THRESHOLDS["injection"][key]:
        return "injection"
    return "suspicious" if p >= THRESHOLDS["suspicious"][key] else "none"


def training_examples(own: list[dict[str, Any]], public: list[dict[str, Any]] | None,
                      background: list[dict[str, Any]]) -> list[Example]:
    rows = [r for r in own if r["origin"] != "instructions"] + background
    if public:
        rows += [r for r in public if r["line"] % 4 != 3]
    return [(r["features"], r["y"]) for r in rows]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    args = parser.parse_args()
    own = featurize(own_records())
    raw = corpus_records(Path(args.corpus))
    public = featurize(raw) if raw else None
    if public is None:
        print(f"no public corpus at {args.corpus}: fitting on the own sets alone", file=sys.stderr)
    background = featurize(background_records())
    bias, weights = fit(training_examples(own, public, background))
    kept = {k: round(v, 3) for k, v in sorted(weights.items()) if abs(v) >= 0.0005}
    model = {
        "bias": round(bias, 3),
        "weights": kept,
        "thresholds": THRESHOLDS,
        "fitted": {
            "method": f"logistic regression, L2 {L2}, {EPOCHS} Adagrad epochs (scripts/injection_fit.py)",
            "own_sets": len([r for r in own if r["origin"] != "instructions"]),
            "public_corpus_lines_not_3_mod_4": len([r for r in public if r["line"] % 4 != 3]) if public else 0,
            "background_pieces": len(background),
        },
    }
    WEIGHTS.write_text(json.dumps(model, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS.relative_to(ROOT)}: bias {model['bias']}, {len(kept)} weights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
