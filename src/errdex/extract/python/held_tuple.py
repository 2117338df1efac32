"""The class a raise calls out of a module-level tuple: ``raise error[0]("…")``.

``dbm`` binds ``class error(Exception)`` and then ``error = (error, OSError)``, so that
``except dbm.error`` catches both; ``dbm.open`` raises ``error[0](…)``. Tuples do not
change, so where the name is bound to the tuple once, at the top level, before the
function, and nowhere else (:func:`.settled_global`), the item is the class the line calls
(issue 10: the record said its class was "what calling ``error[0]`` gives").
"""

from __future__ import annotations

import ast

from .module import BUILTIN_EXCEPTIONS, ModuleReader, dotted_name
from .module_globals import settled_global
from .scope import Rebind, Scope

__all__ = ["held_item"]


def held_item(reader: ModuleReader, func: ast.expr, scope: Scope) -> ast.expr | None:
    """The class expression ``func`` (``NAME[i]``) picks out of a settled module-level
    tuple, to qualify as written there; None when it is anything else."""
    if not (
        isinstance(func, ast.Subscript)
        and isinstance(func.value, ast.Name)
        and isinstance(func.slice, ast.Constant)
        and type(func.slice.value) is int
    ):
        return None
    name = func.value.id
    if scope.env is not reader.module_env and name in scope.env:
        return None  # a local of the same name
    bound = reader.module_env.get(name)
    value = bound[0] if bound and len(bound) == 1 else None
    if isinstance(value, Rebind):  # ``error = (error, OSError)`` reads the name's class
        value = value.value
    if not isinstance(value, ast.Tuple):
        return None
    elts = value.elts
    index = func.slice.value
    if any(isinstance(e, ast.Starred) for e in elts) or not -len(elts) <= index < len(elts):
        return None
    lines = sorted(reader.binding_lines.get(name, ()))
    tuple_line = value.lineno
    if not lines or lines[-1] > tuple_line or not settled_global(reader, name, scope):
        return None  # bound again after the tuple, or elsewhere
    return _class_item(reader, elts[index], name, [n for n in lines if n < tuple_line])


def _class_item(
    reader: ModuleReader, item: ast.expr, name: str, before: list[int]
) -> ast.expr | None:
    """``item`` where it names a class known for certain: one of the module's classes
    (``error`` itself in ``error = (error, OSError)``, read as the binding before the
    tuple), a builtin exception, or a name imported."""
    dotted = dotted_name(item)
    if dotted is None:
        return None
    head = dotted.partition(".")[0]
    if head == name:
        node = reader.classes.get(name)
        held = dotted == name and node is not None and bool(before) and before[-1] == node.lineno
        return item if held else None
    if any(line > item.lineno for line in reader.binding_lines.get(head, ())):
        return None  # the item's own name is bound again after the tuple
    if dotted in reader.classes or dotted in BUILTIN_EXCEPTIONS:
        return item
    last = dotted.rpartition(".")[2]
    named_as_class = last[:1].isupper() or last.endswith(("Error", "error"))
    return item if head in reader.imports and named_as_class else None
