"""Run one unittest module with the real-error plugin's captures on (``run_unittest.py``'s child).

    python unittest_child.py OUT MODULE

Runs in the interpreter under test with ``errdex_harvest_base`` and ``realerrors_plugin``
importable (``run_unittest.py`` puts copies of them on ``PYTHONPATH``; the base imports
pytest, so that interpreter needs pytest installed, though pytest does not run the tests).
The plugin's wrappers of ``assertRaises``/``assertRaisesRegex``/``assertWarns`` (context
and callable forms: the callable form runs through the same context manager) write each
expected exception to ``OUT``; ``TestCase.run`` is wrapped so each capture names its test.
With ``REALERRORS_RESOURCES`` set (a comma-separated list, empty for none) CPython's
``test.support.use_resources`` is set as regrtest sets it: tests needing another resource
(network, gui, cpu, largefile, …) skip themselves, as in a default ``python -m test`` run.
The last line written is a summary of the run.
"""

from __future__ import annotations

import importlib
import os
import sys
import unittest
from typing import Any

import realerrors_plugin


def _name_tests(base: Any) -> None:
    """Make every capture name the test that expected it (the plugin's ``_state.test``)."""
    original = unittest.TestCase.run

    def run(self: unittest.TestCase, result: Any = None) -> Any:
        previous = base._state.test
        base._state.test = self.id()
        try:
            return original(self, result)
        finally:
            base._state.test = previous

    unittest.TestCase.run = run  # type: ignore[method-assign]


def main() -> None:
    out, module = sys.argv[1], sys.argv[2]
    base = realerrors_plugin.base
    base._state.fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    base.install()
    _name_tests(base)
    resources = os.environ.get("REALERRORS_RESOURCES")
    if resources is not None:
        from test import support

        support.use_resources = [r for r in resources.split(",") if r]
    summary: dict[str, Any] = {"type": "summary", "module": module}
    try:
        suite = unittest.TestLoader().loadTestsFromModule(importlib.import_module(module))
    except unittest.SkipTest as skipped:
        summary["skipped_module"] = str(skipped)
    else:
        with open(os.devnull, "w") as stream:
            result = unittest.TextTestRunner(stream=stream, verbosity=0).run(suite)
        summary.update(
            testsRun=result.testsRun,
            failures=len(result.failures),
            errors=len(result.errors),
            skipped=len(result.skipped),
        )
    base._write(summary)
    os.close(base._state.fd)


if __name__ == "__main__":
    main()
