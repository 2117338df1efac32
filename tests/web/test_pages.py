"""The HTML pages over real HTTP: seed 004's layout, sections left out, filters, escaping."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import httpx

from errdex.store import SqliteStore
from errdex.web.views import record_path

from ..store.factories import make_record, make_summary
from .catalogue import (
    ACME_SHA,
    CODE_COUNT,
    HOSTILE_MESSAGE,
    SEED_004_ID,
    SEED_SHA,
    scan_into,
    write_tree,
)
from .conftest import LiveServer, Site
from .dom import Node, parse

SEED_SECTIONS = [
    "Error message",
    "What it means",
    "Source",
    "Solutions",
    "Example fix",
    "When it happens",
    "Related errors",
]
OUR_SECTIONS = ["Handling it", "Condition", "Seen in tests", "Observed messages", "Entry points"]


def page(client: httpx.Client, url: str, status: int = 200) -> Node:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("text/html")
    return parse(response.text)


def headings(doc: Node) -> list[str]:
    return [h.words for h in doc.find("article").find_all("h2")]


def seed_record(site: Site) -> dict[str, object]:
    return next(r for r, _ in site.jax if r["id"] == SEED_004_ID)


def test_error_page_follows_seed_004(client: httpx.Client, site: Site) -> None:
    record = seed_record(site)
    url = record_path("jax-ml/jax", SEED_004_ID, str(record["slug"]))
    doc = page(client, url)
    article = doc.find("article")

    assert headings(doc) == SEED_SECTIONS + OUR_SECTIONS
    assert article.find("p", class_="kicker").words == "jax-ml/jax · error · ValueError"
    assert article.find("h1").text == "top_level_all_gather doesn't allow input {aval} to be unshar"
    message = doc.find("section", id="message").find("pre").text
    assert message == record["errorMessage"]
    assert doc.find("section", id="meaning").words.startswith(
        "What it means top_level_all_gather can only gather, not shard"
    )

    source = doc.find("section", id="source")
    assert "Thrown at jax/_src/shard_map.py:13" in source.words
    lines = source.find_all("span", class_="line")
    assert [int(n.attrs["id"][1:]) for n in lines] == list(range(1, 18))
    hits = [n for n in lines if "hit" in n.attrs["class"].split()]
    assert [n.attrs["id"] for n in hits] == ["L13", "L14", "L15"]  # the whole raise statement
    assert hits[0].find("span", class_="ln").text == "13"
    assert "raise" in hits[0].text
    github = source.find("a", class_="gh")
    assert github.words == f"View on GitHub (pinned to {SEED_SHA[:10]})"
    assert github.attrs["href"] == record["githubUrl"]

    solutions = [li.words for li in doc.find("section", id="solutions").find_all("li")]
    assert solutions == record["solutions"]
    # The seed's example fix and check were never run by errdex: named, not shown.
    example_fix = doc.find("section", id="example-fix")
    assert example_fix.find_all("pre") == []
    withheld = [p.words for p in example_fix.find_all("p", class_="withheld")]
    assert withheld == [
        "An example fix: not shown, because errdex has not run it (not run).",
        "A validation check: not shown, because errdex has not run it (not run).",
    ]
    when = [p.words for p in doc.find("section", id="when").find_all("p")]
    assert when == [
        f"Trigger: {record['triggerScenarios']}",
        f"Common situations: {record['commonSituations']}",
    ]

    other = next(r for r, _ in site.jax if r["id"] != SEED_004_ID)
    related = doc.find("section", id="related").find_all("a")
    assert [(a.text, a.attrs["href"]) for a in related] == [
        (
            "multiple dimensions cannot be all_gathered since multi_dim=F",  # seed 004's cut
            record_path("jax-ml/jax", str(other["id"]), str(other["slug"])),
        )
    ]

    footer = article.find("footer")
    date = str(record["analyzedAt"])[:10]
    assert footer.words == (
        f"AI-assisted analysis (openai:gpt-4.1-mini) of jax-ml/jax@{SEED_SHA[:10]} ({date}). "
        f"Data as JSON: /api/errors/{SEED_004_ID}. Report an issue: GitHub."
    )
    report = httpx.URL(footer.find_all("a")[-1].attrs["href"])
    assert str(report).startswith("https://github.com/errdex/errdex/issues/new?")
    assert report.params["title"] == f"errdex record {SEED_004_ID}: {record['errorMessage'][:60]}"
    assert f"Page: {client.base_url}{url}\n" in report.params["body"]
    alternate = doc.find("link", rel="alternate")
    assert alternate.attrs == {
        "rel": "alternate",
        "type": "application/json",
        "href": f"/api/errors/{SEED_004_ID}",
    }
    assert doc.find("link", rel="canonical").attrs["href"] == url


def test_our_sections_show_the_evidence(client: httpx.Client, site: Site) -> None:
    record = seed_record(site)
    doc = page(client, record_path("jax-ml/jax", SEED_004_ID, str(record["slug"])))
    handling = doc.find("section", id="handling")
    assert handling.find_all("pre") == []  # never run, so not shown
    withheld = [p.words for p in handling.find_all("p", class_="withheld")]
    labels = [
        ("A type guard", record["typeGuard"]),
        ("A try/except pattern", record["tryCatchPattern"]),
    ]
    assert withheld == [
        f"{label}: not shown, because errdex has not run it (not run)." for label, c in labels if c
    ]
    tips = [li.words for li in handling.find_all("li")]
    assert tips == record["preventionTips"]
    if record["handlingStrategy"]:
        assert f"Strategy: {record['handlingStrategy']}" in handling.words
    conditions = [li.words for li in doc.find("section", id="condition").find_all("li")]
    assert conditions == [
        "in the loop for axis, (i, o) in enumerate(zip(in_spec.partitions, out_spec.partitions)) — line 4",
        "if i is None — line 12",
    ]
    anchors = doc.find("section", id="condition").find_all("a")
    assert [a.attrs["href"] for a in anchors] == ["#L4", "#L12"]
    assert doc.find("span", id="L12").attrs["class"] == "line cond"
    tests = doc.find("section", id="tests").words
    assert "tests/shard_map_test.py::ShardMapTest::test_all_gather_unsharded" in tests
    assert "assertRaisesRegex matching doesn't allow input" in tests
    observed = doc.find("section", id="observed")
    assert "float32[8,4] to be unsharded on dimension 0" in observed.find("pre").text
    assert "seen 3×" in observed.words
    assert [dt.words for dt in observed.find_all("dt")] == ["aval", "axis", "out_spec"]
    entry = doc.find("section", id="entry-points").words
    assert "jax.sharding.top_level_all_gather" in entry
    assert "via top_level_all_gather_impl → f_shmap" in entry


def test_sections_without_data_are_left_out(client: httpx.Client, site: Site) -> None:
    record = site.record(site.acme, "widgets/core.py", 23)  # stripped to the extractor's facts
    doc = page(client, record_path("acme/widgets", str(record["id"]), str(record["slug"])))
    assert headings(doc) == [
        "Error message",
        "What it means",
        "Source",
        "Solutions",
        "When it happens",
    ]
    assert doc.find_all("section", id="related") == [] and doc.find_all("ul", class_="conds") == []
    assert doc.find("p", class_="kicker").words == "acme/widgets · error · KeyError"
    footer = doc.find("article").find("footer").words
    assert footer.startswith(
        "Static analysis (extractor facts only, no analyst has run) of "
        f"acme/widgets@{ACME_SHA[:10]} ("
    )
    # Prose with `names` shows them as code, escaped.
    assert "widgets.core.load" in [
        c.text for c in doc.find("section", id="meaning").find_all("code")
    ]


def test_hostile_text_is_shown_as_text(client: httpx.Client, site: Site) -> None:
    record = site.record(site.acme, "widgets/core.py", 15)
    assert record["errorMessage"] == HOSTILE_MESSAGE
    response = client.get(record_path("acme/widgets", str(record["id"]), str(record["slug"])))
    html = response.text
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;window.__errdex_pwned = 2&lt;/script&gt;" in html
    doc = parse(html)
    assert doc.find_all("script") == [] and doc.find_all("img") == []
    assert doc.find("section", id="message").find("pre").text == HOSTILE_MESSAGE
    source = doc.find("section", id="source").text
    assert (
        "# <script>window.__errdex_pwned = 1</script> \"quoted\" 'single' {{ 7*7 }} {% if x %}"
        in source
    )
    assert doc.find("h1").text == HOSTILE_MESSAGE[:60]
    assert "{{ widget }} {% if widget %}x{% endif %}" in HOSTILE_MESSAGE  # shown, not evaluated
    assert "script-src 'none'" in response.headers["content-security-policy"]


def test_error_urls_are_canonical(client: httpx.Client, site: Site) -> None:
    record = seed_record(site)
    canonical = record_path("jax-ml/jax", SEED_004_ID, str(record["slug"]))
    for alias in (
        f"/errors/{SEED_004_ID}",
        f"/repos/jax-ml/jax/errors/{SEED_004_ID}",
        f"/repos/jax-ml/jax/errors/{SEED_004_ID}/an-old-slug",
        f"/repos/someone/else/errors/{SEED_004_ID}/{record['slug']}",
    ):
        response = client.get(alias, follow_redirects=False)
        assert response.status_code == 301, alias
        assert response.headers["location"] == canonical
    missing = page(client, "/repos/jax-ml/jax/errors/0000000000000000/x", status=404)
    assert missing.find("h1").text == "Not found"
    assert "0000000000000000" in missing.find("main").words


def test_home_lists_repositories_and_both_boxes(client: httpx.Client, site: Site) -> None:
    doc = page(client, "/")
    rows = [[td.words for td in tr.find_all("td")] for tr in doc.find("tbody").find_all("tr")]
    assert rows == [
        ["acme/widgets", str(len(site.acme)), ACME_SHA[:10]],
        ["jax-ml/jax", str(len(site.jax)), SEED_SHA[:10]],
    ]
    search = doc.find("form", action="/search")
    assert search.attrs["method"] == "get" and search.find("input").attrs["name"] == "q"
    paste = doc.find("form", action="/match")
    assert paste.attrs["method"] == "post" and paste.find("textarea").attrs["name"] == "text"
    assert doc.find("meta", name="viewport").attrs["content"].startswith("width=device-width")


def test_repo_page_filters_and_pages(client: httpx.Client, site: Site) -> None:
    doc = page(client, "/repos/acme/widgets")
    assert doc.find("p", class_="count").words == f"1–50 of {len(site.acme)}"
    first = [a.attrs["href"] for a in doc.find("ol", class_="hits").find_all("a")]
    assert len(first) == 50
    next_url = doc.find("a", rel="next").attrs["href"]
    assert next_url == "/repos/acme/widgets?page=2"
    second = page(client, next_url)
    assert second.find("p", class_="count").words == f"51–{len(site.acme)} of {len(site.acme)}"
    assert second.find("a", rel="prev").attrs["href"] == "/repos/acme/widgets"
    assert not second.find_all("a", rel="next")
    rest = [a.attrs["href"] for a in second.find("ol", class_="hits").find_all("a")]
    assert len(set(first + rest)) == len(site.acme)

    lookups = page(client, "/repos/acme/widgets?class=LookupError")
    assert lookups.find("p", class_="count").words == f"1–50 of {CODE_COUNT}"
    assert (
        lookups.find("a", rel="next").attrs["href"]
        == "/repos/acme/widgets?class=LookupError&page=2"
    )
    selected = lookups.find("select").find("option", selected="")
    assert selected.attrs["value"] == "LookupError"

    warnings = page(client, "/repos/acme/widgets?severity=warning&type=console")
    assert [a.text for a in warnings.find("ol", class_="hits").find_all("a")] == [
        "spinning faster than 100 rpm wears the bearings"
    ]
    in_core = page(client, "/repos/acme/widgets?file=widgets/core.py")
    assert in_core.find("p", class_="count").words == "1–4 of 4"
    folder = page(client, "/repos/acme/widgets?file=widgets/")
    assert folder.find("p", class_="count").words == f"1–50 of {len(site.acme)}"
    none = page(client, "/repos/acme/widgets?file=widgets/core")  # not a folder of core.py
    assert none.find("p", class_="count").words == "No error matches these filters."
    page(client, "/repos/acme/nothing", status=404)
    page(client, "/repos/acme/widgets?page=0", status=422)


def test_search_page(client: httpx.Client, site: Site) -> None:
    doc = page(client, "/search?q=spinning+faster")
    titles = [a.text for a in doc.find("ol", class_="hits").find_all("a")]
    assert titles[0] == "spinning faster than 100 rpm wears the bearings"
    assert doc.find("input", id="q").attrs["value"] == "spinning faster"
    registry = page(client, "/search?q=registry&repo=acme/widgets")
    assert len(registry.find("ol", class_="hits").find_all("li")) == 50
    more = registry.find("a", rel="next").attrs["href"]
    assert more == "/search?q=registry&repo=acme%2Fwidgets&page=2"
    assert len(page(client, more).find("ol", class_="hits").find_all("li")) == CODE_COUNT - 50
    empty = page(client, "/search?q=zzzzqqq")
    assert empty.find("p", class_="count").words == "No error matches."


def test_match_form_and_unknown_pages(client: httpx.Client) -> None:
    form = page(client, "/match").find("form", action="/match")
    assert form.attrs["method"] == "post" and form.find("textarea").attrs["name"] == "text"
    assert page(client, "/no/such/page", status=404).find("h1").text == "Not found"
    refused = client.post("/")
    assert refused.status_code == 405 and refused.headers["content-type"].startswith("text/html")


def test_pages_are_plain_html_with_one_stylesheet(client: httpx.Client) -> None:
    html = client.get("/").text
    assert re.findall(r"<link[^>]+stylesheet[^>]*>", html) == [
        '<link rel="stylesheet" href="/static/style.css">'
    ]
    css = client.get("/static/style.css")
    assert css.status_code == 200 and "pre.code .hit" in css.text


def test_home_sorts_repositories_ignoring_case_and_shows_tags_whole(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    body = "def f():\n    raise ValueError('nope')\n"
    tag = "hypothesis-python-6.100.0"
    for repo, sha, ref in (
        ("zope/zope", "7" * 40, None),
        ("HypothesisWorks/hypothesis", None, tag),
        ("acme/anvil", "8" * 40, None),
    ):
        root = write_tree(tmp_path / repo.replace("/", "-"), {"pkg/m.py": body})
        scan_into(db, root, repo, sha, ref)
    with LiveServer(db) as live, httpx.Client(base_url=live.url) as client:
        doc = page(client, "/")
        rows = [[td.words for td in tr.find_all("td")] for tr in doc.find("tbody").find_all("tr")]
        assert rows == [
            ["acme/anvil", "1", "8" * 10],
            ["HypothesisWorks/hypothesis", "1", tag],
            ["zope/zope", "1", "7" * 10],
        ]
        assert [r["repo"] for r in client.get("/api/repos").json()["repos"]] == [
            "acme/anvil",
            "HypothesisWorks/hypothesis",
            "zope/zope",
        ]
        repo_page = page(client, "/repos/HypothesisWorks/hypothesis")
        assert tag in repo_page.find("main").words


def test_every_page_names_an_icon_that_exists(client: httpx.Client) -> None:
    doc = page(client, "/")
    icon = client.get(doc.find("link", rel="icon").attrs["href"])
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    fallback = client.get("/favicon.ico")
    assert fallback.status_code == 200 and fallback.content == icon.content


def test_home_shows_the_version_of_a_release_pinned_to_its_commit(tmp_path: Path) -> None:
    # a package read at a release whose commit is known: "3.1.6 15206881c0", not the sha alone
    db = tmp_path / "errdex.db"
    sha = "15206881c006c79667fe5154fe80c01c65410679"
    summary = dataclasses.replace(make_summary(repo="pallets/jinja", commit=sha), version="3.1.6")
    with SqliteStore(db) as store:
        store.write_scan(summary, [(make_record(repo="pallets/jinja", sha=sha), {})], "2026-01-01")
    with LiveServer(db) as live, httpx.Client(base_url=live.url) as client:
        rows = [
            [td.words for td in tr.find_all("td")]
            for tr in page(client, "/").find("tbody").find_all("tr")
        ]
        assert rows == [["pallets/jinja", "1", f"3.1.6 {sha[:10]}"]]
