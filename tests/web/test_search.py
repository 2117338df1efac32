"""The FTS5 index: query parsing, building in the store's file, refreshing when records change."""

from __future__ import annotations

import json.decoder
import sqlite3
from pathlib import Path

import pytest

from errdex.store import SqliteStore
from errdex.web.search import (
    MAX_TERMS,
    SEARCH_LAYOUT,
    SearchQuery,
    SearchUnavailable,
    fts_terms,
    index_state,
    refresh,
    search,
    store_version,
)

from .catalogue import scan_into, write_tree

SHA1 = "1" * 40
SHA2 = "2" * 40


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("can't have", ['"can"', '"t"', '"have"*']),
        ("can't have ", ['"can"', '"t"', '"have"']),
        ("top_level_all_gather", ['"top"', '"level"', '"all"', '"gather"*']),
        ("regist* x", ['"regist"*', '"x"']),
        ('a "b" OR c NEAR(d)', ['"a"', '"b"', '"or"', '"c"', '"near"', '"d"']),
        ("Ünïcode ß", ['"ünïcode"', '"ß"']),
        ("?!", []),
        ("", []),
    ],
)
def test_queries_become_quoted_terms(text: str, terms: list[str]) -> None:
    assert fts_terms(text) == terms


def test_long_pastes_keep_a_bounded_number_of_terms() -> None:
    assert len(fts_terms(" ".join(f"w{n}" for n in range(500)))) == MAX_TERMS


def ids(conn: sqlite3.Connection, text: str, **kwargs: object) -> list[str]:
    hits, _ = search(conn, SearchQuery(text, limit=100, **kwargs))  # type: ignore[arg-type]
    return [h.id for h in hits]


def write_pkg(root: Path, body: str) -> Path:
    return write_tree(root, {"pkg/__init__.py": "", "pkg/m.py": body})


ONE = "def f(x):\n    if x:\n        raise ValueError('alpha beta gamma')\n"
TWO = ONE + "\ndef g(y):\n    raise TypeError(f'delta {y} epsilon')\n"


