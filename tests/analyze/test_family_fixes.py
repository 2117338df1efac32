"""Message families that name their fix (issue 10; blind reviews of stops 35-37).

Mirrors CPython 3.11, checked by running it: a ``@contextmanager`` generator that does
not yield raises ``RuntimeError("generator didn't yield")`` on entering the ``with``
block, one that yields twice "generator didn't stop", one that catches the block's
exception and yields again "generator didn't stop after throw()"; ``Thread.start``
twice raises "threads can only be started once"; ``Process.daemon = True`` after
``start()`` fails the assertion "process has already started";
``add_argument('--f', nargs=2, metavar=('a',))`` raises "length of metavar tuple does
not match nargs" and ``metavar=('a', 'b')`` does not.
"""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
class _GeneratorContextManager:
    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            else:
                raise RuntimeError("generator didn't stop")
        raise RuntimeError("generator didn't stop after throw()")


class _AsyncGeneratorContextManager:
    async def __aenter__(self):
        try:
            return await anext(self.gen)
        except StopAsyncIteration:
            raise RuntimeError("generator didn't yield") from None


class Worker:
    def __init__(self):
        self._started = False
        self._popen = None

    def start(self):
        if self._started:
            raise RuntimeError("threads can only be started once")
        self._started = True

    @property
    def daemon(self):
        return False

    @daemon.setter
    def daemon(self, value):
        assert self._popen is None, 'process has already started'

    def get_server(self):
        if self._started:
            raise RuntimeError("Already started server")

    def stop(self):
        if self._started:
            raise RuntimeError("worker stopped")


def localcontext(**kwargs):
    for key, value in kwargs.items():
        if key not in ('prec', 'rounding'):
            raise TypeError(f"'{key}' is an invalid keyword argument for this function")


def setup(**kwargs):
    if kwargs:
        raise TypeError("an invalid keyword argument for setup")


def getcallargs(func, **named):
    for kw in named:
        raise TypeError("%s() got an unexpected keyword argument %r" % (func.__name__, kw))


class Base:
    def __new__(cls, *args):
        assert cls is not Base, "Cannot instantiate Base"
        return object.__new__(cls)


class Other:
    def __new__(cls, *args):
        assert cls is not Base, "Cannot instantiate Base"
        return object.__new__(cls)


def add_argument(metavar=None, nargs=None):
    try:
        format_args(metavar, nargs)
    except TypeError:
        raise ValueError("length of metavar tuple does not match nargs")
