"""The cases of ``@pytest.mark.parametrize`` a test's expectation reads.

``test_invalid_url(self, exception, url)`` under ``parametrize("exception, url",
[(MissingSchema, "hiwpefhipowhefopw"), (InvalidURL, "http://"), ...])`` expects
``pytest.raises(exception)``: read as written, the class is a parameter and no site is a
candidate (issue 10, item 2). Each case binds the parameter to a class or a text the
test spells out, and the expectation is read once per case with those bindings (at most
:data:`MAX_ROWS` cases): a class by its dotted name, a message as a string.
"""

from __future__ import annotations

import ast

from .facts import CallRef, dotted

__all__ = ["MAX_ROWS", "Row", "parametrize_rows"]

#: Cases read per test, at most (a table of hundreds of inputs is read for its first ones).
MAX_ROWS = 24

#: One case: parameter -> the class its value names, or the string it is.
Row = dict[str, CallRef | str]


def parametrize_rows(
    node: ast.FunctionDef | ast.AsyncFunctionDef, imports: dict[str, str]
) -> list[Row]:
    """The cases of each ``pytest.mark.parametrize`` decorator of ``node``, each with the
    values that are a dotted name or a string (one decorator's at a time: a product of
    several is not formed)."""
    rows: list[Row] = []
    for decorator in node.decorator_list:
        if not isinstance(decorator, ast.Call) or len(decorator.args) < 2:
            continue
        ref = dotted(decorator.func)
        if ref is None or ref[-2:] != ("mark", "parametrize"):
            continue
        if imports.get(ref[0], ref[0]) != "pytest" or len(ref) != 3:
            continue
        names = _names(decorator.args[0])
        values = decorator.args[1]
        if not names or not isinstance(values, (ast.List, ast.Tuple)):
            continue
        for case in values.elts[:MAX_ROWS]:
            row = _row(names, case)
            if row:
                rows.append(row)
    return rows[:MAX_ROWS]


def _names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",") if n.strip()]
    if isinstance(node, (ast.List, ast.Tuple)):
        out = [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        return out if len(out) == len(node.elts) else []
    return []


def _row(names: list[str], case: ast.expr) -> Row:
    """``(InvalidURL, "http://")`` or ``pytest.param(InvalidURL, "http://", id=...)``."""
    if isinstance(case, ast.Call) and (ref := dotted(case.func)) is not None and ref[-1] == "param":
        values: list[ast.expr] = list(case.args)
    elif len(names) == 1:
        values = [case]
    elif isinstance(case, (ast.Tuple, ast.List)):
        values = list(case.elts)
    else:
        return {}
    if len(values) != len(names):
        return {}
    row: Row = {}
    for name, value in zip(names, values, strict=True):
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            row[name] = value.value
        elif isinstance(value, (ast.Name, ast.Attribute)) and (ref := dotted(value)) is not None:
            row[name] = ref
    return row
