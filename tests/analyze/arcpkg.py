"""A small archive library, written out for the entry-point and solution tests.

Its callers of one raising helper do each thing a chain must be judged on: swallow the
error through a base class, convert it (``raise ReadError(...) from e``), re-raise it,
suppress it with ``contextlib.suppress``, pass a constant that makes the guard false,
leave a default that does, pass a parameter on unchanged, and call a method on a
receiver of unknown type whose name another class happens to define.
"""

from __future__ import annotations

from pathlib import Path

FILES: dict[str, str] = {
    "arcpkg/__init__.py": '''\
"""Read and write archives."""
from arcpkg.errors import ArchiveError, HeaderError, ReadError
from arcpkg.archive import *

__all__ = ["ArchiveError", "HeaderError", "ReadError", "Archive", "TarArchive",
           "open_archive", "read_only", "shutdown", "Stream", "probe"]
''',
    "arcpkg/errors.py": '''\
class ArchiveError(Exception):
    """Base class of the archive errors."""


class HeaderError(ArchiveError):
    """A member header is damaged."""


class ReadError(ArchiveError):
    """The archive cannot be read."""
''',
    "arcpkg/_header.py": """\
from arcpkg.errors import HeaderError

BLOCK = 512


def parse_header(buf, strict=True):
    if strict and len(buf) != BLOCK:
        raise HeaderError("header must be %d bytes, got %d" % (BLOCK, len(buf)))
    return buf[:100].rstrip(b"\\0")


def check_mode(mode):
    if mode not in ("r", "w", "a"):
        raise ValueError(f"mode must be 'r', 'w' or 'a', not {mode!r}")
    return mode


class Unsupported(Exception):
    '''Not an archive this package reads: callers try the next format.'''


def magic(buf):
    if buf[:2] != b"AR":
        raise Unsupported("not an archive")
    return buf[2:4]


def check_level(level):
    if level < 0:
        raise ValueError(f"negative level {level}")
    return level
""",
    "arcpkg/archive.py": '''\
import contextlib

from arcpkg import _header
from arcpkg.errors import ArchiveError, HeaderError, ReadError

__all__ = ["Archive", "TarArchive", "open_archive", "read_only", "shutdown", "Stream", "probe"]


def open_archive(name, mode="r", *, level=6):
    """Open an archive.

    Parameters
    ----------
    name : str
        The file's name.
    mode : str
        One of 'r', 'w' or 'a'; must be given as a single letter.
    level : int
        The compression level; must not be negative.
    """
    mode = mode.lower() if level else mode
    _header.check_level(level)
    return Archive(name, mode)


def read_only(name):
    _header.check_mode("r")
    return Archive(name)


def sniff(buf):
    try:
        return _header.magic(buf)
    except _header.Unsupported:
        return None


def probe(buf, strict=True):
    """Whether ``buf`` holds a header."""
    return _header.parse_header(buf, strict) is not None


class Archive:
    def __init__(self, name, mode="r"):
        self.name = _header.check_mode(mode) and name
        self.mode = mode

    def next_header(self, buf):
        try:
            return _header.parse_header(buf)
        except ArchiveError:
            return None

    def read_header(self, buf):
        try:
            return _header.parse_header(buf)
        except HeaderError as exc:
            raise ReadError(f"{self.name}: bad header") from exc

    def peek(self, buf):
        return _header.parse_header(buf, strict=False)

    def verify(self, buf):
        try:
            return _header.parse_header(buf)
        except HeaderError:
            self.mode = "damaged"
            raise

    def quiet(self, buf):
        with contextlib.suppress(HeaderError):
            return _header.parse_header(buf)
        return None

    def close(self):
        self.stop()


class TarArchive(Archive):
    def load(self, buf):
        return self.read_header(buf)


class Stream:
    def stop(self):
        raise RuntimeError("stream already stopped")


def shutdown(thing):
    thing.stop()
''',
}


def write_arcpkg(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
