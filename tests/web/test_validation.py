"""422 answers: JSON-safe whatever was sent, and short whatever its size."""

from __future__ import annotations

import json

import httpx
import pytest

from errdex.web.validation import MAX_SHOWN, clean_text


def post_raw(client: httpx.Client, body: bytes) -> httpx.Response:
    return client.post("/api/match", content=body, headers={"content-type": "application/json"})


@pytest.mark.parametrize(
    "body",
    [
        b'{"text": "\\ud800 a lone surrogate"}',
        b'{"text": "ValueError: \\udcff"}',
        b'{"text": 1e400}',
        b'{"text": "x", "top": 1e400}',
        b'{"text": "x", "top": -1e400}',
        b'{"text": "x", "\\ud800": 1}',
    ],
    ids=["surrogate", "surrogate-in-message", "inf-text", "inf-top", "minus-inf", "surrogate-key"],
)
def test_unencodable_json_is_a_422(client: httpx.Client, body: bytes) -> None:
    response = post_raw(client, body)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail and all(item["loc"][0] == "body" for item in detail)


def test_a_422_does_not_echo_the_input(client: httpx.Client) -> None:
    long = "y" * 20_000
    for body in (
        {"text": "x", "top": long},
        {"text": ["ValueError: " + long]},
        {"text": "x", "k" * 20_000: 1},
    ):
        response = client.post("/api/match", json=body)
        assert response.status_code == 422
        assert len(response.content) < 1000, response.text[:300]
        assert long not in response.text
    short = client.post("/api/match", json={"text": "x", "top": "many"}).json()["detail"]
    assert short[0]["loc"] == ["body", "top"] and short[0]["input"] == "many"


def test_a_page_422_is_short_too(client: httpx.Client) -> None:
    response = client.get("/search", params={"q": "x", "page": "9" * 5000})
    assert response.status_code == 422
    assert "9" * 200 not in response.text


def test_clean_text() -> None:
    assert clean_text("short") == "short"
    assert clean_text("a" * 500) == "a" * MAX_SHOWN + "…"
    shown = clean_text("bad \ud800 char")
    assert shown == "bad \\ud800 char"
    json.dumps(shown).encode("utf-8")
