"""Two more message families that name their fix, where errdex said "found no fix"
(issue 10):

- "``'m.C' object does not support the (asynchronous) context manager protocol``"
  (``ExitStack.enter_context``, ``TestCase.enterContext``): the object passed has no
  ``__enter__``/``__exit__`` (``__aenter__``/``__aexit__``); what a ``with`` (``async
  with``) statement takes is what to pass; only where the message is built from a
  parameter (:mod:`.flow_names`), not a class's own ``__enter__`` refusing;
- "``no active input()``" from a module's function under a test of the module's own
  state (``fileinput.filename``): the function the message names is to be called first.
"""

from __future__ import annotations

import re

from .flow_names import params_behind
from .gathered import Gathered, class_phrase
from .guards import CONDITION_KINDS, code, free_names
from .message_fixes import whole_message

__all__ = ["protocol_fix"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_PROTOCOL = re.compile(r"\bobject does not support the (asynchronous )?context manager protocol\b")
#: "no active input()".
_NO_ACTIVE = re.compile(r"^no active ([A-Za-z]\w*)\(\)\.?$")


def protocol_fix(g: Gathered) -> Remedy | None:
    """The first of the two families' fixes that fits the record, or None."""
    if g.func is None or g.site.kind != "raise" or g.site.template.is_opaque:
        return None
    return _context_fix(g) or _no_active_fix(g)


def _context_fix(g: Gathered) -> Remedy | None:
    found = _PROTOCOL.search(" ".join(g.site.template.display.split()))
    if found is None or g.site.error_class != "TypeError" or g.func is None:
        return None
    if not params_behind(g.source_file, g.func, g.site.line, "message"):
        return None  # the class named is not the passed object's (its own ``__enter__``)
    if found.group(1):
        methods, statement = "`__aenter__` and `__aexit__`", "an `async with`"
        other = "an object made only for a plain `with` has `__enter__`/`__exit__` instead"
    else:
        methods, statement = "`__enter__` and `__exit__`", "a `with`"
        other = "an object made only for `async with` has `__aenter__`/`__aexit__` instead"
    return (
        f"Pass an object whose class defines {methods} (what {statement} statement "
        f"takes): the message names the class of the object passed, which lacks them, and "
        f"the call raises {class_phrase(g)} for it; {other}, and does not fit.",
        ["site.template", "site.guards"],
    )


def _no_active_fix(g: Gathered) -> Remedy | None:
    func, message = g.func, whole_message(g)
    found = _NO_ACTIVE.match(message) if message else None
    if func is None or found is None or func.cls is not None or func.name.startswith("_"):
        return None
    starter = found.group(1)
    if starter == func.name or starter not in g.module_names:
        return None  # not a function of the module's that a caller calls
    globals_read = [
        name
        for guard in g.site.guards
        if guard["kind"] in CONDITION_KINDS
        for name in (free_names(str(guard["text"])) or set())
    ]
    if not globals_read or any(n in func.params for n in globals_read):
        return None  # the test reads an argument, not the module's own state
    module = g.site.module
    return (
        f"Call {code(f'{module}.{starter}()')} before {code(f'{module}.{func.name}()')}: "
        f"it raises {class_phrase(g)} while no {code(f'{starter}()')} is active, as the "
        "message says.",
        ["site.template", "site.guards"],
    )
