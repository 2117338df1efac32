"""errdex: a catalogue of every error a code base can raise.

The public API: records and templates, the extractor, the scan pipeline and the store.
"""

from __future__ import annotations

__version__ = "0.1.0"

from errdex.extract.python import extract_python
from errdex.extract.site import ErrorSite, Guard
from errdex.record import ErrorRecord, envelope, record_id, slugify, source_window
from errdex.template import Hole, Literal, MessageTemplate

__all__ = [
    "ErrorRecord",
    "ErrorSite",
    "Guard",
    "Hole",
    "Literal",
    "MessageTemplate",
    "__version__",
    "envelope",
    "extract_python",
    "record_id",
    "slugify",
    "source_window",
]
