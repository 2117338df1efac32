"""Fixtures for the site: a real catalogue (two repositories) and a live server over it.

The API and search tests run against both backends: the catalogue is an SQLite file,
or the same scans written into a real PostgreSQL database (``BOTH_BACKENDS`` lists the
modules; the others use SQLite alone).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn

from errdex.store import open_store
from errdex.web import create_app
from tests.test_scan import SEED_004_CODE

from .catalogue import (
    ACME_SHA,
    CORE,
    SEED_SHA,
    Item,
    codes_module,
    extractor_only,
    scan_into,
    seed_004_analysis,
    write_tree,
)

#: Test modules whose ``site``/``server``/``client`` run once per backend.
BOTH_BACKENDS = {"test_api", "test_search", "test_catalogue"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        both = metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_BACKENDS
        backends = ["sqlite", "postgres"] if both else ["sqlite"]
        metafunc.parametrize("backend", backends, indirect=True, scope="session")


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@dataclass
class Site:
    """A catalogue (a file, or a PostgreSQL URL) and what was scanned into it."""

    db: Path | str
    acme_root: Path
    jax: list[Item]
    acme: list[Item]

    def record(self, repo_items: list[Item], path: str, line: int) -> dict[str, object]:
        return next(r for r, _ in repo_items if r["filePath"] == path and r["lineNumber"] == line)


def build_site(base: Path, db: Path | str | None = None) -> Site:
    db = base / "errdex.db" if db is None else db
    jax_root = write_tree(base / "jax", {"jax/_src/shard_map.py": SEED_004_CODE})
    acme_root = write_tree(
        base / "acme",
        {"widgets/__init__.py": "", "widgets/core.py": CORE, "widgets/codes.py": codes_module()},
    )
    jax = scan_into(db, jax_root, "jax-ml/jax", SEED_SHA)
    acme = scan_into(db, acme_root, "acme/widgets", ACME_SHA)
    analysed = seed_004_analysis(jax)
    bare = extractor_only(next(i for i in acme if i[0]["lineNumber"] == 23))
    with open_store(db) as store:
        store.update_records([analysed, bare])
    return Site(
        db=db, acme_root=acme_root, jax=_replaced(jax, analysed), acme=_replaced(acme, bare)
    )


def _replaced(items: list[Item], new: Item) -> list[Item]:
    return [new if record["id"] == new[0]["id"] else (record, e) for record, e in items]


@pytest.fixture(scope="session")
def site(
    tmp_path_factory: pytest.TempPathFactory, backend: str, request: pytest.FixtureRequest
) -> Site:
    db = None
    if backend == "postgres":
        db = request.getfixturevalue("postgres_server").new_database()
    return build_site(tmp_path_factory.mktemp(f"site-{backend}"), db)


class LiveServer:
    """uvicorn in a thread on a free loopback port: real HTTP, real lifespan."""

    def __init__(self, db: Path | str, **options: object) -> None:
        self.app = create_app(db, poll_seconds=0.2, **options)  # type: ignore[arg-type]
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="session")
def server(site: Site) -> Iterator[LiveServer]:
    with LiveServer(site.db) as live:
        yield live


@pytest.fixture()
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c
