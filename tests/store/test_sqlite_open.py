"""Opening a store never costs another connection of the same process its locks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errdex.store import SqliteStore

from .factories import make_record, make_summary

#: Another process writes to the file and closes: as the last user it would checkpoint
#: the WAL and delete it, which it may do only when no other connection holds a lock.
_WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("INSERT INTO meta (key, value) VALUES ('other', '1') "
             "ON CONFLICT (key) DO UPDATE SET value = value + 1")
conn.close()
"""


def test_opening_again_keeps_the_readers_locks(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    record = make_record()
    with SqliteStore(db) as store:
        store.write_scan(make_summary(), [(record, {})], "2026-01-01T00:00:00.000Z")
    reader = SqliteStore(db)  # a server's reader, open for as long as the server runs
    try:
        assert reader.get(record["id"]) is not None
        SqliteStore(db).close()  # a search refresh or a match opens the file again
        subprocess.run([sys.executable, "-c", _WRITER, str(db)], check=True, timeout=60)
        # The writer saw the reader's lock: the WAL the reader maps is still there.
        assert (tmp_path / "errdex.db-wal").exists()
        assert reader.get(record["id"]) is not None
        assert reader.stats()["records"] == 1
    finally:
        reader.close()
