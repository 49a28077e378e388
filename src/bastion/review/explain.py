"""The LLM permission explanation (spec 002 §12.5, Permission Explainer).

While the prompt is on screen, a model explains the call in four parts — what it does,
why the agent probably wants it, what could go wrong (at most 15 words) and a level
LOW / MEDIUM / HIGH. It fills in *after* the deterministic explanation and never holds
the prompt: every failure, timeout or malformed answer is ``None``, and
:func:`explain_in_background` runs it on a daemon thread.

The model reads the call as untrusted data, so it can be talked into a comforting
explanation. Two rules limit that: its level is never lower than what bastion's own risk
tier says (a destructive call is HIGH whatever the model writes), and every field is
cut short and made inert before anyone sees it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from ..model import Decision, Tier, ToolCall
from ..precompiled import DOTALL, regex
from .backends import Backend, Turn, make_backend
from .config import ReviewConfig
from .reviewer import UNTRUSTED_RULES, call_block, inert

LEVELS = ("LOW", "MEDIUM", "HIGH")
#: bastion's risk tier → the lowest level the explanation may show.
LEVEL_FLOOR = {Tier.READ_ONLY: "LOW", Tier.LOW_RISK: "LOW", Tier.HIGH_RISK: "MEDIUM", Tier.DESTRUCTIVE: "HIGH"}
#: The explanation is a convenience: it gets at most this long, even with a longer review timeout.
MAX_EXPLAIN_SECONDS = 10.0
_LIMITS = {"explanation": 300, "reasoning": 200}
MAX_RISK_WORDS = 15

EXPLAIN_SYSTEM = """\
You explain a coding agent's tool call to the person who must approve or deny it.
Reply with only a JSON object, no other text:
{{"explanation": "<what the call does, 1-2 sentences>",
 "reasoning": "<why the agent probably needs it, starting with 'I', e.g. 'I need to check …'>",
 "risk": "<what could go wrong, 15 words or less>",
 "level": "LOW" | "MEDIUM" | "HIGH"}}
LOW: safe development workflow (reading files, running tests). MEDIUM: recoverable
changes (editing files, installing dependencies). HIGH: dangerous or irreversible
operations (deleting files, changing system configuration, sending data out).
Be factual and plain; do not reassure.

{untrusted}"""


@dataclass(frozen=True)
class Explanation:
    """What the prompt shows under the deterministic explanation."""

    explanation: str
    reasoning: str
    risk: str
    level: str  # LOW | MEDIUM | HIGH

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    def __str__(self) -> str:
        """One line for a prompt that shows text (stage 5's ``llm_explainer`` renders ``str()``)."""
        return f"{self.explanation} {self.reasoning} Risk ({self.level}): {self.risk}"


_FENCE = regex(r"\A\s*(?:<think(?:ing)?>.*?</think(?:ing)?>)?\s*(?:```(?:json)?\s*)?", DOTALL)


def _field(value: Any, limit: int) -> str:
    if not isinstance(value, str):
        raise ValueError("not text")
    text = " ".join(inert(value).split())
    if not text:
        raise ValueError("empty")
    return text[:limit] + ("…" if len(text) > limit else "")


def parse_explanation(text: str, *, floor: str = "LOW") -> Explanation | None:
    """Read the model's JSON object; ``None`` unless all four fields are usable."""
    body = _FENCE.sub("", text, count=1)
    start, end = body.find("{"), body.rfind("}")
    if start == -1 or end <= start:
        return None
    try:
        data = json.loads(body[start : end + 1])
        if not isinstance(data, dict):
            return None
        explanation = _field(data.get("explanation"), _LIMITS["explanation"])
        reasoning = _field(data.get("reasoning"), _LIMITS["reasoning"])
        words = _field(data.get("risk"), 400).split()
        level = data.get("level")
    except ValueError:
        return None
    if not isinstance(level, str) or level.strip().upper() not in LEVELS:
        return None
    level = max(level.strip().upper(), floor, key=LEVELS.index)
    risk = " ".join(words[:MAX_RISK_WORDS]) + ("…" if len(words) > MAX_RISK_WORDS else "")
    return Explanation(explanation, reasoning, risk, level)


class Explainer:
    """``Explainer(config)(call, decision) -> Explanation | None``; never raises."""

    def __init__(self, config: ReviewConfig, backend: Backend | None = None) -> None:
        self.config = config
        self._backend = backend

    def __repr__(self) -> str:
        return f"Explainer(api={self.config.api!r}, model={self.config.model!r})"

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = make_backend(self.config)
        return self._backend

    def __call__(self, call: ToolCall, decision: Decision | None = None) -> Explanation | None:
        deadline = time.monotonic() + min(self.config.timeout, MAX_EXPLAIN_SECONDS)
        try:
            note = decision.reason if decision is not None else ""
            block, _ = call_block(call, self.config.max_input_bytes, note)
            system = EXPLAIN_SYSTEM.format(untrusted=UNTRUSTED_RULES)
            reply = self.backend.complete(system, [Turn("user", block)], deadline=deadline)
            tier = decision.risk if decision is not None else call.tier
            return parse_explanation(reply.text, floor=LEVEL_FLOOR.get(tier, "MEDIUM"))
        except Exception:  # noqa: BLE001 - an explanation is never worth an error
            return None


def explain_in_background(
    explainer: Callable[[ToolCall, Decision], Explanation | None],
    call: ToolCall,
    decision: Decision,
    on_ready: Callable[[Explanation], None],
) -> threading.Thread:
    """Start the explanation on a daemon thread; ``on_ready`` runs only with a result."""

    def run() -> None:
        try:
            result = explainer(call, decision)
            if result is not None:
                on_ready(result)
        except Exception:  # noqa: BLE001 - the prompt must not notice
            pass

    thread = threading.Thread(target=run, name="bastion-explain", daemon=True)
    thread.start()
    return thread
