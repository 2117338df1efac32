"""Extractors: one module per language, each turning source files into ErrorSites."""

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
