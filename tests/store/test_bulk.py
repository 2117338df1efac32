"""Scale: a big scan goes in one call, in seconds (SQLite), and reads back complete."""

from __future__ import annotations

import time

from errdex.store import is_server_url, open_store

from .factories import make_record, make_summary

N = 20_000


def test_twenty_thousand_records_in_one_call(db: str) -> None:
    records = [
        make_record(message=f"widget {n} is broken", file_path=f"pkg/mod{n % 97}.py", line=n + 1)
        for n in range(N)
    ]
    items = ((record, {"n": i}) for i, record in enumerate(records))  # a generator, read once
    with open_store(db) as store:
        started = time.perf_counter()
        scan_id = store.write_scan(make_summary(records=N), items, "2026-01-01T00:00:00.000Z")
        elapsed = time.perf_counter() - started

        if not is_server_url(db):  # a server's time is another process's, on a shared
            # machine; bench/store_backends.py measures PostgreSQL's rate instead
            assert elapsed < 15, f"writing {N} records took {elapsed:.1f}s"
        assert store.scans()[0]["id"] == scan_id
        assert store.scans()[0]["records"] == N
        assert store.stats()["records"] == N
        count = 0
        for envelope in store.iter_envelopes():
            count += 1
            last = envelope
        assert count == N
        # Last in (filePath, lineNumber) order: the highest line of "pkg/mod96.py".
        assert last["record"] == records[max(n for n in range(N) if n % 97 == 96)]
        sample = store.get(records[12_345]["id"])
        assert sample is not None
        assert sample["record"] == records[12_345]
        assert sample["evidence"] == {"n": 12_345}
