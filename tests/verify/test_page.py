"""A verified record's page over real HTTP and in a real browser: "Reproduce it" and a
mark on every code block (what serve shows is what verify stored; serve runs nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import sync_playwright

from errdex.store import SqliteStore
from errdex.web.views import record_path
from tests.web.conftest import LiveServer
from tests.web.dom import parse

from .conftest import REPO, Tree

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def live(verified: Tree) -> Iterator[LiveServer]:
    with LiveServer(verified.db) as server:
        yield server


def _url(tree: Tree, line: int) -> str:
    with SqliteStore(tree.db) as store:
        env = next(e for e in store.iter_envelopes(REPO) if e["record"]["lineNumber"] == line)
    record = env["record"]
    return record_path(record["repo"], record["id"], record["slug"])


def _get(live: LiveServer, url: str) -> str:
    response = httpx.get(live.url + url, timeout=30)
    assert response.status_code == 200
    return response.text


def test_reproduce_it_shows_the_snippet_and_its_traceback(verified: Tree, live: LiveServer) -> None:
    doc = parse(_get(live, _url(verified, 16)))
    section = doc.find("section", id="reproduce")
    assert section.find("h2").words == "Reproduce it"
    assert section.find("pre", class_="reproducer").text == (
        "from acme.core import check, fill, old\nfill('b', 1.5)"
    )
    assert section.find("pre", class_="traceback").text.endswith(
        "TypeError: n must be an int, not float"
    )
    mark = section.find("p", class_="run-mark")
    assert mark.words.startswith("ran 20") and "raised TypeError" in mark.words
    assert "acme/core.py:16" in mark.words


def test_every_code_block_carries_a_mark(verified: Tree, live: LiveServer) -> None:
    for line in (10, 16, 18, 23, 27):
        doc = parse(_get(live, _url(verified, line)))
        article = doc.find("article")
        for section_id in ("reproduce", "example-fix", "handling", "tests"):
            for section in article.find_all("section", id=section_id):
                blocks = section.find_all("pre")
                code = [b for b in blocks if "traceback" not in b.attrs.get("class", "")]
                marks = section.find_all("p", class_="run-mark")
                shown = [m for m in marks if "withheld" not in m.attrs["class"]]
                assert marks and len(shown) == len(code), (line, section_id)
                if section_id != "tests":  # generated code is shown only once it ran
                    assert all("not-run" not in m.attrs["class"] for m in shown), line


def test_an_unreached_record_has_no_reproducer_and_says_not_run(
    verified: Tree, live: LiveServer
) -> None:
    doc = parse(_get(live, _url(verified, 27)))
    assert doc.find_all("section", id="reproduce") == []
    handling = doc.find("section", id="handling")
    mark = handling.find("p", class_="run-mark")
    assert mark.words == (
        "A try/except pattern: not shown, because errdex has not run it "
        "(not run: no verified reproducer to run it against)."
    )
    assert "not-run" in mark.attrs["class"]
    assert handling.find_all("pre") == []


def test_the_page_in_a_browser(verified: Tree, live: LiveServer) -> None:
    assert CHROMIUM.exists(), "Debian's chromium is missing: run scripts/setup"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(base_url=live.url)
            page.goto(_url(verified, 18))
            headings = [h.strip() for h in page.locator("article h2").all_inner_texts()]
            assert "Reproduce it" in headings
            assert headings.index("Reproduce it") > headings.index("Source")
            text = page.locator("#reproduce .run-mark").inner_text()
            assert text.startswith("✓ ran ") or text.startswith("ran ")
            caught = page.locator("#handling .run-mark").inner_text()
            assert "caught BoxError raised at acme/core.py:18" in caught
            shot = Path(__file__).resolve().parents[1] / "artifacts" / "verified-record.png"
            shot.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
