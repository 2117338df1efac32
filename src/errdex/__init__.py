"""errdex: a catalogue of every error a code base can raise.

The public API: records and templates, the extractor, sources, the scan pipeline, the
store and ``errdex.match(text, db=...)`` (the subpackage, callable).
"""

from __future__ import annotations

__version__ = "0.1.0"

from errdex import match
from errdex.extract.python import extract_python
from errdex.extract.site import ErrorSite, Guard
from errdex.record import ErrorRecord, envelope, record_id, slugify, source_window
from errdex.scan import ScanResult, scan_checkout
from errdex.source import Checkout, SourceError, open_source
from errdex.store import SqliteStore, StoreError, open_store
from errdex.template import Hole, Literal, MessageTemplate

__all__ = [
    "Checkout",
    "ErrorRecord",
    "ErrorSite",
    "Guard",
    "Hole",
    "Literal",
    "MessageTemplate",
    "ScanResult",
    "SourceError",
    "SqliteStore",
    "StoreError",
    "__version__",
    "envelope",
    "extract_python",
    "match",
    "open_source",
    "open_store",
    "record_id",
    "scan_checkout",
    "slugify",
    "source_window",
]


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext errdex``: imported only when IPython asks, so ``import errdex`` stays light."""
    from errdex.integrations.ipython import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython: object) -> None:
    """``%unload_ext errdex``."""
    from errdex.integrations.ipython import unload_ipython_extension as unload

    unload(ipython)
