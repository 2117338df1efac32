"""Decode one source file as the interpreter would, or say why it cannot be scanned.

Both the scan (which extracts sites) and the static analyst (which reads the same files,
and the tests, for evidence) read files this way, so it lives below both.

A Python file is read exactly as ``compile()`` and ``import`` read it (PEP 263, CPython's
own rule, which differs from ``tokenize.detect_encoding`` on CR-only files):
its coding cookie decides, also when the bytes happen to be valid UTF-8, and a file Python
refuses (``# -*- coding: uft-8 -*-``: ``SyntaxError: unknown encoding: uft-8`` on import) is
skipped, so the catalogue holds no site of a module that cannot be imported. Cython reads a
cookie too (Cython 3.3.1's ``cython`` stops with ``LookupError: unknown encoding: uft-8``),
by its own rule: its ``.pyx``/``.pxd``/``.pxi`` files are read as Cython reads them. Other files (C, templates...)
are read as UTF-8, a cookie only a fallback.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from errdex.source.cookies import Refused, cython_text, python_text

__all__ = ["PYTHON_SUFFIXES", "SourceSkip", "read_source"]

#: Files Python or Cython reads itself: their coding cookie is its to judge.
PYTHON_SUFFIXES = frozenset({".py", ".pyw", ".pyi", ".pyx", ".pxd", ".pxi"})
#: Of those, the files Cython reads, by its own rule.
CYTHON_SUFFIXES = frozenset({".pyx", ".pxd", ".pxi"})
_LONE_CR = re.compile(r"\r(?!\n)")


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
        return _as_python(data, path.suffix)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as utf8_error:
        return _declared(data, utf8_error)


def _invalid(error: UnicodeDecodeError) -> str:
    return f"invalid UTF-8 at byte {error.start}: {error.reason}"


def _as_python(data: bytes, suffix: str) -> str:
    """The text Python (or, for a Cython file, Cython) reads from ``data``, or the reason
    it refuses to (:mod:`errdex.source.cookies`)."""
    read = cython_text if suffix in CYTHON_SUFFIXES else python_text
    try:
        text = read(data, lambda exc: f"{_invalid(exc)} and no other encoding declared")
    except Refused as exc:
        raise SourceSkip(str(exc)) from exc
    # Both compilers end a line at a lone CR (compile()'s translate_newlines, Cython's
    # universal-newline reader); the extractors end lines only at LF or CRLF.
    return _LONE_CR.sub("\n", text) if "\r" in text else text


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
