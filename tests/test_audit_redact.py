"""The redaction table checks itself: every row's examples, as text and inside a record.

``«…»`` in a match example marks the secret: redaction must replace exactly that part with
``[REDACTED]`` and keep the rest; a not_match example must come out unchanged.
"""

from __future__ import annotations

import re

import pytest

from bastion.audit.redact import FORMS, REDACTED, compiled, redact, redact_text

PATTERNS = {form.name: compiled(form)[0] for form in FORMS}
CASES = [(form.name, example, True) for form in FORMS for example in form.match] + [
    (form.name, example, False) for form in FORMS for example in form.not_match
]


def _plain(example: str) -> str:
    return example.replace("«", "").replace("»", "")


def _hidden(example: str) -> str:
    return re.sub("«.*?»", REDACTED, example, flags=re.DOTALL)


@pytest.mark.parametrize(
    "name, example, secret", CASES, ids=[f"{n}-{'match' if s else 'not'}-{i}" for i, (n, _, s) in enumerate(CASES)]
)
def test_table_examples(name: str, example: str, secret: bool) -> None:
    text = _plain(example)
    want = _hidden(example) if secret else example
    assert redact_text(text) == want
    if secret:
        assert PATTERNS[name].search(text), f"{name} must find its own example, not only another row"
    # the same anywhere in a record: a nested value, a list item, a key
    assert redact({"input": {"command": text, "args": [text]}}) == {"input": {"command": want, "args": [want]}}
    assert redact({text: 1}) == {want: 1}


def test_every_row_says_why_and_has_an_example() -> None:
    names = [form.name for form in FORMS]
    assert len(names) == len(set(names))
    for form in FORMS:
        assert form.why and form.match, form.name
        assert all("«" in example for example in form.match), form.name


def test_fields_named_as_secrets_are_hidden_whole() -> None:
    out = redact({"password": "hunter2", "mcp": {"apiKey": "k-1", "token": "${TOKEN}"}, "tokenizer": "gpt2"})
    assert out == {"password": REDACTED, "mcp": {"apiKey": REDACTED, "token": "${TOKEN}"}, "tokenizer": "gpt2"}


def test_values_strict_json_cannot_hold_become_strings() -> None:
    nested: dict = {}
    cursor = nested
    for _ in range(500):
        cursor["x"] = {}
        cursor = cursor["x"]
    out = redact({"n": float("nan"), "i": [float("inf"), float("-inf")], "big": 10**5000, "deep": nested})
    assert out["n"] == "NaN" and out["i"] == ["Infinity", "-Infinity"] and "bits" in out["big"]
    assert "[nested too deep]" in repr(out["deep"])
