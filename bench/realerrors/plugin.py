"""pytest plugin for the real-error benchmarks: errdex's harvest plugin plus the traceback text.

``collect.py`` copies errdex's own plugin (``errdex/analyze/harvest/plugin.py``, stdlib and
pytest only) into the library's virtualenv as ``errdex_harvest_base`` and this file as
``realerrors_plugin``; the suite runs with ``-p realerrors_plugin``. Every capture the base
writes gains ``traceback_text``: the exception formatted exactly as Python prints it
(chained causes included), taken from the live exception when it was caught.
"""

from __future__ import annotations

import traceback
from typing import Any

import errdex_harvest_base as base  # type: ignore[import-not-found]

_original_capture = base._capture
_original_write = base._write
_current: list[BaseException] = []


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
    _original_write(entry)


base._capture = _capture
base._write = _write

pytest_addoption = base.pytest_addoption
pytest_configure = base.pytest_configure
pytest_runtest_logstart = base.pytest_runtest_logstart
pytest_runtest_logfinish = base.pytest_runtest_logfinish
pytest_runtest_logreport = base.pytest_runtest_logreport
pytest_collectreport = base.pytest_collectreport
pytest_sessionfinish = base.pytest_sessionfinish
pytest_unconfigure = base.pytest_unconfigure
