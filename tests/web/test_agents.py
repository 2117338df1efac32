"""``/llms.txt``, ``/sitemap.xml`` (and its index) and ``/robots.txt``, over real HTTP."""

from __future__ import annotations

import re
import sqlite3
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.web import agents

from .conftest import LiveServer, Site

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def expected_paths(db: Path) -> set[str]:
    """Home, each repository's page and every current record's canonical page, from the file."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT repo, id, slug FROM records WHERE stale = 0").fetchall()
    repos = {repo for repo, _, _ in rows}
    return (
        {"/"}
        | {f"/repos/{repo}" for repo in repos}
        | {f"/repos/{repo}/errors/{rid}/{slug}" for repo, rid, slug in rows}
    )


def locs(response: httpx.Response, kind: str) -> list[str]:
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{{{NS['s']}}}{kind}"
    child = "url" if kind == "urlset" else "sitemap"
    return [el.text or "" for el in root.findall(f"s:{child}/s:loc", NS)]


def test_sitemap_lists_every_page_once_and_each_exists(
    client: httpx.Client, server: LiveServer, site: Site
) -> None:
    found = locs(client.get("/sitemap.xml"), "urlset")
    assert len(found) == len(set(found))
    assert all(url.startswith(server.url + "/") for url in found)
    assert {url[len(server.url) :] for url in found} == expected_paths(site.db)
    assert len(found) > 10
    for url in found:
        assert client.get(url).status_code == 200, url


@pytest.fixture()
def small_pages(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(agents, "SITEMAP_URLS", 7)
    return 7


def test_a_large_catalogue_gets_a_sitemap_index(
    small_pages: int, client: httpx.Client, server: LiveServer, site: Site
) -> None:
    pages = locs(client.get("/sitemap.xml"), "sitemapindex")
    want = expected_paths(site.db)
    assert len(pages) == -(-len(want) // small_pages)
    assert pages == [f"{server.url}/sitemaps/{n}.xml" for n in range(1, len(pages) + 1)]
    seen: list[str] = []
    for page in pages:
        urls = locs(client.get(page), "urlset")
        assert 0 < len(urls) <= small_pages
        seen += urls
    assert len(seen) == len(set(seen))
    assert {url[len(server.url) :] for url in seen} == want
    assert client.get(f"/sitemaps/{len(pages) + 1}.xml").status_code == 404
    assert client.get("/sitemaps/0.xml").status_code in (404, 422)


def test_robots_points_at_the_sitemap(client: httpx.Client, server: LiveServer) -> None:
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    lines = response.text.splitlines()
    assert lines[0] == "User-agent: *"
    assert f"Sitemap: {server.url}/sitemap.xml" in lines
    assert "Disallow: /search" in lines


def test_llms_txt_describes_the_api_with_live_examples(
    client: httpx.Client, server: LiveServer, site: Site
) -> None:
    response = client.get("/llms.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/markdown")
    text = response.text
    assert text.startswith("# errdex\n\n> ")
    for heading in ("## API", "## Record envelope", "## Optional"):
        assert f"\n{heading}\n" in text
    for endpoint in ("/api/match", "/api/search", "/api/errors/", "/api/repos", "/datasets/"):
        assert endpoint in text
    for field in ("record", "evidence", "datasetVersion", "errorMessage", "messagePattern"):
        assert f"`{field}`" in text
    examples = re.findall(r"`(" + re.escape(server.url) + r"/[^`\s]+)`", text)
    assert len(examples) >= 5
    for url in examples:
        assert client.get(url).status_code == 200, url
    record_ids = set(re.findall(r"/api/errors/([0-9a-f]{16})", text))
    with sqlite3.connect(site.db) as conn:
        known = {row[0] for row in conn.execute("SELECT id FROM records")}
    assert record_ids and record_ids <= known
    curl = re.search(r"`curl -s -X POST (\S+) .* -d '(.+)'`", text)
    assert curl is not None
    answered = client.post(
        curl.group(1), content=curl.group(2), headers={"content-type": "application/json"}
    )
    assert answered.status_code == 200


@pytest.fixture()
def behind_proxy(site: Site) -> Iterator[httpx.Client]:
    with (
        LiveServer(site.db, base_url="https://errors.example.org/errdex") as live,
        httpx.Client(base_url=live.url, timeout=30) as client,
    ):
        yield client


def test_a_base_url_setting_makes_the_absolute_urls(behind_proxy: httpx.Client, site: Site) -> None:
    public = "https://errors.example.org/errdex"
    found = locs(behind_proxy.get("/sitemap.xml"), "urlset")
    assert {url[len(public) :] for url in found} == expected_paths(site.db)
    assert all(url.startswith(public + "/") for url in found)
    assert f"Sitemap: {public}/sitemap.xml" in behind_proxy.get("/robots.txt").text
    text = behind_proxy.get("/llms.txt").text
    assert f"{public}/api/match" in text and "127.0.0.1" not in text


def test_serve_refuses_a_base_url_that_is_not_http(site: Site) -> None:
    result = CliRunner().invoke(
        main, ["serve", "--db", str(site.db), "--base-url", "errors.example.org"]
    )
    assert result.exit_code == 2
    assert "is not an http(s) URL" in result.output
