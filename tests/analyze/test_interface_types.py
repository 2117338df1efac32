"""A type check in a method of a private class that implements a public interface method
(``asyncio.unix_events._UnixWritePipeTransport.write``, run on CPython 3.11:
``transport.write("x")`` on the pipe transport of ``loop.connect_write_pipe`` fails
``assert isinstance(data, (bytes, bytearray, memoryview))``): the fix is what to pass
to the interface's call, where errdex said "found no fix"."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
__all__ = ["WriteTransport"]


class WriteTransport:
    def write(self, data):
        raise NotImplementedError

    def writelines(self, list_of_data):
        self.write(b"".join(list_of_data))


class _PipeTransport(WriteTransport):
    def write(self, data):
        assert isinstance(data, (bytes, bytearray, memoryview)), repr(data)
        return len(data)

    def close(self, how):
        assert isinstance(how, str), repr(how)


class _Other:
    def write(self, data):
        assert isinstance(data, bytes), repr(data)
"""


def _found(tmp_path: Path) -> dict[int, list[str]]:
    return {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_the_interface_call_takes_the_types_checked(tmp_path: Path) -> None:
    (text,) = _found(tmp_path)[15]
    assert text == (
        "Pass `data` to `write()` as an instance of `bytes`, `bytearray` or `memoryview`: "
        "the object's `write()` is the library's own implementation of "
        "`WriteTransport.write()` (`m.WriteTransport.write`), and it fails its assertion "
        "with `AssertionError` for any other (m.py:15)."
    )


def test_no_interface_is_named_where_none_is_implemented(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert "implementation of" not in found[19][0]  # ``close`` implements nothing public
    assert "implementation of" not in found[24][0]  # ``_Other`` has no public base
