"""The values a function's parameters hold when a test calls it with literals.

The literals the test passes (:mod:`.arg_guards`), by parameter name; a parameter the
body binds again is unknown, unless that one binding is a conversion of itself above the
raise (``indent = int(indent)``: ``PrettyPrinter(indent=-1)`` still holds ``-1`` at
``if indent < 0``).
"""

from __future__ import annotations

import ast

from .call_fit import positional
from .facts import FuncFacts

__all__ = ["bound_values", "caller_params", "defaults_left"]

#: Builtins whose call on a number keeps it a number of the same value or its truth
#: (``int(-1)`` is ``-1``): ``indent = int(indent)`` then holds what the test passed.
_CONVERSIONS = {"int": int, "float": float, "bool": bool}

#: A value not known.
_UNKNOWN = object()


def bound_values(
    func: FuncFacts, constants: dict[str, object], line: int | None = None
) -> dict[str, object]:
    """The test's literals by ``func``'s parameter names. A parameter the body binds
    again is kept only where that binding is a conversion of itself above ``line``
    (:data:`_CONVERSIONS`)."""
    params = caller_params(func)
    named = {p for p in func.params if not p.startswith("*")}  # keyword-only ones too
    out: dict[str, object] = {}
    for key, value in constants.items():
        if key.isdigit():  # by position: only a positional parameter takes it
            if int(key) >= len(params):
                continue
            name = params[int(key)]
        else:
            name = key
        if name not in named or name in ("self", "cls"):
            continue
        if name not in func.rebound:
            out[name] = value
        elif (converted := _converted(func, name, value, line)) is not _UNKNOWN:
            out[name] = converted
    return out


def defaults_left(func: FuncFacts, passed: tuple[str, ...]) -> dict[str, object]:
    """The literal defaults of the positional-or-keyword parameters a call passing
    ``passed`` (positions and keywords) leaves out, by name (:func:`bound_values` then
    keeps those the body binds again only through a conversion)."""
    params = caller_params(func)
    given = {params[int(k)] if k.isdigit() and int(k) < len(params) else k for k in passed}
    try:
        tree = ast.parse(f"{func.signature.strip()}:\n    pass")
    except SyntaxError:
        return {}
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    args = [*node.args.posonlyargs, *node.args.args]
    out: dict[str, object] = {}
    tail = args[len(args) - len(node.args.defaults) :]
    for arg, default in zip(tail, node.args.defaults, strict=True):
        if arg.arg in given:
            continue
        try:
            out[arg.arg] = ast.literal_eval(default)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
    return out


def caller_params(func: FuncFacts) -> list[str]:
    """Positional parameters as a caller fills them (``self``/``cls`` of a method aside;
    never a keyword-only one: ``f(1, 0)`` of ``def f(value, *extra, limit=None)`` puts
    ``0`` in ``extra``, not in ``limit``)."""
    params = positional(func)
    if func.cls is not None and params and params[0] in ("self", "cls"):
        params = params[1:]
    return params


def _converted(func: FuncFacts, name: str, value: object, line: int | None) -> object:
    """``value`` after the body's one binding of ``name``, when that is ``name =
    int(name)`` (or ``float``/``bool``) of a number, above ``line``; else
    :data:`_UNKNOWN`."""
    at = func.bound_lines.get(name, ())
    ref = func.local_calls.get(name)
    if line is None or len(at) != 1 or at[0] >= line or ref is None or len(ref) != 1:
        return _UNKNOWN
    convert = _CONVERSIONS.get(ref[0])
    if convert is None or type(value) not in (int, float, bool):
        return _UNKNOWN
    calls = [c for c in func.call_sites if c.line == at[0] and c.ref == ref]
    if len(calls) != 1 or calls[0].args != (("name", name),) or calls[0].keywords:
        return _UNKNOWN
    try:
        return convert(value)
    except (ValueError, OverflowError):
        return _UNKNOWN
