"""Values that make a record's guards true, found by evaluating the guards on trial values.

A guard is evaluated here only over a whitelist of syntax (constants, names, ``not``,
``and``/``or``, comparisons, arithmetic without ``**``, tuples) and a few builtins (``len``,
``isinstance``, ``callable``, ``abs``): nothing of the repository runs in this process.
A name errdex has no value for makes the guard *unknown*, and three-valued logic carries
that through (``x < 0 or y`` is true when ``x < 0`` is). A trial value is kept when no
guard is false on it and one of the guards naming the parameter is true; the sandbox
then says whether the call really raises there.

:mod:`errdex.analyze.guard_eval` decides a guard on a caller's immutable literals; this
one also searches for values, with an empty instance of an argument's type and a key no
container holds, so it keeps its own rules (the operator table is the same).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from errdex.analyze.guard_eval import COMPARE

__all__ = ["EMPTY", "MISSING", "Unknown", "evaluate", "rules_out", "solve", "trials", "truth"]

#: The value put for ``x not in C``: a string no test's container holds.
MISSING = "__errdex_missing__"
#: Guard kinds whose text is a condition that held on the way to the raise.
CONDITION_KINDS = frozenset({"if", "elif", "else", "while", "assert"})


class Unknown(Exception):
    """The guard names something errdex has no value for."""


class _Empty:
    """An empty instance of the argument's own type (``type(G)()``): the trial value for
    ``len(G) == 0`` and ``not G``; what else it is stays unknown."""

    def __len__(self) -> int:
        return 0

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "EMPTY"


EMPTY: Any = _Empty()

_TYPES: dict[str, type] = {
    t.__name__: t for t in (int, float, str, bool, list, tuple, dict, set, frozenset, bytes)
}
_CONSTANTS: dict[str, Any] = {"None": None, "True": True, "False": False}
_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
#: Trial values tried after those drawn from the guard's own constants.
_TRIALS: tuple[Any, ...] = (
    -1, 0, 1, 2, 3, -0.5, 0.5, 1.5, 1000, None, True, False, "", MISSING, [], [0, 0], (), {},
    EMPTY,
)  # fmt: skip


def _known(value: Any) -> Any:
    if value is EMPTY:
        raise Unknown("an empty instance")
    return value


def _compare(op: ast.cmpop, left: Any, right: Any) -> bool:
    if isinstance(op, (ast.Is, ast.IsNot)) and (left is None or right is None):
        same = left is right  # EMPTY is not None
        return same if isinstance(op, ast.Is) else not same
    if isinstance(op, (ast.In, ast.NotIn)) and left is EMPTY:
        raise Unknown("an empty instance in a container")
    if isinstance(op, (ast.In, ast.NotIn)) and right is EMPTY:
        return isinstance(op, ast.NotIn)
    try:
        return bool(COMPARE[type(op)](_known(left), _known(right)))
    except (TypeError, ValueError, KeyError) as exc:
        raise Unknown(str(exc)) from exc


def _compare_chain(node: ast.Compare, env: Mapping[str, Any]) -> bool:
    left = evaluate(node.left, env)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        if isinstance(op, (ast.In, ast.NotIn)) and left == MISSING:
            try:
                right = evaluate(right_node, env)
            except Unknown:  # a container the test built: it does not hold errdex's string
                right = ()
        else:
            right = evaluate(right_node, env)
        if not _compare(op, left, right):
            return False
        left = right
    return True


def _bool_op(node: ast.BoolOp, env: Mapping[str, Any]) -> bool:
    unknown = False
    want = isinstance(node.op, ast.Or)  # the value that decides
    for value in node.values:
        try:
            got = bool(evaluate(value, env))
        except Unknown:
            unknown = True
            continue
        if got is want:
            return want
    if unknown:
        raise Unknown("part of the condition")
    return not want


def _call(node: ast.Call, env: Mapping[str, Any]) -> Any:
    if not isinstance(node.func, ast.Name) or node.keywords:
        raise Unknown("a call")
    name = node.func.id
    if name == "isinstance" and len(node.args) == 2:
        return _isinstance(node.args, env)
    args = [evaluate(a, env) for a in node.args]
    if name == "len" and len(args) == 1:
        if args[0] is EMPTY:
            return 0
        try:
            return len(args[0])
        except TypeError as exc:
            raise Unknown(str(exc)) from exc
    if name in _CONVERSIONS and len(args) == 1:
        try:
            return _CONVERSIONS[name](_known(args[0]))
        except (TypeError, ValueError) as exc:
            raise Unknown(str(exc)) from exc
    if name == "callable" and len(args) == 1:
        return callable(_known(args[0]))
    if name == "abs" and len(args) == 1:
        try:
            return abs(_known(args[0]))
        except TypeError as exc:
            raise Unknown(str(exc)) from exc
    raise Unknown(f"a call of {name}")


#: Builtins a guard may apply to a literal (``len(x) != len(set(x))``, ``min(x) < 0``).
_CONVERSIONS: dict[str, Callable[[Any], Any]] = {
    "set": set, "frozenset": frozenset, "list": list, "tuple": tuple, "sorted": sorted,
    "min": min, "max": max, "sum": sum, "bool": bool,
}  # fmt: skip
#: Classes that hold None: ``isinstance(None, K)`` is false for any other ``K``.
_HOLD_NONE = frozenset({"object", "NoneType", "Hashable"})


def _isinstance(args: list[ast.expr], env: Mapping[str, Any]) -> bool:
    """``isinstance(x, K)``; for ``x`` None, false also where ``K`` is the repository's
    class (``not isinstance(G, nx.Graph)`` is true on None)."""
    value = _known(evaluate(args[0], env))
    try:
        kinds = evaluate(args[1], env)
    except Unknown:
        named = {n.id for n in ast.walk(args[1]) if isinstance(n, ast.Name)}
        named |= {n.attr for n in ast.walk(args[1]) if isinstance(n, ast.Attribute)}
        if value is None and not named & _HOLD_NONE:
            return False
        raise
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if not all(isinstance(k, type) for k in kinds):
        raise Unknown("isinstance of a class errdex does not know")
    return isinstance(value, kinds)


def evaluate(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """The value of ``node`` over ``env`` and the whitelist, or :class:`Unknown`."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        if node.id in _TYPES:
            return _TYPES[node.id]
        raise Unknown(node.id)
    if isinstance(node, ast.UnaryOp):
        value = evaluate(node.operand, env)
        if isinstance(node.op, ast.Not):
            return not value
        if isinstance(node.op, ast.USub) and isinstance(_known(value), (int, float)):
            return -value
        raise Unknown("an operator")
    if isinstance(node, ast.BoolOp):
        return _bool_op(node, env)
    if isinstance(node, ast.Compare):
        return _compare_chain(node, env)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _known(evaluate(node.left, env)), _known(evaluate(node.right, env))
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)):
            raise Unknown("arithmetic on what is not a number")
        try:
            return _BINARY[type(node.op)](left, right)
        except (ArithmeticError, ValueError) as exc:
            raise Unknown(str(exc)) from exc
    if isinstance(node, ast.Tuple):
        return tuple(evaluate(e, env) for e in node.elts)
    if isinstance(node, ast.Call):
        return _call(node, env)
    raise Unknown(type(node).__name__)


