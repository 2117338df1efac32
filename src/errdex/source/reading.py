"""Decode one source file as the interpreter would, or say why it cannot be scanned.

Both the scan (which extracts sites) and the static analyst (which reads the same files,
and the tests, for evidence) read files this way, so it lives below both.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

__all__ = ["SourceSkip", "read_source"]


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
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as utf8_error:
        invalid = f"invalid UTF-8 at byte {utf8_error.start}: {utf8_error.reason}"
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
