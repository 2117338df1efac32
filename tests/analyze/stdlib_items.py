"""Records of a few files of this Python's own standard library, for tests on real code.

The tests that use it assert what was read by hand in CPython 3.11's sources, so they
run only there (``ON_311``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.source.stdlib import stdlib_checkout

__all__ = ["ON_311", "Item", "one_file_items", "stdlib_items"]

Item = tuple[dict[str, Any], dict[str, Any]]

ON_311 = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the cases were read in CPython 3.11's sources"
)


def stdlib_items(*include: str) -> list[Item]:
    """The analysed records of the standard library files matching ``include``."""
    return scan_checkout(
        stdlib_checkout(), repo="python/cpython", include=list(include), read_tests=False
    ).items


def one_file_items(root: Path, name: str, text: str) -> list[Item]:
    """The analysed records of one module ``name`` holding ``text``, scanned alone."""
    (root / name).write_text(text)
    return scan_checkout(open_source(str(root), repo="o/m"), repo="o/m").items
