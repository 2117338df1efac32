"""The error page marks a permalink whose tag errdex guessed (``evidence.source.refSource``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import Checkout
from errdex.store import SqliteStore
from errdex.web.views import record_path

from .conftest import LiveServer
from .dom import parse

CODE = 'def f(x):\n    if x < 0:\n        raise ValueError(f"x must be >= 0, got {x}")\n'


def _release(root: Path, repo: str, ref_source: str) -> Checkout:
    """Code read from an installed release of ``repo`` 1.0: pinned to a tag, no commit."""
    return Checkout(
        root=root,
        repo=repo,
        sha=None,
        ref="v1.0" if ref_source == "guessed" else "1.0",
        ref_kind="tag",
        forge_url=f"https://github.com/{repo}",
        version="1.0",
        origin="package",
        files=("pkg/mod.py",),
        ref_source=ref_source,
        tag="v1.0" if ref_source == "guessed" else "1.0",
    )


@pytest.fixture(scope="module")
def pages(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    base = tmp_path_factory.mktemp("pin-guess")
    (base / "pkg").mkdir()
    (base / "pkg" / "mod.py").write_text(CODE, encoding="utf-8")
    db = base / "errdex.db"
    urls: dict[str, str] = {}
    for repo, ref_source in (("acme/guessed", "guessed"), ("acme/tabled", "table")):
        checkout = _release(base, repo, ref_source)
        result = scan_checkout(checkout, repo=repo, analyze=False)
        with SqliteStore(db) as store:
            store_scan(store, checkout, repo, result, iso_now())
        record = result.items[0][0]
        urls[ref_source] = record_path(repo, record["id"], record["slug"])
    with LiveServer(db) as live, httpx.Client(base_url=live.url, timeout=30) as client:
        yield client, urls


def _source_section(client: httpx.Client, url: str) -> tuple[str, str]:
    response = client.get(url)
    assert response.status_code == 200, response.text[:300]
    section = parse(response.text).find("section", id="source")
    link = section.find("a", class_="gh")
    notes = section.find_all("small", class_="guessed")
    return link.words, " ".join(n.words for n in notes)


def test_guessed_tag_is_marked_beside_the_permalink(
    pages: tuple[httpx.Client, dict[str, str]],
) -> None:
    client, urls = pages
    link, note = _source_section(client, urls["guessed"])
    assert link == "View on GitHub (pinned to v1.0)"
    assert note == "guessed tag"


def test_a_tag_from_the_table_is_not_marked(pages: tuple[httpx.Client, dict[str, str]]) -> None:
    client, urls = pages
    link, note = _source_section(client, urls["table"])
    assert link == "View on GitHub (pinned to 1.0)"
    assert note == ""
