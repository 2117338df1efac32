"""The site in a real browser: Debian's Chromium driven by Playwright over loopback.

Screenshots go to ``tests/artifacts/`` (git-ignored) so a person can look at the pages.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from errdex.web.views import record_path

from .catalogue import HOSTILE_MESSAGE, SEED_004_ID, SEED_SHA
from .conftest import LiveServer, Site
from .test_pages import OUR_SECTIONS, SEED_SECTIONS

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # scripts/setup installs it; a missing browser is a broken set-up, not a reason to skip
    assert CHROMIUM.exists(), (
        "Debian's chromium is missing: run scripts/setup (apt-get install -y chromium)"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        yield launched
        launched.close()


@pytest.fixture()
def tab(browser: Browser, server: LiveServer) -> Iterator[Page]:
    """A desktop-sized page that fails the test on any dialog or page error."""
    context = browser.new_context(base_url=server.url, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    yield page
    context.close()
    assert problems == []


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def headings(page: Page) -> list[str]:
    return [h.strip() for h in page.locator("article h2").all_inner_texts()]


def test_search_then_open_an_error_page(tab: Page, site: Site, server: LiveServer) -> None:
    tab.goto("/")
    assert tab.locator("h1").inner_text() == "Every error a library can raise"
    assert tab.locator("table.repos tbody tr").count() == 2
    shot(tab, "home")

    tab.locator("#q").fill("top_level_all_gather unsharded")
    tab.locator("#q").press("Enter")
    tab.wait_for_url("**/search?q=*")
    first = tab.locator("ol.hits a.msg").first
    assert first.inner_text() == "top_level_all_gather doesn't allow input {aval} to be unshar"
    shot(tab, "search")

    first.click()
    record = next(r for r, _ in site.jax if r["id"] == SEED_004_ID)
    canonical = record_path("jax-ml/jax", SEED_004_ID, str(record["slug"]))
    tab.wait_for_url(f"**{canonical}")
    assert headings(tab) == SEED_SECTIONS + OUR_SECTIONS
    assert tab.locator(".kicker").inner_text() == "jax-ml/jax · error · ValueError"
    source = tab.locator("#source").inner_text()
    assert " ".join(source.split()).startswith("Source Thrown at jax/_src/shard_map.py:13")
    window = tab.locator("#source pre").inner_text().split("\n")
    assert window[12] == "13        raise ValueError("  # number, then the line as written
    raise_line = tab.locator("#L13")
    assert "hit" in (raise_line.get_attribute("class") or "")
    assert raise_line.locator(".ln").inner_text() == "13"
    github = tab.get_by_role("link", name=f"View on GitHub (pinned to {SEED_SHA[:10]})")
    assert github.get_attribute("href") == record["githubUrl"]
    assert tab.locator("#related li").count() == 1
    assert tab.locator("#solutions li").all_inner_texts() == record["solutions"]
    assert "Data as JSON: /api/errors/" + SEED_004_ID in tab.locator("footer.record").inner_text()
    alternate = tab.locator('link[rel="alternate"][type="application/json"]')
    assert alternate.get_attribute("href") == f"/api/errors/{SEED_004_ID}"
    shot(tab, "error-page")

    # The permalink is the page itself; the JSON it names is the same record.
    tab.get_by_role("link", name="Permalink").click()
    assert tab.url == server.url + canonical
    data = tab.request.get(f"/api/errors/{SEED_004_ID}").json()
    assert data["record"]["id"] == SEED_004_ID and data["record"]["slug"] == record["slug"]
    # A short link lands on the same page.
    tab.goto(f"/errors/{SEED_004_ID}")
    assert tab.url == server.url + canonical

    tab.locator("#L12").scroll_into_view_if_needed()
    tab.get_by_role("link", name="line 12").click()
    assert tab.url.endswith("#L12")


def test_error_page_fits_a_phone(browser: Browser, server: LiveServer, site: Site) -> None:
    context = browser.new_context(base_url=server.url, viewport=PHONE, is_mobile=True)
    page = context.new_page()
    record = next(r for r, _ in site.jax if r["id"] == SEED_004_ID)
    page.goto(record_path("jax-ml/jax", SEED_004_ID, str(record["slug"])))
    # Long code scrolls inside its box; the page itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('main p')).fontSize)")
    assert font >= 14
    shot(page, "error-page-phone")
    page.goto("/repos/acme/widgets")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "repo-page-phone")
    context.close()


def test_hostile_record_runs_no_script(tab: Page, site: Site) -> None:
    record = site.record(site.acme, "widgets/core.py", 15)
    tab.goto(record_path("acme/widgets", str(record["id"]), str(record["slug"])))
    assert tab.evaluate("typeof window.__errdex_pwned") == "undefined"
    assert tab.locator("script").count() == 0 and tab.locator("img").count() == 0
    assert tab.locator("#message pre").inner_text() == HOSTILE_MESSAGE
    assert tab.locator("h1").inner_text() == HOSTILE_MESSAGE[:60]
    source = tab.locator("#source pre").inner_text()
    assert "<script>window.__errdex_pwned = 1</script>" in source
    assert "{{ 7*7 }} {% if x %}" in source
    shot(tab, "hostile-record")


def test_repo_page_filters_without_javascript(tab: Page) -> None:
    tab.goto("/repos/acme/widgets")
    tab.locator("select[name=class]").select_option("LookupError")
    tab.get_by_role("button", name="Filter").click()
    tab.wait_for_url("**class=LookupError**")
    assert tab.locator("p.count").inner_text() == "1–50 of 60"
    tab.get_by_role("link", name="Next →").click()
    assert tab.locator("p.count").inner_text() == "51–60 of 60"
    shot(tab, "repo-page")


def real_traceback(site: Site) -> str:
    """Run the scanned code and keep what Python printed."""
    proc = subprocess.run(
        [sys.executable, "-c", "from widgets.core import spin; spin(object(), -5)"],
        cwd=site.acme_root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "ValueError: speed must be >= 0, got -5" in proc.stderr
    return proc.stderr


def test_paste_a_traceback_and_land_on_its_record(
    tab: Page, site: Site, server: LiveServer
) -> None:
    record = site.record(site.acme, "widgets/core.py", 13)
    tab.goto("/")
    tab.locator("#paste").fill(real_traceback(site))
    tab.get_by_role("button", name="Find where it was raised").click()
    tab.wait_for_url("**/match")
    best = tab.locator("ol.candidates > li").first
    assert "widgets/core.py:13" in best.inner_text()
    assert best.locator("dl.holes dt").all_inner_texts() == ["speed"]
    assert best.locator("dl.holes dd").all_inner_texts() == ["-5"]
    assert best.locator("ul.reasons li").count() >= 1
    shot(tab, "match")
    best.locator("a.msg").click()
    tab.wait_for_url(f"**{record_path('acme/widgets', str(record['id']), str(record['slug']))}")
    assert tab.locator("#message pre").inner_text() == "speed must be >= 0, got {speed}"
