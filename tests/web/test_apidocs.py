"""``/api/docs``: every operation of ``/openapi.json`` on a page that loads nothing from elsewhere."""

from __future__ import annotations

import re
from html import unescape

import httpx

from errdex.web.apidocs import type_of

from .conftest import LiveServer
from .dom import parse


def test_the_docs_page_is_ours_and_complete(client: httpx.Client, server: LiveServer) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert "script-src 'none'" in response.headers["content-security-policy"]
    html = response.text
    assert "<script" not in html
    # Everything the page loads is on this site: no CDN, no other host.
    loaded = re.findall(r'<(?:link|img)[^>]+(?:href|src)="([^"]+)"', html)
    assert loaded and all(url.startswith("/") for url in loaded), loaded
    doc = parse(html)
    operations = [
        f"{method.upper()} {path}"
        for path, item in client.get("/openapi.json").json()["paths"].items()
        for method in item
    ]
    shown = [h.words for h in doc.find_all("h2") if h.words.split(" ")[0].isupper()]
    assert shown == operations
    assert f"curl -s '{server.url}/api/repos'" in unescape(html)
    assert doc.find("section", id="schema-MatchRequest")


def test_schema_types_in_words() -> None:
    assert type_of({"$ref": "#/components/schemas/SearchPage"}) == "SearchPage"
    assert type_of({"type": "array", "items": {"type": "string"}}) == "list of string"
    assert type_of({"anyOf": [{"type": "string"}, {"type": "null"}]}) == "string or null"
    assert type_of({"type": "integer", "minimum": 1, "maximum": 20}) == "integer, ≥ 1, ≤ 20"
    assert type_of({"type": "object", "additionalProperties": {"type": "integer"}}) == (
        "map to integer"
    )
