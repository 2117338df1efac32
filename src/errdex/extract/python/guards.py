"""Guards: the conditions on the way to a site, written out as a reader would say them.

The walk carries each enclosing clause as a cheap ``Pending`` tuple and writes it out
here only for the few chains that end at a site.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from errdex.extract.site import Guard

__all__ = ["Guards", "Pending", "negate", "write_guard"]

#: A guard not yet written out: (kind, node, line).
Pending = tuple[str, Any, int]
Guards = tuple[Pending, ...]


def write_guard(pending: Pending, expr_text: Callable[[ast.AST], str], lines: list[str]) -> Guard:
    """Write out one guard: the condition, in source form, under which the path is taken."""
    kind, node, line = pending
    if kind == "if":
        assert isinstance(node, ast.If)
        return Guard("elif" if is_elif(node, lines) else "if", expr_text(node.test), line)
    if kind == "else":
        assert isinstance(node, ast.If)
        orelse = node.orelse
        to_elif = len(orelse) == 1 and isinstance(orelse[0], ast.If) and is_elif(orelse[0], lines)
        text = negate(node.test, expr_text(node.test), expr_text)
        return Guard("else", text, node.lineno if to_elif else line)
    if kind == "for":
        assert isinstance(node, (ast.For, ast.AsyncFor))
        return Guard("for", f"for {expr_text(node.target)} in {expr_text(node.iter)}", line)
    if kind == "while":
        assert isinstance(node, ast.expr)
        return Guard("while", expr_text(node), line)
    if kind in ("while-else", "assert"):
        assert isinstance(node, ast.expr)
        return Guard(kind, negate(node, expr_text(node), expr_text), line)
    if kind == "except":
        assert isinstance(node, ast.ExceptHandler)
        caught = expr_text(node.type) if node.type is not None else "BaseException"
        return Guard(
            "except", f"{caught} was raised" + (f" (as {node.name})" if node.name else ""), line
        )
    assert isinstance(node, tuple)
    subject, case = node
    text = f"{expr_text(subject)} matches {expr_text(case.pattern)}"
    if case.guard is not None:
        text += f" if {expr_text(case.guard)}"
    return Guard("case", text, line)


def is_elif(stmt: ast.If, lines: list[str]) -> bool:
    """Whether this ``if`` is written as the ``elif`` of the one before."""
    line = lines[stmt.lineno - 1] if stmt.lineno - 1 < len(lines) else ""
    return line.lstrip().startswith("elif")


_NEGATED_COMPARE: dict[type[ast.cmpop], str] = {
    ast.Is: "is not",
    ast.IsNot: "is",
    ast.In: "not in",
    ast.NotIn: "in",
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.Lt: ">=",
    ast.LtE: ">",
    ast.Gt: "<=",
    ast.GtE: "<",
}


def negate(test: ast.expr, text: str, source: Callable[[ast.AST], str] = ast.unparse) -> str:
    """The condition under which an ``else`` branch runs, written as a reader would."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return source(test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = _NEGATED_COMPARE.get(type(test.ops[0]))
        if op is not None:
            return f"{source(test.left)} {op} {source(test.comparators[0])}"
    if isinstance(test, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return f"not {text}"
    return f"not ({text})"
