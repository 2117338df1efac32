"""The JSON API over real HTTP: the envelope as stored, search, repos, datasets, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import jsonschema
import pytest

from errdex.record import ErrorRecord
from errdex.store import SqliteStore, open_store
from errdex.versions import version_ranges
from errdex.web.settings import MAX_MATCH_BYTES
from errdex.web.views import attachment, record_path

from ..store.factories import make_record, make_summary
from .catalogue import CODE_COUNT, SEED_004_ID
from .conftest import LiveServer, Site


def test_envelope_is_the_stored_record_in_seed_000_order(
    client: httpx.Client,
    site: Site,
    seed_000: dict[str, Any],
    record_validator: jsonschema.Draft202012Validator,
) -> None:
    response = client.get(f"/api/errors/{SEED_004_ID}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    data = response.json()
    assert list(data) == ["record", "evidence", "datasetVersion"]  # seed 000's, plus evidence
    assert list(data["record"]) == list(seed_000["record"]) == list(ErrorRecord.model_fields)
    record_validator.validate(data["record"])
    with open_store(site.db) as store:
        # the stored envelope, with the record's releases (errdex.versions) in its evidence
        stored = store.get(SEED_004_ID)
        status = store.status(SEED_004_ID)
        assert stored is not None and status is not None
        windows = store.version_windows(SEED_004_ID)
        assert list(windows.values()) == [
            (stored["record"]["sourceCode"], stored["record"]["sourceCodeStart"])
        ]
        stored["evidence"]["versions"] = version_ranges(store.scans("jax-ml/jax"), status, windows)
        assert data == stored
    assert data["evidence"]["analysis"] == "llm"


def test_unknown_and_malformed_ids(client: httpx.Client) -> None:
    missing = client.get("/api/errors/0123456789abcdef")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "no error record 0123456789abcdef"}
    malformed = client.get("/api/errors/not-an-id")
    assert malformed.status_code == 422
    assert malformed.json()["detail"][0]["loc"] == ["path", "record_id"]
    assert client.get("/api/nothing-here").json() == {"detail": "Not Found"}


def search(client: httpx.Client, **params: Any) -> dict[str, Any]:
    response = client.get("/api/search", params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def first_id(client: httpx.Client, q: str) -> str:
    items = search(client, q=q)["items"]
    assert items, q
    return str(items[0]["id"])


@pytest.mark.parametrize(
    "pasted",
    [
        "speed must be >= 0, got -5",
        "ValueError: speed must be >= 0, got -5",
        "unknown widget code 17 in the registry",
        "LookupError: unknown widget code 42 in the registry",
        "spinning faster than 100 rpm wears the bearings",
        "top_level_all_gather doesn't allow input float32[8,4] to be unsharded on dimension 0 "
        "when out_spec=PartitionSpec('data', None).",
        "ValueError: multiple dimensions cannot be all_gathered since multi_dim=False passed to "
        "`top_level_all_gather`. Got in_spec=P('x', None) and out_spec=P(None, 'y')",
    ],
)
def test_a_pasted_message_finds_its_record_first(
    client: httpx.Client, site: Site, pasted: str
) -> None:
    expected = [
        r["id"]
        for r, _ in site.acme + site.jax
        if ErrorRecord.model_validate(r) and _instance(r["messagePattern"], pasted)
    ]
    assert len(expected) == 1, (pasted, expected)
    assert first_id(client, pasted) == expected[0]


def _instance(pattern: str, pasted: str) -> bool:
    """Whether the paste is an instance of the pattern; a catch-all pattern (the message is
    one unknown value, as for ``raise KeyError(name)``) says nothing about any paste."""
    import re

    if re.fullmatch(pattern, "") is not None and re.fullmatch(pattern, "any text at all"):
        return False
    message = pasted.split(": ", 1)[1] if pasted.split(":")[0].endswith("Error") else pasted
    return re.fullmatch(pattern, message) is not None


def test_search_hits_link_to_pages_and_json(client: httpx.Client, site: Site) -> None:
    hit = search(client, q="bearings")["items"][0]
    record = site.record(site.acme, "widgets/core.py", 17)
    assert hit == {
        "id": record["id"],
        "repo": "acme/widgets",
        "slug": record["slug"],
        "errorClass": "RuntimeWarning",
        "errorType": "console",
        "severity": "warning",
        "filePath": "widgets/core.py",
        "lineNumber": 17,
        "errorMessage": "spinning faster than 100 rpm wears the bearings",
        "score": hit["score"],
        "url": record_path("acme/widgets", str(record["id"]), str(record["slug"])),
        "api": f"/api/errors/{record['id']}",
    }
    assert hit["score"] > 0


def test_prefix_queries(client: httpx.Client) -> None:
    assert search(client, q="bearing*")["items"][0]["lineNumber"] == 17
    assert search(client, q="spinn")["items"][0]["lineNumber"] == 17  # last word: a prefix
    assert search(client, q="spinn ")["items"] == []  # a finished word is a word
    assert (
        search(client, q="regis* widg*", limit=100)["items"][-1]["filePath"] == "widgets/codes.py"
    )


def test_class_file_and_tag_are_searched(client: httpx.Client) -> None:
    assert {h["errorClass"] for h in search(client, q="WidgetError")["items"]} == {"WidgetError"}
    in_file = search(client, q="shard_map.py")["items"]
    assert {h["filePath"] for h in in_file} == {"jax/_src/shard_map.py"} and len(in_file) == 2
    tagged = search(client, q="lookup-error", limit=100)["items"]
    assert len(tagged) == CODE_COUNT


def test_filters_and_cursor_paging(client: httpx.Client) -> None:
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        params: dict[str, Any] = {"q": "registry", "repo": "acme/widgets", "limit": 25}
        if cursor:
            params["cursor"] = cursor
        page = search(client, **params)
        seen += [h["id"] for h in page["items"]]
        pages += 1
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert pages == 3 and len(seen) == len(set(seen)) == CODE_COUNT
    assert search(client, q="registry", repo="jax-ml/jax")["items"] == []
    by_class = search(client, **{"class": "ValueError"})["items"]
    assert {h["errorClass"] for h in by_class} == {"ValueError"} and len(by_class) == 3
    listing = search(client, q="", repo="jax-ml/jax")["items"]
    assert [h["lineNumber"] for h in listing] == [8, 13] and listing[0]["score"] is None
    assert search(client, q="?!", repo="")["items"] == []


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"cursor": "bm90IGEgY3Vyc29y"}, 400),
        ({"cursor": "!!"}, 400),
        ({"limit": 0}, 422),
        ({"limit": 101}, 422),
        ({"q": "x" * 4001}, 422),
    ],
)
def test_bad_search_parameters(client: httpx.Client, params: dict[str, Any], status: int) -> None:
    response = client.get("/api/search", params=params)
    assert response.status_code == status
    assert "detail" in response.json()


def test_repos(client: httpx.Client, site: Site) -> None:
    repos = client.get("/api/repos").json()["repos"]
    assert [(r["repo"], r["records"], r["files"]) for r in repos] == [
        ("acme/widgets", len(site.acme), 2),
        ("jax-ml/jax", len(site.jax), 1),
    ]
    acme = client.get("/api/repos/acme/widgets").json()
    assert acme["byClass"] == {
        "LookupError": CODE_COUNT,
        "KeyError": 1,
        "RuntimeWarning": 1,
        "ValueError": 1,
        "WidgetError": 1,
    }
    assert acme["bySeverity"] == {"error": len(site.acme) - 1, "warning": 1}
    assert acme["latest"]["commit"] == acme["commits"][0]
    assert acme["dataset"] == "/datasets/acme/widgets.jsonl"
    missing = client.get("/api/repos/acme/gadgets")
    assert missing.status_code == 404 and "acme/gadgets" in missing.json()["detail"]


def test_dataset_is_the_repository_as_json_lines(client: httpx.Client, site: Site) -> None:
    response = client.get("/datasets/acme/widgets.jsonl")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in response.text.splitlines()]
    with open_store(site.db) as store:
        assert lines == list(store.iter_envelopes("acme/widgets"))
    assert client.get("/datasets/acme/gadgets.jsonl").status_code == 404


def test_openapi_documents_the_api_only(client: httpx.Client) -> None:
    spec = client.get("/openapi.json").json()
    assert set(spec["paths"]) == {
        "/api/errors/{record_id}",
        "/api/search",
        "/api/query",
        "/api/match",
        "/api/repos",
        "/api/repos/{owner}/{name}",
        "/datasets/{owner}/{name}.jsonl",
    }
    ok = spec["paths"]["/api/errors/{record_id}"]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Envelope"}
    record = spec["components"]["schemas"]["ErrorRecord"]
    assert list(record["properties"]) == list(ErrorRecord.model_fields)
    assert "413" in spec["paths"]["/api/match"]["post"]["responses"]


def _chunks(total: int) -> Iterator[bytes]:
    sent = 0
    while sent < total:
        yield b"x" * 4096
        sent += 4096


def test_match_bodies_over_the_limit_are_refused(client: httpx.Client) -> None:
    big = json.dumps({"text": "x" * MAX_MATCH_BYTES})
    response = client.post("/api/match", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"detail": f"request bodies are limited to {MAX_MATCH_BYTES} bytes"}
    # Without a Content-Length (chunked), the limit holds while reading.
    chunked = client.post(
        "/api/match",
        content=_chunks(MAX_MATCH_BYTES + 8192),
        headers={"content-type": "application/json"},
    )
    assert chunked.status_code == 413 and chunked.json() == {"detail": "Content Too Large"}
    form = client.post("/match", data={"text": "x" * MAX_MATCH_BYTES})
    assert form.status_code == 413 and form.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    "body",
    [{}, {"text": ""}, {"text": "x", "top": 0}, {"text": "x", "top": 21}, {"text": "x", "q": 1}],
)
def test_bad_match_bodies(client: httpx.Client, body: dict[str, Any]) -> None:
    response = client.post("/api/match", json=body)
    assert response.status_code == 422 and response.json()["detail"]


def test_a_dataset_of_any_name_downloads(tmp_path: Path) -> None:
    # scans refuse such a name now (source/names.py), but a catalogue written before
    # that, or by another tool, may hold one: the download must still work
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store.write_scan(
            make_summary(repo="ünï/数据"), [(make_record(repo="ünï/数据"), {})], "2026-01-01"
        )
    with LiveServer(db) as live, httpx.Client(base_url=live.url) as client:
        response = client.get("/datasets/ünï/数据.jsonl")  # not even Latin-1
        assert response.status_code == 200, response.text
        disposition = response.headers["content-disposition"]
        assert disposition.startswith('attachment; filename="')
        assert disposition.endswith("; filename*=UTF-8''%C3%BCn%C3%AF-%E6%95%B0%E6%8D%AE.jsonl")
        assert [json.loads(line)["record"]["repo"] for line in response.text.splitlines()] == [
            "ünï/数据"
        ]


@pytest.mark.parametrize(
    ("name", "plain"),
    [
        ("acme-widgets.jsonl", "acme-widgets.jsonl"),
        ('say-"hi"\\.jsonl', "say-_hi__.jsonl"),
        ("100%-ünï.jsonl", "100_-_n_.jsonl"),
    ],
)
def test_attachment_names_any_file(name: str, plain: str) -> None:
    header = attachment(name)
    assert header.startswith(f"attachment; filename=\"{plain}\"; filename*=UTF-8''")
    header.encode("latin-1")
    encoded = header.split("filename*=UTF-8''", 1)[1]
    assert unquote(encoded) == name and ";" not in encoded and '"' not in encoded
