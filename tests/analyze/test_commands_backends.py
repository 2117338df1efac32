"""``errdex scan`` then ``errdex analyze`` on either backend: the analyst finds the source
again through the store (``--db postgresql://…`` as well as a file)."""

from __future__ import annotations

import json
from pathlib import Path

from errdex.store import open_store
from tests.store.conftest import db  # noqa: F401  # the two-backend fixture

from .geompkg import write_geompkg
from .test_commands import REPO, flat, invoke


def test_analyze_rereads_the_remembered_source_on_either_backend(
    tmp_path: Path,
    db: str,  # noqa: F811
) -> None:
    root = write_geompkg(tmp_path / "src")
    result = invoke("scan", root, "--repo", REPO, "--db", db, "--no-analyze", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["analysisSeconds"] == 0
    with open_store(db) as store:
        assert {e["evidence"]["analysis"] for e in store.iter_envelopes()} == {"extractor"}
        noted = store.noted_source(REPO)
    assert noted is not None and json.loads(noted.checkout)["root"] == str(root)

    result = invoke("analyze", "--db", db)
    assert result.exit_code == 0, result.output
    assert "updated 7 of 7 records" in flat(result.output)
    with open_store(db) as store:
        found = {e["record"]["errorMessage"].split()[0]: e for e in store.iter_envelopes()}
    assert {e["evidence"]["analysis"] for e in found.values()} == {"static"}
    assert found["zero-area"]["evidence"]["tests"][0]["name"].endswith("test_zero_rect")


def test_analyze_of_an_unreachable_server_is_a_clear_error() -> None:
    result = invoke("analyze", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert result.exit_code == 2
    assert "cannot connect" in flat(result.output)
