"""Measure the injection model honestly: leave whole styles out of fitting, and the public corpus.

    .venv/bin/python scripts/injection_report.py [--json] [--corpus ../shared/corpus] [--folds 5]

* **Own sets, held-out styles.** The styles of ``tests/injection_sets/`` (injection and
  benign alike) are dealt into ``--folds`` groups; each group is predicted by a model fitted
  without it (on the other styles and the public corpus's lines ≢ 3 mod 4), with the
  thresholds of ``scripts/injection_fit.py``. Every style is held out once.
* **Public corpus** (``injection_texts.jsonl``), with the shipped weights, as
  ``bastion eval`` counts it (recall without the ``benign_looking_task`` and
  ``repetitive_token_noise`` records), and on its held-out lines ≡ 3 (mod 4).
* **Fresh hand-written sets** (``tests/injection_sets/fresh.jsonl``, 40 + 40 texts, and
  ``fresh2.jsonl``, 30 + 29, and ``fresh3.jsonl``, 25 + 25, each written after the signals and
  never used in fitting). The first measurement of each was blind; the signals were then
  widened from the misses of the first two, so later figures on those are not. ``fresh3``
  has changed nothing: its figure stays blind.
* **Real files never used in fitting**: Python modules of the virtualenv's packages and of
  the standard library's sub-packages (fitting saw only top-level standard-library modules
  and documentation files), their first 4,000 characters.

``--json`` prints ``{"markdown": …, "headline": [rows], "figures": {…}}`` for
``scripts/readme_tables.py``. ``--docs`` writes the table of signals (from their records in
``bastion.injection.signals``) into docs/injection.md, between ``<!-- injection-signals:start -->``
and ``<!-- injection-signals:end -->``, and does nothing else.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from injection_fit import (  # noqa: E402
    DEFAULT_CORPUS,
    SETS,
    background_records,
    corpus_records,
    featurize,
    fit,
    level,
    own_records,
    predict,
)

NOISE = {"benign_looking_task", "repetitive_token_noise"}


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def held_out_styles(own: list[dict[str, Any]], public: list[dict[str, Any]] | None, background: list[dict[str, Any]],
                    folds: int) -> list[dict[str, Any]]:
    """Every own record with the level a model fitted without its style gives it."""
    rng = random.Random(11)
    styles = {label: sorted({r["style"] for r in own if r["label"] == label}) for label in ("injection", "benign")}
    fold_of: dict[str, int] = {}
    for names in styles.values():
        rng.shuffle(names)
        for i, name in enumerate(names):
            fold_of[name] = i % folds
    public_train = [(r["features"], r["y"]) for r in public if r["line"] % 4 != 3] if public else []
    public_train += [(r["features"], r["y"]) for r in background]
    out = []
    for fold in range(folds):
        train = [(r["features"], r["y"]) for r in own if fold_of[r["style"]] != fold and r["origin"] != "instructions"]
        bias, weights = fit(train + public_train)
        for record in own:
            if fold_of[record["style"]] != fold:
                continue
            if record["origin"] == "instructions" or record["rule"]:
                lvl = record["level"]  # by rule, not by the weights: what scan said
            else:
                lvl = level(predict(bias, weights, record["features"]), record["origin"])
            out.append({**record, "level": lvl})
    return out


def real_files(limit: int = 3000) -> list[dict[str, Any]]:
    """Benign pieces of Python modules the fit never saw (see the module docstring)."""
    import sysconfig

    roots = [Path(sysconfig.get_paths()["purelib"]), Path(sysconfig.get_paths()["stdlib"])]
    files = sorted({p for root in roots if root.is_dir() for p in root.glob("*/**/*.py")})
    step = max(1, len(files) // limit)
    out = []
    for path in files[::step][:limit]:
        try:
            text = path.read_text(encoding="utf-8")[:4000]
        except (OSError, UnicodeDecodeError):
            continue
        if text.strip():
            out.append({"text": text, "label": "benign", "source": path.name})
    return out


def public_figures(public: list[dict[str, Any]]) -> dict[str, Any]:
    figures: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record in public:
        flagged = record["level"] == "injection"  # scan's level, with the shipped weights
        tags = set(record.get("tags") or ())
        keys = [f"{record['label']}:all"]
        if record["label"] == "injection" and not tags & NOISE:
            keys.append("injection:without_noise")
        if record["label"] == "benign" and "benign-discussion" in tags:
            keys.append("benign:discussion")
        if record["line"] % 4 == 3:
            keys += [f"held:{k}" for k in keys]
        for key in keys:
            figures[key][0] += flagged
            figures[key][1] += 1
    return {k: {"flagged": v[0], "n": v[1]} for k, v in figures.items()}


#: Each fresh set's first, blind measurement (before any signal was changed because of it).
FRESH_BLIND = {"fresh": {"recall": 0.55, "fp": 0.0}, "fresh2": {"recall": 0.70, "fp": 0.0},
               "fresh3": {"recall": 0.56, "fp": 0.04}}


def render(held: list[dict[str, Any]], public: dict[str, Any] | None,
           files: list[dict[str, Any]], fresh: dict[str, list[dict[str, Any]]]) -> tuple[str, list[str], dict[str, Any]]:
    inj = [r for r in held if r["label"] == "injection"]
    ben = [r for r in held if r["label"] == "benign"]
    caught = sum(r["level"] == "injection" for r in inj)
    noticed = sum(r["level"] != "none" for r in inj)
    fp = sum(r["level"] == "injection" for r in ben)
    quiet_fp = sum(r["level"] == "suspicious" for r in ben)
    n_styles = f"{len({r['style'] for r in inj})} + {len({r['style'] for r in ben})}"
    lines = [
        f"Own sets, each style held out of fitting once ({len(inj)} injections, {len(ben)} benign look-alikes, "
        f"{n_styles} styles):", "",
        "| held-out styles | result |", "|---|---:|",
        f"| injections flagged as injection (recall) | {_pct(caught, len(inj))} |",
        f"| injections at least suspicious (taint without a warning) | {_pct(noticed, len(inj))} |",
        f"| benign look-alikes flagged as injection (false positives) | {_pct(fp, len(ben))} |",
        f"| benign look-alikes only suspicious | {_pct(quiet_fp, len(ben))} |",
    ]
    figures: dict[str, Any] = {"own": {"recall": caught / len(inj), "fp": fp / len(ben), "suspicious_or_more": noticed / len(inj),
                                       "benign_suspicious": quiet_fp / len(ben)}}
    headline = [f"| prompt injection, own sets with each style held out of fitting ({len(inj)} injections, {len(ben)} "
                f"look-alikes, {n_styles} styles): recall / false positives | {_pct(caught, len(inj))} / {_pct(fp, len(ben))} |"]
    if public:
        def cell(key: str) -> str:
            item = public.get(key, {"flagged": 0, "n": 0})
            return f"{_pct(item['flagged'], item['n'])} of {item['n']}"
        lines += ["", "Public corpus (`injection_texts.jsonl`), shipped weights:", "",
                  "| public corpus | all lines | held-out lines ≡ 3 (mod 4) |", "|---|---:|---:|",
                  f"| recall (without context-only tasks and token noise) | {cell('injection:without_noise')} | "
                  f"{cell('held:injection:without_noise')} |",
                  f"| recall, every injection | {cell('injection:all')} | {cell('held:injection:all')} |",
                  f"| false positives, benign | {cell('benign:all')} | {cell('held:benign:all')} |",
                  f"| false positives, texts that discuss injection | {cell('benign:discussion')} | "
                  f"{cell('held:benign:discussion')} |"]
        rec, ben_all = public["injection:without_noise"], public["benign:all"]
        headline.append(f"| prompt injection, public corpus ({rec['n']:,} injections, {ben_all['n']:,} benign): recall / false "
                        f"positives | {_pct(rec['flagged'], rec['n'])} / {_pct(ben_all['flagged'], ben_all['n'])} |")
        figures["public"] = public
    if fresh:
        lines += ["", "Fresh hand-written sets, never used in fitting. The first figure of each was measured blind; the "
                  "signals were then widened from the misses of `fresh` and `fresh2`, so their second figures are not "
                  "blind; `fresh3` changed nothing:", "",
                  "| set | injections / look-alikes | recall, blind → now | false positives, blind → now | look-alikes "
                  "suspicious now |", "|---|---:|---:|---:|---:|"]
        figures["fresh"] = {}
        for name, records in fresh.items():
            f_inj = [r for r in records if r["label"] == "injection"]
            f_ben = [r for r in records if r["label"] == "benign"]
            f_caught = sum(r["level"] == "injection" for r in f_inj)
            f_fp = sum(r["level"] == "injection" for r in f_ben)
            f_quiet = sum(r["level"] == "suspicious" for r in f_ben)
            blind = FRESH_BLIND.get(name, {})
            lines.append(f"| `{name}.jsonl` | {len(f_inj)} / {len(f_ben)} | {100 * blind.get('recall', 0):.1f}% → "
                         f"{_pct(f_caught, len(f_inj))} | {100 * blind.get('fp', 0):.1f}% → {_pct(f_fp, len(f_ben))} | "
                         f"{_pct(f_quiet, len(f_ben))} |")
            figures["fresh"][name] = {"recall": f_caught / len(f_inj), "fp": f_fp / len(f_ben), "blind": blind}
    if files:
        levels = [r["level"] for r in files]
        flagged, quiet = levels.count("injection"), levels.count("suspicious")
        lines += ["", f"Real files never used in fitting ({len(files):,} Python modules of installed packages and the "
                  f"standard library's sub-packages): flagged as injection {flagged} ({100 * flagged / len(files):.2f}%), "
                  f"suspicious {quiet} ({100 * quiet / len(files):.2f}%)."]
        figures["real_files"] = {"n": len(files), "injection": flagged, "suspicious": quiet}
    per_style: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in held:
        per_style[(r["label"], r["style"])][0] += r["level"] == "injection"
        per_style[(r["label"], r["style"])][1] += 1
    lines += ["", "<details><summary>Per held-out style</summary>", "", "| label | style | flagged |", "|---|---|---:|"]
    lines += [f"| {label} | {style} | {v[0]}/{v[1]} |" for (label, style), v in sorted(per_style.items())]
    lines += ["", "</details>"]
    return "\n".join(lines), headline, figures


def signals_table() -> str:
    """One row per signal record: name, group, reported kind, why, an example it flags."""
    from bastion.injection.signals import SIGNALS

    def cell(text: str, width: int = 90) -> str:
        shown = text if len(text) <= width else text[:width - 1] + "…"
        shown = shown.encode("unicode_escape").decode("ascii") if not shown.isprintable() else shown
        return shown.replace("|", "\\|").replace("\n", " ")

    rows = ["| signal | group | reported as | why | for example |", "|---|---|---|---|---|"]
    for s in SIGNALS:
        rows.append(f"| `{s.name}` | {s.group} | {('`' + s.kind + '`') if s.kind else '–'} | {cell(s.why, 400)} | "
                    f"{cell(s.match[0])} |")
    return "\n".join(rows)


def write_docs() -> None:
    import re

    page = Path(__file__).resolve().parents[1] / "docs" / "injection.md"
    text = page.read_text(encoding="utf-8")
    block = re.compile(r"(<!-- injection-signals:start -->\n).*?(<!-- injection-signals:end -->)", re.S)
    if not block.search(text):
        raise SystemExit("no <!-- injection-signals:start --> block in docs/injection.md")
    page.write_text(block.sub(lambda m: m.group(1) + signals_table() + "\n" + m.group(2), text), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", action="store_true", help="only write the signals table into docs/injection.md")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="print held-out mistakes")
    args = parser.parse_args()
    if args.docs:
        write_docs()
        return 0
    own = featurize(own_records())
    raw = corpus_records(Path(args.corpus))
    public = featurize(raw) if raw else None
    if public is None:
        print(f"skipped: no public corpus at {args.corpus}; own sets only", file=sys.stderr)
    background = featurize(background_records())
    held = held_out_styles(own, public, background, args.folds)
    files = featurize(real_files())
    fresh = {name: featurize(json.loads(line) for line in (SETS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
                             if line.strip()) for name in FRESH_BLIND}
    markdown, headline, figures = render(held, public_figures(public) if public else None, files, fresh)
    if args.misses:
        for r in files:
            if r["level"] != "none":
                print(f"--- real file {r['source']} {sorted(r['features'])}", file=sys.stderr)
        for r in held:
            if (r["label"] == "injection") != (r["level"] == "injection"):
                print(f"--- {r['label']} {r['style']} {r['level']} {sorted(r['features'])}\n{r['text'][:300]}\n", file=sys.stderr)
    if args.json:
        print(json.dumps({"markdown": markdown, "headline": headline, "figures": figures}))
    else:
        print(markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
