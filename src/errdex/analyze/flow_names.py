"""Which parameters a raising statement's expression is built from, following the
function's own assignments back (``mo = re.match(p, line)``, ``line = next(f)``,
``f = open(filename)``: the assert ``assert mo, (lineno, line)`` reads ``filename``'s
lines). Rules that name a parameter as the thing to correct ask it first (re-reader rr3,
items 6 and 7: a file parameter picked by its name alone; "the object passed" where the
class's own ``__enter__`` raised)."""

from __future__ import annotations

import ast

from .facts import FuncFacts
from .file_trees import function_node

__all__ = ["params_behind"]

_Function = (ast.FunctionDef, ast.AsyncFunctionDef)


def params_behind(source_file: str | None, func: FuncFacts, line: int, part: str) -> set[str]:
    """The function's parameters that the ``raise``/``assert`` at ``line`` reads through
    its own assignments: ``part`` "test" (an assert's test), "message" (the raised
    exception or the assert's message) or "both" (an assert's test and message). Empty where the file is not read again."""
    node = function_node(source_file, func.line, func.name) if source_file else None
    stmt = _statement(node, line) if node is not None else None
    if node is None or stmt is None:
        return set()
    read = _part(stmt, part)
    if read is None:
        return set()
    names = _names(read)
    binds = _binds(node)
    todo = list(names)
    while todo:
        for source in binds.get(todo.pop(), ()):
            if source not in names:
                names.add(source)
                todo.append(source)
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    return names & params


def _statement(func: ast.AST, line: int) -> ast.Raise | ast.Assert | None:
    for node in ast.walk(func):
        if isinstance(node, (ast.Raise, ast.Assert)) and node.lineno == line:
            return node
    return None


def _part(stmt: ast.Raise | ast.Assert, part: str) -> ast.AST | None:
    if not isinstance(stmt, ast.Assert):
        return stmt.exc
    if part == "test":
        return stmt.test
    if part == "message":
        return stmt.msg
    return ast.Tuple([stmt.test, stmt.msg or ast.Constant(None)], ast.Load())


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _binds(func: ast.AST) -> dict[str, set[str]]:
    """Each name the body binds -> the names the values bound to it read (``for``
    targets read the iterable, ``with ... as`` targets the context expression); nested
    functions' bodies are their own."""
    out: dict[str, set[str]] = {}

    def add(targets: list[ast.expr], value: ast.AST) -> None:
        read = _names(value)
        for target in targets:
            for name in _names(target):
                out.setdefault(name, set()).update(read)

    for node in _own_nodes(func):
        if isinstance(node, ast.Assign):
            add(list(node.targets), node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
            add([node.target], node.value or ast.Constant(None))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            add([node.target], node.iter)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            add([node.optional_vars], node.context_expr)
    return out


def _own_nodes(func: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    todo = list(ast.iter_child_nodes(func))
    while todo:
        node = todo.pop()
        if isinstance(node, (*_Function, ast.Lambda, ast.ClassDef)):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out
