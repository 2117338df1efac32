"""The exceptions of the LLM analyst, in one place so callers catch one base class."""

from __future__ import annotations

__all__ = ["LlmConfigError", "LlmError", "ProviderError"]


class LlmError(Exception):
    """Anything that stops an ``errdex analyze --llm`` run; the message says what to do."""


class LlmConfigError(LlmError):
    """The model spec, base URL or API key is unusable; raised before any request."""


class ProviderError(LlmError):
    """A request failed for good (after retries, or a status that retrying cannot fix).

    ``fatal`` errors (bad key, unknown model, unreachable server, exhausted quota) end
    the run, since every further request would fail the same way; the others fail
    one site and the run goes on.
    """

    def __init__(self, message: str, *, fatal: bool = False, status: int | None = None) -> None:
        super().__init__(message)
        self.fatal = fatal
        self.status = status