def truth(node: ast.expr, env: Mapping[str, Any]) -> bool | None:
    try:
        return bool(evaluate(node, env))
    except Unknown:
        return None
    except Exception:  # a guard this evaluator has no rule for
        return None


def parse_guards(texts: list[str]) -> list[ast.expr]:
    """The guards that are conditions, parsed; the others (loops, handlers) are left out."""
    out: list[ast.expr] = []
    for text in texts:
        try:
            out.append(ast.parse(text, mode="eval").body)
        except (SyntaxError, ValueError, RecursionError):
            continue
    return out


def rules_out(guards: list[ast.expr], env: Mapping[str, Any]) -> bool:
    """Whether a guard is false over ``env`` (an unknown one rules nothing out)."""
    return any(truth(g, env) is False for g in guards)


def trials(
    guards: list[ast.expr], empty_first: bool, others: tuple[Any, ...] = ()
) -> Iterator[Any]:
    """The guards' own constants and their neighbours first (an empty instance before
    them for an argument that is an object, not a literal), then the values the call
    gives the other parameters (``s == t``), then the general trials."""
    seen: list[Any] = []
    if empty_first:
        seen.append(EMPTY)
        yield EMPTY
    for guard in guards:
        for size in _lengths(guard):
            sized = list(range(size))
            if sized not in seen:
                seen.append(sized)
                yield sized
        for node in ast.walk(guard):
            if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
                continue
            value = node.value
            if isinstance(value, (int, float)):
                near: list[Any] = [value, value + 1, value - 1, value + 0.5, value - 0.5]
            elif isinstance(value, str):
                near = [value, value + "_errdex"]
            else:
                near = [value]
            for v in near:
                if not any(v == s and type(v) is type(s) for s in seen):
                    seen.append(v)
                    yield v
    for v in (*others, *_TRIALS):
        if not _literal_value(v):
            continue
        if not any(v is s or (v == s and type(v) is type(s)) for s in seen):
            seen.append(v)
            yield v


