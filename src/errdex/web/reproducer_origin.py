"""Where a record's reproducer came from, as the page says it: cut from a test, or built
by errdex (a test's call with a guard made true, or errdex's plain call of the function).

A built call is no test's code: "Cut from `tests/x.py::t (x=-1 makes x < 0 true)`" read
as if the test held ``x=-1``. Verify stores how it built the call in
``evidence.reproducer.built``; the page names the test only for a call cut from one.
"""

from __future__ import annotations

from typing import Any

__all__ = ["UNGUARDED", "origin"]

#: how a built call for a raise under no condition names itself (from_methods, from_guards)
UNGUARDED = ("(the raise has no condition)", "up to the raise that has no condition")


def origin(reproducer: dict[str, Any]) -> tuple[str, str] | None:
    """(the words, the code they name) for the page's line under the snippet, or None:
    ``Cut from`` a test, ``Built by errdex from the guard:`` or ``Built by errdex:``."""
    built = str(reproducer.get("built") or "")
    if built:
        if any(said in built for said in UNGUARDED):
            return "Built by errdex:", built
        return "Built by errdex from the guard:", built
    test = str(reproducer.get("test") or "")
    return ("Cut from", test) if test else None
