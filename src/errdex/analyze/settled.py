"""Names whose value a guard can take as fixed: a module's top-level name bound once and
never declared ``global`` in a function (``_ONE = 1``, ``MISSING = _MISSING_TYPE()``),
and a function's local bound once, to a literal (``main_name = "__main__"``); and a
parameter bound again only to literals (``if bufsize is None: bufsize = -1``).

``randrange(self, start, stop=None, step=_ONE)`` leaves ``step`` at ``1`` for every
caller that does not pass it, and ``field(default_factory=MISSING)`` at the module's
``MISSING``: the entry-point walk (:mod:`errdex.analyze.chains`) reads both as known,
the literal as its value and the object by its name only
(:class:`errdex.analyze.guard_eval.Global`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .callsites import constant_of
from .facts import FuncFacts
from .guard_eval import Global, ModuleRef, Named, is_immutable
from .guards import free_names

if TYPE_CHECKING:  # repo builds its index with walk, which uses this module
    from .repo import RepoIndex

__all__ = [
    "DRAINING",
    "FILLING",
    "UNSETTLED",
    "Raw",
    "Settled",
    "changed_names",
    "literal_rebinds",
    "local_constants",
    "module_objects",
    "named_values",
    "note_top_assign",
    "settled_names",
    "settled_value",
]

#: (line, whether it is a literal, the literal) of a top-level name bound once.
Settled = tuple[int, bool, object]
#: Name -> what it was bound to, or None once it is bound a second time.
Raw = dict[str, Settled | None]


def note_top_assign(stmt: ast.Assign | ast.AugAssign, raw: Raw) -> None:
    """Note a module-level assignment: a name bound a second time is not settled."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    for target in targets:
        for node in ast.walk(target):
            if not isinstance(node, ast.Name):
                continue
            if node.id in raw or target is not node or isinstance(stmt, ast.AugAssign):
                raw[node.id] = None  # bound again, or as part of an unpacking
                continue
            known, value = constant_of(stmt.value)
            raw[node.id] = (stmt.lineno, known, value if known else None)


def settled_names(raw: Raw, written: set[str], elsewhere: set[str]) -> dict[str, Settled]:
    """The names bound once, not declared ``global`` in a function (``written``) and not
    bound by an import or a definition too (``elsewhere``)."""
    return {
        name: found
        for name, found in raw.items()
        if found is not None and name not in written and name not in elsewhere
    }


def local_constants(
    literals: dict[str, object], bound_lines: dict[str, list[int]], params: tuple[str, ...]
) -> dict[str, object]:
    """Locals bound once in the body (by any statement), by an assignment of a literal."""
    taken = {p.lstrip("*") for p in params}
    return {
        name: value
        for name, value in literals.items()
        if len(bound_lines.get(name, ())) == 1 and name not in taken
    }


def literal_rebinds(
    literal_lines: dict[str, list[tuple[int, object]]],
    bound_lines: dict[str, list[int]],
    params: tuple[str, ...],
) -> dict[str, tuple[tuple[int, object], ...]]:
    """Parameters the body binds again only to literals (``if bufsize is None: bufsize =
    -1``): parameter -> (line, literal) of each binding. Where one is tested, it holds
    what the caller passed or one of those literals."""
    out: dict[str, tuple[tuple[int, object], ...]] = {}
    for param in params:
        found = literal_lines.get(param)
        if found and sorted(bound_lines.get(param, ())) == sorted(line for line, _ in found):
            out[param] = tuple(found)
    return out


#: Methods that add items to a mapping, and that remove them.
FILLING = frozenset({"update", "setdefault", "__setitem__", "__ior__"})
DRAINING = frozenset({"pop", "popitem", "clear", "__delitem__"})


def changed_names(
    items: set[str], calls: list[tuple[str, ...]], methods: frozenset[str]
) -> frozenset[str]:
    """Names a body changes the items of: by ``d["x"] = 1`` or ``del d["x"]`` (``items``)
    or a call of one of ``methods`` on them (``d.update(…)``, ``d.pop(…)``)."""
    called = {ref[0] for ref in calls if len(ref) == 2 and ref[1] in methods}
    return frozenset(items | called)


#: :func:`settled_value` of a name whose value is not fixed.
UNSETTLED = object()


def settled_value(index: RepoIndex, module: str, name: str, before: int | None = None) -> object:
    """What a module's name holds for good: its literal, the object by its name
    (:class:`Global`), or :data:`UNSETTLED`. An imported name is the one it imports;
    ``before``, a line the binding must come before (a default is read at ``def``)."""
    facts = index.modules.get(module)
    if facts is None:
        return UNSETTLED
    imported = facts.imports.get(name)
    if imported is not None:
        home, _, name = imported.rpartition(".")
        facts = index.modules.get(home)
        if facts is None:
            return UNSETTLED
    found = facts.settled.get(name)
    if found is None or (before is not None and not imported and found[0] > before):
        return UNSETTLED
    _line, literal, value = found
    if literal:
        return value if is_immutable(value) else UNSETTLED
    return Global(f"{facts.name}.{name}")


def named_values(
    index: RepoIndex, func: FuncFacts, values: tuple[object, ...]
) -> tuple[object, ...] | None:
    """A caller's local values with each :class:`ModuleRef` (``zipfile.ZIP_DEFLATED``)
    known by its name (:class:`Named`, or the :class:`Global` of an object); None when
    one does not name a module's settled name."""
    out: list[object] = []
    for value in values:
        if isinstance(value, ModuleRef):
            head = func.local_imports.get(value[0])
            facts = index.modules.get(func.module)
            if head is None and facts is not None and value[0] not in facts.top:
                head = facts.imports.get(value[0])
            if head is None or head not in index.modules:
                return None  # ``args.mode``: not a module's name
            settled = settled_value(index, head, value[1])
            if settled is UNSETTLED:
                return None
            value = settled if isinstance(settled, Global) else Named(f"{head}.{value[1]}")
        out.append(value)
    return tuple(out)


def module_objects(
    index: RepoIndex, func: FuncFacts, guards: tuple[str, ...], params: set[str]
) -> dict[str, object]:
    """The guards' module-level objects bound once (``MISSING``), by name: a caller that
    leaves a parameter at such a default is compared with them. A literal is known by
    its name alone (:class:`Named`): a module's settings may be changed by its users,
    but ``ZIP_STORED`` is equal to itself."""
    out: dict[str, object] = {}
    scopes = [func]
    while scopes[-1].parent is not None:
        outer = index.function(scopes[-1].parent)
        if outer is None:
            return out  # an enclosing scope not known: its names are not either
        scopes.append(outer)
    local = {*params, *(n for f in scopes for n in (*f.bound_lines, *f.params))}
    local |= {n.lstrip("*") for n in local}
    for guard in guards:
        for name in free_names(guard) or ():
            if name in local or name in out:
                continue
            value = settled_value(index, func.module, name)
            if isinstance(value, Global):
                out[name] = value
            elif value is not UNSETTLED:  # a literal: known by its name alone
                out[name] = Named(_home(index, func.module, name))
    return out


def _home(index: RepoIndex, module: str, name: str) -> str:
    """The qualified name of a module's name, through the import that binds it."""
    facts = index.modules.get(module)
    imported = facts.imports.get(name) if facts is not None else None
    return imported if imported is not None else f"{module}.{name}"
