"""The two wire protocols: OpenAI-compatible chat completions and Anthropic messages.

One small client per protocol turns (system prompt, user prompt, earlier failed
replies) into a request, and the response into a :class:`Reply` with the model's
JSON and its token usage. OpenAI-compatible servers (OpenAI, vLLM, Ollama, llama.cpp,
LM Studio) differ in how much structured output they accept, so the client asks for
``json_schema`` first and steps down to ``json_object`` and then to plain
instructions, once per run, when a server refuses the format. Anthropic gets a
forced tool call whose input schema is the answer's schema; a reply in text instead
is read as JSON.

Keys and base URLs come from the SDKs' usual environment variables or ``--base-url``;
a server on loopback needs no key.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from .errors import LlmConfigError, ProviderError
from .retry import RateGate, RetryPolicy, RetryStats, post_json
from .schema import response_json_schema

__all__ = [
    "AnthropicClient",
    "ChatClient",
    "Endpoint",
    "ModelSpec",
    "OpenAIClient",
    "Reply",
    "make_client",
    "parse_model",
    "resolve_endpoint",
]

ProviderName = Literal["openai", "anthropic"]

_DEFAULT_BASE: dict[str, str] = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
_KEY_ENV: dict[str, str] = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
_BASE_ENV: dict[str, str] = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
ANTHROPIC_VERSION = "2023-06-01"
TOOL_NAME = "record_error_prose"
_MAX_OUTPUT_TOKENS = 4096
#: OpenAI reasoning models refuse ``temperature``; everything else gets 0.
_REASONING = re.compile(r"^(o\d|gpt-5)")
#: Words in a 400/422 body saying the server does not accept the output format asked for.
_FORMAT_REFUSED = re.compile(r"response_format|json_schema|json_object|schema|tool", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """``provider:model`` as given on the command line (``openai:gpt-4.1-mini``)."""

    provider: ProviderName
    name: str

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.name}"


def parse_model(text: str) -> ModelSpec:
    """Split ``PROVIDER:MODEL``; the model part may itself hold colons (``qwen2.5:7b``)."""
    provider, sep, name = text.strip().partition(":")
    provider = provider.lower()
    if not sep or not name.strip():
        raise LlmConfigError(
            f"--llm wants PROVIDER:MODEL (openai:gpt-4.1-mini, anthropic:claude-sonnet-4-5), "
            f"not {text!r}"
        )
    if provider == "openai":
        return ModelSpec("openai", name.strip())
    if provider == "anthropic":
        return ModelSpec("anthropic", name.strip())
    raise LlmConfigError(
        f"unknown provider {provider!r} in {text!r}: use openai (any OpenAI-compatible "
        "server: OpenAI, vLLM, Ollama, llama.cpp, LM Studio, with --base-url) or anthropic"
    )


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where requests go and the headers they carry; ``local`` when on loopback."""

    url: str
    headers: dict[str, str]
    local: bool


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback or unspecified addresses (this machine)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def _request_url(provider: ProviderName, base: str) -> str:
    """The SDK conventions: OpenAI bases end in ``/v1``, Anthropic's do not."""
    base = base.rstrip("/")
    path = urlsplit(base).path
    if provider == "openai":
        return (base if path else base + "/v1") + "/chat/completions"
    return (base if path.endswith("/v1") else base + "/v1") + "/messages"


def resolve_endpoint(
    spec: ModelSpec,
    base_url: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    need_key: bool = True,
) -> Endpoint:
    """The request URL and headers, from ``base_url`` or the SDKs' environment variables.

    A missing key is an error unless the server is on loopback (or ``need_key`` is off,
    as for ``--dry-run``), so a run does not start only to fail on its first request.
    """
    env = os.environ if env is None else env
    base = base_url or env.get(_BASE_ENV[spec.provider]) or _DEFAULT_BASE[spec.provider]
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LlmConfigError(f"base URL {base!r} is not an http(s) URL with a host")
    local = is_loopback(parts.hostname)
    key = env.get(_KEY_ENV[spec.provider], "").strip()
    if not key and not local and need_key:
        raise LlmConfigError(
            f"{_KEY_ENV[spec.provider]} is not set, and {parts.hostname} is not on this "
            f"machine: export {_KEY_ENV[spec.provider]}=... (any value for a server that "
            "takes no key), or point --base-url at a local server"
        )
    headers = {"content-type": "application/json"}
    if spec.provider == "openai":
        if key:
            headers["authorization"] = f"Bearer {key}"
    else:
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            headers["x-api-key"] = key
    return Endpoint(_request_url(spec.provider, base), headers, local)


