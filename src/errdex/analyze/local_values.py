"""What a local name certainly holds where a condition tests it, in the function's own
parameters: ``istep = int(step)`` holds through the rest of its block, until a statement
that binds ``istep`` again.

``randrange`` warns "when `istep != step`" in the handler whose first statement is
``istep = int(step)``: a caller that leaves ``step`` at ``1`` makes that ``int(1) != 1``,
false, and is no way to the warning (blind review stop 31, record 25, ``randint``). The
entry-point walk (:mod:`errdex.analyze.chains`) substitutes such a local in a condition
by its expression, and then judges the condition on the caller's values as usual.

A binding ``name = expr`` (one plain name; or ``a, b = expr``, each name holding its
item) reaches every line after it in the same list
of statements, up to the statement before the first later one that binds the name
anywhere inside it: a loop around that list runs the binding again before those lines,
and a later binding ends the span before any loop inside the span could run it first.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Collection

from .guards import free_names, parse_guard

__all__ = ["Span", "reaching_values", "statement_blocks", "substitute"]

#: (first line, last line, expression) where a local holds the expression's value.
Span = tuple[int, int, str]
#: An expression longer than this is not kept.
_MAX_EXPR = 200
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def reaching_values(
    func: ast.FunctionDef | ast.AsyncFunctionDef,
    params: tuple[str, ...],
    bound_lines: dict[str, list[int]],
    imported: Collection[str] = (),
) -> dict[str, tuple[Span, ...]]:
    """Local name -> where it holds which expression over the function's parameters
    (only expressions reading one are kept: others are never known from a caller).
    ``bound_lines`` are the lines where the body binds each name
    (:func:`errdex.analyze.callsites.call_sites`); a name the body imports is left out."""
    taken = {p.lstrip("*") for p in params}
    out: dict[str, list[Span]] = {}
    for block in statement_blocks(func.body):
        for i, stmt in enumerate(block):
            # the cheap test first: most assignments read no parameter, and are not unparsed
            if not (isinstance(stmt, ast.Assign) and _reads(stmt.value, taken)):
                continue
            for name, text in _bound(stmt):
                if name in taken or name in imported or len(text) > _MAX_EXPR:
                    continue
                last = block[-1].end_lineno or block[-1].lineno
                lines = bound_lines.get(name, ())
                for later in block[i + 1 :]:
                    end = later.end_lineno or later.lineno
                    if isinstance(later, ast.Match) or any(
                        later.lineno <= at <= end for at in lines
                    ):
                        last = later.lineno - 1
                        break
                out.setdefault(name, []).append((stmt.end_lineno or stmt.lineno, last, text))
    return {name: tuple(spans) for name, spans in out.items()}


def _bound(stmt: ast.Assign) -> list[tuple[str, str]]:
    """The names a plain assignment binds and the expression each holds: ``name =
    expr``, or ``a, b = expr`` (no starred target) as ``(expr)[0]``, ``(expr)[1]``
    (``UUID.__init__``'s ``(time_low, time_mid, …) = fields``)."""
    if len(stmt.targets) != 1:
        return []
    target = stmt.targets[0]
    if isinstance(target, ast.Name):
        return [(target.id, ast.unparse(stmt.value))]
    if isinstance(target, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Name) for e in target.elts
    ):
        whole = ast.unparse(stmt.value)
        return [(e.id, f"({whole})[{i}]") for i, e in enumerate(target.elts)]  # type: ignore[attr-defined]
    return []


def substitute(
    text: str, line: int, values: dict[str, tuple[Span, ...]], readable: set[str]
) -> str:
    """``text`` (a condition tested at ``line``) with each local that holds one
    expression there replaced by it, when the expression reads ``readable`` names only."""
    if not values or not (free_names(text) or set()) & values.keys():
        return text
    cached = parse_guard(text)
    if cached is None:
        return text
    node = copy.deepcopy(cached)  # parse_guard's trees are shared: never change one
    changed = False

    class _Swap(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.AST:
            nonlocal changed
            for first, last, expr in values.get(name.id, ()):
                if first < line <= last and (free_names(expr) or {""}) <= readable:
                    parsed = parse_guard(expr)
                    if parsed is not None:
                        changed = True
                        return copy.deepcopy(parsed)
            return name

    swapped = _Swap().visit(node)
    return ast.unparse(swapped) if changed else text


def _reads(node: ast.expr, names: set[str]) -> bool:
    """Whether an expression reads one of ``names`` (before anything is parsed again)."""
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def statement_blocks(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """Every list of statements in a function body, nested definitions aside."""
    out = [body]
    for stmt in body:
        if isinstance(stmt, _SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                out.extend(statement_blocks(inner))
        for handler in getattr(stmt, "handlers", ()):
            out.extend(statement_blocks(handler.body))
        for case in getattr(stmt, "cases", ()):
            out.extend(statement_blocks(case.body))
    return out
