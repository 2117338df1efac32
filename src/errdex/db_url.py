"""Whether a catalogue location is a database server's URL, and how to show one.

A leaf module (only :mod:`re`): the store, the ``--db`` option and the excepthook's
catalogue lookup all ask it, and the hook must not pay for importing :mod:`errdex.store`
(~0.2 s) on every uncaught exception just to tell a URL from a file.
"""

from __future__ import annotations

import re

__all__ = ["SERVER_SCHEMES", "is_server_url", "shown_url"]

SERVER_SCHEMES = ("postgres://", "postgresql://")


def is_server_url(location: object) -> bool:
    """Whether ``location`` names a database server (PostgreSQL) rather than a file."""
    return str(location).startswith(SERVER_SCHEMES)


def shown_url(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
