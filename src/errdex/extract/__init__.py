"""Extractors: one module per language, each turning source files into ErrorSites."""

from errdex.extract.python import extract_python
from errdex.extract.site import ErrorSite, Guard

__all__ = ["ErrorSite", "Guard", "extract_python"]
