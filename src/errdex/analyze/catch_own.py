"""Which call a last-resort catch goes around when the raising function is itself a
public call, and how a caller writes that call's use.

The raising function's own entry may be a public heir's (``IPv4Network.address_exclude``
runs ``_BaseNetwork.address_exclude``, ``entryPoints[].inheritedFrom``): matched by
qualname alone it was missed, and an outer call that never reaches the raise was named
(review rr1: "around the call to `IPv4Network.address_exclude()`" for ``subnets()``'s
raise, which that call runs with defaults on a non-/32 only). A generator's or
coroutine's call raises nothing (:mod:`.lazy_calls`); a property's getter, setter and
deleter run on ``obj.x``, ``obj.x = …`` and ``del obj.x``, not on a call. A raise in
``if __name__ == "__main__":`` runs only when the file is the program, never on import.
"""

from __future__ import annotations

import ast

from errdex.evidence import EntryPoint

from .entrypoints import run_by_syntax
from .facts import FuncFacts
from .file_trees import module_tree
from .gathered import Gathered
from .guards import code
from .lazy_calls import lazy_place
from .own_state import is_attribute
from .param_requirement import call_name
from .script_mains import main_block

__all__ = ["attribute_place", "in_main_block", "own_entry", "own_place"]


def own_entry(g: Gathered) -> tuple[EntryPoint, FuncFacts] | None:
    """The raising function's own depth-0 entry (its own name, or a public heir's that
    inherits it) with the function as the caller's call runs it; None where it is no
    call a caller writes by name (``__getitem__``, not ``__init__``), or a program's
    main, which reads ``sys.argv`` rather than what a caller passes."""
    func = g.func
    if func is None or (func.name.startswith("__") and func.name not in ("__init__", "__new__")):
        return None
    if func.command_line is not None:
        return None
    for entry in g.entry_points:
        if entry.get("depth", 0) != 0 or run_by_syntax(entry["qualname"]):
            continue
        if entry["qualname"] == func.qualname:
            return entry, func
        if entry.get("inheritedFrom") == func.qualname:
            heir = g.entry_funcs.get(entry["qualname"])
            if heir is not None and heir.cls is not None:
                return entry, heir
    return None


def own_place(g: Gathered, entry: EntryPoint, func: FuncFacts) -> str:
    """The handler's place for the raising function's own call: around the call, or
    around the iteration or ``await`` of its result (with its leading space)."""
    said = code(call_name(entry["qualname"], func))
    return lazy_place(g, entry, said) or f" around the call to {said}"


def attribute_place(func: FuncFacts) -> str | None:
    """Where a property's getter, setter or deleter runs, with its leading space: the
    read, the assignment or the ``del`` of ``C.x``; None for a method a caller calls."""
    if func.cls is None:
        return None
    attr = code(func.cls.rpartition(".")[2] + "." + func.name)
    roles = {ref[-1] for ref in func.decorators if ref}
    if "setter" in roles:
        return f" around the assignment to {attr}"
    if "deleter" in roles:
        return f" around the deletion of {attr} (`del obj.{func.name}`)"
    if is_attribute(func):
        return f" around the read of {attr}"
    return None


def in_main_block(g: Gathered) -> bool:
    """The raise is in top-level code under ``if __name__ == "__main__":``: it runs when
    the file is the program, and no import reaches it."""
    if g.site.function is not None or not g.source_file:
        return False
    tree = module_tree(g.source_file)
    if tree is None:
        return False
    line = g.site.line
    return any(
        isinstance(stmt, ast.If)
        and main_block(stmt.test)
        and stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno)
        for stmt in tree.body
    )
