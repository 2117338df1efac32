"""The one error type of the ``source`` subpackage."""

from __future__ import annotations

__all__ = ["SourceError"]


class SourceError(Exception):
    """Source code could not be located, fetched or listed.

    The message is meant for the user as-is: it says what went wrong and
    what to do about it, so callers can print it without a traceback.
    """
