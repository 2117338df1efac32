"""The answer cache and run accounting live in the store's file, beside its tables."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.llm.cache import AnswerCache
from errdex.store import SqliteStore


def test_answers_are_keyed_by_hash_model_and_prompt_version(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "e.db") as store:
        cache = AnswerCache(store.connection)
        cache.put(
            "h1",
            "openai:m",
            "p1",
            {"documentation": "x"},
            tokens_in=10,
            tokens_out=5,
            calls=2,
            run_id=None,
        )
        hit = cache.get("h1", "openai:m", "p1")
        assert hit is not None and hit.answer == {"documentation": "x"}
        assert (hit.tokens_in, hit.tokens_out, hit.calls) == (10, 5, 2)
        assert cache.get("h1", "openai:other", "p1") is None
        assert cache.get("h1", "openai:m", "p2") is None
        assert cache.has("h1", "openai:m", "p1") and not cache.has("h2", "openai:m", "p1")
    # Still there after reopening: each answer is committed as it is put.
    with SqliteStore(tmp_path / "e.db") as store:
        assert AnswerCache(store.connection).answers() == 1
        assert store.stats()["records"] == 0


def test_runs_keep_their_counts_and_status(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "e.db") as store:
        cache = AnswerCache(store.connection)
        run = cache.start_run("acme/widgets", "openai:m", "p1", "local server (no price)")
        counts = dict.fromkeys(
            (
                "records",
                "up_to_date",
                "cache_hits",
                "calls",
                "repairs",
                "retries",
                "failed",
                "written",
                "tokens_in",
                "tokens_out",
            ),
            0,
        ) | {"calls": 3, "tokens_in": 300, "cost_usd": 0.5}
        cache.update_run(run, counts)
        assert cache.runs()[0]["status"] == "running"
        cache.update_run(run, counts, "interrupted")
        row = cache.runs()[0]
        assert row["status"] == "interrupted" and row["finished_at"]
        assert (row["calls"], row["tokens_in"], row["cost_usd"]) == (3, 300, 0.5)


def test_a_dry_run_cache_writes_nothing(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "e.db") as store:
        cache = AnswerCache(store.connection, create=False)
        assert cache.get("h", "m", "p") is None and cache.runs() == []
        tables = {r[0] for r in store.connection.execute("SELECT name FROM sqlite_master")}
        assert not any(name.startswith("llm_") for name in tables)
