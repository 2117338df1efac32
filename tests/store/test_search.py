"""Search through the store, on both backends: SQLite's FTS5 and PostgreSQL's tsvector.

The same scans, the same queries, the same answers: every word, else any word; the
message's phrase first; stale records left out; analysts' rewrites found; no query
syntax from the user; the whole message even after a NUL.
"""

from __future__ import annotations

import json.decoder
from pathlib import Path

from errdex.store import Store, open_store
from errdex.store.listing import SearchQuery
from tests.web.catalogue import scan_into, write_tree
from tests.web.test_search import IPYTHON_DISPLAY, NUL, ONE, TWO  # the same code scanned

SHA1 = "1" * 40
SHA2 = "2" * 40

UNICODE = "def h(z):\n    raise KeyError('Ünïcode façade for_the_win')\n"


def ids(store: Store, text: str, **kwargs: object) -> list[str]:
    store.refresh_search()
    hits, _ = store.search(SearchQuery(text, limit=100, **kwargs))  # type: ignore[arg-type]
    return [h.id for h in hits]


def write_pkg(root: Path, body: str) -> Path:
    return write_tree(root, {"pkg/__init__.py": "", "pkg/m.py": body})


def test_search_follows_scans_and_leaves_out_stale_records(db: str, tmp_path: Path) -> None:
    root = write_pkg(tmp_path / "src", ONE)
    scan_into(db, root, "o/n", SHA1)
    with open_store(db) as store:
        alpha = ids(store, "alpha")
        assert len(alpha) == 1
        assert ids(store, "delta") == []

    write_pkg(root, TWO)
    scan_into(db, root, "o/n", SHA2)
    with open_store(db) as store:
        assert len(ids(store, "delta epsilon")) == 1
        assert ids(store, "alpha") == alpha

    write_pkg(root, "def g(y):\n    raise TypeError(f'delta {y} epsilon')\n")
    scan_into(db, root, "o/n", SHA1)
    with open_store(db) as store:
        assert ids(store, "alpha") == []  # stale: its page stays, search no longer offers it
        assert len(ids(store, "delta")) == 1
        assert store.get(alpha[0]) is not None


def test_analyst_updates_are_found(db: str, tmp_path: Path) -> None:
    items = scan_into(db, write_pkg(tmp_path / "src", ONE), "o/n", SHA1)
    with open_store(db) as store:
        assert ids(store, "frobnication") == []
        record, evidence = items[0]
        store.update_records([({**record, "tags": [*record["tags"], "frobnication"]}, evidence)])
        assert ids(store, "frobnication") == [record["id"]]


def test_no_query_syntax_gets_in(db: str, tmp_path: Path) -> None:
    scan_into(db, write_pkg(tmp_path / "src", TWO), "o/n", SHA1)
    with open_store(db) as store:
        alpha = ids(store, "alpha")
        assert len(alpha) == 1
        for hostile in ('NEAR(alpha" AND "', "alpha & !", "'alpha':* | (", "alpha\\' <-> ):"):
            assert ids(store, hostile) == alpha, hostile
        assert ids(store, "?!&|") == []


def test_words_missing_from_every_record_fall_back_to_any_word(db: str, tmp_path: Path) -> None:
    scan_into(db, write_pkg(tmp_path / "src", TWO), "o/n", SHA1)
    with open_store(db) as store:
        # "zeta" is in no record: all words together find nothing, so any word counts.
        found = ids(store, "delta zeta epsilon")
        typeerror = ids(store, "TypeError")
        assert found[0] == typeerror[0] and len(found) == 1
        assert len(ids(store, "gamma delta")) == 2


def test_words_split_and_fold_as_the_tokenizer_does(db: str, tmp_path: Path) -> None:
    ((record, _),) = scan_into(db, write_pkg(tmp_path / "src", UNICODE), "o/n", SHA1)
    with open_store(db) as store:
        for typed in ("unicode", "ÜNÏCODE", "facade", "façade", "the win", "uni*", "fac"):
            assert ids(store, typed) == [record["id"]], typed
        assert ids(store, "uni ") == []  # a word followed by a space is whole, not a prefix
        assert ids(store, "KeyError", repo="o/n", error_class="KeyError") == [record["id"]]
        assert ids(store, "unicode", repo="other/repo") == []
        assert ids(store, "unicode", error_class="ValueError") == []


def test_paging_and_listing_without_text(db: str, tmp_path: Path) -> None:
    items = scan_into(db, write_pkg(tmp_path / "src", TWO + UNICODE), "o/n", SHA1)
    in_order = [r["id"] for r, _ in sorted(items, key=lambda i: i[0]["lineNumber"])]
    with open_store(db) as store:
        store.refresh_search()
        first, more = store.search(SearchQuery("", repo="o/n", limit=2))
        rest, after = store.search(SearchQuery("", repo="o/n", limit=2, offset=2))
        assert [h.id for h in first + rest] == in_order
        assert (more, after) == (True, False)
        assert first[0].errorMessage == "alpha beta gamma"
        assert first[0].score is None


def test_text_after_a_nul_is_found(db: str, tmp_path: Path) -> None:
    ((record, _),) = scan_into(db, write_pkg(tmp_path / "src", NUL), "o/n", SHA1)
    assert record["errorMessage"] == "header byte \x00 then the frobnicated tail"
    with open_store(db) as store:
        store.refresh_search()
        hits, _ = store.search(SearchQuery("frobnicated tail"))
        assert [h.id for h in hits] == [record["id"]]
        assert hits[0].errorMessage == record["errorMessage"]
        assert hits[0].score is not None
        listed, _ = store.search(SearchQuery("", repo="o/n"))
        assert listed[0].errorMessage == record["errorMessage"]
        pasted, _ = store.search(SearchQuery("header byte \x00 then the frobnicated tail"))
        assert pasted[0].id == record["id"]


def test_an_exact_phrase_in_the_message_ranks_first(db: str, tmp_path: Path) -> None:
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
    with open_store(db) as store:
        for typed in ("Expecting value", "expecting value ", "Expecting val"):
            found = ids(store, typed)
            assert set(found[:3]) == json_ids, typed
            assert len(found) > 3  # IPython's still follow: every word is in them
        assert set(ids(store, "Expecting value: line 1 column 1 (char 0)")[:3]) == json_ids
        assert ids(store, "no url found")[0] != ids(store, "no audio data")[0]
