"""Which encoding Python's ``compile()`` and Cython's compiler read a source file in.

``tokenize.detect_encoding`` is not Python's rule where the two differ: it splits lines at
``\\n`` only (a CR-only latin-1 file becomes one undecodable line) and wants the first
lines valid UTF-8, where ``compile()`` (and so ``import``) first turns ``\\r\\n`` and ``\\r``
into ``\\n`` and reads the cookie off raw bytes (CPython 3.11 ``decode_str``/
``check_coding_spec``). Cython has a rule of its own (``Cython.Utils.
detect_opened_file_encoding``): ``# cython: c_string_encoding=ascii`` is a directive, not
a cookie; a first line starting with a BOM is code, so a BOM-led file is UTF-8 whatever
its cookie says; a codec that is no text encoding (``rot13``) fails both.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable
from typing import IO

__all__ = ["Refused", "cython_text", "python_text"]


class Refused(ValueError):
    """The compiler refuses the file; the message says why, as the summary shows it."""


#: ``get_coding_spec``: a comment, then ``coding[:=]`` and a name of ASCII letters,
#: digits, ``-_.`` (the first such in the line).
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
#: ``check_coding_spec``: a line holding anything but blanks before any ``#`` is code,
#: and ends the search for a cookie.
_CODE = re.compile(rb"^[ \t\f]*[^ \t\f#\r\n]")


def _normal(name: str) -> str:
    """CPython's ``get_normal_name``: utf-8 and latin-1 under their other spellings."""
    low = name[:12].lower().replace("_", "-")
    if low == "utf-8" or low.startswith("utf-8-"):
        return "utf-8"
    latin = ("latin-1", "iso-8859-1", "iso-latin-1")
    if low in latin or low.startswith(tuple(f"{n}-" for n in latin)):
        return "iso-8859-1"
    return name


def _python_cookie(body: bytes) -> str | None:
    """The encoding the first two lines of ``body`` (no BOM) declare, as compile() sees
    them: newlines translated, line 2 read only after a blank or comment line 1."""
    head = body[:4096] if body.count(b"\n", 0, 4096) >= 2 else body
    lines = head.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n", 2)
    for line in lines[:2]:
        if (found := _COOKIE.match(line)) is not None:
            return _normal(found.group(1).decode("ascii"))
        if _CODE.match(line):
            return None
    return None


def _decode(
    body: bytes, encoding: str, invalid: Callable[[UnicodeDecodeError], str], who: str
) -> str:
    try:
        return body.decode(encoding)
    except UnicodeDecodeError as exc:
        raise Refused(invalid(exc)) from exc
    except LookupError as exc:  # unknown, or a codec that is no text encoding (rot13, hex)
        raise Refused(f"{who} refuses its encoding declaration ({exc})") from exc


def python_text(data: bytes, invalid: Callable[[UnicodeDecodeError], str]) -> str:
    """The text ``compile(data, ...)`` reads (original line endings kept), or Refused.

    ``invalid`` words the reason for bytes that are not valid UTF-8 with no cookie."""
    bom = data.startswith(codecs.BOM_UTF8)
    body = data[len(codecs.BOM_UTF8) :] if bom else data
    declared = _python_cookie(body)
    if bom and declared not in (None, "utf-8"):
        raise Refused(
            f"Python refuses its encoding declaration (encoding problem: {declared} with BOM)"
        )
    if declared is None or declared == "utf-8":
        return _decode(data, "utf-8-sig", invalid, "Python")
    try:
        codecs.lookup(declared)
    except LookupError as exc:
        raise Refused(
            f"Python refuses its encoding declaration (unknown encoding: {declared})"
        ) from exc
    return _decode(body, declared, lambda exc: f"undecodable as {declared}: {exc}", "Python")


def _cython_rule(stream: IO[bytes]) -> str:
    """Cython 3's ``detect_opened_file_encoding``, for a Cython that lacks it."""
    lines = stream.read(1500).split(b"\n")
    for line in lines[:2]:
        if re.match(rb"\s*[^\s#]", line):
            return "UTF-8"
        found = re.search(rb"(\w*coding)[:=]\s*([-\w.]+)", line)
        if found is None or found.group(1) == b"c_string_encoding":
            continue
        return found.group(2).decode("iso8859-1")
    return "UTF-8"


def _cython_encoding(data: bytes) -> str:
    try:
        from Cython.Utils import detect_opened_file_encoding as untyped
    except ImportError:
        return _cython_rule(io.BytesIO(data))
    detect: Callable[[IO[bytes]], str] = untyped  # Cython ships no type hints
    return str(detect(io.BytesIO(data)))


def cython_text(data: bytes, invalid: Callable[[UnicodeDecodeError], str]) -> str:
    """The text Cython's compiler reads (``open_source_file``: its encoding, strict, a
    leading BOM dropped; line endings kept), or Refused."""
    encoding = _cython_encoding(data)
    try:
        codecs.lookup(encoding)
    except LookupError as exc:
        raise Refused(
            f"Cython refuses its encoding declaration (unknown encoding: {encoding})"
        ) from exc
    utf8 = codecs.lookup(encoding).name == "utf-8"
    text = _decode(
        data, encoding, invalid if utf8 else lambda e: f"undecodable as {encoding}: {e}", "Cython"
    )
    return text.removeprefix("\ufeff")
