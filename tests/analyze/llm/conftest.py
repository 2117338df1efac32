"""A small scanned project, its store and the fake model server, for the LLM analyst tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from errdex.analyze.llm import RetryPolicy, RunOptions
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

from .fake_server import FakeLlmServer

REPO = "acme/widgets"
SHA_1 = "1" * 40
SHA_2 = "2" * 40
#: Waits in tests are capped at this (Retry-After: 30 becomes 20 ms).
FAST = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02, timeout=5.0)

_FILLER = "\n".join(f"# filler {n}" for n in range(40))

CORE = f'''"""Widgets."""


def spin(widget, speed):
    """Spin ``widget`` at ``speed``; negative speeds are refused."""
    if speed < 0:
        raise ValueError(f"speed must be >= 0, got {{speed}}")
    return speed


{_FILLER}


def stop(widget):
    if widget is None:
        raise TypeError("widget must not be None")
    return widget


{_FILLER}


def load(path):
    try:
        with open(path) as fh:
            return fh.read()
    except OSError as exc:
        raise RuntimeError(f"cannot load {{path}}") from exc
'''

EXTRA = f"""import warnings


def old(x):
    warnings.warn("old() is deprecated", DeprecationWarning)
    return x


{_FILLER}


def check(n):
    assert n > 0, "n must be positive"
    return n
"""

SITES = 5


def write_project(root: Path) -> Path:
    package = root / "widgets"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text(CORE)
    (package / "extra.py").write_text(EXTRA)
    return root


def scan_into(store: SqliteStore, root: Path, sha: str) -> None:
    """What ``errdex scan DIR --repo acme/widgets --sha SHA`` stores."""
    checkout = open_source(str(root), repo=REPO, sha=sha)
    result = scan_checkout(checkout, repo=REPO)
    store_scan(store, checkout, REPO, result, iso_now())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(tmp_path / "src")


@pytest.fixture
def store(tmp_path: Path, project: Path) -> Iterator[SqliteStore]:
    with SqliteStore(tmp_path / "errdex.db") as opened:
        scan_into(opened, project, SHA_1)
        yield opened


@pytest.fixture
def server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer() as running:
        yield running


@pytest.fixture
def console() -> Console:
    return Console(record=True, width=120, force_terminal=False)


def options(
    server: FakeLlmServer, model: str = "openai:fake-model", **kwargs: object
) -> RunOptions:
    """Run options against the fake server, no key needed (loopback), fast retries."""
    base = server.openai_base if model.startswith("openai:") else server.root
    settings: dict[str, object] = {"repo": REPO, "base_url": base, "retry": FAST, "env": {}}
    settings.update(kwargs)
    return RunOptions(model=model, **settings)  # type: ignore[arg-type]
