"""PostgreSQL only: a shared database written by several processes at once, and refusing
databases that are not errdex's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from errdex.store import StoreError, open_store
from errdex.store.listing import SearchQuery
from errdex.store.postgres import PostgresStore
from tests.store.pg_server import PostgresServer

from .factories import make_record, make_summary

ROOT = Path(__file__).resolve().parents[2]

#: One writer process: ``rounds`` scans of ``repo``, each of ``size`` records; round ``r``
#: sees the records ``r .. r + size`` (so each scan leaves one record stale). The dataset
#: version ``tag:r:size`` says which writer's round a record comes from.
WRITER = textwrap.dedent("""
    import sys
    from errdex.store import open_store
    from tests.store.factories import make_record, make_summary

    url, repo, rounds, size, tag = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    with open_store(url) as store:
        for r in range(rounds):
            records = [
                make_record(repo=repo, message=f"{repo} error {n}", line=n + 1)
                for n in range(r, r + size)
            ]
            items = [(rec, {"writer": tag}) for rec in records]
            store.write_scan(make_summary(repo=repo, records=size), items, f"{tag}:{r}:{size}")
""")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}


def _writers(url: str, plan: list[tuple[str, int, int]]) -> None:
    """Start every writer at once, then wait for all; each must succeed."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, repo, str(rounds), str(size), f"w{n}"],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, (repo, rounds, size) in enumerate(plan)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err


