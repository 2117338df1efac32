"""SQLite's full-text search: an FTS5 index kept in the catalogue's own file.

The index lives in tables of its own (``search_*``) beside the store's, so a
published ``.db`` file carries its search index with it. It is brought up to date by
:func:`refresh`, which compares the store's write counters with those it indexed and
re-indexes only the records that newer scans wrote; it never runs per request.

Queries are parsed into quoted FTS5 terms (no user text reaches FTS5 syntax), tried
as AND, then as OR when nothing has every word (a pasted runtime message holds values
the template does not), ranked by BM25 and re-ranked: records whose message holds the query's words as one
phrase first (so "Expecting value" finds json's "Expecting value: line ..." before
IPython's ValueErrors that say "Expecting url"), and among them, and then among the
rest, a record whose ``messagePattern`` covers more of the pasted text first.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .listing import (
    MAX_OFFSET,
    MAX_TERMS,
    RERANK_WINDOW,
    SearchHit,
    SearchQuery,
    SearchUnavailable,
    hit,
    query_words,
    rerank,
    search_filters,
)

__all__ = [
    "MAX_OFFSET",
    "MAX_TERMS",
    "SEARCH_LAYOUT",
    "SearchHit",
    "SearchQuery",
    "SearchUnavailable",
    "fts_terms",
    "index_state",
    "json_text",
    "phrase_expression",
    "refresh",
    "register_functions",
    "search",
    "store_version",
]

#: Version of the ``search_*`` tables; a mismatch rebuilds them from scratch (2: whole
#: messages after a NUL; 3: ``search_docs`` carries what a search filters on).
SEARCH_LAYOUT = 3
#: BM25 weights of message, class, file, tags (and 0 for the unindexed pattern).
_WEIGHTS = "10.0, 4.0, 2.0, 1.0, 0.0"


def json_text(column: str, key: str) -> str:
    """SQL for the string at ``$.key`` of a JSON column, whole even when it holds a NUL.

    SQLite's ``json_extract`` ends a string at an escaped NUL (``\\u0000``), so a
    message such as ``'header byte \\x00 then ...'`` lost everything after the byte,
    in the index and in what the pages show. Documents with that escape (rare) are read
    by :func:`_json_field` instead; the rest stay in C.
    """
    return (
        f"CASE WHEN instr({column}, '\\u0000') THEN errdex_json_text({column}, '{key}') "
        f"ELSE json_extract({column}, '$.{key}') END"
    )


def _json_field(document: str, key: str) -> str | None:
    try:
        value = json.loads(document).get(key)
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def register_functions(conn: sqlite3.Connection) -> None:
    """Declare the SQL function :func:`json_text` uses, on a connection that runs it."""
    conn.create_function("errdex_json_text", 2, _json_field, deterministic=True)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS search_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS search_docs (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
    stale INTEGER NOT NULL DEFAULT 0, repo TEXT, error_class TEXT
);
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
    message, class, file, tags, pattern UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
)
"""
_DROP = ("search_fts", "search_docs", "search_state")

#: The indexed text of every record a scan after ``?`` wrote.
_CHANGED = """
SELECT d.rowid,
       coalesce({message}, '')
           || coalesce(' ' || json_extract(r.record, '$.errorCode'), ''),
       coalesce(r.error_class, '')
           || coalesce(' ' || json_extract(r.evidence, '$.site.qualifiedClass'), ''),
       r.file_path,
       coalesce((SELECT group_concat(t.value, ' ') FROM json_each(r.record, '$.tags') AS t), '')
           || coalesce(' ' || json_extract(r.record, '$.backgroundTag'), ''),
       coalesce({pattern}, '')
FROM records AS r JOIN search_docs AS d ON d.id = r.id
WHERE r.scan_id > ?
""".format(
    message=json_text("r.record", "errorMessage"), pattern=json_text("r.record", "messagePattern")
)

_HIT_COLUMNS = (
    "r.id, r.repo, r.slug, r.error_class, r.error_type, r.severity, r.file_path, r.line_number"
)