def _lengths(guard: ast.expr) -> list[int]:
    """For ``len(x) < 3`` and the like: the lengths 3, 4 and 2 (a list of each is tried)."""
    out: list[int] = []
    for node in ast.walk(guard):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        sides = (node.left, node.comparators[0])
        if not any(
            isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "len"
            for side in sides
        ):
            continue
        for side in sides:
            if isinstance(side, ast.Constant) and type(side.value) is int and 0 <= side.value < 64:
                out += [n for n in (side.value, side.value + 1, side.value - 1) if n >= 0]
    return list(dict.fromkeys(out))


def _literal_value(value: Any) -> bool:
    """A value a trial may take: a literal (the known values include any default)."""
    return value is EMPTY or isinstance(
        value, (int, float, str, bytes, bool, type(None), list, tuple, dict)
    )


def _read(guards: list[ast.expr]) -> set[str]:
    return {n.id for g in guards for n in ast.walk(g) if isinstance(n, ast.Name)}


def solve(
    guards: list[ast.expr],
    known: Mapping[str, Any],
    params: list[str],
    limit: int = 2,
    objects: frozenset[str] = frozenset(),
) -> list[tuple[str, Any]]:
    """Up to ``limit`` (parameter, trial value) that leave no guard false and make a guard
    naming that parameter true, the other values as ``known`` has them: the first value
    that makes every guard naming it true, else the one that makes the most; for the parameters
    in ``objects`` (passed an expression, not a literal) an empty instance is tried first."""
    found: list[tuple[str, Any]] = []
    names = [
        {n.id for n in ast.walk(g) if isinstance(n, ast.Name)} for g in guards
    ]  # what each guard reads
    for param in params:
        naming = [g for g, used in zip(guards, names, strict=True) if param in used]
        if not naming:
            continue
        others = tuple(v for k, v in known.items() if k != param and k in _read(naming))
        best: tuple[int, Any] | None = None  # (guards naming it made true, the value)
        for value in trials(guards, param in objects, others):
            env = {**known, param: value}
            if any(truth(g, env) is False for g in guards):
                continue
            met = sum(bool(truth(g, env)) for g in naming)
            if met and (best is None or met > best[0]):
                best = (met, value)
            if met == len(naming):
                break
        if best is not None:
            found.append((param, best[1]))
        if len(found) >= limit:
            break
    return found
