"""A context manager's protocol and "no active input()" (run on CPython 3.11:
``ExitStack().enter_context(an_async_cm)`` raises "'contextlib._AsyncGeneratorContext
Manager' object does not support the context manager protocol";
``fileinput.filename()`` before ``fileinput.input()`` raises "no active input()")."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
_state = None


def input(files=None):
    global _state
    _state = object()
    return _state


def filename():
    if not _state:
        raise RuntimeError("no active input()")
    return 'f'


def lineno(state):
    if not state:
        raise RuntimeError("no active input()")


def finish():
    if not _state:
        raise RuntimeError("no active setup()")


class ExitStack:
    def enter_context(self, cm):
        cls = type(cm)
        try:
            _enter = cls.__enter__
        except AttributeError:
            raise TypeError(f"'{cls.__module__}.{cls.__qualname__}' object does "
                            f"not support the context manager protocol") from None
        return _enter(cm)

    async def enter_async_context(self, cm):
        cls = type(cm)
        try:
            _enter = cls.__aenter__
        except AttributeError:
            raise TypeError(f"'{cls.__module__}.{cls.__qualname__}' object does "
                            f"not support the asynchronous context manager protocol") from None
        return await _enter(cm)
"""


def _found(tmp_path: Path) -> dict[int, list[str]]:
    return {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_the_call_the_message_says_is_not_active(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert found[13][0] == (
        "Call `m.input()` before `m.filename()`: it raises `RuntimeError` while no `input()` "
        "is active, as the message says."
    )
    assert not found[19][0].startswith("Call `m.input()`")  # it tests its argument
    assert not found[24][0].startswith("Call `m.setup()`")  # the module has no setup()


def test_an_object_that_is_no_context_manager(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert found[33][0].startswith(
        "Pass an object whose class defines `__enter__` and `__exit__` (what a `with` statement takes)"
    )
    assert found[42][0].startswith(
        "Pass an object whose class defines `__aenter__` and `__aexit__` (what an `async with` "
    )


OWN_ENTER = """
class Wrapper:
    def __init__(self, f):
        self._f = f
        self._closed = False

    def __enter__(self):
        if self._closed:
            raise TypeError("'Wrapper' object does not support the context manager protocol")
        return self
"""


def test_a_class_refusing_its_own_with_is_not_the_object_passed(tmp_path: Path) -> None:
    """The message names the class itself, not an object a caller passed (re-reader rr3)."""
    (record,) = [r for r, _ in one_file_items(tmp_path, "m.py", OWN_ENTER)]
    assert not any(text.startswith("Pass an object whose class") for text in record["solutions"])
