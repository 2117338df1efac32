"""The store tests run against both backends: an SQLite file and a real PostgreSQL database."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.store.pg_server import PostgresServer

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A location for a new, empty store: a file path, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "errdex.db")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()
