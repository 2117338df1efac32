"""errdex: a catalogue of every error a code base can raise.

The public API: records and templates, the extractor, sources, the scan pipeline, the
store, ``errdex.match(text, db=...)`` (the subpackage, callable) and ``errdex.install()``
(errdex's block after every uncaught traceback).

Names are imported on first use: ``import errdex; errdex.install()`` in a program that
never fails must cost next to nothing, so nothing heavy is loaded until it is asked for.
"""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # not typing's: a program that only calls errdex.install() starts fast
if TYPE_CHECKING:
    from typing import Any

    from errdex import match
    from errdex.extract.python import extract_python
    from errdex.extract.site import ErrorSite, Guard
    from errdex.integrations.hook import install
    from errdex.record import ErrorRecord, envelope, record_id, slugify, source_window
    from errdex.scan import ScanResult, scan_checkout
    from errdex.source import Checkout, SourceError, open_source
    from errdex.store import SqliteStore, StoreError, open_store
    from errdex.template import Hole, Literal, MessageTemplate

_WHERE = {
    "Checkout": "errdex.source",
    "ErrorRecord": "errdex.record",
    "ErrorSite": "errdex.extract.site",
    "Guard": "errdex.extract.site",
    "Hole": "errdex.template",
    "Literal": "errdex.template",
    "MessageTemplate": "errdex.template",
    "ScanResult": "errdex.scan",
    "SourceError": "errdex.source",
    "SqliteStore": "errdex.store",
    "StoreError": "errdex.store",
    "envelope": "errdex.record",
    "extract_python": "errdex.extract.python",
    "install": "errdex.integrations.hook",
    # ``%load_ext errdex`` / ``%unload_ext errdex`` look these up on the package
    "load_ipython_extension": "errdex.integrations.ipython",
    "unload_ipython_extension": "errdex.integrations.ipython",
    "open_source": "errdex.source",
    "open_store": "errdex.store",
    "record_id": "errdex.record",
    "scan_checkout": "errdex.scan",
    "slugify": "errdex.record",
    "source_window": "errdex.record",
}

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
    "install",
    "match",
    "open_source",
    "open_store",
    "record_id",
    "scan_checkout",
    "slugify",
    "source_window",
]


def __getattr__(name: str) -> Any:
    import importlib

    if name == "match":
        return importlib.import_module("errdex.match")
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'errdex' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE, "match"])
