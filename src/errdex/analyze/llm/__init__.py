"""The LLM analyst: schema-2 prose written by a model, grounded on the evidence.

``run_llm_analysis(store, repo=..., model="openai:gpt-4.1-mini")`` sends each record's
source window and evidence to an OpenAI-compatible or Anthropic endpoint, validates
the JSON it answers, merges it into the record with per-field provenance, and caches
every answer by content, so a new commit pays only for the sites whose content changed.
"""

from __future__ import annotations

from .cache import AnswerCache
from .errors import LlmConfigError, LlmError, ProviderError
from .pricing import Price, estimate_cost, price_for
from .prompt import PROMPT_VERSION, Prompt, build_prompt
from .providers import ModelSpec, parse_model, resolve_endpoint
from .report import FailedSite, LlmRunReport, print_report
from .retry import RetryPolicy
from .runner import RunOptions, analyze, analyze_async, run_llm_analysis
from .schema import LlmProse, parse_answer, response_json_schema

__all__ = [
    "PROMPT_VERSION",
    "AnswerCache",
    "FailedSite",
    "LlmConfigError",
    "LlmError",
    "LlmProse",
    "LlmRunReport",
    "ModelSpec",
    "Price",
    "Prompt",
    "ProviderError",
    "RetryPolicy",
    "RunOptions",
    "analyze",
    "analyze_async",
    "build_prompt",
    "estimate_cost",
    "parse_answer",
    "parse_model",
    "price_for",
    "print_report",
    "resolve_endpoint",
    "response_json_schema",
    "run_llm_analysis",
]
