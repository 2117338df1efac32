"""Extractors: one module per language, each turning source files into ErrorSites.

The names below are loaded on first use, so that importing one light module of the
package (:mod:`errdex.extract.registry`, which the matcher asks for a path's language)
does not load the Python extractor and the record model with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.extract.python import extract_python
    from errdex.extract.registry import EXTRACTORS, ExtractError, Extractor, extractor_for
    from errdex.extract.site import ErrorSite, Guard

__all__ = [
    "EXTRACTORS",
    "ErrorSite",
    "ExtractError",
    "Extractor",
    "Guard",
    "extract_python",
    "extractor_for",
]

_HOMES = {
    "extract_python": "errdex.extract.python",
    "EXTRACTORS": "errdex.extract.registry",
    "ExtractError": "errdex.extract.registry",
    "Extractor": "errdex.extract.registry",
    "extractor_for": "errdex.extract.registry",
    "ErrorSite": "errdex.extract.site",
    "Guard": "errdex.extract.site",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'errdex.extract' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
