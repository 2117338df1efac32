"""Decode one source file as the interpreter would, or say why it cannot be scanned.

Both the scan (which extracts sites) and the static analyst (which reads the same files,
and the tests, for evidence) read files this way, so it lives below both.

A Python file is read exactly as Python reads it (``tokenize.detect_encoding``, PEP 263):
its coding cookie decides, also when the bytes happen to be valid UTF-8, and a file Python
refuses (``# -*- coding: uft-8 -*-``: ``SyntaxError: unknown encoding: uft-8`` on import) is
skipped, so the catalogue holds no site of a module that cannot be imported. Cython reads a
cookie too (Cython 3.3.1's ``cython`` stops with ``LookupError: unknown encoding: uft-8``):
its ``.pyx``/``.pxd``/``.pxi`` files are read the same way. Other files (C, templates...)
are read as UTF-8, a cookie only a fallback.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

__all__ = ["PYTHON_SUFFIXES", "SourceSkip", "read_source"]

#: Files Python or Cython reads itself: their coding cookie is its to judge.
PYTHON_SUFFIXES = frozenset({".py", ".pyw", ".pyi", ".pyx", ".pxd", ".pxi"})


class SourceSkip(Exception):
    """A file that cannot be scanned; the message is the reason shown in the summary."""


def read_source(path: Path) -> str:
    """Decode a Python file as the interpreter would (PEP 263 cookie, BOM), or say why not."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceSkip(f"unreadable: {exc.strerror or exc}") from exc
    if b"\x00" in data:
        raise SourceSkip("binary: contains a NUL byte")
    if path.suffix in PYTHON_SUFFIXES:
        return _as_python(data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as utf8_error:
        return _declared(data, utf8_error)


def _invalid(error: UnicodeDecodeError) -> str:
    return f"invalid UTF-8 at byte {error.start}: {error.reason}"


def _as_python(data: bytes) -> str:
    """The text Python reads from ``data``, or the reason it refuses to."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        try:
            data.decode("utf-8-sig")
        except UnicodeDecodeError as utf8_error:
            raise SourceSkip(f"{_invalid(utf8_error)} ({exc})") from exc
        raise SourceSkip(f"Python refuses its encoding declaration ({exc})") from exc
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding in ("utf-8", "utf-8-sig"):
            raise SourceSkip(f"{_invalid(exc)} and no other encoding declared") from exc
        raise SourceSkip(f"undecodable as {encoding}: {exc}") from exc


def _declared(data: bytes, utf8_error: UnicodeDecodeError) -> str:
    """A file not valid UTF-8, decoded with the encoding its cookie declares."""
    invalid = _invalid(utf8_error)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceSkip(f"{invalid} ({exc})") from exc
    if encoding in ("utf-8", "utf-8-sig"):
        raise SourceSkip(f"{invalid} and no other encoding declared") from utf8_error
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SourceSkip(f"undecodable as {encoding}: {exc}") from exc
