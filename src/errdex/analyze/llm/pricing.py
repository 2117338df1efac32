"""An *estimate* of what a run costs, from a small declared table of list prices.

Prices change and providers bill by their own token counts, so every figure this
module produces is labelled an estimate, with the table row it came from. The table
is in US dollars per million tokens, matched on the longest model-name prefix. A
model not in the table costs the fallback price on a remote server and nothing on a
local one (Ollama, vLLM, llama.cpp on loopback bill nobody).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FALLBACK", "PRICES", "PRICES_AS_OF", "Price", "estimate_cost", "price_for"]

#: When the table was last checked against the providers' price pages.
PRICES_AS_OF = "2025-11"

#: (provider, model-name prefix, USD per million input tokens, per million output tokens).
PRICES: tuple[tuple[str, str, float, float], ...] = (
    ("openai", "gpt-5-nano", 0.05, 0.40),
    ("openai", "gpt-5-mini", 0.25, 2.00),
    ("openai", "gpt-5", 1.25, 10.00),
    ("openai", "gpt-4.1-nano", 0.10, 0.40),
    ("openai", "gpt-4.1-mini", 0.40, 1.60),
    ("openai", "gpt-4.1", 2.00, 8.00),
    ("openai", "gpt-4o-mini", 0.15, 0.60),
    ("openai", "gpt-4o", 2.50, 10.00),
    ("openai", "o4-mini", 1.10, 4.40),
    ("openai", "o3-mini", 1.10, 4.40),
    ("openai", "o3", 2.00, 8.00),
    ("anthropic", "claude-haiku-4", 1.00, 5.00),
    ("anthropic", "claude-3-5-haiku", 0.80, 4.00),
    ("anthropic", "claude-sonnet-4", 3.00, 15.00),
    ("anthropic", "claude-3-7-sonnet", 3.00, 15.00),
    ("anthropic", "claude-opus-4-5", 5.00, 25.00),
    ("anthropic", "claude-opus-4", 15.00, 75.00),
)


@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens, and where that figure came from (shown beside the cost)."""

    input_per_mtok: float
    output_per_mtok: float
    basis: str


#: For a remote model the table does not know: a mid-range list price.
FALLBACK = Price(3.00, 15.00, "fallback price (model not in the table)")
_LOCAL = Price(0.0, 0.0, "local server (no price)")


def price_for(provider: str, model: str, *, local: bool = False) -> Price:
    """The table row with the longest prefix of ``model``; else local zero or the fallback."""
    best: tuple[str, float, float] | None = None
    for row_provider, prefix, price_in, price_out in PRICES:
        if (
            row_provider == provider
            and model.startswith(prefix)
            and (best is None or len(prefix) > len(best[0]))
        ):
            best = (prefix, price_in, price_out)
    if best is not None:
        return Price(best[1], best[2], f"{provider} {best[0]} list price as of {PRICES_AS_OF}")
    return _LOCAL if local else FALLBACK


def estimate_cost(price: Price, tokens_in: int, tokens_out: int) -> float:
    """Estimated USD for the given token counts."""
    return (tokens_in * price.input_per_mtok + tokens_out * price.output_per_mtok) / 1_000_000
