"""Model specs, endpoints and keys, and how long to wait before a retry."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from errdex.analyze.llm.errors import LlmConfigError
from errdex.analyze.llm.providers import (
    Reply,
    is_loopback,
    make_client,
    parse_model,
    resolve_endpoint,
)
from errdex.analyze.llm.retry import RateGate, RetryPolicy, RetryStats, backoff_delay, retry_after


def test_parse_model() -> None:
    spec = parse_model("openai:gpt-4.1-mini")
    assert (spec.provider, spec.name, spec.spec) == (
        "openai",
        "gpt-4.1-mini",
        "openai:gpt-4.1-mini",
    )
    assert parse_model("openai:qwen2.5-coder:7b").name == "qwen2.5-coder:7b"
    assert parse_model("Anthropic:claude-sonnet-4-5").provider == "anthropic"
    for bad in ("gpt-4.1", "openai:", "gemini:pro"):
        with pytest.raises(LlmConfigError):
            parse_model(bad)


def test_openai_endpoint_from_environment() -> None:
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "https://llm.example.com/v1/"}
    endpoint = resolve_endpoint(parse_model("openai:gpt-4.1-mini"), env=env)
    assert endpoint.url == "https://llm.example.com/v1/chat/completions"
    assert endpoint.headers["authorization"] == "Bearer sk-test"
    assert not endpoint.local
    default = resolve_endpoint(parse_model("openai:gpt-4.1-mini"), env={"OPENAI_API_KEY": "k"})
    assert default.url == "https://api.openai.com/v1/chat/completions"


def test_anthropic_endpoint_and_headers() -> None:
    env = {"ANTHROPIC_API_KEY": "sk-ant"}
    endpoint = resolve_endpoint(parse_model("anthropic:claude-sonnet-4-5"), env=env)
    assert endpoint.url == "https://api.anthropic.com/v1/messages"
    assert endpoint.headers["x-api-key"] == "sk-ant"
    assert endpoint.headers["anthropic-version"] == "2023-06-01"
    custom = resolve_endpoint(parse_model("anthropic:x"), "http://127.0.0.1:9/v1", env={})
    assert custom.url == "http://127.0.0.1:9/v1/messages"


def test_base_url_flag_wins_and_a_bare_host_gets_v1() -> None:
    env = {"OPENAI_BASE_URL": "https://elsewhere.example/v1"}
    endpoint = resolve_endpoint(parse_model("openai:qwen2.5-coder"), "http://127.0.0.1:11434", env)
    assert endpoint.url == "http://127.0.0.1:11434/v1/chat/completions"
    assert endpoint.local and "authorization" not in endpoint.headers


def test_missing_key_is_an_error_only_off_this_machine() -> None:
    with pytest.raises(LlmConfigError, match="OPENAI_API_KEY is not set"):
        resolve_endpoint(parse_model("openai:gpt-4.1-mini"), env={})
    with pytest.raises(LlmConfigError, match="ANTHROPIC_API_KEY"):
        resolve_endpoint(parse_model("anthropic:claude-sonnet-4-5"), env={})
    for url in ("http://localhost:8000/v1", "http://127.0.0.1:8080/v1", "http://[::1]:1234/v1"):
        assert resolve_endpoint(parse_model("openai:m"), url, env={}).local
    dry = resolve_endpoint(parse_model("openai:gpt-4.1-mini"), env={}, need_key=False)
    assert not dry.local
    with pytest.raises(LlmConfigError, match="not an http"):
        resolve_endpoint(parse_model("openai:m"), "ftp://example.com", env={})


def test_is_loopback() -> None:
    assert is_loopback("localhost") and is_loopback("127.0.0.2") and is_loopback("::1")
    assert not is_loopback("192.168.1.5") and not is_loopback("api.openai.com")


def test_retry_after_forms() -> None:
    assert retry_after(httpx.Headers({"retry-after": "7"})) == 7.0
    assert retry_after(httpx.Headers({"retry-after-ms": "1500", "retry-after": "9"})) == 1.5
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    date = httpx.Headers({"retry-after": "Wed, 01 Jan 2025 12:00:30 GMT"})
    assert retry_after(date, now=now) == 30.0
    assert retry_after(httpx.Headers({"retry-after": "soon"})) is None
    assert retry_after(httpx.Headers()) is None


def test_backoff_grows_and_is_capped() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0)
    rng = random.Random(1)
    delays = [backoff_delay(n, policy, rng) for n in range(1, 7)]
    assert 0.5 <= delays[0] <= 1.0 and 1.0 <= delays[1] <= 2.0
    assert max(delays) <= 5.0


def _reply(payload: dict[str, Any], model: str) -> tuple[Reply, dict[str, object]]:
    """One ``complete`` call answered in-process with ``payload``; returns the reply and body."""
    seen: dict[str, object] = {}

    def answer(request: httpx.Request) -> httpx.Response:
        seen.update(json.loads(request.content))
        return httpx.Response(200, json=payload)

    spec = parse_model(model)
    endpoint = resolve_endpoint(spec, "http://127.0.0.1:9", env={})

    async def run() -> Reply:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as http:
            client = make_client(
                spec, endpoint, http, policy=RetryPolicy(), gate=RateGate(), stats=RetryStats()
            )
            return await client.complete("system", "user")

    return asyncio.run(run()), seen


def test_missing_usage_is_estimated_and_marked() -> None:
    payload = {"choices": [{"message": {"content": '{"a": 1}'}, "finish_reason": "length"}]}
    reply, body = _reply(payload, "openai:o4-mini")
    assert reply.tokens_estimated and reply.tokens_in >= 1 and reply.truncated
    assert "temperature" not in body  # reasoning models refuse it


def test_anthropic_cache_tokens_count_as_input() -> None:
    payload = {
        "content": [{"type": "text", "text": "{}"}],
        "usage": {
            "input_tokens": 10,
            "cache_creation_input_tokens": 5,
            "cache_read_input_tokens": 7,
            "output_tokens": 3,
        },
    }
    reply, body = _reply(payload, "anthropic:claude-haiku-4-5")
    assert (reply.tokens_in, reply.tokens_out, reply.tokens_estimated) == (22, 3, False)
    assert body["max_tokens"] and body["system"] == "system"
