"""Whether a Cython module binds ``type``, ``str`` or ``repr`` anywhere, read from Cython's
own tree: the rule of :mod:`errdex.extract.python.shadowed` for ``.pyx`` files.

``f"bad {type(x)}"`` prints a class's repr only while ``type`` is the builtin; with
``def f(x, type=len)`` or ``cdef int str = 3`` it does not, so such a module keeps its
``{type(x)}`` holes untyped (any text). As for Python, the binding's reach is not followed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["cython_binds_any", "cython_shadowed_lines"]

#: Nodes that open a scope of their own: a binding inside one shadows the builtin only
#: there (and in scopes nested in it), as Python's scoping has it.
_SCOPES = frozenset(
    {"DefNode", "AsyncDefNode", "CFuncDefNode", "PyClassDefNode", "CClassDefNode", "LambdaNode"}
)

#: The nodes that bind a name of their own, and where it is: a ``def``, a declarator (a
#: parameter, a ``cdef`` variable or function), a class. A base type's ``name``
#: (``def f(str s)``, ``cdef str x``) is the type used, which binds nothing.
_NAMING: dict[str, tuple[str, ...]] = {
    "DefNode": ("name",),
    "AsyncDefNode": ("name",),
    "CNameDeclaratorNode": ("name",),
    "PyClassDefNode": ("name",),
    "CClassDefNode": ("class_name", "as_name"),
}
#: Children that a statement binds (assignment, loop, ``with`` and handler targets).
_TARGETS = ("lhs", "lhs_list", "target")


def cython_binds_any(tree: Any, names: frozenset[str]) -> bool:
    """Whether any scope of Cython's ``tree`` binds one of ``names``: a ``def``/``cdef``
    function or class, a parameter or ``cdef`` variable (their declarators), an imported
    name, or a name a statement assigns."""
    return any(name in names for name, _ in _bound(tree, None))


def cython_shadowed_lines(tree: Any, names: frozenset[str]) -> Callable[[int], bool]:
    """Whether a line of ``tree`` sees one of ``names`` rebound: every line where the
    module binds it, else the lines of each function or class whose own scope binds it
    (nested scopes included). lxml's etree.pyx binds ``type`` in two methods only, and a
    module-wide rule left every ``{type(x)}`` hole of the module open."""
    spans: list[tuple[int, int]] = []
    for name, scope in _bound(tree, None):
        if name not in names:
            continue
        if scope is None:
            return lambda line: True
        spans.append((_line(scope), _last_line(scope)))
    return lambda line: any(start <= line <= end for start, end in spans)


def _line(node: Any) -> int:
    pos = getattr(node, "pos", None)
    return int(pos[1]) if pos else 0


def _last_line(node: Any) -> int:
    """The last line any node under ``node`` starts on (a raise starts on its line)."""
    last = _line(node)
    for attr in getattr(node, "child_attrs", ()):
        value = getattr(node, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if hasattr(child, "child_attrs"):
                last = max(last, _last_line(child))
    return last


def _bound(node: Any, scope: Any, _members: bool = False) -> Iterator[tuple[str, Any]]:
    """Every name ``node`` and the nodes under it bind, each with the scope node it binds
    in (None: the module); ``_members``: ``node`` is a declaration inside a struct, union
    or ``cdef class`` body."""
    kind = type(node).__name__
    if kind == "CVarDefNode" and _members:
        return  # a struct's field or a cdef class's attribute (``self.type``) binds no name
    for attr in _NAMING.get(kind, ()):  # a NameNode is a read unless a target holds it
        value = getattr(node, attr, None)
        if isinstance(value, str):
            yield value, scope  # a def's or class's own name binds where it stands
    if kind == "CFuncDefNode":  # ``cpdef type(x)``: its declarator names it, outside it
        named = getattr(node, "declarator", None)
        while named is not None and type(named).__name__ != "CNameDeclaratorNode":
            named = getattr(named, "base", None)
        if named is not None and isinstance(getattr(named, "name", None), str):
            yield named.name, scope
    for item in getattr(node, "items", None) or ():  # from m import a as type
        if isinstance(item, tuple) and len(item) == 2:
            yield from ((n, scope) for n in _target_names(item[1]))
    for item in getattr(node, "imported_names", None) or ():  # from m cimport a as str
        if isinstance(item, tuple):
            yield from ((part, scope) for part in item[1:] if isinstance(part, str))
    inner = node if kind in _SCOPES else scope
    for attr in getattr(node, "child_attrs", ()):
        value = getattr(node, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if not hasattr(child, "child_attrs"):
                continue
            if attr in _TARGETS:
                yield from ((n, inner) for n in _target_names(child))
            yield from _bound(child, inner, _holds_members(kind, _members))


def _target_names(target: Any) -> Iterator[str]:
    """The names an assignment target binds: a name, or the names of a tuple or list."""
    name = getattr(target, "name", None)
    if type(target).__name__ == "NameNode" and isinstance(name, str):
        yield name
    for part in getattr(target, "args", None) or ():
        yield from _target_names(part)


def _holds_members(kind: str, members: bool) -> bool:
    """Whether the children of a node of ``kind`` declare fields: a struct's or union's
    body, a ``cdef class`` body, and the statement list of such a body (``members``)."""
    return kind in ("CStructOrUnionDefNode", "CClassDefNode") or (
        kind == "StatListNode" and members
    )
