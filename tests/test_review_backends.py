"""Reviewer configuration and the two HTTP backends, against a real server on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time

import pytest

from bastion.review.backends import (
    MAX_RESPONSE_BYTES,
    AnthropicBackend,
    OpenAIBackend,
    ReviewError,
    ReviewTimeout,
    ToolDef,
    ToolResult,
    ToolUse,
    Turn,
    make_backend,
)
from bastion.review.config import ConfigError, ReviewConfig, Secret, load_config, review_enabled
from review_server import ScriptedLLM, llm  # noqa: F401 - fixture
from waiting import PATIENCE

KEY = "sk-test-9f8e7d6c5b4a39281706f5e4d3c2b1a0"


def _deadline(seconds: float = PATIENCE) -> float:
    return time.monotonic() + seconds


# --------------------------------------------------------------------------- configuration


@pytest.mark.parametrize(
    ("section", "env", "on"),
    [
        ({}, {}, False),
        ({"enabled": True}, {}, True),
        ({"enabled": "true"}, {}, False),  # settings take JSON booleans only
        ({"enabled": True}, {"BASTION_REVIEW": "0"}, False),
        ({"enabled": False}, {"BASTION_REVIEW": "on"}, True),
        ({}, {"BASTION_REVIEW": "yes"}, True),
        ({}, {"BASTION_REVIEW": "maybe"}, False),
        ({}, {"BASTION_REVIEW": " "}, False),
    ],
)
def test_enabled_switch_env_beats_settings(section, env, on):
    from bastion import early, engine

    assert review_enabled(section, env) is on
    assert engine.review_enabled is review_enabled is early.review_enabled  # one definition


def test_defaults_and_env_over_settings():
    section = {"api": "anthropic", "model": "from-settings", "baseUrl": "http://127.0.0.1:1", "maxTurns": 3, "timeout": 4}
    config = load_config(section, {})
    assert (config.api, config.model, config.max_turns, config.timeout, config.agent) == ("anthropic", "from-settings", 3, 4.0, True)
    env = {
        "BASTION_REVIEW_API": "openai",
        "BASTION_REVIEW_MODEL": "from-env",
        "BASTION_REVIEW_BASE_URL": "http://localhost:8080/v1",
        "BASTION_REVIEW_MAX_TURNS": "7",
        "BASTION_REVIEW_TIMEOUT": "2.5",
        "BASTION_REVIEW_AGENT": "off",
    }
    config = load_config(section, env)
    assert (config.api, config.model, config.base_url, config.max_turns, config.timeout, config.agent) == (
        "openai",
        "from-env",
        "http://localhost:8080/v1",
        7,
        2.5,
        False,
    )
    assert load_config({"model": "m"}, {"BASTION_REVIEW_API_KEY": KEY}).max_turns == 5


@pytest.mark.parametrize(
    ("section", "env", "message"),
    [
        ({}, {}, "no model"),
        ({"model": "m", "api": "gemini"}, {}, "must be openai or anthropic"),
        ({"model": "m"}, {"BASTION_REVIEW_BASE_URL": "ftp://x"}, "http:// or https://"),
        ({"model": "m"}, {"BASTION_REVIEW_BASE_URL": "http://127.0.0.1:notaport"}, "not a valid URL"),
        ({"model": "m", "baseUrl": "http://u:pw@127.0.0.1"}, {}, "must not carry credentials"),
        ({"model": "m", "baseUrl": "http://h", "maxTurns": 0}, {}, "between 1 and 50"),
        ({"model": "m", "baseUrl": "http://h"}, {"BASTION_REVIEW_MAX_TURNS": "five"}, "BASTION_REVIEW_MAX_TURNS must be a whole number"),
        ({"model": "m", "baseUrl": "http://h"}, {"BASTION_REVIEW_TIMEOUT": "nan"}, "BASTION_REVIEW_TIMEOUT must be between"),
        ({"model": "m", "baseUrl": "http://h", "agent": "sometimes"}, {}, "review.agent must be true or false"),
        ({"model": "m", "baseUrl": "http://h", "colour": 1}, {}, "unknown review setting 'colour'"),
        ({"model": "m", "baseUrl": "http://h", "apiKey": KEY}, {}, "not read from settings files"),
        ({"model": "m"}, {}, "no API key for api.openai.com"),
        ({"model": "m", "api": "anthropic"}, {}, "no API key for api.anthropic.com"),
    ],
)
def test_configuration_errors_are_one_line_and_name_the_setting(section, env, message):
    with pytest.raises(ConfigError) as caught:
        load_config(section, env)
    text = str(caught.value)
    assert message in text and "\n" not in text and KEY not in text


def test_key_sources_and_where_conventional_keys_go():
    # BASTION_REVIEW_API_KEY first, then the variable named by apiKeyEnv
    assert load_config({"model": "m"}, {"BASTION_REVIEW_API_KEY": KEY}).api_key.reveal() == KEY
    named = load_config({"model": "m", "apiKeyEnv": "MY_LLM_KEY"}, {"MY_LLM_KEY": KEY})
    assert named.api_key.reveal() == KEY
    # OPENAI_API_KEY goes to api.openai.com only, never to some other base URL
    assert load_config({"model": "m"}, {"OPENAI_API_KEY": KEY}).api_key.reveal() == KEY
    local = load_config({"model": "m", "baseUrl": "http://127.0.0.1:11434/v1"}, {"OPENAI_API_KEY": KEY})
    assert not local.api_key
    elsewhere = load_config({"model": "m", "api": "anthropic", "baseUrl": "https://proxy.example"}, {"ANTHROPIC_API_KEY": KEY})
    assert not elsewhere.api_key


def test_the_key_never_shows_in_repr_str_or_format():
    config = load_config({"model": "m"}, {"BASTION_REVIEW_API_KEY": KEY})
    for text in (repr(config), str(config), f"{config.api_key}", repr(config.api_key), repr(make_backend(config))):
        assert KEY not in text
    assert "***" in repr(config)
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(config.api_key)


# --------------------------------------------------------------------------- request shapes


def _backend(llm: ScriptedLLM, key: str = KEY, max_tokens: int = 64):
    cls = OpenAIBackend if llm.api == "openai" else AnthropicBackend
    return cls("test-model", llm.base_url, Secret(key), max_tokens)


SKILL = ToolDef("Skill", "load a skill", {"type": "object", "properties": {"skill": {"type": "string"}}})


def test_request_shape_path_headers_and_tools(llm):
    llm.say("ALLOW")
    reply = _backend(llm).complete("be careful", [Turn("user", "hello")], [SKILL], deadline=_deadline())
    assert reply.text == "ALLOW" and reply.tool_uses == ()
    request = llm.requests[0]
    body = request.body
    assert body["model"] == "test-model" and body["max_tokens"] == 64 and body["temperature"] == 0
    if llm.api == "openai":
        assert request.path == "/v1/chat/completions"
        assert request.headers["Authorization"] == f"Bearer {KEY}"
        assert body["messages"][0] == {"role": "system", "content": "be careful"}
        assert body["messages"][1] == {"role": "user", "content": "hello"}
        assert body["tools"][0]["type"] == "function" and body["tools"][0]["function"]["name"] == "Skill"
    else:
        assert request.path == "/v1/messages"
        assert request.headers["x-api-key"] == KEY
        assert request.headers["anthropic-version"] == "2023-06-01"
        assert body["system"] == "be careful"
        assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hello"}]}]
        assert body["tools"][0]["name"] == "Skill" and "input_schema" in body["tools"][0]


def test_no_key_no_auth_header(llm):
    llm.say("ALLOW")
    _backend(llm, key="").complete("s", [Turn("user", "u")], deadline=_deadline())
    headers = {k.lower() for k in llm.requests[0].headers}
    assert "authorization" not in headers and "x-api-key" not in headers


def test_tool_use_round_trip(llm):
    llm.call_tool("Skill", {"skill": "bash"}, text="let me look")
    reply = _backend(llm).complete("s", [Turn("user", "u")], [SKILL], deadline=_deadline())
    assert reply.text == "let me look"
    assert [(u.name, u.arguments, u.error) for u in reply.tool_uses] == [("Skill", {"skill": "bash"}, "")]
    use = reply.tool_uses[0]
    llm.say("DENY: no")
    turns = [Turn("user", "u"), reply.as_turn(), Turn("tool", tool_results=(ToolResult(use.id, "skill body", "Skill"),))]
    assert _backend(llm).complete("s", turns, [SKILL], deadline=_deadline()).text == "DENY: no"
    messages = llm.requests[1].body["messages"]
    if llm.api == "openai":
        assistant = messages[2]
        assert assistant["tool_calls"][0]["id"] == use.id
        assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"skill": "bash"}
        assert messages[3] == {"role": "tool", "tool_call_id": use.id, "content": "skill body"}
    else:
        assert messages[1]["content"][-1] == {"type": "tool_use", "id": use.id, "name": "Skill", "input": {"skill": "bash"}}
        assert messages[2] == {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "skill body"}]}


def test_openai_tool_arguments_that_are_not_json_are_flagged():
    server = ScriptedLLM("openai")
    try:
        server.call_tool("Skill", "{not json")
        reply = _backend(server).complete("s", [Turn("user", "u")], [SKILL], deadline=_deadline())
        assert reply.tool_uses[0].error == "the arguments are not valid JSON"
    finally:
        server.stop()


def test_anthropic_base_url_with_v1_is_not_doubled():
    server = ScriptedLLM("anthropic")
    try:
        server.say("ALLOW")
        AnthropicBackend("m", server.base_url + "/v1/", Secret("")).complete("s", [Turn("user", "u")], deadline=_deadline())
        assert server.requests[0].path == "/v1/messages"
    finally:
        server.stop()


# --------------------------------------------------------------------------- failures


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s: s.fail(500, "upstream exploded"), "HTTP 500 from 127.0.0.1"),
        (lambda s: s.fail(429, "slow down"), "HTTP 429"),
        (lambda s: s.raw(b"<html>not json</html>", "text/html"), "is not JSON"),
        (lambda s: s.raw(b'{"unexpected": true}'), "no"),
        (lambda s: s.raw(b"[1, 2, 3]"), "no"),
        (lambda s: s.raw(b"\xff\xfe\x00garbage"), "is not JSON"),
    ],
)
def test_server_errors_raise_one_line_review_errors(llm, action, message):
    action(llm)
    with pytest.raises(ReviewError) as caught:
        _backend(llm).complete("s", [Turn("user", "u")], deadline=_deadline())
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_redirects_are_not_followed(llm):
    llm.fail(307, "moved")
    with pytest.raises(ReviewError, match="HTTP 307"):
        _backend(llm).complete("s", [Turn("user", "u")], deadline=_deadline())
    assert len(llm.requests) == 1


@pytest.mark.parametrize("how", ["delay", "trickle"])
def test_slow_answers_end_at_the_deadline(llm, how):
    if how == "delay":
        llm.say("ALLOW", delay=PATIENCE)
    else:  # headers at once, then one byte every 200 ms: each read is quick, the whole is not
        llm.say("ALLOW", trickle=0.2)
    with pytest.raises(ReviewTimeout):  # waited for, the answer would have come
        _backend(llm).complete("s", [Turn("user", "u")], deadline=time.monotonic() + 0.4)


def test_a_deadline_already_past_sends_nothing(llm):
    with pytest.raises(ReviewTimeout):
        _backend(llm).complete("s", [Turn("user", "u")], deadline=time.monotonic() - 1)
    assert llm.requests == []


def test_oversized_answers_are_refused(llm):
    llm.raw(b'{"x": "' + b"a" * (MAX_RESPONSE_BYTES + 10) + b'"}')
    with pytest.raises(ReviewError, match="larger than"):
        _backend(llm).complete("s", [Turn("user", "u")], deadline=_deadline(10))


def test_nothing_listening_is_a_review_error():
    with socket.socket() as probe:  # a port that was free a moment ago and has no listener
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    backend = OpenAIBackend("m", f"http://127.0.0.1:{port}/v1", Secret(KEY))
    with pytest.raises(ReviewError) as caught:
        backend.complete("s", [Turn("user", "u")], deadline=_deadline())
    assert "cannot reach 127.0.0.1" in str(caught.value) and KEY not in str(caught.value)


def test_a_server_echoing_the_key_never_gets_it_into_the_error_or_logs(llm, caplog):
    """Some proxies echo request headers in their error pages."""
    llm.fail(401, f"invalid key: Bearer {KEY} / x-api-key: {KEY}")
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ReviewError) as caught:
        _backend(llm).complete("s", [Turn("user", "u")], deadline=_deadline())
    assert "HTTP 401" in str(caught.value)
    assert KEY not in str(caught.value) and "[REDACTED]" in str(caught.value)
    assert KEY not in repr(caught.value) and KEY not in caplog.text


def test_backends_are_usable_from_threads(llm):
    for _ in range(6):
        llm.say("ALLOW")
    backend = _backend(llm)
    answers: list[str] = []

    def ask() -> None:
        answers.append(backend.complete("s", [Turn("user", "u")], deadline=_deadline()).text)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert answers == ["ALLOW"] * 6


def test_make_backend_picks_the_api():
    config = ReviewConfig(api="anthropic", model="m", base_url="http://127.0.0.1:1")
    assert isinstance(make_backend(config), AnthropicBackend)
    assert isinstance(make_backend(ReviewConfig(model="m", base_url="http://h")), OpenAIBackend)


def test_tool_use_dataclass_defaults():
    assert ToolUse("1", "Skill", {}).error == ""
