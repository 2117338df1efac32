"""What to pass instead, in words, from a condition over a public call's parameters.

:func:`errdex.analyze.param_requirement.param_requirement` finds the condition under which a raise
fires, said in the parameters of a public entry point that passes them on unchanged
(``k < 0`` for ``getrandbits(k)``). A caller reads "pass `k` as a non-negative value"
faster than "so that `k >= 0` holds", and the two say the same only when the condition
has a shape whose negation words exactly: an ``isinstance`` test, a comparison of a
parameter (or its ``len``) with a literal, a ``None`` test, membership in a literal
collection (of literals or the module's public constants), truthiness, ``callable``
and ``hasattr``, and ``and``/``or`` of those
(two parameters that may not both be given). Any other shape gives None, and the
solution keeps the condition in code.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from .guards import code, has_private
from .parsed import len_of_name, parse_guard

__all__ = ["Need", "needs", "pass_clause"]

#: A comparison's operator when it must not hold.
_OPPOSITE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
#: ``c < p`` read as ``p > c``.
_MIRRORED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.Gt,
    ast.Gt: ast.Lt,
    ast.LtE: ast.GtE,
    ast.GtE: ast.LtE,
    ast.Eq: ast.Eq,
    ast.NotEq: ast.NotEq,
}
_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


@dataclass(frozen=True, slots=True)
class Need:
    """What one parameter must be: ``phrase`` is a noun phrase ("a non-negative value")."""

    param: str
    phrase: str
    #: How many ways out the phrase joins with "or" (``None`` or an ``int``).
    ways: int = 1


def _literal(node: ast.expr) -> bool:
    """A constant as written (``0``, ``-1``, ``'r'``, ``None``), no name or call."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _number(node.operand)
    return isinstance(node, ast.Constant) and node.value is not Ellipsis


def _named(node: ast.expr, params: frozenset[str]) -> bool:
    """A constant by its public name (``FIRST_COMPLETED``, ``socket.AF_INET``): the
    caller's condition reads nothing else than its parameters and the module's
    constants (:func:`errdex.analyze.param_requirement.module_constants`), so a name
    that is no parameter, ``self`` or ``cls`` is one of those."""
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    return (
        isinstance(root, ast.Name)
        and root.id not in params
        and root.id not in ("self", "cls")
        and not has_private(ast.unparse(node))
    )


def _number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _number(node.operand)
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    )


def _value(node: ast.expr) -> object:
    return ast.literal_eval(node)


def _joined(items: list[str], last: str) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def _types(node: ast.expr) -> str | None:
    """``int`` or ``(int, float)`` as "`int` or `float`"; None for anything computed."""
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    names = []
    for part in parts:
        if not isinstance(part, (ast.Name, ast.Attribute)):
            return None
        text = ast.unparse(part)
        if has_private(text):
            return None
        names.append(code(text))
    return _joined(names, "or") if names else None


def _bound(op: type[ast.cmpop], literal: ast.expr, of: str = "a value") -> str | None:
    """A comparison that must hold, as a noun phrase: ``>= 0`` "a non-negative value"."""
    shown = code(ast.unparse(literal))
    if op in _ORDER:
        if not _number(literal):
            return None  # strings and bytes order by character: no words for that
        words = {
            ast.Lt: "less than",
            ast.LtE: "of at most" if of == "a value" else "at most",
            ast.Gt: "greater than",
            ast.GtE: "of at least" if of == "a value" else "at least",
        }[op]
        return f"{of} {words} {shown}"
    if op is ast.Eq:
        return shown if of == "a value" else f"{of} {shown}"
    if op is ast.NotEq:
        return f"{of} other than {shown}"
    return None


def _compare(node: ast.Compare, truth: bool, params: frozenset[str]) -> list[Need] | None:
    if len(node.ops) == 2:  # ``lo <= p <= hi``
        return _between(node, truth, params)
    if len(node.ops) != 1:
        return None
    op: type[ast.cmpop] = type(node.ops[0])
    left, right = node.left, node.comparators[0]
    if not _subject(left, params) and _subject(right, params) and op in _MIRRORED:
        left, right, op = right, left, _MIRRORED[op]
    subject = _subject(left, params)
    if subject is None:
        return None
    param, sized = subject
    if not truth:
        op = _OPPOSITE[op]
    if op in (ast.In, ast.NotIn):
        if sized or not isinstance(right, (ast.Tuple, ast.List, ast.Set)) or not right.elts:
            return None
        if not all(_literal(e) or _named(e, params) for e in right.elts):
            return None
        shown = [code(ast.unparse(e)) for e in right.elts]
        if op is ast.In:
            return [Need(param, f"one of {_joined(shown, 'or')}")]
        return [Need(param, f"a value other than {_joined(shown, 'or')}")]
    if op in (ast.Is, ast.IsNot):
        if sized or not (isinstance(right, ast.Constant) and right.value is None):
            return None
        return [Need(param, "`None`" if op is ast.Is else "a value other than `None`")]
    if _named(right, params) and op in (ast.Eq, ast.NotEq) and not sized:
        phrase = _bound(op, right)  # ``body_enc == SHORTEST``: the module's constant
        return [Need(param, phrase)] if phrase else None
    if not _literal(right):
        return None
    if sized:
        return _length(param, op, right)
    phrase = _bound(op, right)
    return [Need(param, phrase)] if phrase else None


