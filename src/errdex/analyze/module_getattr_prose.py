"""documentation, triggerScenarios and commonSituations for the ``AttributeError`` a
module's own ``__getattr__`` (PEP 562) raises for names it does not supply.

Said as the guard, ``name != 'Quoter'`` read as if any name but ``Quoter`` raised, and "a
call of ``__getattr__()``" named a call nobody writes (stop 39's blind review, three
statements misleading on ``urllib.parse``): Python runs the function only for a name the
module does not define, so ``urllib.parse.quote`` never reaches it.
"""

from __future__ import annotations

from .gathered import Gathered, class_phrase, location
from .guards import code
from .module_getattr import listed, supplied_names

__all__ = ["module_getattr_prose"]

#: A field's text and the evidence keys it rests on.
Field = tuple[str, list[str]]


def module_getattr_prose(g: Gathered) -> dict[str, Field] | None:
    """The three fields for a public module's ``__getattr__`` raise; None elsewhere."""
    supplied = supplied_names(g)
    if supplied is None:
        return None
    module = code(g.site.module)
    reads = f"{code(f'{g.site.module}.x')} or {code(f'from {g.site.module} import x')}"
    other = f", other than {listed([code(n) for n in supplied])}" if supplied else ""
    gives = f"It supplies {listed([code(n) for n in supplied])} and" if supplied else "It"
    basis = ["site.function", "sourceCode"]
    where = location(g.site.path, g.site.line)
    return {
        "documentation": (
            f"{code(g.site.qualname)} is the module's own `__getattr__`: Python runs it only "
            f"when code reads a name {module} does not define ({reads}). {gives} raises "
            f"{class_phrase(g)} at {where} for any other name.",
            basis,
        ),
        "triggerScenarios": (
            f"Triggered when code reads a name {module} does not define{other}.",
            basis,
        ),
        "commonSituations": (
            f"It comes from reading a name {module} does not have ({reads}): a misspelt "
            "name, a name another module defines, or one this version of the module lacks.",
            basis,
        ),
    }
