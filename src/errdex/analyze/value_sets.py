"""A caller's local that can only hold one of a few constants, and conditions judged on
each of them.

``tarfile.main`` opens its archive with ``tar_mode = 'w:' + compressions[ext] if ext in
compressions else 'w'``, where ``compressions`` is a dict literal of strings the body only
reads: ``tar_mode`` is one of ``'w:gz'``, ``'w:xz'``, ``'w:bz2'`` and ``'w'``, and
``TarFile.open``'s "mode must be 'r' or 'w'" (reached only when ``"|" in mode``) is false
for all four (blind review stop 32, records 13 and 18). A caller passing such a local is
no way to a raise whose condition each value makes false; a value not understood is not
known, and never rules a caller out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from itertools import product

from .callsites import constant_of
from .guard_eval import ModuleRef, OneOf, guard_value, is_immutable
from .value_ranges import masked

__all__ = ["MAX_COMBOS", "MAX_VALUES", "contradicted", "each_choice", "local_sets"]

#: A local's values are kept up to this many.
MAX_VALUES = 16
#: Combinations of values judged for one call (or one test, :mod:`.walk_scope`), at most.
MAX_COMBOS = 16
Values = frozenset[object]


def local_sets(
    func: ast.FunctionDef | ast.AsyncFunctionDef, params: tuple[str, ...]
) -> dict[str, tuple[object, ...]]:
    """Local name -> the constants it may hold, for a local the body (nested scopes
    included) binds once, by a plain assignment whose value is one of a few constants:
    a literal, a module's name (``zipfile.ZIP_DEFLATED``, a :class:`ModuleRef` until the
    chain walk resolves it), ``a if c else b``, ``x + y`` and ``d[k]`` of a dict literal
    of constants that the body only reads (``d[k]``, ``k in d``), each part known in
    turn; or, for ``x & C``, the :class:`~errdex.analyze.value_ranges.Interval`
    ``[0, C]`` alone."""
    taken = {p.lstrip("*") for p in params}
    if not _candidates(func.body, taken):
        return {}  # most functions: no local worth the full pass below
    counts, reads_only, assigned = _bindings(func)
    dicts: dict[str, Values] = {}
    for name, value in assigned.items():
        if counts.get(name) == 1 and name not in taken and name in reads_only:
            found = _dict_values(value)
            if found is not None:
                dicts[name] = found
    singles: dict[str, Values] = {}
    for name, value in assigned.items():
        if counts.get(name) == 1 and name not in taken and name not in dicts:
            known, literal = constant_of(value)
            if known and is_immutable(literal):
                singles[name] = frozenset([literal])
    out: dict[str, tuple[object, ...]] = {}
    for name, value in assigned.items():
        if counts.get(name) != 1 or name in taken or name in dicts:
            continue
        found = _values(value, dicts, singles, 0)
        if found is not None and len(found) > 1:
            out[name] = tuple(sorted(found, key=repr))
        elif (bounds := masked(value)) is not None:
            out[name] = (bounds,)  # ``time_mid = (timestamp >> 32) & 0xffff``
    return out


def each_choice(values: Mapping[str, object]) -> Iterator[dict[str, object]] | None:
    """``values`` with each :class:`OneOf` replaced by one of its constants, every
    combination; None when there are too many to judge."""
    choices = [(k, v.values) for k, v in values.items() if isinstance(v, OneOf)]
    combos = 1
    for _, options in choices:
        combos *= len(options)
    if combos > MAX_COMBOS:
        return None
    fixed = {k: v for k, v in values.items() if not isinstance(v, OneOf)}

    def generate() -> Iterator[dict[str, object]]:
        for picked in product(*(options for _, options in choices)):
            yield {**fixed, **dict(zip((k for k, _ in choices), picked, strict=True))}

    return generate()


def contradicted(conditions: Sequence[str], values: Mapping[str, object]) -> bool:
    """Whether, for every choice of the values, one of the conditions is false."""
    choices = each_choice(values)
    if choices is None or not conditions:
        return False
    return all(any(guard_value(c, chosen) is False for c in conditions) for chosen in choices)


def _candidates(body: list[ast.stmt], taken: set[str]) -> bool:
    """Whether a plain assignment in the body (nested scopes aside) may bind a local to
    a few constants, were every name it reads bound once: the cheap test first."""
    stack = list(body)
    dicts: dict[str, Values] = {}
    singles: dict[str, Values] = {}
    tried: list[ast.expr] = []
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Name) and target.id not in taken:
                if isinstance(value, ast.Dict):
                    found = _dict_values(value)
                    if found is not None:
                        dicts[target.id] = found
                elif isinstance(value, (ast.IfExp, ast.BinOp, ast.Subscript)):
                    tried.append(value)
                else:
                    known, literal = constant_of(value)
                    if known and is_immutable(literal):
                        singles[target.id] = frozenset([literal])
            continue
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list):
                stack.extend(inner)
        stack.extend(s for h in getattr(stmt, "handlers", ()) for s in h.body)
        stack.extend(s for c in getattr(stmt, "cases", ()) for s in c.body)
    return any(masked(v) is not None or len(_values(v, dicts, singles, 0) or ()) > 1 for v in tried)


def _bindings(
    func: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[dict[str, int], set[str], dict[str, ast.expr]]:
    """How often each name is bound anywhere in the body (an import, a ``del``, a
    ``global``/``nonlocal`` count as many); the names only read through ``d[k]`` or
    ``k in d``; and the value of each plain one-name assignment."""
    counts: dict[str, int] = {}
    assigned: dict[str, ast.expr] = {}
    plain_reads: dict[str, bool] = {}
    parents: dict[ast.AST, ast.AST] = {}
    nodes = [node for stmt in func.body for node in ast.walk(stmt)]
    for node in nodes:
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in nodes:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                ok = _read_only_use(node, parents.get(node))
                plain_reads[node.id] = plain_reads.get(node.id, True) and ok
            else:
                counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                counts[name] = counts.get(name, 0) + 2
        elif isinstance(node, ast.alias):
            name = (node.asname or node.name).split(".")[0]
            counts[name] = counts.get(name, 0) + 2
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            counts[node.name] = counts.get(node.name, 0) + 2
        elif isinstance(node, ast.arg):
            counts[node.arg] = counts.get(node.arg, 0) + 2  # a nested scope's parameter
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            counts[node.name] = counts.get(node.name, 0) + 2
        elif isinstance(node, ast.MatchMapping) and node.rest:
            counts[node.rest] = counts.get(node.rest, 0) + 2
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            assigned[node.targets[0].id] = node.value
    reads_only = {name for name, ok in plain_reads.items() if ok}
    reads_only |= {name for name in assigned if name not in plain_reads}
    return counts, reads_only, assigned


def _read_only_use(name: ast.Name, parent: ast.AST | None) -> bool:
    """``d[k]`` (read) or ``k in d``: uses that cannot change a dict."""
    if isinstance(parent, ast.Subscript):
        return parent.value is name and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Compare):
        return any(
            comp is name and isinstance(op, (ast.In, ast.NotIn))
            for op, comp in zip(parent.ops, parent.comparators, strict=True)
        )
    return False


def _dict_values(node: ast.expr) -> Values | None:
    """The values of a dict literal of immutable constants."""
    if not isinstance(node, ast.Dict) or not node.values or None in node.keys:
        return None
    out: set[object] = set()
    for key, value in zip(node.keys, node.values, strict=True):
        known_key, _ = constant_of(key) if key is not None else (False, None)
        known, literal = constant_of(value)
        if not (known_key and known and is_immutable(literal)):
            return None
        out.add(literal)
    return frozenset(out) if len(out) <= MAX_VALUES else None


def _values(
    node: ast.expr, dicts: dict[str, Values], singles: dict[str, Values], depth: int
) -> Values | None:
    """The constants an expression may evaluate to; None when not known."""
    if depth > 8:
        return None
    if isinstance(node, ast.IfExp):
        body = _values(node.body, dicts, singles, depth + 1)
        orelse = _values(node.orelse, dicts, singles, depth + 1)
        return body | orelse if body is not None and orelse is not None else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return dicts.get(node.value.id) if isinstance(node.ctx, ast.Load) else None
    if isinstance(node, ast.Name):
        return singles.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _values(node.left, dicts, singles, depth + 1)
        right = _values(node.right, dicts, singles, depth + 1)
        if left is None or right is None or len(left) * len(right) > MAX_VALUES:
            return None
        out: set[object] = set()
        for a, b in product(left, right):
            if not (type(a) is type(b) and type(a) in (str, bytes, int)):
                return None  # a TypeError, or a sum whose type is not plain
            out.add(a + b)  # type: ignore[operator]
        return frozenset(out)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return frozenset([ModuleRef((node.value.id, node.attr))])  # ``zipfile.ZIP_STORED``
    known, literal = constant_of(node)
    return frozenset([literal]) if known and is_immutable(literal) else None