def _length(param: str, op: type[ast.cmpop], literal: ast.expr) -> list[Need] | None:
    """``len(p)`` compared with a number."""
    if not _number(literal):
        return None
    value = _value(literal)
    if (op in (ast.Gt, ast.NotEq) and value == 0) or (op is ast.GtE and value == 1):
        return [Need(param, "a non-empty value")]
    if op is ast.Eq and value == 0:
        return [Need(param, "an empty value")]
    phrase = _bound(op, literal, of="a value of length")
    return [Need(param, phrase)] if phrase else None


def _subject(node: ast.expr, params: frozenset[str]) -> tuple[str, bool] | None:
    """``p`` as ``(p, False)``, ``len(p)`` as ``(p, True)``."""
    if isinstance(node, ast.Name) and node.id in params:
        return node.id, False
    name = len_of_name(node)
    return (name, True) if name is not None and name in params else None


def _between(node: ast.Compare, truth: bool, params: frozenset[str]) -> list[Need] | None:
    """``lo <= p <= hi`` holding (a range); not holding has no one-phrase reading."""
    low, middle, high = node.left, node.comparators[0], node.comparators[1]
    ops = [type(o) for o in node.ops]
    if not truth or any(o not in (ast.Lt, ast.LtE) for o in ops):
        return None
    subject = _subject(middle, params)
    if subject is None or subject[1] or not (_number(low) and _number(high)):
        return None
    lo, hi = code(ast.unparse(low)), code(ast.unparse(high))
    first = "at least" if ops[0] is ast.LtE else "greater than"
    second = "at most" if ops[1] is ast.LtE else "less than"
    first = f"of {first}" if first == "at least" else first
    return [Need(subject[0], f"a value {first} {lo} and {second} {hi}")]


def _call(node: ast.Call, truth: bool, params: frozenset[str]) -> list[Need] | None:
    if not isinstance(node.func, ast.Name) or node.keywords:
        return None
    name, args = node.func.id, node.args
    if not args or not isinstance(args[0], ast.Name) or args[0].id not in params:
        return None
    param = args[0].id
    if name == "isinstance" and len(args) == 2:
        types = _types(args[1])
        if types is None:
            return None
        return [Need(param, f"{'' if truth else 'anything but '}an instance of {types}")]
    if name == "callable" and len(args) == 1:
        return [Need(param, "a callable" if truth else "a value that is not callable")]
    if name == "hasattr" and len(args) == 2:
        attr = args[1]
        if not (isinstance(attr, ast.Constant) and isinstance(attr.value, str)):
            return None
        if has_private(attr.value):
            return None
        has = "with" if truth else "without"
        return [Need(param, f"an object {has} an attribute {code(attr.value)}")]
    return None


