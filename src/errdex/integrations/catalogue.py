"""Which catalogue a live exception is answered from, and whether it can be read.

Kept apart from the matcher so that finding the catalogue costs nothing but ``os`` and
``pathlib``: a hook asks this on every uncaught exception, most of which match nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from errdex.db_url import is_server_url

__all__ = [
    "SQLITE_HEADER",
    "data_dir",
    "default_db",
    "is_server_url",
    "looks_like_catalogue",
]

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def data_dir() -> Path:
    """errdex's data directory: ``$XDG_DATA_HOME/errdex``, else ``~/.local/share/errdex``."""
    base = os.environ.get("XDG_DATA_HOME")
    if base and Path(base).is_absolute():
        return Path(base) / "errdex"
    return Path.home() / ".local" / "share" / "errdex"


def default_db() -> Path | str | None:
    """``$ERRDEX_DB`` if set (whether or not it exists, so a wrong setting stays visible;
    a ``postgresql://`` URL as the string itself), else ``./errdex.db`` if it exists,
    else ``errdex.db`` in :func:`data_dir` if it exists, else None."""
    given = os.environ.get("ERRDEX_DB")
    if given:
        return given if is_server_url(given) else Path(given)
    here = Path("errdex.db")
    if here.is_file():
        return here
    try:
        shared = data_dir() / "errdex.db"
    except RuntimeError:  # no home directory to expand
        return None
    return shared if shared.is_file() else None


def looks_like_catalogue(path: Path) -> bool:
    """A regular file that starts as an SQLite database does. Checked before the store
    opens it, since opening a missing or empty file would make a new catalogue there."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:  # missing, a directory, unreadable
        return False
