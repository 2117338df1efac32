"""``errdex harvest --db`` on either backend: the observed messages reach a PostgreSQL
catalogue as they reach an SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import open_store
from tests.store.conftest import db  # noqa: F401  # the two-backend fixture

from .smallpkg import CORE, line_of, write_package
from .test_harvest import CORE_PATH, REPO, invoke


def test_harvest_writes_observed_messages_on_either_backend(
    tmp_path: Path,
    db: str,  # noqa: F811
) -> None:
    root = write_package(tmp_path / "repo")
    checkout = open_source(str(root), repo=REPO)
    with open_store(db) as store:
        store_scan(store, checkout, REPO, scan_checkout(checkout, repo=REPO), iso_now())
    result = invoke(str(root), "--repo", REPO, "--db", db, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["written"] > 0
    with open_store(db) as store:
        by_line = {
            e["record"]["lineNumber"]: e
            for e in store.iter_envelopes(repo=REPO)
            if e["record"]["filePath"] == CORE_PATH
        }
    observed = [e for e in by_line.values() if e["evidence"].get("observed")]
    assert len(observed) == report["written"]
    positive = by_line[line_of(CORE, 'raise ValueError(f"expected a positive')]
    first = positive["evidence"]["observed"][0]
    assert first["message"] == "expected a positive number, got -1"
    assert first["holes"] == {"x": "-1"}
