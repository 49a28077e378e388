"""The reviewer's configuration: the settings ``review`` section, then the environment.

The environment wins over settings (it is the more specific, per-invocation source).
The API key is never read from a settings file — files get committed and copied; a file
may only *name* the environment variable that holds it (``apiKeyEnv``). The conventional
``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY`` are used only for the provider's own host, so a
configured ``baseUrl`` never receives a key meant for someone else.

A key lives in a :class:`Secret`, whose ``repr`` and ``str`` hide it: it cannot reach a
log line, an error message or the audit by accident.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..early import (
    TRUE,
    review_enabled as review_enabled,  # the switch is read before this package loads
)

#: ``api`` → (default base URL, conventional key variable, host that variable belongs to).
APIS: dict[str, tuple[str, str, str]] = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY", "api.openai.com"),
    "anthropic": ("https://api.anthropic.com", "ANTHROPIC_API_KEY", "api.anthropic.com"),
}

#: Settings keys the ``review`` section understands (anything else is a configuration error).
SETTINGS_KEYS = frozenset(
    {
        "enabled",
        "api",
        "model",
        "baseUrl",
        "apiKeyEnv",
        "maxTurns",
        "timeout",
        "agent",
        "maxTokens",
        "maxInputBytes",
        "classifier",
        "explain",
        "injectionCheck",
    }
)

DEFAULT_MAX_TURNS = 5
DEFAULT_TIMEOUT = 15.0
DEFAULT_MAX_TOKENS = 512
DEFAULT_MAX_INPUT_BYTES = 500

_TRUE = TRUE
_FALSE = frozenset({"0", "false", "no", "off"})


class ConfigError(ValueError):
    """A review setting is wrong; the message is one line naming the setting."""


class Secret:
    """A string that never shows itself: ``repr``/``str``/``format`` print ``***``."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The key itself — only for building a request header."""
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('***')" if self._value else "Secret('')"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

    def __reduce__(self) -> Any:  # no pickling a key into some cache by accident
        raise TypeError("a Secret cannot be pickled")

    def scrub(self, text: str) -> str:
        """``text`` with every occurrence of the key replaced (for error messages)."""
        if self._value and len(self._value) >= 4:
            return text.replace(self._value, "[REDACTED]")
        return text


@dataclass(frozen=True)
class ReviewConfig:
    """Everything the reviewer, the guard agent, the classifier and the explainer need."""

    api: str = "openai"
    model: str = ""
    base_url: str = ""
    api_key: Secret = field(default_factory=lambda: Secret(""))
    max_turns: int = DEFAULT_MAX_TURNS
    timeout: float = DEFAULT_TIMEOUT
    agent: bool = True
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES
    classifier: bool = False
    explain: bool = True
    #: grey-zone tool results go to the model as an injection classifier (``injection/model_check.py``)
    injection_check: bool = False


