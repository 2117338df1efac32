"""Shared by the layout and class tests: a catalogue of a few of this machine's stdlib
files beside a small local package, and tracebacks printed by running real code."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.source.stdlib import stdlib_checkout
from errdex.store import SqliteStore

SHA = "89abcdef0123456789abcdef0123456789abcdef"
FILE_LINE = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)')


def build(db: Path, stdlib_files: Sequence[str], package: Path, repo: str) -> Path:
    """Scan only ``stdlib_files`` of the stdlib (fast) and the package at ``package``."""
    local = open_source(str(package), repo=repo, sha=SHA)
    with SqliteStore(db) as store:
        for checkout, name, include in (
            (stdlib_checkout(), "python/cpython", list(stdlib_files)),
            (local, repo, []),
        ):
            result = scan_checkout(checkout, repo=name, include=include, read_tests=False)
            store_scan(store, checkout, name, result, "2026-12-01T00:00:00.000Z")
    return db


def run(code: str, path: Path | None = None) -> str:
    """The traceback this Python prints for ``code`` (``path`` first on ``sys.path``)."""
    prefix = f"import sys; sys.path.insert(0, {str(path)!r})\n" if path else ""
    done = subprocess.run(
        [sys.executable, "-c", prefix + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    return done.stderr


def innermost(traceback: str) -> tuple[str, int]:
    """The innermost frame's path and line."""
    path, line = FILE_LINE.findall(traceback)[-1]
    return path, int(line)
