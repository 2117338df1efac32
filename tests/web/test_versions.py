"""Versions on the site: a record's releases in its JSON and page, and the OSV-like query.

The catalogue is real: one small package written at two releases and scanned by errdex
(the second moves a raise down, drops one and adds one), served by uvicorn, from an
SQLite file and from a PostgreSQL database. The newer release is scanned first, so the
older scan must not take its place as the current one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import Store, open_store
from errdex.web.api import decode_page_token, encode_page_token, with_versions
from errdex.web.versions import ReleaseRecords, release_records

from .catalogue import write_tree
from .conftest import LiveServer
from .dom import parse

REPO = "acme/gadgets"
SHA_1 = "1" * 40
SHA_2 = "2" * 40
KEEP = "def keep(x):\n    if x < 0:\n        raise ValueError(f'negative gadget: {x}')\n"
GONE = "def gone():\n    raise RuntimeError('removed in 1.1')\n"
ADDED = "def added():\n    raise TypeError('added in 1.1')\n"


def _scan(db: Path | str, root: Path, version: str, sha: str) -> dict[str, str]:
    checkout = replace(open_source(str(root), repo=REPO, sha=sha), version=version)
    result = scan_checkout(checkout, repo=REPO, analyze=False)
    with open_store(db) as store:
        store_scan(store, checkout, REPO, result, iso_now())
    return {r["errorMessage"]: r["id"] for r, _ in result.items}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def releases(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> tuple[Path | str, dict[str, str]]:
    base = tmp_path_factory.mktemp("versions")
    db: Path | str = base / "v.db"
    if request.param == "postgres":
        db = request.getfixturevalue("postgres_server").new_database()
    one = write_tree(base / "r1", {"gadgets/core.py": KEEP + GONE})
    two = write_tree(base / "r2", {"gadgets/core.py": "# moved\n" * 5 + ADDED + KEEP})
    # newest first: 1.1 stays the current release though 1.0 is scanned after it
    ids = _scan(db, two, "1.1", SHA_2) | _scan(db, one, "1.0", SHA_1)
    return db, ids


@pytest.fixture(scope="module")
def live(releases: tuple[Path | str, dict[str, str]]) -> Iterator[httpx.Client]:
    with LiveServer(releases[0]) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def test_error_json_carries_ranges_and_the_line_per_release(
    live: httpx.Client, releases: tuple[Path | str, dict[str, str]]
) -> None:
    db, ids = releases
    keep = ids["negative gadget: {x}"]
    data = live.get(f"/api/errors/{keep}").json()
    assert list(data) == ["record", "evidence", "datasetVersion"]
    versions = data["evidence"]["versions"]
    assert versions["releases"] == ["1.0", "1.1"]
    assert versions["ranges"] == [{"introduced": "1.0", "last_affected": "1.1", "fixed": None}]
    assert [(p["version"], p["filePath"], p["lineNumber"]) for p in versions["places"]] == [
        ("1.0", "gadgets/core.py", 3),
        ("1.1", "gadgets/core.py", 10),  # 5 comment lines and added() above
    ]
    with open_store(db) as store:  # everything else is the stored envelope, as it was
        stored = store.get(keep)
    assert stored is not None
    del data["evidence"]["versions"]
    assert data == stored
    assert data["record"]["lineNumber"] == 10  # 1.1's, the newest release, is current
    assert [p["sourceCode"] for p in versions["places"]][1] == data["record"]["sourceCode"]
    old_window = versions["places"][0]
    assert old_window["sourceCodeStart"] == 1
    assert old_window["sourceCode"] == (KEEP + GONE).rstrip("\n")

    gone = live.get(f"/api/errors/{ids['removed in 1.1']}").json()["evidence"]["versions"]
    assert gone["events"] == [{"introduced": "1.0"}, {"fixed": "1.1"}]


def test_with_versions_splices_into_any_evidence() -> None:
    versions = {"releases": ["1"]}
    body = b'{"record":{"a":1},"evidence":{},"datasetVersion":"x"}'
    assert with_versions(body, versions) == (
        b'{"record":{"a":1},"evidence":{"versions":{"releases":["1"]}},"datasetVersion":"x"}'
    )
    body = b'{"record":{},"evidence":{"site":{"k":"}"}},"datasetVersion":"x"}'
    assert with_versions(body, versions) == (
        b'{"record":{},"evidence":{"site":{"k":"}"},"versions":{"releases":["1"]}},'
        b'"datasetVersion":"x"}'
    )
    assert with_versions(body, None) == body


def _query(live: httpx.Client, **params: str) -> httpx.Response:
    return live.get("/api/query", params=params)


def test_query_returns_the_records_of_that_release_at_their_lines(
    live: httpx.Client, releases: tuple[Path | str, dict[str, str]]
) -> None:
    _, ids = releases
    old = _query(live, package="gadgets", version="1.0")
    assert old.status_code == 200, old.text
    body = old.json()
    assert body["package"]["name"] == "gadgets" and body["version"] == "1.0"
    [result] = body["results"]
    assert (result["repo"], result["release"], result["commit"]) == (REPO, "1.0", SHA_1)
    got = {r["errorMessage"]: (r["id"], r["lineNumber"], r["stale"]) for r in result["records"]}
    assert got == {
        "negative gadget: {x}": (ids["negative gadget: {x}"], 3, False),
        "removed in 1.1": (ids["removed in 1.1"], 5, True),
    }
    assert result["records"][0]["url"].startswith(f"/repos/{REPO}/errors/")

    new = live.post("/api/query", json={"package": {"name": REPO}, "version": "1.1.0"})
    assert new.status_code == 200, new.text
    [result] = new.json()["results"]
    assert result["release"] == "1.1"  # 1.1.0 is 1.1 under PEP 440
    assert sorted(r["errorMessage"] for r in result["records"]) == [
        "added in 1.1",
        "negative gadget: {x}",
    ]
    by_commit = live.post(
        "/api/query",
        json={"package": {"name": "gadgets", "ecosystem": "PyPI"}, "commit": SHA_1[:10]},
    )
    assert by_commit.status_code == 200
    assert by_commit.json()["results"][0]["release"] == "1.0"


@pytest.mark.parametrize(
    ("call", "status", "says"),
    [
        (
            {"package": "gadgets", "version": "9.0"},
            404,
            "catalogued: acme/gadgets 1.0, acme/gadgets 1.1",
        ),
        ({"package": "nothing-here", "version": "1.0"}, 404, "no package or repository"),
        ({"package": "gadgets"}, 400, "give the package's version"),
    ],
)
def test_query_errors_say_what_there_is(
    live: httpx.Client, call: dict[str, Any], status: int, says: str
) -> None:
    response = _query(live, **call)
    assert response.status_code == status
    assert says in response.json()["detail"]


def test_query_body_is_checked(live: httpx.Client) -> None:
    assert live.post("/api/query", json={"version": "1.0"}).status_code == 422
    assert (
        live.post("/api/query", json={"package": {"name": "gadgets"}, "commit": "zz"}).status_code
        == 422
    )


def test_record_page_lists_its_releases(
    live: httpx.Client, releases: tuple[Path | str, dict[str, str]]
) -> None:
    _, ids = releases
    keep = ids["negative gadget: {x}"]
    page = live.get(f"/errors/{keep}", follow_redirects=True)
    assert page.status_code == 200
    section = parse(page.text).find("section", id="versions")
    assert (
        "In 2 of the 2 catalogued releases of acme/gadgets: introduced in 1.0, last seen in 1.1, still raised."
        in section.words
    )
    rows = [[td.words for td in tr.find_all("td")] for tr in section.find("tbody").find_all("tr")]
    assert rows == [["1.0", "gadgets/core.py:3"], ["1.1", "gadgets/core.py:10 (shown above)"]]
    links = [a.attrs["href"] for a in section.find_all("a")]
    assert links == [
        f"https://github.com/{REPO}/blob/{SHA_1}/gadgets/core.py#L3",
        f"https://github.com/{REPO}/blob/{SHA_2}/gadgets/core.py#L10",
    ]


def test_record_page_shows_the_code_of_an_older_release(
    live: httpx.Client, releases: tuple[Path | str, dict[str, str]]
) -> None:
    _, ids = releases
    page = live.get(f"/errors/{ids['negative gadget: {x}']}", follow_redirects=True)
    section = parse(page.text).find("section", id="versions")
    [details] = section.find_all("details")
    assert "its code in 1.0 (from line 1)" in details.find("summary").words
    assert details.find("pre").text == (KEEP + GONE).rstrip("\n")


def test_query_pages_with_a_token_until_the_last(live: httpx.Client) -> None:
    whole = _query(live, package="gadgets", version="1.0").json()
    assert whole["next_page_token"] is None
    expected = [r["id"] for r in whole["results"][0]["records"]]
    assert len(expected) == 2
    first = _query(live, package="gadgets", version="1.0", limit="1").json()
    assert [r["id"] for r in first["results"][0]["records"]] == expected[:1]
    token = first["next_page_token"]
    assert decode_page_token(token) == (0, 1)
    second = _query(live, package="gadgets", version="1.0", limit="1", cursor=token).json()
    assert [r["id"] for r in second["results"][0]["records"]] == expected[1:]
    assert second["next_page_token"] is None
    posted = live.post(
        "/api/query",
        json={"package": {"name": "gadgets"}, "version": "1.0", "limit": 1, "page_token": token},
    ).json()
    assert posted["results"] == second["results"]
    past = _query(live, package="gadgets", version="1.0", page_token=encode_page_token(0, 9))
    assert past.status_code == 200 and past.json()["results"][0]["records"] == []
    bad = _query(live, package="gadgets", version="1.0", page_token="nonsense!")
    assert bad.status_code == 400 and "bad page_token" in bad.json()["detail"]
    assert _query(live, package="gadgets", version="1.0", limit="0").status_code == 422


class _Counting:
    """A store that counts the calls made through it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        self.calls[name] = self.calls.get(name, 0) + 1
        return getattr(self.store, name)


def test_a_release_is_read_in_one_pass_not_a_query_per_record(
    releases: tuple[Path | str, dict[str, str]],
) -> None:
    db, ids = releases
    with open_store(db) as store:
        counting = _Counting(store)
        found = release_records(counting, REPO, "1.0")  # type: ignore[arg-type]
    assert isinstance(found, ReleaseRecords)
    assert {r["id"] for r in found.records} == {
        ids["negative gadget: {x}"],
        ids["removed in 1.1"],
    }
    assert counting.calls.get("status", 0) == 0
    assert counting.calls["release_rows"] == 1
