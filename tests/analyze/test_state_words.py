"""commonSituations says what the object a method runs on was like, where its lines say
it exactly, not only the call (paired blind review, stop 38: "It comes from a call of
Mailbox.popitem()" restated the entry point; the situation is an empty mailbox)."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Box:
    def __init__(self, items):
        self._items = dict(items)
        self._conn = object()
        self.children = []

    def keys(self):
        return list(self._items)

    def popitem(self):
        for key in self.keys():
            return key, self._items.pop(key)
        else:
            raise KeyError('No messages in box')

    def close(self):
        conn = self._conn
        if conn is not None:
            self._conn = None

    def accept(self):
        if self._conn is None:
            raise OSError('box is closed')
        return self._conn

    def replace(self, new, old):
        try:
            index = self.children.index(old)
        except ValueError:
            raise LookupError()
        self.children[index] = new


class Lazy:
    def __init__(self):
        self._conn = None

    def open(self):
        self._conn = object()

    def close(self):
        self._conn = None

    def send(self):
        if self._conn is None:
            raise OSError('lazy box not open')

    def first(self):
        for key in self.keys():
            if key:
                continue
            return key
        else:
            raise KeyError('no first key in lazy box')

    def keys(self):
        return []


class Writer:
    def __init__(self):
        self.initfp()

    def initfp(self):
        self._nchannels = 0
        self._written = 0

    def setnchannels(self, n):
        if self._written:
            raise ValueError('cannot change parameters after starting to write')
        self._nchannels = n

    def writeframes(self, data):
        self._written = self._written + len(data)

    def getnchannels(self):
        if not self._nchannels:
            raise ValueError('number of channels not set')
        return self._nchannels


class Server:
    def __init__(self):
        self._fut = None

    def serve(self):
        if self._fut is not None:
            raise RuntimeError('server is already serving')
        self._fut = object()
        try:
            pass
        finally:
            self._fut = None


def make_and_send():
    Lazy().send()
"""


@pytest.fixture(scope="module")
def situations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("state")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}


def test_a_loop_that_returns_on_its_first_round(situations: dict[str, str]) -> None:
    assert situations["'No messages in box'"] == (
        "It comes from a call of `Box.popitem()` on an empty `Box` (one that holds no items)."
    )
    # a ``continue`` before the ``return``: a later round may return, so not "empty"
    assert "empty" not in situations["'no first key in lazy box'"]


def test_an_attribute_a_public_method_sets_to_none(situations: dict[str, str]) -> None:
    assert situations["box is closed"] == (
        "It comes from a call of `Box.accept()` after `close()` was called on the same object."
    )
    # ``Lazy`` starts with ``None`` (``open()`` sets it): not "after `close()`"; and
    # ``make_and_send`` makes its own object, no call on the caller's
    assert "after" not in situations["lazy box not open"]


def test_an_argument_not_found_in_the_objects_list(situations: dict[str, str]) -> None:
    assert situations["LookupError (no message)"] == (
        "It comes from a call of `Box.replace()` that passes an `old` that is not in its"
        " `children`."
    )


def test_what_public_methods_store_after_init(situations: dict[str, str]) -> None:
    """``initfp`` (run by ``__init__``) leaves ``0``; only ``setnchannels`` stores another
    value. ``writeframes`` stores ``_written + len(data)``, no literal: ``writeframes(b'')``
    leaves it ``0``, so "after `writeframes()`" is not said (review rr1 of b46)."""
    assert situations["number of channels not set"] == (
        "It comes from a call of `Writer.getnchannels()` before `setnchannels()` was called on"
        " the same object."
    )
    assert situations["cannot change parameters after starting to write"] == (
        "It comes from a call of `Writer.setnchannels()`."
    )
    # ``serve`` sets ``_fut`` and empties it in ``finally``: only while it runs
    assert "after" not in situations["server is already serving"]
