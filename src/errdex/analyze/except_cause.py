"""A raise in a handler that converts an error of a call made with what the caller
passed: the cause is that value, not the conditions of the function's own making.

``argparse``'s ``add_argument`` raises "length of metavar tuple does not match nargs"
after ``self._get_formatter()._format_args(action, None)`` raised ``TypeError``, under
``hasattr(self, "_get_formatter")``; "Triggered after TypeError was caught, when
hasattr(self, "_get_formatter")" named a private method and no cause (paired blind
review, stop 36). The ``try`` body's call is made with ``action``, which the function
made from ``kwargs``: the arguments passed to ``add_argument`` made that call fail. Said
only where every other condition on the way is over the function's own private state
(left out, as nothing a caller sets), there is one or the ``try`` statement reads a
private name (else "after `int(text)` raised `ValueError`" says it in public names), and
the call's arguments reach a parameter.
"""

from __future__ import annotations

import ast

from .file_trees import function_node
from .gathered import Gathered
from .guards import CONDITION_KINDS, code, free_names, has_private
from .local_origins import made_from

__all__ = ["except_cause"]

#: A ``try`` body's call said as code, at most this long (else by what it calls).
_SHOWN = 70


def except_cause(g: Gathered) -> str | None:
    """ "when the keyword arguments passed (`**kwargs`, made into `action`) make the call
    at line 1464 raise `TypeError`", or None."""
    func = g.func
    handlers = [x for x in g.site.guards if x["kind"] == "except"]
    if func is None or len(handlers) != 1:
        return None
    others = [x for x in g.site.guards if x["kind"] != "except"]
    if any(x["kind"] not in CONDITION_KINDS or not has_private(str(x["text"])) for x in others):
        return None  # a loop, or a condition a caller reads: said by the guards
    if any(_public_names(str(x["text"])) for x in others):
        return None  # ``self._mode and strict``: the caller's ``strict`` is part of it
    node = function_node(g.source_file, func.line, func.name) if g.source_file else None
    if node is None:
        return None
    handler_line = int(handlers[0].get("line") or 0)
    found = _try_of(node, handler_line)
    if found is None:
        return None
    try_node, handler = found
    if handler.name is not None and _reads(handler, handler.name):
        return None  # the handler tests what it caught: the error's details decide
    calls = [c for s in try_node.body for c in ast.walk(s) if isinstance(c, ast.Call)]
    if len(calls) == 0 or len(try_node.body) != 1:
        return None
    statement = ast.unparse(try_node.body[0])
    if not others and not has_private(statement):
        return None  # "after `int(text)` raised `ValueError`" says it already
    params = [p.lstrip("*") for p in func.params if p.lstrip("*") not in {"self", "cls"}]
    made = made_from(node, try_node.lineno, set(params))
    passed: list[str] = []
    through: list[str] = []
    for call in calls:
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            for name in (n.id for n in ast.walk(arg) if isinstance(n, ast.Name)):
                if name in params and name not in func.rebound:
                    passed.append(name)
                elif name in made:
                    passed.extend(made[name])
                    through.append(name)
    if not passed:
        return None
    caught = str(handlers[0]["text"]).partition(" was raised")[0].partition(" (as ")[0]
    if "AttributeError" in caught and not _looked_up_on(try_node.body[0], {*params, *made}):
        return None  # ``self._payload.append(payload)``: the receiver lacks it, not the value
    value = getattr(try_node.body[0], "value", None)  # ``self._date = float(date)``
    said = ast.unparse(value) if isinstance(value, ast.expr) else statement
    shown = (
        code(said)
        if len(said) <= _SHOWN and not has_private(said) and "\n" not in said
        else f"the call at line {try_node.body[0].lineno}"
    )
    stars = {p.lstrip("*"): p for p in func.params}
    given = [stars.get(p, p) for p in dict.fromkeys(passed)]
    shown_through = [t for t in dict.fromkeys(through) if not has_private(t)]
    via = f", made into {' and '.join(code(t) for t in shown_through)}" if shown_through else ""
    names = " and ".join(_passed(p, via if len(given) == 1 else "") for p in given)
    plural = len(given) > 1 or given[0].startswith("*")
    # a private class (``_Err``) is nothing a caller can name: the call fails
    fails = "fail" if has_private(caught) else f"raise {code(caught)}"
    return f"when {names} {'make' if plural else 'makes'} {shown} {fails}"


def _public_names(condition: str) -> set[str]:
    """The names a condition reads that are neither private nor ``self``/``cls``."""
    names = free_names(condition) or set()
    return {n for n in names if n not in {"self", "cls"} and not n.startswith("_")}


def _passed(param: str, via: str) -> str:
    """ "the keyword arguments passed (`**kwargs`, made into `action`)"."""
    if param.startswith("**"):
        return f"the keyword arguments passed ({code(param)}{via})"
    if param.startswith("*"):
        return f"the positional arguments passed ({code(param)}{via})"
    return f"what was passed as {code(param)}" + (f" ({via[2:]})" if via else "")


def _looked_up_on(stmt: ast.stmt, names: set[str]) -> bool:
    """Whether ``stmt`` looks an attribute up on one of ``names`` (``x.attr``,
    ``getattr(x, …)``): an ``AttributeError`` may be about what was passed."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in names:
                return True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "hasattr"}
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in names
        ):
            return True
    return False


def _try_of(func: ast.AST, handler_line: int) -> tuple[ast.Try, ast.ExceptHandler] | None:
    for node in ast.walk(func):
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                if handler.lineno == handler_line:
                    return node, handler
    return None


def _reads(handler: ast.ExceptHandler, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        for s in handler.body
        for n in ast.walk(s)
    )
