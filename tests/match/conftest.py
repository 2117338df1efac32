"""A small real catalogue for the matcher tests: code written for them, scanned for real."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

SHA = "0123456789abcdef0123456789abcdef01234567"

GRAPH = '''\
class NetworkXError(Exception):
    """Base class for graph errors."""


class NodeNotFound(NetworkXError):
    pass


def add_edge(graph, u, v, weight=1.0):
    if u not in graph:
        raise NodeNotFound(f"Node {u} is not in the graph.")
    if v not in graph:
        raise NodeNotFound(f"Node {v} is not in the graph.")
    if weight < 0:
        raise ValueError(f"weight must be non-negative, got {weight!r}")
    graph[u].append(v)


def shortest_path(graph, source, target, method="dijkstra"):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"{method} is not a valid choice for an algorithm.")
    if source not in graph:
        raise NodeNotFound(f"Node {source} is not in the graph.")
    raise NetworkXError


def spanning_tree(graph, algorithm="kruskal"):
    if algorithm not in ("kruskal", "prim"):
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    return graph
'''


def pattern_envelope(
    i: int, pattern: str, error_class: str = "error", file_path: str | None = None
) -> dict[str, Any]:
    """Entry ``i`` of a catalogue made of bare patterns (no template): one site each."""
    record = {
        "id": f"{i:016x}",
        "repo": "r",
        "filePath": file_path or f"pkg/m{i}.py",
        "lineNumber": 10 + i,
        "errorClass": error_class,
        "messagePattern": pattern,
    }
    return {"record": record, "evidence": {"site": {"function": "parse"}}}


def build_catalogue(root: Path) -> Path:
    return build_package(root, "tinygraph", {"graph.py": textwrap.dedent(GRAPH)})


def build_package(root: Path, name: str, modules: dict[str, str]) -> Path:
    """Write package ``name`` under ``root/src`` and scan it for real into ``root/errdex.db``."""
    pkg = root / "src" / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for module, code in modules.items():
        (pkg / module).parent.mkdir(parents=True, exist_ok=True)
        (pkg / module).write_text(code)
    repo = f"example/{name}"
    checkout = open_source(str(root), repo=repo, sha=SHA)
    result = scan_checkout(checkout, repo=repo)
    db = root / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, "2026-11-29T00:00:00.000Z")
    return db


def traceback_of(root: Path, code: str) -> str:
    """What running ``code`` in ``root/src`` (a package :func:`build_package` wrote) prints."""
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=root / "src", capture_output=True, text=True
    )
    return run.stderr


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    return build_catalogue(tmp_path)


def line_of(needle: str) -> int:
    for number, text in enumerate(textwrap.dedent(GRAPH).splitlines(), 1):
        if needle in text:
            return number
    raise AssertionError(needle)


def envelopes(db: Path) -> list[dict[str, Any]]:
    with SqliteStore(db) as store:
        return list(store.iter_envelopes())


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """errdex's cache directory (index key, indexes of read-only catalogues) per test."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache


def report_of_pytest(tests: Path, pythonpath: Path, *options: str) -> str:
    """What pytest prints running ``tests`` with ``pythonpath`` first on ``sys.path``."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, str(tests)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tests.parent,
        env={"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin", "COLUMNS": "80"},
    )
    return done.stdout
