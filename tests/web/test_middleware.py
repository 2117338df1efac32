"""HEAD where GET works, and a 500 that leaves the keep-alive connection usable."""

from __future__ import annotations

import http.client
import sqlite3
from pathlib import Path

import httpx

from errdex.web.views import record_path

from .catalogue import scan_into, write_tree
from .conftest import LiveServer, Site

SHA = "5" * 40


def test_head_answers_where_get_does(site: Site, client: httpx.Client) -> None:
    record = site.jax[0][0]
    paths = [
        "/",
        "/search?q=gather",
        "/repos/acme/widgets",
        record_path(record["repo"], record["id"], record["slug"]),
        f"/api/errors/{record['id']}",
        "/api/repos",
        "/api/search?q=gather",
        "/datasets/acme/widgets.jsonl",
        "/openapi.json",
        "/match",
    ]
    for path in paths:
        got = client.get(path)
        head = client.head(path)
        assert got.status_code == 200, path
        assert head.status_code == 200, (path, head.status_code)
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"], path
    missing = client.head("/repos/acme/nothing")
    assert missing.status_code == client.get("/repos/acme/nothing").status_code == 404
    assert client.head("/api/match").status_code == 405  # POST only, as for GET


def test_a_500_keeps_the_connection(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    body = "def f():\n    raise ValueError('one')\n\ndef g():\n    raise KeyError('two')\n"
    items = scan_into(db, write_tree(tmp_path / "a", {"a/m.py": body}), "o/a", SHA)
    broken, fine = items[0][0], items[1][0]
    with LiveServer(db) as live:
        damage = sqlite3.connect(db)  # a record damaged on disk: its page cannot be built
        with damage:
            damage.execute("UPDATE records SET evidence = '{' WHERE id = ?", (broken["id"],))
        damage.close()
        host, port = live.url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            for _ in range(3):
                conn.request("GET", record_path("o/a", broken["id"], broken["slug"]))
                failed = conn.getresponse()
                assert failed.status == 500
                assert "went wrong" in failed.read().decode()
                assert failed.getheader("connection") != "close"
                local = conn.sock.getsockname()
                conn.request("GET", record_path("o/a", fine["id"], fine["slug"]))
                after = conn.getresponse()
                assert after.status == 200 and b"two" in after.read()
                assert conn.sock.getsockname() == local  # the same connection, reused
                conn.request("HEAD", record_path("o/a", broken["id"], broken["slug"]))
                head = conn.getresponse()
                assert head.status == 500 and head.read() == b""
            conn.request(
                "POST", "/api/match", '{"text": 1e400}', {"content-type": "application/json"}
            )
            refused = conn.getresponse()
            assert refused.status == 422, refused.read()
            refused.read()
            conn.request("GET", "/api/repos")
            assert conn.getresponse().status == 200
        finally:
            conn.close()