def _flag(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ConfigError(f"{where} must be true or false, not {value!r}")


def _number(value: Any, where: str, *, low: float, high: float, integer: bool) -> Any:
    try:
        if isinstance(value, bool):
            raise ValueError
        number = int(str(value).strip()) if integer else float(str(value).strip())
    except ValueError:
        kind = "a whole number" if integer else "a number of seconds"
        raise ConfigError(f"{where} must be {kind}, not {value!r}") from None
    if not math.isfinite(number) or not low <= number <= high:
        raise ConfigError(f"{where} must be between {low:g} and {high:g}, not {value!r}")
    return number


def _pick(section: Mapping[str, Any], env: Mapping[str, str], key: str, var: str) -> tuple[Any, str] | None:
    """The value for one option and where it came from, environment first."""
    raw = env.get(var)
    if raw is not None and raw.strip() != "":
        return raw.strip(), var
    if key in section and section[key] is not None:
        return section[key], f"review.{key}"
    return None


def load_config(section: Mapping[str, Any] | None, env: Mapping[str, str]) -> ReviewConfig:
    """Build the configuration, or raise :class:`ConfigError` with a one-line message.

    Never puts the key into a message.
    """
    section = dict(section or {})
    unknown = sorted(set(section) - SETTINGS_KEYS)
    if unknown:
        if "apiKey" in unknown:
            raise ConfigError(
                "review.apiKey is not read from settings files; put the key in BASTION_REVIEW_API_KEY "
                "or name the variable that holds it with review.apiKeyEnv"
            )
        raise ConfigError(f"unknown review setting {unknown[0]!r} (known: {', '.join(sorted(SETTINGS_KEYS))})")

    values: dict[str, Any] = {}
    picked = _pick(section, env, "api", "BASTION_REVIEW_API")
    api = str(picked[0]).strip().lower() if picked else "openai"
    if api not in APIS:
        raise ConfigError(f"{picked[1] if picked else 'review.api'} must be openai or anthropic, not {api!r}")
    values["api"] = api

    picked = _pick(section, env, "model", "BASTION_REVIEW_MODEL")
    if not picked or not isinstance(picked[0], str) or not picked[0].strip():
        raise ConfigError("no model for the LLM reviewer: set BASTION_REVIEW_MODEL or review.model")
    values["model"] = picked[0].strip()

    default_url, key_var, key_host = APIS[api]
    picked = _pick(section, env, "baseUrl", "BASTION_REVIEW_BASE_URL")
    base_url = str(picked[0]).strip() if picked else default_url
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 - raises for a bad port
    except ValueError:
        raise ConfigError(f"{picked[1] if picked else 'review.baseUrl'} is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{picked[1] if picked else 'review.baseUrl'} must be an http:// or https:// URL")
    if parts.username or parts.password:
        raise ConfigError(f"{picked[1]} must not carry credentials; use BASTION_REVIEW_API_KEY")  # type: ignore[index]
    values["base_url"] = base_url

    key = env.get("BASTION_REVIEW_API_KEY") or ""
    if not key:
        named = section.get("apiKeyEnv")
        if named is not None:
            if not isinstance(named, str) or not named.strip():
                raise ConfigError("review.apiKeyEnv must name an environment variable")
            key = env.get(named.strip()) or ""
    if not key and parts.hostname == key_host:
        key = env.get(key_var) or ""
    if not key and parts.hostname == key_host:
        raise ConfigError(f"no API key for {key_host}: set BASTION_REVIEW_API_KEY (or {key_var})")
    values["api_key"] = Secret(key.strip())

    numbers = (
        ("max_turns", "maxTurns", "BASTION_REVIEW_MAX_TURNS", 1, 50, True),
        ("timeout", "timeout", "BASTION_REVIEW_TIMEOUT", 0.05, 600, False),
        ("max_tokens", "maxTokens", "BASTION_REVIEW_MAX_TOKENS", 16, 32768, True),
        ("max_input_bytes", "maxInputBytes", "BASTION_REVIEW_MAX_INPUT_BYTES", 100, 100_000, True),
    )
    for attr, key_name, var, low, high, integer in numbers:
        picked = _pick(section, env, key_name, var)
        if picked:
            values[attr] = _number(picked[0], picked[1], low=low, high=high, integer=integer)

    for attr, key_name, var in (
        ("agent", "agent", "BASTION_REVIEW_AGENT"),
        ("classifier", "classifier", "BASTION_REVIEW_CLASSIFIER"),
        ("explain", "explain", "BASTION_REVIEW_EXPLAIN"),
        ("injection_check", "injectionCheck", "BASTION_REVIEW_INJECTION_CHECK"),
    ):
        picked = _pick(section, env, key_name, var)
        if picked:
            values[attr] = _flag(picked[0], picked[1])
    if "enabled" in section:
        _flag(section["enabled"], "review.enabled")
    return ReviewConfig(**values)