@dataclass(frozen=True, slots=True)
class Reply:
    """One model reply: its answer (JSON text, or a decoded tool input) and its cost."""

    answer: str | dict[str, Any]
    tokens_in: int
    tokens_out: int
    tokens_estimated: bool
    truncated: bool
    #: The assistant turn as the protocol re-sends it in the repair round.
    assistant: dict[str, Any]
    tool_use_id: str | None = None


def _estimate_tokens(text: str) -> int:
    """About four characters per token: used only when a server reports no usage."""
    return max(1, len(text) // 4)


def _usage(
    data: dict[str, Any], keys_in: Sequence[str], key_out: str, prompt: str, answer: str
) -> tuple[int, int, bool]:
    """(tokens in, tokens out, estimated): the server's count, else an estimate."""
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    counts_in = [usage.get(key) for key in keys_in]
    tokens_out = usage.get(key_out)
    if isinstance(counts_in[0], int) and isinstance(tokens_out, int):
        return sum(c for c in counts_in if isinstance(c, int)), tokens_out, False
    return _estimate_tokens(prompt), _estimate_tokens(answer), True


def _error_text(response: httpx.Response) -> str:
    """The human part of an error body (``{"error": {"message": ...}}`` on both APIs)."""
    try:
        data = response.json()
    except ValueError:
        return response.text[:300].strip() or response.reason_phrase
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    if isinstance(error, str):
        return error
    return response.text[:300].strip()


class ChatClient:
    """What both protocols share: send with retries, map error statuses, step down formats."""

    modes: tuple[str, ...] = ()

    def __init__(
        self,
        spec: ModelSpec,
        endpoint: Endpoint,
        http: httpx.AsyncClient,
        *,
        policy: RetryPolicy,
        gate: RateGate,
        stats: RetryStats,
    ) -> None:
        self.spec = spec
        self.endpoint = endpoint
        self.http = http
        self.policy = policy
        self.gate = gate
        self.stats = stats
        self.mode = self.modes[0]

    async def complete(
        self, system: str, user: str, history: Sequence[tuple[Reply, str]] = ()
    ) -> Reply:
        """Ask once (with retries); ``history`` holds earlier replies and what was wrong."""
        while True:
            body = self.body(system, user, history)
            response = await post_json(
                self.http,
                self.endpoint.url,
                headers=self.endpoint.headers,
                body=body,
                policy=self.policy,
                gate=self.gate,
                stats=self.stats,
            )
            if response.status_code < 400:
                try:
                    data = response.json()
                except ValueError:
                    raise ProviderError(
                        f"{self.endpoint.url} answered {response.status_code} with a body "
                        "that is not JSON",
                        status=response.status_code,
                    ) from None
                return self.parse(data, body)
            message = _error_text(response)
            if self._step_down(response.status_code, message):
                continue
            raise _status_error(self.spec, self.endpoint, response.status_code, message)

    def _step_down(self, status: int, message: str) -> bool:
        """Switch to the next simpler output format if the server refused this one."""
        index = self.modes.index(self.mode)
        if status in (400, 422) and index + 1 < len(self.modes) and _FORMAT_REFUSED.search(message):
            self.mode = self.modes[index + 1]
            return True
        return False

    def body(self, system: str, user: str, history: Sequence[tuple[Reply, str]]) -> dict[str, Any]:
        raise NotImplementedError

    def parse(self, data: Any, body: dict[str, Any]) -> Reply:
        raise NotImplementedError


def _status_error(spec: ModelSpec, endpoint: Endpoint, status: int, message: str) -> ProviderError:
    where = endpoint.url
    if status in (401, 403):
        variable = _KEY_ENV[spec.provider]
        return ProviderError(
            f"{where} refused the API key ({status}: {message}); check {variable}",
            fatal=True,
            status=status,
        )
    if status == 404:
        return ProviderError(
            f"{where} does not know model {spec.name!r} or this path (404: {message}); "
            "check the model name and --base-url",
            fatal=True,
            status=status,
        )
    if status == 429:
        return ProviderError(
            f"{where}: quota exhausted (429: {message})", fatal=True, status=status
        )
    return ProviderError(f"{where} answered {status}: {message}", status=status)


class OpenAIClient(ChatClient):
    """``POST {base}/chat/completions`` with structured output where the server allows it."""

    modes = ("json_schema", "json_object", "text")

    def body(self, system: str, user: str, history: Sequence[tuple[Reply, str]]) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        for reply, fix in history:
            messages += [reply.assistant, {"role": "user", "content": fix}]
        body: dict[str, Any] = {"model": self.spec.name, "messages": messages}
        if not _REASONING.match(self.spec.name):
            body["temperature"] = 0
        if self.mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": TOOL_NAME,
                    "strict": True,
                    "schema": response_json_schema(),
                },
            }
        elif self.mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        return body

    def parse(self, data: Any, body: dict[str, Any]) -> Reply:
        try:
            choice = data["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError):
            raise ProviderError(f"{self.endpoint.url}: a reply without choices") from None
        content = message.get("content") or message.get("refusal") or ""
        if isinstance(content, list):  # some servers send content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        prompt = "".join(str(m.get("content", "")) for m in body["messages"])
        tokens_in, tokens_out, estimated = _usage(
            data, ("prompt_tokens",), "completion_tokens", prompt, str(content)
        )
        return Reply(
            answer=str(content),
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            tokens_estimated=estimated,
            truncated=choice.get("finish_reason") == "length",
            assistant={"role": "assistant", "content": str(content)},
        )


class AnthropicClient(ChatClient):
    """``POST {base}/v1/messages`` with a forced tool call, or JSON by instruction."""

    modes = ("tool", "text")

    def body(self, system: str, user: str, history: Sequence[tuple[Reply, str]]) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "user", "content": user}]
        for reply, fix in history:
            messages.append(reply.assistant)
            if reply.tool_use_id is not None:
                result = {
                    "type": "tool_result",
                    "tool_use_id": reply.tool_use_id,
                    "is_error": True,
                    "content": fix,
                }
                messages.append({"role": "user", "content": [result]})
            else:
                messages.append({"role": "user", "content": fix})
        body: dict[str, Any] = {
            "model": self.spec.name,
            "max_tokens": _MAX_OUTPUT_TOKENS,
            "system": system,
            "messages": messages,
            "temperature": 0,
        }
        if self.mode == "tool":
            body["tools"] = [
                {
                    "name": TOOL_NAME,
                    "description": "Record the explanation fields of the error record.",
                    "input_schema": response_json_schema(),
                }
            ]
            body["tool_choice"] = {"type": "tool", "name": TOOL_NAME}
        return body

    def parse(self, data: Any, body: dict[str, Any]) -> Reply:
        blocks = data.get("content") if isinstance(data, dict) else None
        if not isinstance(blocks, list):
            raise ProviderError(f"{self.endpoint.url}: a reply without content")
        answer: str | dict[str, Any] = ""
        tool_use_id: str | None = None
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                tool_input = block.get("input")
                answer = tool_input if isinstance(tool_input, dict) else ""
                tool_use_id = str(block.get("id", "")) or None
                break
        else:
            answer = "".join(
                str(b.get("text", ""))
                for b in blocks
                if isinstance(b, dict) and b.get("type") == "text"
            )
        prompt = body["system"] + "".join(str(m["content"]) for m in body["messages"])
        keys_in = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        tokens_in, tokens_out, estimated = _usage(
            data, keys_in, "output_tokens", prompt, str(answer)
        )
        return Reply(
            answer=answer,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            tokens_estimated=estimated,
            truncated=data.get("stop_reason") == "max_tokens",
            assistant={"role": "assistant", "content": blocks},
            tool_use_id=tool_use_id,
        )


def make_client(
    spec: ModelSpec,
    endpoint: Endpoint,
    http: httpx.AsyncClient,
    *,
    policy: RetryPolicy,
    gate: RateGate,
    stats: RetryStats,
) -> ChatClient:
    """The client for ``spec``'s protocol."""
    cls: type[ChatClient] = OpenAIClient if spec.provider == "openai" else AnthropicClient
    return cls(spec, endpoint, http, policy=policy, gate=gate, stats=stats)
