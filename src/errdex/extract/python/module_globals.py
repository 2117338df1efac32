"""Whether a module-level name a function reads holds what the walk saw bound to it.

The walk knows a module's top-level bindings as far as it has read when it walks a
function; the function runs later, when the module is done. ``KIND = "fancy"`` after
the ``def``, ``global KIND`` in another function, ``mod.KIND = …`` elsewhere in the
package: each makes the value the walk saw one the function may not read, so the name
stays a hole in the template instead of the text it held (issue 10).
"""

from __future__ import annotations

import re

from .module import ModuleReader
from .read_views import STORES
from .scope import Scope
from .text_facts import package_facts

__all__ = ["settled_global"]

_GLOBAL = re.compile(r"^[ \t]*global[ \t]+([\w \t,]+)", re.MULTILINE)


def settled_global(reader: ModuleReader, name: str, scope: Scope) -> bool:
    """Whether ``name``, read in the function ``scope`` runs, is bound at the module's
    top level only before that function, never declared ``global`` in a function, and
    never stored as an attribute in the package (``mod.NAME = …``)."""
    fn = scope.node
    if fn is None:
        return True  # module or class body code: it runs where the walk reads it
    if any(line > fn.lineno for line in reader.binding_lines.get(name, ())):
        return False
    declared: set[str] | None = reader.__dict__.get("_declared_global")
    if declared is None:
        declared = {
            n.strip() for m in _GLOBAL.finditer(reader.source) for n in m.group(1).split(",")
        }
        reader.__dict__["_declared_global"] = declared
    return name not in declared and not package_facts(reader, STORES).stores.get(name)
