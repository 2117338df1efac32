"""The one error type of the ``store`` subpackage."""

from __future__ import annotations

__all__ = ["StoreError"]


class StoreError(Exception):
    """The store could not be opened, read or written.

    The message is meant for the user as-is (which file, what is wrong with it,
    what to do), so the CLI can print it without a traceback.
    """