def _need(node: ast.expr, truth: bool, params: frozenset[str]) -> list[Need] | None:
    """What the parameters must be for ``node`` to be ``truth``; one Need per parameter
    it reads, all of which must hold. None when it cannot be said exactly that way
    (``a or b`` holding needs only one of them: see :func:`needs`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _need(node.operand, not truth, params)
    if isinstance(node, ast.Name) and node.id in params:
        if truth:
            return [Need(node.id, "a true value (not empty, zero, `None` or `False`)")]
        return [Need(node.id, "a false value (empty, zero, `None` or `False`)")]
    if isinstance(node, ast.Compare):
        return _compare(node, truth, params)
    if isinstance(node, ast.Call):
        return _call(node, truth, params)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) is truth:
        out: list[Need] = []  # ``a and b`` holding, ``a or b`` failing: each part
        for value in node.values:
            part = _need(value, truth, params)
            if part is None:
                return None
            out.extend(part)
        return _merged(out)
    return None


def _merged(items: list[Need]) -> list[Need] | None:
    """One Need per parameter: two bounds on one ("at least 1", "at most 9") joined."""
    by: dict[str, list[str]] = {}
    for item in items:
        by.setdefault(item.param, []).append(item.phrase)
    out = []
    for param, phrases in by.items():
        if len(phrases) == 1:
            out.append(Need(param, phrases[0]))
            continue
        if any(p.startswith("`") for p in phrases):
            return None  # "`None`" and another: one value and a kind of value
        if all(p.startswith("a value ") for p in phrases):  # two bounds
            rest = [p.removeprefix("a value ").removeprefix("of ") for p in phrases[1:]]
            out.append(Need(param, f"{phrases[0]} and {' and '.join(rest)}"))
        else:
            out.append(Need(param, " and ".join(map(_zero_words, phrases))))
    return out


def _plain(item: Need) -> Need:
    return Need(item.param, _zero_words(item.phrase), item.ways)


def _zero_words(phrase: str) -> str:
    """A lone bound at zero in its usual word ("a non-negative value")."""
    for zero in ("`0`", "`0.0`"):
        if phrase == f"a value of at least {zero}":
            return "a non-negative value"
        if phrase == f"a value greater than {zero}":
            return "a positive value"
    return phrase


def needs(fires: str, params: frozenset[str]) -> tuple[str, list[Need]] | None:
    """How the parameters must be passed so that ``fires`` is false: ``("all", …)`` when
    each Need must hold, ``("any", …)`` when one is enough (``a and b`` fires: either
    not ``a`` or not ``b``)."""
    found = _needs(fires, params)
    if found is None:
        return None
    return found[0], [_plain(i) for i in found[1]]


def _needs(fires: str, params: frozenset[str]) -> tuple[str, list[Need]] | None:
    node = parse_guard(fires)
    if node is None:
        return None
    whole = _need(node, False, params)
    if whole is not None:
        return "all", whole
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        out = []
        for value in node.values:
            part = _need(value, False, params)
            if part is None or len(part) != 1:
                return None
            out.extend(part)
        return "any", _alternatives(out)
    return None


def _alternatives(items: list[Need]) -> list[Need]:
    """One Need per parameter, its ways out joined with "or" (``rounds is None or
    isinstance(rounds, int)``: "`None` or an instance of `int`")."""
    by: dict[str, list[str]] = {}
    for item in items:
        by.setdefault(item.param, []).append(item.phrase)
    return [Need(param, _either(phrases), len(phrases)) for param, phrases in by.items()]


def _either(phrases: list[str]) -> str:
    """Ways out joined with "or"; set apart with "either …, or …" where one of them has an
    "or" of its own ("anything but an instance of `str` or `bytes`")."""
    words = [_zero_words(p) for p in phrases]
    if len(words) > 1 and any(" or " in w for w in words):
        return "either " + ", or ".join(words)
    return " or ".join(words)


def pass_clause(
    fires: str, params: frozenset[str], call: str, defaults: Mapping[str, object]
) -> str | None:
    """The imperative that says what to pass to ``call`` so that ``fires`` is false
    ("Pass `k` to `getrandbits()` as a non-negative value"); None for other shapes.
    ``defaults``: the entry point's constant defaults, to say "(its default)"."""
    found = needs(fires, params)
    if found is None:
        return None
    how, items = found
    if how == "any" and len(items) > 1 and all(i.phrase == "`None`" for i in items):
        names = " and ".join(code(i.param) for i in items)
        other = "the other" if len(items) == 2 else "the others"
        return f"Pass at most one of {names} to {code(call)} (leave {other} `None`)"
    if how == "any" and len(items) > 1 and all(i.phrase.startswith("a false") for i in items):
        names = " and ".join(code(i.param) for i in items)
        return f"Pass at most one of {names} to {code(call)} as a true value"
    parts = [f"{code(i.param)} as {i.phrase}{_default_note(i, defaults)}" for i in items]
    if len(parts) == 1:
        param, _, phrase = parts[0].partition(" as ")
        return f"Pass {param} to {code(call)} as {phrase}"
    joiner = " or " if how == "any" else " and "
    if any(i.ways > 1 for i in items):
        joiner = f",{joiner}"  # "`a` as X, or `b` as Y or Z"
    either = "either " if how == "any" else ""
    return f"When calling {code(call)}, pass {either}{joiner.join(parts)}"


def _default_note(item: Need, defaults: Mapping[str, object]) -> str:
    """ "(its default)" when the value needed is the parameter's default: leaving it out
    is a fix too."""
    if item.param not in defaults or defaults[item.param] is not None:
        return ""
    if item.phrase == "`None`":
        return " (its default, so leaving it out also works)"
    if item.ways > 1 and item.phrase.startswith("`None` or "):
        return " (`None` is its default: leaving it out also works)"
    return ""