def test_concurrent_writers_lose_nothing(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    with open_store(url) as store:
        store.write_scan(make_summary(repo="warm/up"), [], "v")  # tables made, counter started
        before = store.data_version()
    rounds, size = 6, 300
    # two processes on different repositories, and two more on one repository (one slow
    # with big scans, one quick with small ones, so their scans overlap), all at once
    plan = [("acme/one", rounds, size), ("acme/two", rounds, size)]
    plan += [("acme/same", rounds, 2000), ("acme/same", 3 * rounds, 20)]
    _writers(url, plan)

    with open_store(url) as store:
        writes = sum(r for _, r, _ in plan)
        assert store.data_version() == before + writes  # every write counted once
        stats = store.stats(include_stale=True)
        by_repo = {r["repo"]: r for r in stats["repos"]}
        for repo in ("acme/one", "acme/two"):
            # the last round saw rounds-1 .. rounds-1+size; the rounds-1 before are stale
            assert by_repo[repo]["records"] == size + rounds - 1
            assert by_repo[repo]["stale"] == rounds - 1
            current = [e["record"]["errorMessage"] for e in store.iter_envelopes(repo)]
            last = range(rounds - 1, rounds - 1 + size)
            assert sorted(current) == sorted(f"{repo} error {n}" for n in last)
            assert len(store.scans(repo)) == rounds
        # one repository, two writers: the scan with the highest id is the latest, and the
        # current records are exactly the ones it saw, none left from the other writer
        same = store.scans("acme/same")
        assert len(same) == rounds + 3 * rounds
        latest = same[0]
        tag, first, count = latest["dataset_version"].split(":")
        seen = {f"acme/same error {n}" for n in range(int(first), int(first) + int(count))}
        current = list(store.iter_envelopes("acme/same"))
        assert {e["record"]["errorMessage"] for e in current} == seen
        assert {e["datasetVersion"] for e in current} == {latest["dataset_version"]}
        assert {e["evidence"]["writer"] for e in current} == {tag}
        for envelope in current:
            status = store.status(envelope["record"]["id"])
            assert status is not None and status["lastSeenScan"] == latest["id"]


#: One scan of ``repo`` holding the records numbered by argv[4:], dataset version ``tag``.
ONE_SCAN = textwrap.dedent("""
    import sys
    from errdex.store import open_store
    from tests.store.factories import make_record, make_summary

    url, repo, tag, numbers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    items = [(make_record(repo=repo, message=f"error {n}", line=int(n) + 1), {}) for n in numbers]
    with open_store(url) as store:
        store.write_scan(make_summary(repo=repo, records=len(items)), items, tag)
""")


def _lock_waiters(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
        "AND pid <> pg_backend_pid()"
    ).fetchone()
    return int(str(row[0])) if row else 0


def _wait_for(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 120
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_later_scan_that_commits_first_still_wins(postgres_server: PostgresServer) -> None:
    """Scan A starts first (the lower id) but is held up; scan B of the same repository
    starts after it. B's records must be the current ones whatever order they finish in."""
    url = postgres_server.new_database()
    repo = "acme/same"
    numbers = list(range(40))
    first_id = min(numbers, key=lambda n: make_record(repo=repo, message=f"error {n}")["id"])
    held = make_record(repo=repo, message=f"error {first_id}", line=first_id + 1)
    a_set = numbers
    b_set = [n for n in numbers if n != first_id] + list(range(40, 50))
    with open_store(url) as store:
        store.write_scan(make_summary(repo=repo, records=1), [(held, {})], "initial")
    blocker = psycopg.connect(url)
    try:
        # hold the row A upserts first, so A waits with its scan id taken
        blocker.execute("SELECT 1 FROM records WHERE id = %s FOR UPDATE", (held["id"],))
        watch = psycopg.connect(url, autocommit=True)

        def start(tag: str, which: list[int]) -> subprocess.Popen[str]:
            args = [sys.executable, "-c", ONE_SCAN, url, repo, tag, *map(str, which)]
            return subprocess.Popen(args, env=_env(), stderr=subprocess.PIPE, text=True)

        a = start("A", a_set)
        _wait_for(lambda: _lock_waiters(watch) >= 1, "scan A to wait for the held row")
        b = start("B", b_set)
        _wait_for(lambda: b.poll() is not None or _lock_waiters(watch) >= 2, "scan B")
        blocker.rollback()  # let A go on
        for proc in (a, b):
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
        watch.close()
    finally:
        blocker.close()
    with open_store(url) as store:
        scans = store.scans(repo)
        assert [s["dataset_version"] for s in scans] == ["B", "A", "initial"]  # by id
        current = list(store.iter_envelopes(repo))
        assert {e["record"]["errorMessage"] for e in current} == {f"error {n}" for n in b_set}
        assert {e["datasetVersion"] for e in current} == {"B"}
        stale = store.status(held["id"])
        assert stale is not None and stale["stale"] and stale["lastSeenScan"] == scans[1]["id"]


def test_concurrent_cli_scans_of_two_repositories(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = postgres_server.new_database()
    roots = {}
    for name in ("alpha", "beta"):
        root = tmp_path / name
        (root / name).mkdir(parents=True)
        body = "".join(
            f"def f{n}(x):\n    if x == {n}:\n        raise ValueError('{name} failure number {n}')\n"
            for n in range(200)
        )
        (root / name / "__init__.py").write_text(body)
        roots[name] = root
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "errdex",
                "scan",
                str(root),
                "--repo",
                f"acme/{name}",
                "--db",
                url,
                "--no-progress",
                "--json",
            ],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, root in roots.items()
    ]
    summaries = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        summaries.append(json.loads(out))
    with open_store(url) as store:
        stats = store.stats()
        assert {r["repo"]: r["records"] for r in stats["repos"]} == {
            "acme/alpha": 200,
            "acme/beta": 200,
        }
        store.refresh_search()
        hits, _ = store.search(SearchQuery("beta failure number 17"))
        assert hits[0].repo == "acme/beta" and hits[0].lineNumber == 3 * 17 + 3
    # errdex stats reads the same database through its --db URL
    shown = subprocess.run(
        [sys.executable, "-m", "errdex", "stats", "--db", url, "--json"],
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(shown.stdout)["records"] == 400
    # and so do export and match
    exported = subprocess.run(
        [sys.executable, "-m", "errdex", "export", "--db", url, "--jsonl", "-"],
        env=_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert len(exported.stdout.splitlines()) == 400
    matched = subprocess.run(
        [sys.executable, "-m", "errdex", "match", "--db", url, "--json",
         "ValueError: alpha failure number 123"],
        env=_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    best = json.loads(matched.stdout)[0]
    assert (best["repo"], best["errorMessage"]) == ("acme/alpha", "alpha failure number 123")


def test_two_processes_opening_a_new_database_make_the_tables_once(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    opener = "import sys; from errdex.store import open_store; open_store(sys.argv[1]).close()"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", opener, url], env=_env(), stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    with open_store(url) as store:
        assert store.stats()["records"] == 0


def test_a_foreign_database_is_refused_untouched(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE people (name TEXT)")
        conn.execute("INSERT INTO people VALUES ('ada')")
    with pytest.raises(StoreError, match=r"not an errdex store .*people"):
        open_store(url)
    with psycopg.connect(url, autocommit=True) as conn:
        tables = {
            r[0]
            for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
    assert tables == {"people"}


def test_a_newer_layout_is_refused(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    open_store(url).close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="upgrade errdex"):
        open_store(url)


def test_messages_hide_the_password(postgres_server: PostgresServer) -> None:
    with pytest.raises(StoreError) as info:
        open_store(f"postgresql://postgres:hunter2@127.0.0.1:{postgres_server.port}/no_such_db")
    assert "hunter2" not in str(info.value)
    assert "no_such_db" in str(info.value)


def test_a_reader_cannot_write(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    open_store(url).close()
    reader = PostgresStore(url, reader=True)
    try:
        with pytest.raises(StoreError, match="read-only"):
            reader.write_scan(make_summary(), [(make_record(), {})], "v")
    finally:
        reader.close()


def test_a_reader_whose_connection_the_server_dropped_connects_again(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    record = make_record()
    with open_store(url) as store:
        store.write_scan(make_summary(), [(record, {})], "v")
    reader = PostgresStore(url, reader=True)
    try:
        assert reader.locate(record["id"]) == ("acme/widgets", record["slug"])
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        with pytest.raises(StoreError):
            reader.locate(record["id"])  # this call finds the connection gone
        assert reader.locate(record["id"]) == ("acme/widgets", record["slug"])
        assert reader.store_version()[0] >= 1
    finally:
        reader.close()


def test_the_mcp_tools_read_a_postgresql_catalogue(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    from errdex.mcp_server import ErrdexTools
    from tests.web.catalogue import scan_into, write_tree

    url = postgres_server.new_database()
    body = "def f(x):\n    raise ValueError(f'gamma widget {x} broke')\n"
    root = write_tree(tmp_path / "src", {"pkg/__init__.py": body})
    ((record, _),) = scan_into(url, root, "o/n", "1" * 40)
    tools = ErrdexTools(url)
    assert tools.search_error("gamma widget 3 broke")["matches"][0]["id"] == record["id"]
    found = tools.get_error(repo="o/n", slug=record["slug"])
    assert (found["record"]["id"], found["stale"]) == (record["id"], False)
    assert [r["repo"] for r in tools.list_repos()["repos"]] == ["o/n"]
