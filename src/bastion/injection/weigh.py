"""Weigh a text's evidence with a transparent linear model, and say how suspicious it is.

The model is logistic regression over named features, each 0…1:

* ``grp:GROUP`` — some signal of GROUP fired (addressee, context_break, concealment,
  exfiltration, hidden, mention): the ways of addressing an AI or of hiding text are
  pooled, so a form the fit never saw still carries its group's weight;
* ``sig:NAME`` — signal NAME fired, for the action and pressure signals (they differ in
  harm, and pressure words are common in ordinary text, so each has its own weight) and
  ``sig:addressee.imperative`` (an order of any kind: weak on its own);
* ``near:A+B`` — signals of groups A and B met in one passage; ``near:3`` — three groups did;
* ``old:KIND`` — the heaviest indicator-table finding of KIND (``indicators.py``), as
  weight / 4 (low .25, medium .5, high 1); ``old:reach`` — the tables alone reach their
  threshold (``scanner.score``); ``quoted:reach`` — they reach it only with findings that
  sit inside quotation marks (see :func:`features`).

``probability = 1 / (1 + exp(-(bias + Σ weight·feature)))``. The weights are data:
``bastion/data/injection_weights.json``, written by ``scripts/injection_fit.py`` (which
says what it was fitted on), read once per process. A feature without a weight counts 0.

Where the text came from moves the bar (``origin``):

* ``instructions`` — the project's own agent instruction files (``AGENTS.md``,
  ``CLAUDE.md``, ``.cursorrules``, ``GEMINI.md``, ``.github/copilot-instructions.md``) are
  *meant* to address agents and ask for actions. Only hidden channels count there: such a
  file is an injection when it hides instructions, never for what it openly says.
* ``strict`` — network pages, issues and pull requests, MCP results, files outside the
  workspace: the injection and suspicion thresholds are lower.
* ``default`` — everything else (workspace files, command output).
"""

from __future__ import annotations

import os

from .. import fastjson
from ..std_lite import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

__all__ = ["features", "probability", "level", "origin_of", "weights", "INSTRUCTION_FILES", "STRICT_ORIGINS",
           "ORIGINS", "LEVELS"]

LEVELS = ("none", "suspicious", "injection")
#: Explicit origins a caller may pass; anything else is ``default``.
ORIGINS = ("instructions", "workspace", "network", "issue", "mcp", "outside", "default")
STRICT_ORIGINS = frozenset({"network", "issue", "mcp", "outside"})
#: Agent instruction files by base name (and the one that lives in .github/).
INSTRUCTION_FILES = frozenset({"AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", ".cursorrules", "GEMINI.md",
                               "copilot-instructions.md"})
#: Shell commands whose output is someone else's text: issues, pull requests, the network.
_NETWORK_COMMANDS = ("gh issue", "gh pr", "gh api", "gh gist", "glab issue", "glab mr", "curl ", "wget ", "http ",
                     "https ", "lynx ", "w3m ")

_WEIGHTS_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                             "injection_weights.json")


def origin_of(source: str) -> str:
    """The origin class of a ``scan`` source: a path, URL, tool name or backquoted command."""
    text = source.strip()
    lowered = text.lower()
    if lowered.startswith(("http://", "https://", "webfetch", "websearch")) or "mcp__" in lowered or lowered.startswith("mcp:"):
        return "strict"
    if text.startswith("`") and lowered.strip("`").startswith(_NETWORK_COMMANDS):
        return "strict"
    base = text.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if base in INSTRUCTION_FILES and (base != "copilot-instructions.md" or "/.github/" in f"/{text}"):
        return "instructions"
    return "default"


def resolve_origin(source: str, origin: str | None) -> str:
    """``instructions``, ``strict`` or ``default``, from an explicit origin or the source."""
    if origin:
        if origin in STRICT_ORIGINS or origin == "strict":
            return "strict"
        if origin == "instructions":
            return "instructions"
        if origin in ORIGINS:
            return "default"
        raise ValueError(f"origin must be one of {', '.join(ORIGINS)}, not {origin!r}")
    return origin_of(source)