"""


def _solutions(tmp_path: Path) -> dict[tuple[str | None, int], list[str]]:
    return {
        (r["errorMessage"], r["lineNumber"]): r["solutions"]
        for r, _ in one_file_items(tmp_path, "m.py", SOURCE)
    }


def _by_message(tmp_path: Path) -> dict[str | None, list[list[str]]]:
    out: dict[str | None, list[list[str]]] = {}
    for (message, _), solutions in sorted(_solutions(tmp_path).items(), key=lambda x: x[0][1]):
        out.setdefault(message, []).append(solutions)
    return out


def test_a_context_manager_generator_that_yields_no_value_or_two(tmp_path: Path) -> None:
    found = _by_message(tmp_path)
    sync, not_async = found["generator didn't yield"]
    assert sync[0].startswith(
        "Make the generator function the context manager runs (the one decorated with "
        "`@contextmanager`) yield exactly once on every path: entering the `with` block "
        "raises `RuntimeError` when the generator finishes without yielding"
    )
    assert "`@asynccontextmanager`" in not_async[0] and "`async with` block" in not_async[0]
    (stop,) = found["generator didn't stop"]
    assert "when the generator yields again after the block" in stop[0]
    (throw,) = found["generator didn't stop after throw()"]
    assert "caught the exception at its `yield` and yielded again" in throw[0]


def test_an_object_started_once(tmp_path: Path) -> None:
    found = _by_message(tmp_path)
    assert found["threads can only be started once"][0][0].startswith(
        "Call `Worker.start()` once per object: a second call raises `RuntimeError`"
    )
    assert found["process has already started"][0][0].startswith(
        "Set `Worker.daemon` before calling `Worker.start()`, not after"
    )
    assert found["Already started server"][0][0].startswith(
        "Call `Worker.get_server()` only on an object whose `start()` has not been called"
    )
    assert "start()" not in found["worker stopped"][0][0]  # names no start


def test_an_invalid_keyword_the_message_shows(tmp_path: Path) -> None:
    found = _by_message(tmp_path)
    (shown,) = next(v for k, v in found.items() if k and k.endswith("for this function"))
    assert shown[0].startswith("Remove the keyword argument the message names")
    # the keyword is not shown: nothing says which to remove
    assert not found["an invalid keyword argument for setup"][0][0].startswith("Remove")


def test_a_tuple_whose_length_must_match_another_parameter(tmp_path: Path) -> None:
    (solutions,) = _by_message(tmp_path)["length of metavar tuple does not match nargs"]
    assert solutions[0] == (
        "Pass `metavar` as a tuple with one item for each value `nargs` asks for "
        "(`nargs=2, metavar=('A', 'B')`); a tuple of another length raises `ValueError`."
    )


def test_a_base_class_that_refuses_to_be_made(tmp_path: Path) -> None:
    base, other = _by_message(tmp_path)["Cannot instantiate Base"]
    assert base[0] == (
        "Make an instance of a subclass of `Base`, not of `Base` itself: `Base.__new__` fails "
        "its assertion with `AssertionError` only when the class being made is `Base`."
    )
    assert not other[0].startswith("Make an instance")  # another class's name


def test_an_unexpected_keyword_the_message_shows(tmp_path: Path) -> None:
    found = _by_message(tmp_path)
    (shown,) = found["%s() got an unexpected keyword argument %r"]
    assert shown[0].startswith("Remove the keyword argument the message names")


STARTERS = """
class Manager:
    def __init__(self):
        self._state = State()

    def get_server(self):
        if self._state.value == 1:
            raise RuntimeError("Already started server")
        return 3

    def connect(self):
        self._state.value = 1

    def start(self):
        if self._state.value == 1:
            raise RuntimeError("Already started server")
        self._state.value = 1


class SharedManager(Manager):
    def get_server(self):
        if self._state.value == 1:
            raise RuntimeError("Already started shared server")
        return 4


class Server:
    def __init__(self):
        self._running = False

    def serve(self):
        if self._running:
            raise RuntimeError("server already started")
        self._running = True
"""


def test_started_names_every_method_that_starts_and_needs_a_start(tmp_path: Path) -> None:
    """``connect()`` records the object as started too (``BaseManager``); a class with
    no ``start()`` gets no "whose start() has not been called" (re-reader rr3)."""
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", STARTERS)}
    assert found[8][0].startswith(
        "Call `Manager.get_server()` only on an object whose `start()` (or `connect()`) has "
        "not been called"
    )
    assert found[16][0].startswith(
        "Call `Manager.start()` once per object, and not on one already started by "
        "`Manager.connect()`"
    )
    assert "a second call" not in found[16][0]
    assert not any("start()" in text for text in found[33])
    # ``start()`` and ``connect()`` come from the base class in the same module
    assert found[23][0].startswith(
        "Call `SharedManager.get_server()` only on an object whose `start()` (or `connect()`)"
    )


KEYWORDS = """
def call(name, **kwargs):
    if kwargs:
        raise TypeError("%s() got an unexpected keyword argument" % name)


class Option:
    def __init__(self, multiple=False, **attrs):
        if "count" in attrs and multiple:
            raise TypeError("__init__() got an unexpected keyword argument 'multiple'.")
"""


def test_the_keyword_is_the_hole_where_its_name_goes(tmp_path: Path) -> None:
    """``%s()`` is the function's name, not the keyword; click writes the keyword out."""
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", KEYWORDS)}
    assert not any(text.startswith("Remove the keyword") for text in found[4])
    assert found[10][0].startswith(
        "Remove the keyword argument `multiple`, or correct its spelling"
    )