def test_index_follows_scans_and_skips_stale_records(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    root = write_pkg(tmp_path / "src", ONE)
    scan_into(db, root, "o/n", SHA1)
    with SqliteStore(db) as store:
        conn = store.connection
        assert index_state(conn) is None
        assert refresh(conn) is True
        assert index_state(conn) == store_version(conn)
        assert refresh(conn) is False  # nothing changed, nothing done
        alpha = ids(conn, "alpha")
        assert len(alpha) == 1
        assert ids(conn, "delta") == []

    write_pkg(root, TWO)
    scan_into(db, root, "o/n", SHA2)
    with SqliteStore(db) as store:
        conn = store.connection
        assert refresh(conn) is True
        assert len(ids(conn, "delta epsilon")) == 1
        assert ids(conn, "alpha") == alpha  # same id, re-indexed once
        rows = conn.execute("SELECT count(*) FROM search_fts").fetchone()[0]
        assert rows == 2

    write_pkg(root, "def g(y):\n    raise TypeError(f'delta {y} epsilon')\n")
    scan_into(db, root, "o/n", SHA1)
    with SqliteStore(db) as store:
        conn = store.connection
        assert refresh(conn) is True
        assert ids(conn, "alpha") == []  # stale: its page stays, search no longer offers it
        assert len(ids(conn, "delta")) == 1


def test_analyst_updates_are_reindexed(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    items = scan_into(db, write_pkg(tmp_path / "src", ONE), "o/n", SHA1)
    with SqliteStore(db) as store:
        refresh(store.connection)
        assert ids(store.connection, "frobnication") == []
        record, evidence = items[0]
        store.update_records([({**record, "tags": [*record["tags"], "frobnication"]}, evidence)])
        assert refresh(store.connection) is True
        assert ids(store.connection, "frobnication") == [record["id"]]


def test_an_index_of_another_layout_is_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    scan_into(db, write_pkg(tmp_path / "src", TWO), "o/n", SHA1)
    with SqliteStore(db) as store:
        conn = store.connection
        refresh(conn)
        conn.execute("UPDATE search_state SET value = '0' WHERE key = 'layout'")
        conn.execute("DELETE FROM search_fts")
        assert index_state(conn) is None
        assert refresh(conn) is True
        state = dict(conn.execute("SELECT key, value FROM search_state").fetchall())
        assert state["layout"] == str(SEARCH_LAYOUT)
        assert ids(conn, 'NEAR(alpha" AND "') == ids(conn, "alpha")  # no FTS5 syntax gets in
        assert len(ids(conn, "alpha")) == 1 and len(ids(conn, "delta")) == 1


def test_search_before_any_index_says_so(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    scan_into(db, write_pkg(tmp_path / "src", ONE), "o/n", SHA1)
    with SqliteStore(db) as store, pytest.raises(SearchUnavailable):
        search(store.connection, SearchQuery("alpha"))


def test_read_only_catalogue_cannot_be_indexed(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    scan_into(db, write_pkg(tmp_path / "src", ONE), "o/n", SHA1)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    try:
        with pytest.raises((SearchUnavailable, sqlite3.OperationalError)):
            refresh(conn)
    finally:
        conn.close()


def test_words_missing_from_every_record_fall_back_to_any_word(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    scan_into(db, write_pkg(tmp_path / "src", TWO), "o/n", SHA1)
    with SqliteStore(db) as store:
        conn = store.connection
        refresh(conn)
        # "zeta" is in no record: all words together find nothing, so any word counts,
        # and the record whose pattern covers the text ranks first.
        found = ids(conn, "delta zeta epsilon")
        typeerror = ids(conn, "TypeError")
        assert found[0] == typeerror[0] and len(found) == 1
        assert ids(conn, "gamma delta")  # one word each: both records, by relevance
        assert len(ids(conn, "gamma delta")) == 2


NUL = (
    "def f(data):\n    if data[:1] == b'\\x00':\n"
    "        raise ValueError('header byte \\x00 then the frobnicated tail')\n"
)


def test_text_after_a_nul_is_found(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    ((record, _),) = scan_into(db, write_pkg(tmp_path / "src", NUL), "o/n", SHA1)
    assert record["errorMessage"] == "header byte \x00 then the frobnicated tail"
    with SqliteStore(db) as store:
        conn = store.connection
        refresh(conn)
        hits, _ = search(conn, SearchQuery("frobnicated tail"))
        assert [h.id for h in hits] == [record["id"]]
        assert hits[0].errorMessage == record["errorMessage"]
        listed, _ = search(conn, SearchQuery("", repo="o/n"))
        assert listed[0].errorMessage == record["errorMessage"]
        # The pasted runtime message is covered by the whole pattern, NUL and all.
        pasted, _ = search(conn, SearchQuery("header byte \x00 then the frobnicated tail"))
        assert pasted[0].id == record["id"]


#: IPython's display classes as IPython writes them: ValueErrors that say "Expecting".
IPYTHON_DISPLAY = """\
class Audio:
    def __init__(self, data=None, filename=None, url=None, embed=None):
        if filename is None and url is None and data is None:
            raise ValueError("No audio data found. Expecting filename, url, or data.")
        if embed is False and url is None:
            raise ValueError("No url found. Expecting url when embed=False")


class Image:
    def __init__(self, data=None, url=None, filename=None):
        if filename is None and url is None and data is None:
            raise ValueError("No image data found. Expecting filename, url, or data.")
"""


def test_an_exact_phrase_in_the_message_ranks_first(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    # The standard library's own json decoder, scanned as the catalogue scans it.
    decoder = Path(json.decoder.__file__).read_text(encoding="utf-8")
    cpython = write_tree(tmp_path / "cpython", {"Lib/json/decoder.py": decoder})
    json_ids = {
        r["id"]
        for r, _ in scan_into(db, cpython, "python/cpython", SHA1)
        if r["errorMessage"].startswith("Expecting value")
    }
    assert len(json_ids) == 3
    ipython = write_tree(tmp_path / "ipython", {"IPython/lib/display.py": IPYTHON_DISPLAY})
    scan_into(db, ipython, "ipython/ipython", SHA1)
    with SqliteStore(db) as store:
        conn = store.connection
        refresh(conn)
        for typed in ("Expecting value", "expecting value ", "Expecting val"):
            found = ids(conn, typed)
            assert set(found[:3]) == json_ids, typed
            assert len(found) > 3  # IPython's still follow: every word is in them
        assert set(ids(conn, "Expecting value: line 1 column 1 (char 0)")[:3]) == json_ids
        assert ids(conn, "no url found")[0] != ids(conn, "no audio data")[0]
