"""Where a database server's catalogue keeps its match index.

A file catalogue's index is saved beside it; a server (``postgresql://…``) has no folder
beside it, so its index goes to errdex's cache, one folder per URL. Kept apart from
:mod:`errdex.match.api` so that errdex's excepthook can name the folder (to read it
ahead) without importing the matcher or the store.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from errdex.match.index_file import cache_root

__all__ = ["server_index_path"]

#: ``user:password@`` in a URL: the password is no part of which database it names.
_PASSWORD = re.compile(r"(://[^:/@]*):[^@/]*@")


def server_index_path(url: str) -> Path:
    """``<cache>/matchindex/server-<hash>``: keyed by a hash of ``url`` without its
    password (the index's ``meta.json`` says which data version it holds)."""
    bare = _PASSWORD.sub(r"\1@", url)
    digest = hashlib.sha256(bare.encode()).hexdigest()[:16]
    return cache_root() / "matchindex" / f"server-{digest}"