@lru_cache(maxsize=1)
def weights() -> dict[str, Any]:
    """The shipped model: ``{"bias", "weights": {feature: w}, "thresholds": {...}, "fitted": {...}}``."""
    with open(_WEIGHTS_PATH, encoding="utf-8") as handle:
        return fastjson.load(handle)


def features(text: str, names: Iterable[str], near: Iterable[str], old_findings: Iterable[Any],
             table_score: Any, threshold: int) -> dict[str, float]:
    """The model's inputs from fired signal names, meetings and the indicator findings
    (``table_score`` and ``threshold``: the tables' own rule, ``scanner.score``).

    An indicator finding of something said (an order, a role, a request for the prompt)
    that starts inside quotation marks on its line is *quoted*, not said ("a page that says \"ignore previous instructions\"", a test's attack string):
    it feeds ``quoted:reach`` rather than ``old:KIND`` and ``old:reach``. A JSON string
    value is not a quotation, nor are words put in the mouth of a forged speaker earlier on
    the line (``System chain of thought result: "Ignore all …"``).
    """
    from .signals import BY_NAME

    out: dict[str, float] = {}
    for name in names:
        group = BY_NAME[name].group
        out[f"grp:{group}" if group in POOLED and name not in UNPOOLED else f"sig:{name}"] = 1.0
    out.update((f"near:{pair}", 1.0) for pair in near)
    said, every = [], []
    findings = [f for f in old_findings if not getattr(f, "signal", "")]
    speakers = [f.start for f in findings if f.kind == "forged_markup"]
    for finding in findings:
        every.append(finding)
        if finding.kind in _SPEECH and _quoted(text, finding.start) and not _spoken(text, finding.start, speakers):
            continue
        said.append(finding)
        key = f"old:{finding.kind}"
        out[key] = max(out.get(key, 0.0), min(1.0, finding.weight / 4))
    if table_score(said) >= threshold:
        out["old:reach"] = 1.0
    elif len(said) < len(every) and table_score(every) >= threshold:
        out["quoted:reach"] = 1.0
    return out


#: Groups whose signals count as one feature each (see the module docstring).
POOLED = frozenset({"addressee", "context_break", "concealment", "exfiltration", "hidden", "mention"})
UNPOOLED = frozenset({"addressee.imperative"})
_JSON_VALUE = None
#: Kinds that are something *said* (and so can be quoted); code, shell, URLs and markup
#: inside quotation marks are still what they are.
_SPEECH = frozenset({"instruction_override", "prompt_extraction", "role_hijack", "response_steering", "concealment",
                     "addressed_to_ai", "safety_bypass", "verdict_steering"})


def _spoken(text: str, start: int, speakers: list[int]) -> bool:
    """Whether a forged role or system marker precedes ``start`` on its line."""
    line_start = text.rfind("\n", 0, start) + 1
    return any(line_start <= s < start for s in speakers)


def _quoted(text: str, start: int) -> bool:
    """Whether ``start`` lies inside a quotation opened earlier on its line."""
    global _JSON_VALUE
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if not before or not any(q in before for q in "\"“‘'"):
        return False
    if _JSON_VALUE is None:
        from ..precompiled import pattern  # this module's own text: kept, built without re

        _JSON_VALUE = pattern(r'"\s*:\s*"[^"]*$')
    if _JSON_VALUE.search(before):
        return False
    if before.count('"') % 2 or before.count("“") > before.count("”") or before.count("‘") > before.count("’"):
        return True
    singles = sum(1 for i, ch in enumerate(before) if ch == "'" and not (0 < i < len(before) - 1
                                                                         and before[i - 1].isalnum() and before[i + 1].isalnum()))
    return singles % 2 == 1


def probability(values: Mapping[str, float]) -> float:
    model = weights()
    table = model["weights"]
    z = model["bias"] + sum(table.get(name, 0.0) * value for name, value in values.items())
    import math  # only scoring a scanned text needs it, not every decision that asks origin_of

    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def level(p: float, origin: str) -> str:
    """``injection``, ``suspicious`` or ``none`` for a probability and a resolved origin."""
    bars = weights()["thresholds"]
    key = "strict" if origin == "strict" else "default"
    if p >= bars["injection"][key]:
        return "injection"
    if p >= bars["suspicious"][key]:
        return "suspicious"
    return "none"
