"""PostgreSQL's full-text search over the records' ``search`` column (``tsvector``, GIN).

The document is written with the record (``_pg_write.search_columns``), so the index is
always current and there is nothing to refresh. Words are split and folded in Python as
SQLite's ``unicode61 remove_diacritics 2`` tokenizer splits them and indexed with the
``simple`` configuration (no stemming, no stop words), so both backends look for the
same words. As in ``_sqlite_search``: every word (AND), else any word (OR); ranked by
``ts_rank`` with the message weighted over class, file and tags; then the hits whose
message holds the words as one phrase first, and the best window re-ranked by how much
of the pasted text their pattern covers. No user text reaches tsquery syntax: each word
is quoted.
"""

from __future__ import annotations

import json
from typing import Any

from ._pg_open import Connection
from ._pg_read import ORDER
from .listing import (
    MAX_TERMS,
    RERANK_WINDOW,
    SearchHit,
    SearchQuery,
    fold,
    hit,
    query_words,
    rerank,
    search_filters,
)

__all__ = ["search", "tsquery"]

#: ``ts_rank`` weights of D (tags), C (file), B (class), A (message): SQLite's BM25 ratios.
_WEIGHTS = "{0.1, 0.2, 0.4, 1.0}"

_HIT_COLUMNS = (
    "r.id, r.repo, r.slug, r.error_class, r.error_type, r.severity, r.file_path, r.line_number"
)


def tsquery(text: str, joiner: str, weight: str = "") -> str | None:
    """The words of ``text`` as a tsquery: joined by ``&``, ``|`` or ``<->``; prefixes
    as ``:*``; ``weight`` ("A") keeps a word to the message. None: no words."""
    words: list[tuple[str, bool]] = []
    for word, prefix in query_words(fold(text)):
        if (word, prefix) not in words:
            words.append((word, prefix))
    if not words:
        return None
    if joiner == "<->":
        if len(words) > MAX_TERMS:
            return None
        words = [(w, False) for w, _ in words[:-1]] + [words[-1]]
    terms = [
        f"'{w}':{'*' if prefix else ''}{weight}" if prefix or weight else f"'{w}'"
        for w, prefix in words[:MAX_TERMS]
    ]
    return f" {joiner} ".join(terms)


def search(conn: Connection, query: SearchQuery) -> tuple[list[SearchHit], bool]:
    """One page of hits for ``query``, and whether there is a next page (current
    records only; without text, listed by repo, file and line)."""
    want = query.offset + query.limit + 1
    every = tsquery(query.text, "&")
    if every is None and query.text.strip():
        return [], False  # only punctuation: nothing to look for
    if every is None:
        rows = _browse(conn, query, want)
    else:
        rows = _ranked(conn, query, every, want)
        any_word = tsquery(query.text, "|")
        if not rows and any_word is not None and any_word != every:
            rows = _ranked(conn, query, any_word, want)
        phrase = tsquery(query.text, "<->", "A") if rows else None
        exact = _ranked(conn, query, phrase, want) if phrase else []
        rows = rerank(exact, rows, query.text)
    page = rows[query.offset : query.offset + query.limit]
    return [hit(row, None if row[9] is None else round(float(row[9]), 4)) for row in page], (
        len(rows) > query.offset + query.limit
    )


def _filters(query: SearchQuery) -> tuple[str, list[Any]]:
    return search_filters(query, "NOT r.stale", "%s")


def _decoded(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Message (index 8) and pattern (10) from their stored JSON strings."""
    return [
        (*row[:8], json.loads(row[8]), row[9], None if row[10] is None else json.loads(row[10]))
        for row in rows
    ]


def _browse(conn: Connection, query: SearchQuery, want: int) -> list[tuple[Any, ...]]:
    where, params = _filters(query)
    sql = (
        f"SELECT {_HIT_COLUMNS}, r.message, NULL, NULL FROM records AS r WHERE {where} "
        f"ORDER BY {ORDER} LIMIT %s"
    )
    return _decoded(conn.execute(sql, [*params, want]).fetchall())


def _ranked(
    conn: Connection, query: SearchQuery, expression: str, want: int
) -> list[tuple[Any, ...]]:
    where, params = _filters(query)
    sql = (
        f"SELECT {_HIT_COLUMNS}, r.message, ts_rank('{_WEIGHTS}', r.search, q) AS score, "
        "r.pattern FROM records AS r, to_tsquery('simple', %s) AS q "
        f'WHERE r.search @@ q AND {where} ORDER BY score DESC, r.id COLLATE "C" LIMIT %s'
    )
    rows = conn.execute(sql, [expression, *params, max(want, RERANK_WINDOW)]).fetchall()
    return _decoded(rows)
