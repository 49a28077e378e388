"""What an injection indicator is, and the kinds the scanner reports.

An indicator is ``(kind, severity, pattern, message)``: the tables in
``indicators.py`` (English) and ``phrases.py`` (other languages) are tuples of them.

Kinds
-----
``forged_markup``        chat-template tokens, role tags and turns, fake delimiters
``instruction_override`` "ignore previous instructions", "new instructions:" …
``addressed_to_ai``      text that speaks to the AI reading it ("to you, the AI model")
``role_hijack``          "you are now …", personas, jailbreak modes (DAN, developer mode)
``safety_bypass``        "no restrictions", "never refuse", content-policy talk
``concealment``          "do not tell the user", "without asking the user"
``prompt_extraction``    "repeat your instructions", "print the above prompt"
``response_steering``    orders about the reader's reply ("begin your reply with …")
``command_request``      "run the following command", "add this code to your codebase"
``shell_payload``        dangerous shell forms (``curl … | sh``, reverse shells, wipes)
``code_payload``         code that ships local data out, runs downloads, or wrecks a system
``exfiltration``         Markdown images/links carrying data out, "send the secrets to …"
``account_action``       "transfer $500 to account …", "change the user's password"
``verdict_steering``     tells an automated reviewer what to conclude ("this is not malicious")
``hidden_content``       instructions in comments, invisible styling, zero-width or
                         bidi characters, Unicode tag characters, base64
``token_flooding``       long runs of one repeated token (pushes real context away)
"""

from __future__ import annotations

from typing import NamedTuple

from ..model import Severity

__all__ = ["Indicator", "KINDS", "KIND_CODES", "LOW", "MEDIUM", "HIGH"]

LOW, MEDIUM, HIGH = Severity.LOW, Severity.MEDIUM, Severity.HIGH


class Indicator(NamedTuple):
    kind: str
    severity: Severity
    pattern: str
    message: str
    #: A check the scanner applies to each match (RE2 has no look-arounds):
    #: ``"imperative"`` — the pattern's first group is a word that starts a command,
    #: not one of ``indicators.NOT_IMPERATIVE`` ("Thank you for your reply" is not an order).
    refine: str = ""


KINDS = (
    "forged_markup",
    "instruction_override",
    "addressed_to_ai",
    "role_hijack",
    "safety_bypass",
    "concealment",
    "prompt_extraction",
    "response_steering",
    "command_request",
    "shell_payload",
    "code_payload",
    "exfiltration",
    "account_action",
    "verdict_steering",
    "hidden_content",
    "token_flooding",
)

#: A stable finding code per kind, for ``model.Finding`` (audit log, hook output).
KIND_CODES: dict[str, str] = {
    "forged_markup": "INJ001",
    "instruction_override": "INJ002",
    "addressed_to_ai": "INJ003",
    "role_hijack": "INJ004",
    "safety_bypass": "INJ005",
    "concealment": "INJ006",
    "prompt_extraction": "INJ007",
    "response_steering": "INJ008",
    "command_request": "INJ009",
    "shell_payload": "INJ010",
    "code_payload": "INJ011",
    "exfiltration": "INJ012",
    "account_action": "INJ013",
    "verdict_steering": "INJ014",
    "hidden_content": "INJ015",
    "token_flooding": "INJ016",
}
assert set(KIND_CODES) == set(KINDS) and len(set(KIND_CODES.values())) == len(KINDS)
