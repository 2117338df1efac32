"""The standard library's catalogue, scanned once per errdex source and Python.

``match_realerrors.py`` matches every benchmark against the running standard library as
well; scanning it took most of a run's first minute (several under a loaded machine),
and every run scanned it again. The export is kept under the bench cache directory
(``$ERRDEX_BENCH_CACHE``, else ``$XDG_CACHE_HOME/errdex-bench``, else
``~/.cache/errdex-bench``), keyed by a hash of errdex's own source files (what scans
them: another checkout, main's, has its own entry) and the Python version (whose stdlib
is scanned), so a run reuses it and a change to either scans afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Envelope = dict[str, Any]


def bench_cache_dir() -> Path:
    """Where the bench keeps what it may reuse across runs."""
    if env := os.environ.get("ERRDEX_BENCH_CACHE"):
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "errdex-bench"


def source_hash(package: Path) -> str:
    """A hash of every file of the errdex package at ``package`` (paths and bytes, in
    order), compiled caches left out: any change to what scans gives another key."""
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        digest.update(str(path.relative_to(package)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_key(package: Path) -> str:
    """The cache entry's name: errdex's source hash and this Python's version."""
    version = ".".join(str(part) for part in sys.version_info[:3])
    return f"stdlib-{sys.implementation.name}{version}-{source_hash(package)[:20]}"


def cached_stdlib(
    scan: Callable[[], list[Envelope]], package: Path, cache: Path | None = None
) -> tuple[list[Envelope], Path, bool]:
    """The stdlib's envelopes: read from the cache entry of errdex at ``package`` when there
    is one, else ``scan()``-ed and written there (whole or not at all: a run stopped while
    writing leaves no entry). Returns them, the entry's path and whether it was reused."""
    path = (cache or bench_cache_dir()) / f"{cache_key(package)}.jsonl"
    if path.is_file():
        with path.open(encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()], path, True
    envelopes = scan()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    with partial.open("w", encoding="utf-8") as out:
        for envelope in envelopes:
            out.write(json.dumps(envelope) + "\n")
    partial.replace(path)
    return envelopes, path, False
