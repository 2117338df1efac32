"""A state check a caller repeats on its own object, said in the object's public names.

Mirrors CPython 3.11: ``zipfile.ZipExtFile.read`` raises ``ValueError("read from closed
file.")`` when ``self.closed``, ``_compression.DecompressReader.seek``-like methods when
``not self.seekable()``: the caller holds the object and can test the same thing. A
check of private state (``asyncio.Future.result``'s ``self._state == _CANCELLED``) is no
test a caller writes and keeps "errdex found no fix"; a property (``BaseProcess
.sentinel``) is read, not called. Nor is the check the caller's where the method sets
what it reads first (``ftplib.FTP.connect`` sets ``self.timeout = timeout``), or where it
is an ``AssertionError`` (``Mock.assert_called``: the check is the method's purpose).
"""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
class ExtFile:
    def __init__(self):
        self.closed = False
        self._state = 'PENDING'

    def read(self, n=-1):
        if self.closed:
            raise ValueError("read from closed file.")
        return n

    def seekable(self):
        return True

    def seek(self, offset):
        if not self.seekable():
            raise ValueError("underlying stream is not seekable")
        return offset

    def result(self):
        if self._state == 'CANCELLED':
            raise RuntimeError("the future was cancelled")

    def connect(self, timeout=-999):
        if timeout != -999:
            self.timeout = timeout
        if self.timeout is not None and not self.timeout:
            raise ValueError("Non-blocking socket (timeout=0) is not supported")

    def assert_called(self):
        if self.call_count == 0:
            raise AssertionError("Expected mock to have been called.")

    @property
    def sentinel(self):
        if self.closed:
            raise ValueError("process not started")
        return 1
"""


def _solutions(tmp_path: Path) -> dict[str, list[str]]:
    return {r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_a_public_attribute_of_the_object(tmp_path: Path) -> None:
    assert _solutions(tmp_path)["read from closed file."] == [
        "Call `ExtFile.read()` only when `not obj.closed` holds, `obj` being the object it "
        "is called on: it raises `ValueError` when `obj.closed`, a check of the object's own "
        "state, not of the call's arguments."
    ]


def test_a_public_method_of_the_object(tmp_path: Path) -> None:
    (text,) = _solutions(tmp_path)["underlying stream is not seekable"]
    assert text.startswith("Call `ExtFile.seek()` only when `obj.seekable()` holds")


def test_private_state_is_no_check_of_the_caller(tmp_path: Path) -> None:
    # no check on the private state is offered; the handler is (issue 10: not the filler)
    assert _solutions(tmp_path)["the future was cancelled"] == [
        "Catch `RuntimeError` around the call to `ExtFile.result()` where the program must go "
        "on after it."
    ]


def test_a_property_is_read(tmp_path: Path) -> None:
    (text,) = _solutions(tmp_path)["process not started"]
    assert "read `ExtFile.sentinel` only on an object" in text, text
    assert "sentinel()" not in text


def test_a_second_scan_reads_the_same_conditions(tmp_path: Path) -> None:
    """Writing ``obj`` for ``self`` must not touch the parsed guard that every later
    reader of the same text shares (:func:`errdex.analyze.parsed.parse_guard` caches it)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _solutions(tmp_path / "a") == _solutions(tmp_path / "b")


def test_no_check_of_state_the_method_sets_first(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    for message in (
        "Non-blocking socket (timeout=0) is not supported",
        "Expected mock to have been called.",
    ):
        for text in found[message]:
            assert not text.startswith("Call `"), text
