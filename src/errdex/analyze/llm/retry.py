"""Sending one request until it gets an answer worth reading: retries, backoff, rate limits.

Rate limits, overloaded servers and timeouts are normal at scale, so they are retried
with exponential backoff and jitter, honouring ``Retry-After`` (and OpenAI's
``retry-after-ms``). When one request is told to wait, every worker waits (a shared
:class:`RateGate`), rather than each hammering the server into more 429s. Every
wait is capped by :attr:`RetryPolicy.max_delay`, which tests set to milliseconds.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from .errors import ProviderError

__all__ = ["RateGate", "RetryPolicy", "RetryStats", "backoff_delay", "post_json", "retry_after"]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How hard to try: ``attempts`` per request, each wait at most ``max_delay`` seconds."""

    attempts: int = 6
    #: A server that refuses connections is down, not busy: give up on it sooner.
    connect_attempts: int = 3
    base_delay: float = 1.0
    max_delay: float = 60.0
    timeout: float = 120.0
    connect_timeout: float = 10.0


@dataclass(slots=True)
class RetryStats:
    """Retries made in a run, by reason (``429``, ``500``, ``timeout``, ``connection``)."""

    reasons: Counter[str] = field(default_factory=Counter)
    waited: float = 0.0

    @property
    def retries(self) -> int:
        return sum(self.reasons.values())


class RateGate:
    """A pause shared by all workers, set when the server says to slow down."""

    def __init__(self) -> None:
        self._until = 0.0

    def hold(self, seconds: float) -> None:
        self._until = max(self._until, time.monotonic() + seconds)

    async def wait(self) -> None:
        delay = self._until - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)


def _retryable(status: int) -> bool:
    """What the OpenAI and Anthropic SDKs retry: timeouts, conflicts, 429 and every 5xx."""
    return status in (408, 409, 429) or status >= 500


def retry_after(headers: httpx.Headers, now: datetime | None = None) -> float | None:
    """Seconds the server asked us to wait, from ``retry-after-ms`` or ``Retry-After``."""
    if (millis := headers.get("retry-after-ms")) is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff_delay(attempt: int, policy: RetryPolicy, rng: random.Random | None = None) -> float:
    """Exponential backoff with jitter for the ``attempt``-th failure (1-based), capped."""
    ceiling = policy.base_delay * 2.0 ** (attempt - 1)
    jitter = 0.5 + 0.5 * (rng.random() if rng is not None else random.random())
    return min(policy.max_delay, ceiling * jitter)


def _quota_exhausted(response: httpx.Response) -> bool:
    """A 429 that waiting will not fix (OpenAI's ``insufficient_quota``)."""
    return response.status_code == 429 and "insufficient_quota" in response.text


async def post_json(
    client: httpx.AsyncClient,
    url: str,
    *,
    headers: dict[str, str],
    body: dict[str, Any],
    policy: RetryPolicy,
    gate: RateGate,
    stats: RetryStats,
) -> httpx.Response:
    """POST ``body`` until a response that retrying cannot change; raise when retries run out.

    Non-retryable error statuses (400, 401, 404, ...) are returned for the caller to
    interpret; only exhausted retries raise :class:`ProviderError` (fatal when the
    server could not be reached at all).
    """
    timeout = httpx.Timeout(policy.timeout, connect=policy.connect_timeout)
    for attempt in range(1, policy.attempts + 1):
        await gate.wait()
        wanted: float | None = None
        status: int | None = None
        detail = ""
        try:
            response = await client.post(url, headers=headers, json=body, timeout=timeout)
        except httpx.TimeoutException:
            reason = "timeout"
        except httpx.TransportError as exc:
            reason = "connection"
            detail = str(exc) or type(exc).__name__
        else:
            status = response.status_code
            should_retry = response.headers.get("x-should-retry")
            if status < 400 or should_retry == "false" or _quota_exhausted(response):
                return response
            if not _retryable(status) and should_retry != "true":
                return response
            reason = str(status)
            wanted = retry_after(response.headers)
        if reason == "connection" and attempt >= policy.connect_attempts:
            raise ProviderError(
                f"cannot reach {url} after {attempt} attempts ({detail}): is the server "
                "running, and is --base-url right?",
                fatal=True,
            )
        if attempt == policy.attempts:
            raise ProviderError(
                f"{url}: no answer after {attempt} attempts (last: {reason})", status=status
            )
        delay = min(
            policy.max_delay, wanted if wanted is not None else backoff_delay(attempt, policy)
        )
        if status in (429, 529):
            gate.hold(delay)
        stats.reasons[reason] += 1
        stats.waited += delay
        await asyncio.sleep(delay)
    raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover
