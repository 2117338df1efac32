"""One lock file per cache entry, so concurrent errdex runs fetch and unpack it once.

Two ``errdex scan --package X --sdist`` runs share ``~/.cache/errdex``: without a lock
both download the archive (the second replacing the first, which changes its mtime and
so the unpack marker) and both unpack it into the same folder, one deleting the tree
the other is reading. Holders of :func:`cache_lock` do that work one at a time; the
later one finds the earlier one's result and uses it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: atomic renames alone keep readers safe
    fcntl = None  # type: ignore[assignment]

__all__ = ["LOCKS", "cache_lock", "locked_file"]

#: Whether :func:`cache_lock` excludes other holders (POSIX ``flock``), so leftovers of
#: an earlier run found while holding it are from a run that is gone.
LOCKS = fcntl is not None


@contextmanager
def cache_lock(entry: Path) -> Iterator[None]:
    """Hold an exclusive lock on cache entry ``entry`` (a folder, which need not exist).

    The lock file is ``.NAME.lock`` beside ``entry``, never inside it, so the entry's
    own listing is unchanged."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    with locked_file(entry.parent / f".{entry.name}.lock"):
        yield


@contextmanager
def locked_file(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (made if missing, in a folder that
    exists). ``flock`` excludes other processes and other threads alike (each call opens
    its own file description) and is dropped by the kernel when its holder dies, so a
    killed run never leaves it locked; without ``fcntl`` nothing is excluded."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the flock
