"""Fixes a raise's own shape states, where errdex said "found no fix".

Mirrors CPython 3.11: ``codecs.StreamRecoder.__reduce_ex__`` and ``_pyio.FileIO
.__getstate__`` raise ``TypeError`` on every call (checked: ``pickle.dumps``,
``copy.copy`` and ``copy.deepcopy`` of an instance all raise it); ``threading.Thread
.start`` raises ``RuntimeError("thread.__init__() not called")`` when ``not
self._initialized``; ``idlelib``'s ``setrecursionlimit(*args, **kwargs)`` refuses
keywords; ``asyncio.StreamReader.feed_data`` asserts ``not self._eof``, "feed_data after
feed_eof". The near misses keep "errdex found no fix": a refusal under a condition (the
object may pickle in another state), another class's ``__init__``, an "after" that names
no call ("after end of stream"), a private method (``_release_save``).
"""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import ON_311, one_file_items, stdlib_items

SOURCE = """
class Recoder:
    def __reduce_ex__(self, proto):
        raise TypeError("can't serialize %s" % self.__class__.__name__)


class Handle:
    def __getstate__(self):
        if self.closed:
            raise TypeError("cannot pickle a closed handle")
        return {}


class Worker:
    def __init__(self):
        self._initialized = True
        self._eof = False

    def start(self):
        if not self._initialized:
            raise RuntimeError("worker.__init__() not called")

    def join(self):
        if not self._initialized:
            raise RuntimeError("Thread.__init__() not called")

    def feed_data(self, data):
        assert not self._eof, 'feed_data after feed_eof'

    def feed(self, data):
        if self._eof:
            raise ValueError("feed after end")


    def write(self, data):
        if not self.status:
            raise AssertionError("write() before start_response()")

    def _release_save(self):
        if self._owner is None:
            raise RuntimeError("cannot release un-acquired lock")


class RLock:
    def release(self):
        if self._owner != get_ident():
            raise RuntimeError("cannot release un-acquired lock")


def bind(sig, kwargs):
    for name in kwargs:
        if sig.kind(name) == 0:
            raise TypeError('{arg!r} parameter is positional only, '
                            'but was passed as a keyword'.format(arg=name))


def setlimit(*args, **kwargs):
    if kwargs:
        raise TypeError("setlimit() takes no keyword arguments")
    return args
"""


