"""Whether a test may run a raise of a ``_py`` twin module: the pure-Python copy of a C
module (``_pyio`` of ``_io``, ``_pydecimal`` of ``_decimal``, ``_py_abc`` of ``_abc``)
that the public module does not import where the C one is built.

A message such a copy shares with its C twin fits the copy's raise, but a test that
never imports the copy runs the C code: ``test_socket``'s ``socket.socket(fileno=-1)``
and ``test_winconsoleio``'s ``_WindowsConsoleIO`` were linked to ``_pyio``'s FileIO
"negative file descriptor" (blind review 2026-12-06, stop 36). A test links to such a
raise only where its module imports the copy (or a name from it) or a run of it blocks
the C module (:class:`.twin_tests.TwinRuns`: ``import_fresh_module(..., blocked=[...])``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .facts import Expect
from .shadows import interpreter_module

if TYPE_CHECKING:
    from .repo import RepoIndex
    from .sites import SiteView
    from .twin_tests import TwinRuns

__all__ = ["imports_module", "python_twin", "python_twin_runs"]

_PY_NAME = re.compile(r"_py_?(?P<stem>[A-Za-z]\w*)")


def python_twin(index: RepoIndex, module: str) -> str | None:
    """The C module ``module`` is the Python copy of (``_pyio`` -> ``_io``), when that
    is built into this interpreter or stands beside it; None for any other module
    (``_pylong`` has no ``_long``)."""
    parent, _, last = module.rpartition(".")
    found = _PY_NAME.fullmatch(last)
    if found is None:
        return None
    twin = f"{parent}._{found['stem']}" if parent else f"_{found['stem']}"
    return twin if twin in index.modules or interpreter_module(twin) else None


def imports_module(index: RepoIndex, expect: Expect, module: str) -> bool:
    """Whether the test's module imports ``module`` or a name from it."""
    facts = index.modules.get(expect.module)
    if facts is None:
        return False
    prefix = module + "."
    return any(v == module or v.startswith(prefix) for v in facts.imports.values())


def python_twin_runs(index: RepoIndex, twins: TwinRuns, expect: Expect, site: SiteView) -> bool:
    """False when the site is in a ``_py`` copy the test neither imports nor runs with
    its C twin blocked."""
    twin = python_twin(index, site.module)
    return (
        twin is None or imports_module(index, expect, site.module) or twin in twins.blocked(expect)
    )
