"""Shared fixtures: the record JSON Schema validator and the seed documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from errdex.record import record_json_schema

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"


@pytest.fixture(scope="session")
def record_validator() -> jsonschema.Draft202012Validator:
    """Validates records against the exported schema file (which must be up to date)."""
    schema = json.loads((ROOT / "schema" / "record-v2.json").read_text())
    assert schema == json.loads(json.dumps(record_json_schema())), (
        "schema/record-v2.json is stale: run `python -m errdex.record > schema/record-v2.json`"
    )
    return jsonschema.Draft202012Validator(schema)


def load_seed(name: str) -> str:
    return (SEEDS / name).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def seed_000() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(load_seed("000_727ae2890b2a0f15.txt"))
    return data


@pytest.fixture(autouse=True)
def _no_network_tag_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test asks GitHub for a release's tags (``git ls-remote``); file:// remotes still work."""
    monkeypatch.setenv("ERRDEX_OFFLINE", "1")


@pytest.fixture(scope="session", autouse=True)
def _private_cache_home(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """errdex's cache (the index key, clones, downloads) lives in the session's own folder,
    so that tests never write into the user's ``~/.cache/errdex``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        yield


@pytest.fixture(autouse=True)
def _private_scan_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each test's scans use a scan cache of their own, never the user's."""
    monkeypatch.setenv("ERRDEX_SCAN_CACHE", str(tmp_path_factory.mktemp("scan-cache") / "c.sqlite"))


@pytest.fixture(scope="session")
def postgres_server() -> Any:
    """A real PostgreSQL server for the session (the Debian package, started here).

    Not a skip: when PostgreSQL cannot start, every test that needs it fails with why.
    """
    from tests.store.pg_server import PostgresServer

    server = PostgresServer()
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    try:
        yield server
    finally:
        server.stop()
