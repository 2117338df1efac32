"""What a text search filters on, on both backends, and how SQLite ranks it: the matches
of a common word are ranked without a lookup per match in the large ``records`` table
(``search_docs`` carries the stale flag, repository and class), so the copies must follow
every scan: a record gone stale, one back again, another repository left alone."""

from __future__ import annotations

from pathlib import Path

from errdex.store import SqliteStore, open_store
from errdex.store.listing import SearchQuery

from .factories import SHA_A, SHA_B, make_record, make_summary
from .test_search import ids


def test_filters_follow_stale_revived_and_other_repositories(db: str) -> None:
    one = make_record(message="shared word one {name}", error_class="KeyError")
    two = make_record(message="shared word two {name}", line=50)
    other = make_record(repo="acme/other", message="shared word elsewhere {name}")
    with open_store(db) as store:
        store.write_scan(make_summary(), [(one, {}), (two, {})], "d1")
        store.write_scan(make_summary("acme/other"), [(other, {})], "d2")
        assert sorted(ids(store, "shared word")) == sorted([one["id"], two["id"], other["id"]])
        assert ids(store, "shared word", repo="acme/other") == [other["id"]]
        assert ids(store, "shared word", error_class="KeyError") == [one["id"]]

        store.write_scan(make_summary(commit=SHA_B), [(two, {})], "d3")  # one goes stale
        assert sorted(ids(store, "shared word")) == sorted([two["id"], other["id"]])
        assert ids(store, "shared word", error_class="KeyError") == []

        store.write_scan(make_summary(commit=SHA_A), [(one, {}), (two, {})], "d4")  # back
        assert sorted(ids(store, "shared word")) == sorted([one["id"], two["id"], other["id"]])
        assert ids(store, "shared word", repo="acme/other") == [other["id"]]


def test_ranking_a_common_word_joins_records_only_for_the_page(tmp_path: Path) -> None:
    items = [
        (make_record(message=f"common word case{i} {{name}}", line=i + 1), {}) for i in range(300)
    ]
    with SqliteStore(tmp_path / "s.db") as store:
        store.write_scan(make_summary(), items, "d")
        store.refresh_search()
        statements: list[str] = []
        store.connection.set_trace_callback(statements.append)
        hits, more = store.search(SearchQuery("common word", limit=20))
        store.connection.set_trace_callback(None)
        assert len(hits) == 20 and more
        ranked = [sql for sql in statements if "MATCH" in sql]
        assert ranked
        for sql in ranked:
            plan = [tuple(row) for row in store.connection.execute("EXPLAIN QUERY PLAN " + sql)]
            [scan] = [row for row in plan if "VIRTUAL TABLE INDEX 0:M" in row[3]]
            beside = [row[3] for row in plan if row[1] == scan[1]]
            assert not any("records" in detail for detail in beside), plan