def _solutions(tmp_path: Path) -> dict[str, list[str]]:
    return {r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_a_class_that_refuses_pickling_on_every_call(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    (text,) = found["can't serialize %s"]
    assert text.startswith("Objects of `Recoder` cannot be pickled or copied:")
    assert "`pickle.dumps`, `copy.copy` and `copy.deepcopy` call it" in text
    # a refusal under a condition says nothing of every object
    assert not found["cannot pickle a closed handle"][0].startswith("Objects of")


def test_the_base_init_the_message_names(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    (text,) = found["worker.__init__() not called"]
    assert text.startswith(
        "A subclass of `Worker` that defines its own `__init__` must call `Worker.__init__()`"
    )
    # another class's __init__ is not the object's own
    assert "must call" not in found["Thread.__init__() not called"][0]


def test_keyword_arguments_refused(tmp_path: Path) -> None:
    (text,) = _solutions(tmp_path)["setlimit() takes no keyword arguments"]
    assert text == (
        "Pass the arguments of `setlimit()` by position, with no `name=value` argument: it "
        "raises `TypeError` when any keyword argument is passed."
    )


def test_a_call_after_the_call_that_ends_it(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    (text,) = found["feed_data after feed_eof"]
    assert text.startswith("Do not call `Worker.feed_data()` after `Worker.feed_eof()`")
    assert NO_FIX not in found["feed_data after feed_eof"]
    # an "after" that names no call
    assert not found["feed after end"][0].startswith("Do not call")


def test_a_call_before_the_call_that_starts_it(tmp_path: Path) -> None:
    (text,) = _solutions(tmp_path)["write() before start_response()"]
    assert text.startswith("Call `start_response()` before `Worker.write()`")


def test_a_lock_released_by_a_thread_that_does_not_hold_it(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "m.py", SOURCE)
    found = {r["lineNumber"]: r["solutions"] for r, _ in items}
    by_message = [r for r, _ in items if r["errorMessage"] == "cannot release un-acquired lock"]
    public, private = sorted(by_message, key=lambda r: "_release_save" in r["documentation"])
    assert found[public["lineNumber"]][0].startswith(
        "Call `RLock.release()` only while the calling thread holds the lock"
    )
    assert not found[private["lineNumber"]][0].startswith("Call `")  # no call of the caller's


def test_a_positional_only_parameter_passed_as_a_keyword(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    (text,) = next(v for k, v in found.items() if "positional only" in k)
    assert text.startswith("Pass the parameter the message names by position")


MISSING = """
class Loop:
    def create_server(self, factory, host=None, sock=None):
        if host is None and sock is None:
            raise ValueError('an address is needed')
"""


@ON_311
def test_every_argument_the_message_says_was_not_given(tmp_path: Path) -> None:
    """``_UnixSelectorEventLoop.create_unix_server``: ``if path is not None:`` binds
    ``path = os.fspath(path)``, its ``else`` raises when ``sock is None`` too; the class
    is private, so the call is said as the caller writes it on a loop."""
    (real,) = [r for r, _ in stdlib_items("asyncio/unix_events.py") if r["lineNumber"] == 332]
    assert real["solutions"] == [
        "Pass `path` or `sock` to `create_unix_server()` (not None): it raises `ValueError` "
        "when neither `path` nor `sock` is given, the case the message names."
    ]
    found = {
        r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", MISSING)
    }
    assert not found["an address is needed"][0].startswith("Pass `host` or")  # names neither


def test_a_lock_check_the_caller_repeats_is_left_to_own_state(tmp_path: Path) -> None:
    """``asyncio.Condition.wait`` tests ``not self.locked()``: a task, not a thread, holds
    it, and the caller can test ``locked()`` itself (:mod:`errdex.analyze.own_state`)."""
    source = (
        "class Condition:\n"
        "    def locked(self):\n"
        "        return False\n\n"
        "    def wait(self):\n"
        "        if not self.locked():\n"
        "            raise RuntimeError('cannot wait on un-acquired lock')\n\n"
        "    def notify(self):\n"
        "        if not self._is_owned():\n"
        "            raise RuntimeError('cannot notify on un-acquired lock')\n"
    )
    found = {r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", source)}
    assert found["cannot wait on un-acquired lock"][0].startswith(
        "Call `Condition.wait()` only when `obj.locked()` holds"
    )
    assert found["cannot notify on un-acquired lock"][0].startswith(
        "Call `Condition.notify()` only while the calling thread holds the lock"
    )


NONE_NODES = """
class Graph:
    def __init__(self):
        self._node = {}

    def add_edge(self, u, v):
        if u not in self._node:
            if u is None:
                raise ValueError("None cannot be a node")
            self._node[u] = {}

    def add_weight(self, w):
        if w not in self._node:
            if w == 0:
                raise ValueError("None cannot be a weight")
"""


def test_none_where_the_message_says_it_cannot_be(tmp_path: Path) -> None:
    """networkx's ``Graph.add_edge`` (checked: ``add_edge(None, 1)``, ``add_nodes_from([1,
    None])`` raise "None cannot be a node"); a condition that is no ``is None`` test is
    not the case the message names."""
    items = one_file_items(tmp_path, "m.py", NONE_NODES)
    found = {r["errorMessage"]: r["solutions"] for r, _ in items}
    assert found["None cannot be a node"] == [
        "Use a value other than `None` for every node given to `Graph.add_edge()`: `None` "
        "cannot be a node, and it raises `ValueError` when `u is None`."
    ]
    assert not found["None cannot be a weight"][0].startswith("Use a value other than")
