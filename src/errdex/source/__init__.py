"""Where scanned code comes from, and links back to it.

:func:`open_source` turns a directory, a git URL or an installed package
into a :class:`Checkout`; :func:`iter_source_files` lists the files worth
scanning; :func:`permalink` links a line range to the forge.
"""

from __future__ import annotations

from .checkout import Checkout, Origin, RefKind
from .errors import SourceError
from .files import DEFAULT_MAX_BYTES, FileListing, iter_source_files
from .git import default_cache_dir
from .permalink import permalink
from .remote import RemoteInfo, parse_remote_url
from .target import open_source

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Checkout",
    "FileListing",
    "Origin",
    "RefKind",
    "RemoteInfo",
    "SourceError",
    "default_cache_dir",
    "iter_source_files",
    "open_source",
    "parse_remote_url",
    "permalink",
]
