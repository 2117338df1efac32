"""A private class's method that implements a public interface method, whose type test
does not read the caller's value whole (rr4's fixtures, run on CPython 3.11): a handler
reached only when ``memoryview(data)`` failed, a loop that binds the name after the
test, a ``return`` before the raise. No "Pass `data` to `write()` as an instance of …"
is said there (``test_interface_types`` has the case where it is)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
__all__ = ["WriteTransport"]


class WriteTransport:
    def write(self, data):
        raise NotImplementedError

    def drain(self, data):
        raise NotImplementedError

    def put(self, item):
        raise NotImplementedError

    def pour(self, data):
        raise NotImplementedError

    def send(self, data):
        raise NotImplementedError


class _Pipe(WriteTransport):
    def write(self, data):
        try:
            view = memoryview(data)
        except TypeError:
            assert isinstance(data, str), repr(data)
            view = data.encode()
        return len(view)

    def drain(self, data):
        while data:
            assert isinstance(data, bytes), repr(data)
            data = data.decode()[1:]
        return data

    def put(self, item):
        for _ in range(2):
            assert isinstance(item, str), repr(item)
            item = 5
        return item

    def pour(self, data):
        if not isinstance(data, bytes):
            if hasattr(data, "tobytes"):
                return data.tobytes()
            assert isinstance(data, bytearray), repr(data)
        return data

    def send(self, data):
        assert isinstance(data, bytes), repr(data)
        return len(data)
"""


def _found(tmp_path: Path) -> dict[int, list[str]]:
    return {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_no_type_is_said_where_the_test_reads_another_value(tmp_path: Path) -> None:
    found = _found(tmp_path)
    for line in (27, 33, 39, 47):  # handler, ``while``, ``for``, a return before
        assert not any("implementation of" in s for s in found[line]), found[line]
