"""Fixtures for the site: a real catalogue (two repositories) and a live server over it."""

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

from errdex.store import SqliteStore
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


@dataclass
class Site:
    """A catalogue on disk and what was scanned into it."""

    db: Path
    acme_root: Path
    jax: list[Item]
    acme: list[Item]

    def record(self, repo_items: list[Item], path: str, line: int) -> dict[str, object]:
        return next(r for r, _ in repo_items if r["filePath"] == path and r["lineNumber"] == line)


def build_site(base: Path) -> Site:
    db = base / "errdex.db"
    jax_root = write_tree(base / "jax", {"jax/_src/shard_map.py": SEED_004_CODE})
    acme_root = write_tree(
        base / "acme",
        {"widgets/__init__.py": "", "widgets/core.py": CORE, "widgets/codes.py": codes_module()},
    )
    jax = scan_into(db, jax_root, "jax-ml/jax", SEED_SHA)
    acme = scan_into(db, acme_root, "acme/widgets", ACME_SHA)
    analysed = seed_004_analysis(jax)
    bare = extractor_only(next(i for i in acme if i[0]["lineNumber"] == 23))
    with SqliteStore(db) as store:
        store.update_records([analysed, bare])
    return Site(
        db=db, acme_root=acme_root, jax=_replaced(jax, analysed), acme=_replaced(acme, bare)
    )


def _replaced(items: list[Item], new: Item) -> list[Item]:
    return [new if record["id"] == new[0]["id"] else (record, e) for record, e in items]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_site(tmp_path_factory.mktemp("site"))


class LiveServer:
    """uvicorn in a thread on a free loopback port: real HTTP, real lifespan."""

    def __init__(self, db: Path, **options: object) -> None:
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
