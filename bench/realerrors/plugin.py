"""pytest plugin for the real-error benchmarks: errdex's harvest plugin plus the traceback text.

``collect.py`` copies errdex's own plugin (``errdex/analyze/harvest/plugin.py``, stdlib and
pytest only) into the library's virtualenv as ``errdex_harvest_base`` and this file as
``realerrors_plugin``; the suite runs with ``-p realerrors_plugin``. Every capture the base
writes gains ``traceback_text``: the exception formatted exactly as Python prints it
(chained causes included), taken from the live exception when it was caught.

With ``REALERRORS_ORIGINS=1`` (``collect.py`` sets it for the libraries in its
``TRACE_ORIGINS``) a trace function also notes, on each exception, the frame where it was
first raised (``sys.settrace``'s first ``exception`` event for that object), and each
capture gains ``origin``: ``[file, line, function]``. A library that rewrites tracebacks
before re-raising (jinja2's ``rewrite_traceback_stack``) prints none of the frames below its
re-raise; the origin is the raise the printed traceback no longer shows.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from types import FrameType
from typing import Any

import errdex_harvest_base as base  # type: ignore[import-not-found]

_original_capture = base._capture
_original_write = base._write
_current: list[BaseException] = []
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
                text = "".join(traceback.format_exception(value))
            except Exception:  # a broken __str__ must not break the suite
                text = ""
        entry["traceback_text"] = text
        origin = _origin(value) if entry.get("kind") == "exception" else None
        if origin is not None:
            entry["origin"] = origin
    _original_write(entry)


base._capture = _capture
base._write = _write

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
