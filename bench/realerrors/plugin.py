"""pytest plugin for the real-error benchmarks: errdex's harvest plugin plus the traceback text.

``collect.py`` copies errdex's own plugin (``errdex/analyze/harvest/plugin.py``, stdlib and
pytest only) into the library's virtualenv as ``errdex_harvest_base`` and this file as
``realerrors_plugin``; the suite runs with ``-p realerrors_plugin``. Every capture the base
writes gains ``traceback_text``: the exception formatted exactly as Python prints it
(chained causes included), taken from the live exception when it was caught (for
``assertRaises``, which drops the traceback before the capture, from the traceback it was
handed: ``_keep_unittest_traceback``).

With ``REALERRORS_ORIGINS=1`` (``collect.py`` sets it for the libraries in its
``TRACE_ORIGINS``) a trace function also notes, on each exception, the frame where it was
first raised (``sys.settrace``'s first ``exception`` event for that object), and each
capture gains ``origin``: ``[file, line, function]``. A library that rewrites tracebacks
before re-raising (jinja2's ``rewrite_traceback_stack``) prints none of the frames below its
re-raise; the origin is the raise the printed traceback no longer shows.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import traceback
import unittest.case
from types import FrameType, TracebackType
from typing import Any

import errdex_harvest_base as base  # type: ignore[import-not-found]

_original_capture = base._capture
_original_write = base._write
_current: list[BaseException] = []
#: The last exception ``assertRaises`` was handed, with its traceback (see below).
_handed: list[tuple[BaseException | None, TracebackType | None]] = []
#: The attribute an exception's first raise is noted under (its ``__dict__``).
ORIGIN = "_realerrors_origin"


def _local(frame: FrameType, event: str, arg: Any) -> Any:
    if event == "exception":
        value = arg[1]
        try:
            found = vars(value)
        except TypeError:  # no __dict__
            return _local
        if ORIGIN not in found:
            code = frame.f_code
            found[ORIGIN] = [base._absolute(code.co_filename), frame.f_lineno, code.co_name]
    return _local


def _global(frame: FrameType, event: str, arg: Any) -> Any:
    if event != "call":
        return None
    frame.f_trace_lines = False  # only calls, returns and exceptions: no line events
    return _local


def _origin(value: BaseException) -> list[Any] | None:
    try:
        found = vars(value).get(ORIGIN)
    except TypeError:
        return None
    return list(found) if isinstance(found, list) else None


def _keep_unittest_traceback() -> None:
    """Note the traceback ``assertRaises`` is handed before it drops it.

    ``unittest``'s ``_AssertRaisesContext.__exit__`` stores the exception without its
    traceback (``exc_value.with_traceback(None)``) before the base plugin's wrapper runs,
    so ``__traceback__`` is gone by the time the capture is written. Wrapped here, under the
    base's wrapper (which ``install()`` puts on later), the traceback is kept beside the
    exception for :func:`_write`.
    """
    cls = unittest.case._AssertRaisesContext
    original = cls.__exit__
    if getattr(original, "_realerrors_wrapped", False):
        return

    @functools.wraps(original)
    def __exit__(self: Any, exc_type: Any, exc_value: Any, tb: TracebackType | None) -> Any:
        _handed[:] = [(exc_value, tb)]
        return original(self, exc_type, exc_value, tb)

    __exit__._realerrors_wrapped = True  # type: ignore[attr-defined]
    cls.__exit__ = __exit__  # type: ignore[method-assign]


def _traceback_of(value: BaseException) -> TracebackType | None:
    if value.__traceback__ is not None:
        return value.__traceback__
    for handed, tb in _handed:
        if handed is value:
            return tb
    return None


def _capture(**kwargs: Any) -> None:
    _current.append(kwargs["value"])
    try:
        _original_capture(**kwargs)
    finally:
        _current.pop()


def _write(entry: dict[str, Any]) -> None:
    if entry.get("type") == "capture" and _current:
        value = _current[-1]
        text = ""
        if entry.get("kind") == "exception":
            try:
                text = "".join(traceback.format_exception(type(value), value, _traceback_of(value)))
            except Exception:  # a broken __str__ must not break the suite
                text = ""
        entry["traceback_text"] = text
        origin = _origin(value) if entry.get("kind") == "exception" else None
        if origin is not None:
            entry["origin"] = origin
    _original_write(entry)


base._capture = _capture
base._write = _write
_keep_unittest_traceback()

pytest_addoption = base.pytest_addoption


def pytest_configure(config: Any) -> None:
    base.pytest_configure(config)
    if os.environ.get("REALERRORS_ORIGINS") == "1":
        threading.settrace(_global)
        sys.settrace(_global)


pytest_runtest_logstart = base.pytest_runtest_logstart
pytest_runtest_logfinish = base.pytest_runtest_logfinish
pytest_runtest_logreport = base.pytest_runtest_logreport
pytest_collectreport = base.pytest_collectreport
pytest_sessionfinish = base.pytest_sessionfinish
pytest_unconfigure = base.pytest_unconfigure
