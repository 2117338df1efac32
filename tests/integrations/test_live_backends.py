"""A live exception answered from a PostgreSQL catalogue (``db="postgresql://…"``), as
from an SQLite file; a hook that will not build a server's match index is told there is
none yet, until one is built (and saved in the cache: test_server_catalogue.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errdex.integrations.live import NoIndexYet, answers_for_exception
from tests.store.pg_server import PostgresServer

from .conftest import REPO, SHA, env_for, line_of
from .test_live import caught, load_core


def test_answers_come_from_a_postgres_catalogue(
    shapes: Path, postgres_server: PostgresServer
) -> None:
    url = postgres_server.new_database()
    cmd = [sys.executable, "-c", "from errdex.cli import main; main()", "scan", str(shapes)]
    cmd += ["--repo", REPO, "--sha", SHA, "--db", url]
    done = subprocess.run(cmd, env=env_for(shapes), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    core = load_core(shapes)
    exc = caught(lambda: core.reshape(6, (4, 2)))
    with pytest.raises(NoIndexYet, match="no match index yet"):
        answers_for_exception(exc, db=url, build_index=False)
    (answer,) = answers_for_exception(exc, db=url)
    assert answer.status == "matched"
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == (
        "src/tinyshapes/core.py",
        line_of("raise ShapeError"),
    )
    assert best.holes == {"size": "6", "shape": "(4, 2)"}
    assert answer.envelope is not None and answer.envelope["record"]["id"] == best.id