# -- keeping the index current ----------------------------------------------------------


def store_version(conn: sqlite3.Connection) -> tuple[int, int]:
    """``(latest scan id, store write counter)``: what the index was built from.

    The write counter (``meta.data_version``, bumped by every scan and analyst update)
    is 0 in stores that do not keep one; then only new scans are noticed.
    """
    row = conn.execute(
        "SELECT (SELECT max(id) FROM scans), (SELECT value FROM meta WHERE key = 'data_version')"
    ).fetchone()
    return int(row[0] or 0), int(row[1] or 0)


def index_state(conn: sqlite3.Connection) -> tuple[int, int] | None:
    """The ``store_version`` the index reflects, or None when it is missing or outdated."""
    try:
        state = dict(conn.execute("SELECT key, value FROM search_state").fetchall())
    except sqlite3.OperationalError:
        return None
    if state.get("layout") != str(SEARCH_LAYOUT):
        return None
    return int(state.get("scan", 0)), int(state.get("data", 0))


def refresh(conn: sqlite3.Connection) -> bool:
    """Bring the index up to date with the records; return whether anything was re-indexed.

    New scans re-index the records they wrote (every record a scan sees gets its scan
    id). When the store's write counter moved by more than the new scans explain, an
    analyst rewrote records in place and the whole index is rebuilt. Runs in one write
    transaction, so readers see the old index or the new one, never half of it.
    """
    state = index_state(conn)
    if state is not None and state == store_version(conn):
        return False
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise SearchUnavailable(f"cannot write the search index: {exc}") from exc
    register_functions(conn)
    try:
        state = index_state(conn)  # again, under the write lock
        scan, data = store_version(conn)
        if state is None:
            for table in _DROP:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        since = 0
        if state is not None:
            new_scans = conn.execute(
                "SELECT count(*) FROM scans WHERE id > ?", (state[0],)
            ).fetchone()[0]
            since = state[0] if data - state[1] <= new_scans else 0
        _reindex_since(conn, since)
        conn.executemany(
            "INSERT INTO search_state (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [("layout", str(SEARCH_LAYOUT)), ("scan", str(scan)), ("data", str(data))],
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True


def _reindex_since(conn: sqlite3.Connection, since: int) -> None:
    """(Re)write the FTS rows of records that scans after ``since`` wrote (0: all), and
    the filter columns of ``search_docs`` of every record of the repositories they scanned
    (a scan marks stale records it did not write)."""
    if since == 0:
        conn.execute("DELETE FROM search_fts")
    conn.execute(
        "INSERT OR IGNORE INTO search_docs (id) SELECT id FROM records WHERE scan_id > ?",
        (since,),
    )
    conn.execute(
        "UPDATE search_docs AS d SET stale = r.stale, repo = r.repo, error_class = r.error_class "
        "FROM records AS r WHERE r.id = d.id "
        "AND r.repo IN (SELECT repo FROM scans WHERE id > ?) AND (d.stale != r.stale "
        "OR d.repo IS NOT r.repo OR d.error_class IS NOT r.error_class)",
        (since,),
    )
    if since:
        conn.execute(
            "DELETE FROM search_fts WHERE rowid IN (SELECT d.rowid FROM search_docs AS d "
            "JOIN records AS r ON r.id = d.id WHERE r.scan_id > ?)",
            (since,),
        )
    conn.execute(
        "INSERT INTO search_fts (rowid, message, class, file, tags, pattern) " + _CHANGED,
        (since,),
    )


# -- querying ---------------------------------------------------------------------------


def fts_terms(text: str) -> list[str]:
    """The query as quoted FTS5 terms (``"word"`` or ``"word"*``), duplicates dropped.

    Words are split as the index's tokenizer splits them, so ``top_level_all_gather``
    is four terms; a trailing ``*`` makes a prefix, and so does the last word if long.
    """
    terms: list[str] = []
    for term in _quoted(text):
        if term not in terms:
            terms.append(term)
    return terms[:MAX_TERMS]


def _quoted(text: str) -> list[str]:
    """Every word of ``text`` in order as a quoted FTS5 term, the prefixes starred."""
    return [f'"{word}"' + ("*" if prefix else "") for word, prefix in query_words(text)]


def phrase_expression(text: str) -> str | None:
    """The query's words, in order and adjacent, in the message column (None: too long).

    FTS5 allows a prefix only on a phrase's last term, so a starred word before the
    end loses its star here.
    """
    terms = _quoted(text)
    if not terms or len(terms) > MAX_TERMS:
        return None
    parts = [t.rstrip("*") for t in terms[:-1]] + [terms[-1]]
    return f"message : ({' + '.join(parts)})"


def search(conn: sqlite3.Connection, query: SearchQuery) -> tuple[list[SearchHit], bool]:
    """One page of hits for ``query``, and whether there is a next page.

    Current (not stale) records only. Without text, records are listed by repo, file
    and line; with text, by relevance.
    """
    want = query.offset + query.limit + 1
    terms = fts_terms(query.text)
    if not terms and query.text.strip():
        return [], False  # only punctuation: nothing to look for
    if not terms:
        register_functions(conn)
        rows = _browse(conn, query, want)
    else:
        rows = _ranked(conn, query, " ".join(terms), want)
        if not rows and len(terms) > 1:
            rows = _ranked(conn, query, " OR ".join(terms), want)
        phrase = phrase_expression(query.text) if rows else None
        exact = _ranked(conn, query, phrase, want) if phrase else []
        rows = rerank(exact, rows, query.text)
    page = rows[query.offset : query.offset + query.limit]
    return [_hit(row) for row in page], len(rows) > query.offset + query.limit


def _filters(query: SearchQuery) -> tuple[str, list[Any]]:
    return search_filters(query, "r.stale = 0", "?")


def _browse(conn: sqlite3.Connection, query: SearchQuery, want: int) -> list[tuple[Any, ...]]:
    where, params = _filters(query)
    sql = (
        f"SELECT {_HIT_COLUMNS}, {json_text('r.record', 'errorMessage')}, NULL, NULL "
        f"FROM records AS r WHERE {where} "
        "ORDER BY r.repo, r.file_path, r.line_number, r.id LIMIT ?"
    )
    return list(conn.execute(sql, [*params, want]))


def _ranked(
    conn: sqlite3.Connection, query: SearchQuery, expression: str, want: int
) -> list[tuple[Any, ...]]:
    """The best ``want`` (at least the re-rank window) matches, by BM25 then id.

    Ranking and filtering read the FTS table and ``search_docs`` alone (its ``stale``,
    ``repo`` and ``error_class`` copy the records'), so a common word's thousands of
    matches cost no lookup in the large ``records`` table; only the page's rows are
    joined there, and only they have their message and pattern read.
    """
    where, params = _filters(query)
    sql = (
        f"WITH top AS MATERIALIZED (SELECT f.rowid AS doc, r.id AS id, "
        f"bm25(search_fts, {_WEIGHTS}) AS score FROM search_fts AS f "
        f"JOIN search_docs AS r ON r.rowid = f.rowid WHERE search_fts MATCH ? AND {where} "
        "ORDER BY score, r.id LIMIT ?) "
        f"SELECT {_HIT_COLUMNS}, f.message, top.score, f.pattern "
        "FROM top JOIN records AS r ON r.id = top.id JOIN search_fts AS f ON f.rowid = top.doc "
        "ORDER BY top.score, top.id"
    )
    try:
        return list(conn.execute(sql, [expression, *params, max(want, RERANK_WINDOW)]))
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc) or "no such column" in str(exc):
            raise SearchUnavailable("the search index has not been built") from exc
        raise


def _hit(row: tuple[Any, ...]) -> SearchHit:
    return hit(row, None if row[9] is None else round(-float(row[9]), 4))
