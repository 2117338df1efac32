"""Where model answers are kept for each backend: an SQLite catalogue's own file, else a
local cache file keyed by content hash, which a second catalogue showing the same
evidence reuses and which can be deleted at the cost of paying again."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from errdex.analyze.llm import AnswerCache, analyze
from errdex.analyze.llm.cache import local_cache_path
from errdex.store import SqliteStore, open_store
from tests.store.conftest import db  # noqa: F401  # the two-backend fixture
from tests.store.pg_server import PostgresServer

from .conftest import SHA_1, SITES, options, scan_into
from .fake_server import FakeLlmServer


def test_model_analysis_runs_on_either_backend_and_caches_its_answers(
    db: str,  # noqa: F811
    project: Path,
    server: FakeLlmServer,
    console: Console,
) -> None:
    local = local_cache_path()
    local.unlink(missing_ok=True)
    with open_store(db) as store:
        scan_into(store, project, SHA_1)
        report = analyze(store, options(server), console=console)
        assert report.status == "finished" and report.calls == SITES and not report.failed
        assert {e["evidence"]["analysis"] for e in store.iter_envelopes()} == {"llm"}
        cache = AnswerCache.for_store(store)
        assert cache.answers() == SITES and cache.runs()[0]["status"] == "finished"
        if isinstance(store, SqliteStore):  # in the catalogue's own file, as always
            assert AnswerCache(store.connection).answers() == SITES
            assert not local.exists()
        else:
            assert local.is_file()


def test_a_second_postgres_catalogue_reuses_the_local_cache_until_it_is_deleted(
    postgres_server: PostgresServer, project: Path, server: FakeLlmServer, console: Console
) -> None:
    local = local_cache_path()
    local.unlink(missing_ok=True)
    first, second, third = (postgres_server.new_database() for _ in range(3))
    with open_store(first) as store:
        scan_into(store, project, SHA_1)
        assert analyze(store, options(server), console=console).calls == SITES
    with open_store(second) as store:
        scan_into(store, project, SHA_1)
        again = analyze(store, options(server), console=console)
        assert (again.calls, again.cache_hits, again.written) == (0, SITES, SITES)
    local.unlink()  # a cache: deleting it costs only the calls
    with open_store(third) as store:
        scan_into(store, project, SHA_1)
        dry = analyze(store, options(server, dry_run=True), console=console)
        assert dry.cache_hits == 0 and not local.exists()  # a dry run creates nothing
        paid = analyze(store, options(server), console=console)
        assert (paid.calls, paid.cache_hits) == (SITES, 0)
    assert len(server.requests) == 2 * SITES
