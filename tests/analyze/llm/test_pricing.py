"""Cost estimates: the longest matching table row, local servers free, a labelled fallback."""

from __future__ import annotations

import pytest

from errdex.analyze.llm.pricing import FALLBACK, estimate_cost, price_for


def test_longest_prefix_wins() -> None:
    assert price_for("openai", "gpt-4.1-mini-2025-04-14").input_per_mtok == 0.40
    assert price_for("openai", "gpt-4.1").input_per_mtok == 2.00
    assert price_for("anthropic", "claude-opus-4-5-20251101").output_per_mtok == 25.00
    assert price_for("anthropic", "claude-opus-4-1").output_per_mtok == 75.00
    assert "list price" in price_for("anthropic", "claude-sonnet-4-5").basis


def test_unknown_models_fall_back_or_cost_nothing_locally() -> None:
    assert price_for("openai", "qwen2.5-coder") == FALLBACK
    local = price_for("openai", "qwen2.5-coder", local=True)
    assert (local.input_per_mtok, local.output_per_mtok) == (0.0, 0.0)
    assert "local" in local.basis
    # A known model on a local server is still priced: the figure is what it would cost.
    assert price_for("openai", "gpt-4.1-mini", local=True).input_per_mtok == 0.40


def test_estimate_cost() -> None:
    price = price_for("openai", "gpt-4.1-mini")
    assert estimate_cost(price, 1_000_000, 500_000) == pytest.approx(0.40 + 0.80)
