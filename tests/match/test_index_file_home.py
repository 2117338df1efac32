"""The test session keeps errdex's cache out of the user's home (conftest's private cache)."""

from __future__ import annotations

from pathlib import Path

from errdex.match.index_file import cache_root


def test_the_session_cache_is_not_the_users() -> None:
    assert not cache_root().is_relative_to(Path.home() / ".cache")
