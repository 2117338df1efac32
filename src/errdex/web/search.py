"""Full-text search for the site: the query and hit types, and the search itself.

The SQL lives behind the store (:meth:`errdex.store.Store.search`): SQLite's FTS5
index (``errdex.store._sqlite_search``, whose functions over one connection are
re-exported here for callers that hold one) or PostgreSQL's ``tsvector`` and GIN index
(``errdex.store._pg_search``). Both parse the query into words the same way, try every
word, then any word, and re-rank the best hits by how much of the pasted text a record's
pattern covers.
"""

from __future__ import annotations

from errdex.store._sqlite_search import (
    SEARCH_LAYOUT,
    fts_terms,
    index_state,
    json_text,
    phrase_expression,
    refresh,
    register_functions,
    search,
    store_version,
)
from errdex.store.listing import MAX_OFFSET, MAX_TERMS, SearchHit, SearchQuery, SearchUnavailable

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
