"""The records of an installed package, scanned once per test session."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

Item = tuple[dict[str, Any], dict[str, Any]]


@cache
def _scan(package: str, repo: str) -> tuple[Item, ...]:
    return tuple(scan_checkout(open_source(package=package), repo=repo).items)


def installed_items(package: str, repo: str) -> list[Item]:
    """Every record of ``package`` as installed (the test is skipped where it is not)."""
    pytest.importorskip(package)
    return list(_scan(package, repo))
