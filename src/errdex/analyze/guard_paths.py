"""Whether the conditions on the way to a raise test the value the caller passed, for a
fix that names a type to pass without a call to name (:mod:`.interface_types`), where
:func:`.code_fields.type_guard`'s checks are not run.

``try: memoryview(data) except TypeError: assert isinstance(data, str)`` is reached
only for what ``memoryview`` refuses, so "pass `data` as `str`" is false for ``bytes``,
which never gets there; in a ``while`` or ``for`` loop that binds ``data`` or ``item``
after the test, an earlier round's value is tested in the next (``for _ in range(2):
assert isinstance(item, str); item = 5`` fails for ``"x"``). A ``return`` between the
condition and the raise (:mod:`.returns_between`) leaves values of other types that
return first.
"""

from __future__ import annotations

from .gathered import Gathered
from .guards import CONDITION_KINDS
from .rebinding import rebound_before
from .returns_between import returns_before_raise

__all__ = ["reaches_unchanged"]


def reaches_unchanged(g: Gathered, subject: str) -> bool:
    """Every guard on the way is a condition (no loop, handler or ``case``), the body
    binds ``subject`` on no line before the raise that a path to it runs, and no
    ``return`` lies between the outermost condition and the raise."""
    guards = g.site.guards
    if g.func is None or any(x["kind"] not in CONDITION_KINDS for x in guards):
        return False
    if subject in rebound_before(g.func, g.site.line, guards):
        return False
    return not returns_before_raise(g)
