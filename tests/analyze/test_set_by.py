""" "after `X()` was called" / "before …" only where the stores make it true (review rr1 of
b46: ``configure(debug)``, ``if self._ready:``, a setter, a swallowed failure, an earlier
raise each made a false sentence)."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Listener:
    def __init__(self):
        self._listener = object()
        self._closed = False

    def accept(self):
        if self._closed:
            raise OSError('listener is closed already')
        if self._listener is None:
            raise OSError('listener has no socket any more')
        return self._listener

    def close(self):
        self._closed = True
        self._listener = None


class Flags:
    def __init__(self):
        self._debug = False

    def configure(self, debug):
        self._debug = debug

    def run(self):
        if self._debug:
            raise RuntimeError('cannot run in debug mode')


class Starter:
    def __init__(self, ready=False):
        self._ready = ready
        self._started = False

    def start(self):
        if self._ready:
            self._started = True

    def again(self):
        if self._started:
            raise RuntimeError('already started')


class Latch:
    def __init__(self):
        self._on = False

    def set(self):
        self._on = True

    def check(self):
        if self._on:
            raise RuntimeError('latch is on')


class Prop:
    def __init__(self):
        self._name = None

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    def greet(self):
        if self._name is None:
            raise ValueError('no name has been set')
        return self._name


class Sock:
    def __init__(self):
        self.sock = object()

    def close(self):
        try:
            self.sock.close()
            self.sock = None
        except AttributeError:
            pass

    def send(self):
        if self.sock is None:
            raise OSError('socket is closed for sending')


class Pipe:
    def __init__(self, fd=None):
        if fd is None:
            self._fd = 0
        else:
            self._fd = fd

    def close(self):
        self._fd = None

    def read(self):
        if self._fd is None:
            raise OSError('pipe is closed')


class Chunk:
    def __init__(self):
        self.closed = False
        self._parsing = False

    def close(self):
        if not self.closed:
            try:
                self.skip()
            finally:
                self.closed = True

    def skip(self):
        pass

    def feed(self):
        if not self._parsing:
            self._parsing = True

    def tell(self):
        if self.closed:
            raise ValueError('I/O operation on closed chunk')

    def set_feature(self):
        if self._parsing:
            raise RuntimeError('cannot set features while parsing')


class Node:
    def __init__(self):
        self.childNodes = []

    def removeChild(self, oldChild):
        oldChild = getattr(oldChild, 'target', oldChild)
        try:
            i = self.childNodes.index(oldChild)
        except ValueError:
            raise ValueError('not a child of this node')
        del self.childNodes[i]
"""


@pytest.fixture(scope="module")
def situations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("setby")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}


def test_an_earlier_raise_that_fires_after_the_same_call(situations: dict[str, str]) -> None:
    """``close()`` sets ``_closed`` too: the first raise fires, never the second."""
    assert situations["listener is closed already"] == (
        "It comes from a call of `Listener.accept()` after `close()` was called on the same object."
    )
    assert "close()" not in situations["listener has no socket any more"]


def test_a_stored_value_that_is_no_literal(situations: dict[str, str]) -> None:
    """``configure(False)`` leaves ``_debug`` false; only ``set()`` stores ``True``."""
    assert "configure()" not in situations["cannot run in debug mode"]
    assert situations["latch is on"] == (
        "It comes from a call of `Latch.check()` after `set()` was called on the same object."
    )


def test_a_store_not_on_every_way(situations: dict[str, str]) -> None:
    assert "start()" not in situations["already started"]  # only ``if self._ready``


def test_a_store_past_a_call_whose_failure_is_swallowed(situations: dict[str, str]) -> None:
    assert "close()" not in situations["socket is closed for sending"]


def test_a_property_setter_is_no_call(situations: dict[str, str]) -> None:
    assert "name()" not in situations["no name has been set"]


def test_a_parameter_bound_again_before_the_try(situations: dict[str, str]) -> None:
    """``oldChild`` is its ``target`` by then, not what the caller passed."""
    assert "not in its" not in situations["not a child of this node"]


def test_a_start_of_a_literal_or_a_value_is_set_for_after(situations: dict[str, str]) -> None:
    """``close()`` stores ``None`` on every way: whatever ``__init__`` left, it raises."""
    assert situations["pipe is closed"] == (
        "It comes from a call of `Pipe.read()` after `close()` was called on the same object."
    )


def test_a_store_in_finally_or_past_a_test_of_itself(situations: dict[str, str]) -> None:
    """``finally: self.closed = True`` runs on every way; ``if not self._parsing:
    self._parsing = True`` leaves it true either way."""
    assert situations["I/O operation on closed chunk"] == (
        "It comes from a call of `Chunk.tell()` after `close()` was called on the same object."
    )
    assert situations["cannot set features while parsing"] == (
        "It comes from a call of `Chunk.set_feature()` after `feed()` was called on the same"
        " object."
    )
