"""A guard evaluated on the values a caller is known to pass: true, false or unknown.

``if mode not in ("r", "w"): raise ValueError`` cannot fire from ``open_it(mode="r")``: a
caller whose constant arguments make a guard false is no way to the raise. Only literals
of immutable types count as known (a list passed in may be changed before the check),
and anything the evaluator does not understand is unknown, never false.

A module-level object bound once and never rebound (``MISSING = _MISSING_TYPE()``) is
known by name only, as a :class:`Global`: ``default_factory is not MISSING`` is false
where the caller left ``default_factory=MISSING``, and any other use of it is unknown.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from .guards import parse_guard
from .value_ranges import Interval, compare_interval

__all__ = [
    "COMPARE",
    "EMPTY_KWARGS",
    "IMMUTABLE",
    "OPAQUE",
    "Built",
    "Global",
    "Made",
    "ModuleRef",
    "Named",
    "OneOf",
    "guard_value",
    "is_immutable",
]

IMMUTABLE = (type(None), bool, int, float, complex, str, bytes)
_UNKNOWN = object()
_MAX_DEPTH = 40

#: Each comparison operator as a function (``in`` with its operands in reading order).
COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: operator.contains(b, a),
    ast.NotIn: lambda a, b: not operator.contains(b, a),
}
#: Methods of ``str``/``bytes``/``tuple`` that only read their object and return a small
#: value: ``mode.startswith("r")`` on a known ``mode`` is decided.
_PURE_METHODS = frozenset(
    {
        "startswith",
        "endswith",
        "lower",
        "upper",
        "strip",
        "lstrip",
        "rstrip",
        "isdigit",
        "isalpha",
        "isalnum",
        "isidentifier",
        "isspace",
        "islower",
        "isupper",
        "count",
        "find",
        "index",
    }
)
_ARITHMETIC: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mod: operator.mod,
    ast.FloorDiv: operator.floordiv,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.LShift: operator.lshift,  # ``1<<16`` in ``not 0 <= time_mid < 1<<16``
}
#: ``a << n`` is computed for ``n`` up to this.
_MAX_SHIFT = 256
#: A value built while evaluating is kept only up to this length (``s + s`` in a loop).
_MAX_BUILT = 10_000
#: Builtins that turn a known number into another, without side effects.
_CONVERSIONS: dict[str, Callable[[Any], Any]] = {
    "int": int,
    "float": float,
    "abs": abs,
    "bool": bool,
}
_TYPES: dict[str, type] = {
    t.__name__: t for t in (bool, int, float, complex, str, bytes, tuple, type(None))
}


class Global:
    """A module's object bound once (``dataclasses.MISSING``), known by its qualified name:
    two of the same name are the same object; nothing else about it is known."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Global) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("Global", self.name))

    def __bool__(self) -> bool:
        raise TypeError("the truth of an object known by name only is not known")

    def __repr__(self) -> str:
        return f"Global({self.name!r})"


class Named(Global):
    """A module's name bound once to a literal (``zipfile.ZIP_DEFLATED``), known by its
    qualified name alone: its value may be set again by the module's users, but a name
    compared with itself is equal (``compression != ZIP_STORED`` is false where the
    caller passed ``zipfile.ZIP_STORED``); anything else about it is unknown."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Named({self.name!r})"


class ModuleRef(tuple[str, ...]):
    """``zipfile.ZIP_DEFLATED`` as a caller's local may hold it, before the name is
    resolved (:func:`errdex.analyze.settled.named_value`): unknown until then."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"ModuleRef({'.'.join(self)!r})"


class OneOf:
    """A caller's local that holds one of a few constants where it makes the call
    (``tar_mode = 'w:' + compressions[ext] if ext in compressions else 'w'``): a condition
    is judged on each of them in turn (:func:`errdex.analyze.value_sets.each_choice`),
    never on this object, which is unknown to :func:`guard_value`."""

    __slots__ = ("values",)

    def __init__(self, values: tuple[object, ...]) -> None:
        self.values = values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneOf) and other.values == self.values

    def __hash__(self) -> int:
        return hash(("OneOf", self.values))

    def __repr__(self) -> str:
        return f"OneOf({self.values!r})"


class Built(tuple[object, ...]):
    """A list or tuple display a call passes (``getattr_static(cl, name, [])``), known by
    its items: the call builds it, so it is a new object, the same as nothing a name
    holds (``default is not _sentinel`` is true for it). Its type is not known (a list or
    a tuple), so neither is its equality with anything nor an ``isinstance`` of it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Built({tuple(self)!r})"


class Made:
    """A value a call builds of which nothing is known but that it is no ``None``,
    ``True`` or ``False``: a dict or set display, a comprehension, a lambda, an f-string.
    ``callback is None`` is false for ``lambda: None``. ``fresh``: a new object, the same
    as nothing a name holds (an f-string is not: ``f"{s}"`` may be ``s`` itself)."""

    __slots__ = ("fresh",)

    def __init__(self, fresh: bool) -> None:
        self.fresh = fresh

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Made) and other.fresh == self.fresh

    def __hash__(self) -> int:
        return hash(("Made", self.fresh))

    def __bool__(self) -> bool:
        raise TypeError("the truth of a value known only as built by the call is not known")

    def __repr__(self) -> str:
        return f"Made({self.fresh!r})"


class _Opaque:
    """An element of a known-length ``*args`` whose value is not known."""

    def __repr__(self) -> str:
        return "OPAQUE"


#: ``add_options`` calls ``self.add_option(option)``: ``args`` is one unknown element.
OPAQUE = _Opaque()
#: ``**kwargs`` of a call that passes no keyword it collects (one that does is a
#: read-only mapping of those keywords, values not known as :data:`OPAQUE`).
EMPTY_KWARGS: MappingProxyType[str, object] = MappingProxyType({})


def is_immutable(value: object) -> bool:
    if isinstance(value, (Global, Interval, Made)) or value is OPAQUE:
        return True  # the name stays bound to the same object
    if isinstance(value, OneOf):
        return all(is_immutable(v) for v in value.values)
    if isinstance(value, MappingProxyType):  # a ``**kwargs``: its keys are what is known
        return all(is_immutable(v) for v in value.values())
    if isinstance(value, tuple):
        return all(is_immutable(v) for v in value)
    return isinstance(value, IMMUTABLE)


def guard_value(text: str, known: Mapping[str, object]) -> bool | None:
    """The guard's truth with ``known`` names bound; None when it cannot be decided."""
    node = parse_guard(text)
    if node is None:
        return None
    value = _value(node, known, 0)
    if value is _UNKNOWN:
        return None
    try:
        return bool(value)
    except Exception:  # a value whose truth raises: undecided
        return None


def _value(node: ast.expr, known: Mapping[str, object], depth: int) -> object:
    if depth > _MAX_DEPTH:
        return _UNKNOWN
    try:
        value = _value_of(node, known, depth + 1)
    except Exception:  # comparing a str with an int, say: undecided, not false
        return _UNKNOWN
    return _UNKNOWN if value is OPAQUE or isinstance(value, (OneOf, ModuleRef)) else value


def _value_of(node: ast.expr, known: Mapping[str, object], depth: int) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in known:
            return known[node.id]  # a OneOf is unknown: :func:`_value` says so
        return {"None": None, "True": True, "False": False}.get(node.id, _UNKNOWN)
    if isinstance(node, ast.Tuple):
        items = [_value(e, known, depth) for e in node.elts]
        return _UNKNOWN if any(i is _UNKNOWN for i in items) else tuple(items)
    if isinstance(node, (ast.List, ast.Set)):
        items = [_value(e, known, depth) for e in node.elts]
        if any(i is _UNKNOWN for i in items):
            return _UNKNOWN
        return frozenset(items) if isinstance(node, ast.Set) else tuple(items)
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, known, depth)
        if operand is _UNKNOWN:
            return _UNKNOWN
        if isinstance(node.op, ast.Not):
            return not operand
        if isinstance(node.op, ast.USub):
            return -operand  # type: ignore[operator]
        return _UNKNOWN
    if isinstance(node, ast.BoolOp):
        return _bool_op(node, known, depth)
    if isinstance(node, ast.Compare):
        return _compare(node, known, depth)
    if isinstance(node, ast.Call):
        return _call(node, known, depth)
    if isinstance(node, ast.Subscript):
        return _subscript(node, known, depth)
    if isinstance(node, ast.BinOp):
        return _binop(node, known, depth)
    return _UNKNOWN


def _subscript(node: ast.Subscript, known: Mapping[str, object], depth: int) -> object:
    """``date_time[0]`` or ``mode[:1]`` of a known tuple, string or bytes."""
    subject = _value(node.value, known, depth)
    if not isinstance(subject, (str, bytes, tuple)):
        return _UNKNOWN
    if isinstance(node.slice, ast.Slice):
        parts: list[int | None] = []
        for part in (node.slice.lower, node.slice.upper, node.slice.step):
            value = None if part is None else _value(part, known, depth)
            if not (value is None or type(value) is int):
                return _UNKNOWN  # unknown, or not an integer
            parts.append(value)
        return subject[slice(*parts)]
    index = _value(node.slice, known, depth)
    if type(index) is not int:
        return _UNKNOWN
    return subject[index]  # an IndexError is caught by _value: undecided


def _binop(node: ast.BinOp, known: Mapping[str, object], depth: int) -> object:
    compute = _ARITHMETIC.get(type(node.op))
    if compute is None:
        return _UNKNOWN
    left = _value(node.left, known, depth)
    right = _value(node.right, known, depth)
    if left is _UNKNOWN or right is _UNKNOWN:
        return _UNKNOWN
    if isinstance(node.op, ast.Mod) and isinstance(left, (str, bytes)):
        return _UNKNOWN  # formatting: not a condition's arithmetic
    if isinstance(node.op, ast.LShift) and not (type(right) is int and 0 <= right <= _MAX_SHIFT):
        return _UNKNOWN  # ``1 << n`` of a large ``n`` is a number too big to build
    result = compute(left, right)
    if isinstance(result, (str, bytes, tuple)) and len(result) > _MAX_BUILT:
        return _UNKNOWN
    return result if is_immutable(result) else _UNKNOWN


def _holds_global(value: object) -> bool:
    """A value known by name only, or holding an element not known: only its identity
    (or its length) may be used."""
    if isinstance(value, tuple):
        return any(_holds_global(v) for v in value)
    return isinstance(value, (Global, Interval)) or value is OPAQUE


def _bool_op(node: ast.BoolOp, known: Mapping[str, object], depth: int) -> object:
    """Three-valued ``and``/``or``: a false part decides ``and``, a true part ``or``."""
    is_and = isinstance(node.op, ast.And)
    undecided = False
    for part in node.values:
        value = _value(part, known, depth)
        if value is _UNKNOWN:
            undecided = True
        elif bool(value) is not is_and:
            return value
    return _UNKNOWN if undecided else is_and


_EQUALITY = (ast.Eq, ast.NotEq)


def _compare(node: ast.Compare, known: Mapping[str, object], depth: int) -> object:
    left = _value(node.left, known, depth)
    if left is _UNKNOWN:
        return _UNKNOWN
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = _value(right_node, known, depth)
        compare = COMPARE.get(type(op))
        if right is _UNKNOWN or compare is None:
            return _UNKNOWN
        if isinstance(left, Interval) or isinstance(right, Interval):
            verdict = compare_interval(op, left, right)  # ``0 <= time_mid < 1<<16``
            if verdict is None:
                return _UNKNOWN
            if not verdict:
                return False
            left = right
            continue
        if isinstance(left, Made) or isinstance(right, Made):
            if not isinstance(op, (ast.Is, ast.IsNot)) or not _never_same(left, right):
                return _UNKNOWN
            if isinstance(op, ast.Is):
                return False
            left = right
            continue
        if isinstance(left, Built) is not isinstance(right, Built) and isinstance(
            op, (ast.Is, ast.IsNot)
        ):
            if isinstance(op, ast.Is):  # a new object is none other
                return False
            left = right
            continue
        if isinstance(left, Built) or isinstance(right, Built):
            return _UNKNOWN  # a list is equal to no tuple: its type is not known
        if _holds_global(left) or _holds_global(right):
            if isinstance(left, Named) and left == right and isinstance(op, _EQUALITY):
                if isinstance(op, ast.NotEq):  # a module's constant is equal to itself
                    return False
                left = right
                continue
            if not (isinstance(op, (ast.Is, ast.IsNot)) and left == right):
                return _UNKNOWN  # two names may hold one object; == may be anything
            if isinstance(op, ast.IsNot):
                return False
            left = right
            continue
        if isinstance(op, (ast.Is, ast.IsNot)) and not (
            left in (None, True, False) or right in (None, True, False)
        ):
            return _UNKNOWN  # identity of other values is an implementation detail
        if not compare(left, right):
            return False
        left = right
    return True


def _never_same(left: object, right: object) -> bool:
    """One side is :class:`Made` and the two are surely not one object: the other is
    ``None``, ``True`` or ``False``, or the made one is new and the other no made one."""
    made, other = (left, right) if isinstance(left, Made) else (right, left)
    assert isinstance(made, Made)
    if other is None or other is True or other is False:
        return True
    return made.fresh and not isinstance(other, Made)


def _call(node: ast.Call, known: Mapping[str, object], depth: int) -> object:
    if node.keywords:
        return _UNKNOWN
    if isinstance(node.func, ast.Attribute):
        return _method(node, node.func, known, depth)
    if not isinstance(node.func, ast.Name):
        return _UNKNOWN
    name = node.func.id
    if name in known:
        return _UNKNOWN  # the builtin is shadowed
    if name == "isinstance" and len(node.args) == 2:
        subject = _value(node.args[0], known, depth)
        if getattr(subject, "no_class", False) and _is_name(node.args[1], "type", known):
            return False  # a new instance of a plain class (:class:`.fixed_args.Instance`)
        types = _types(node.args[1])
        if subject is _UNKNOWN or types is None or _holds_global(subject):
            return _UNKNOWN
        if isinstance(subject, Made):  # an f-string is a str, a lambda no builtin type
            return _UNKNOWN
        if isinstance(subject, Built) and tuple in types:  # or a list: not known which
            return _UNKNOWN
        return isinstance(subject, types)
    if name in _CONVERSIONS and len(node.args) == 1:  # ``int(step)`` of a known number
        subject = _value(node.args[0], known, depth)
        if type(subject) not in (bool, int, float):
            return _UNKNOWN
        return _CONVERSIONS[name](subject)
    if name == "len" and len(node.args) == 1:
        subject = _value(node.args[0], known, depth)
        # a ``**kwargs`` a call fills (:data:`EMPTY_KWARGS`, or its keywords): known in length
        sized = (str, bytes, tuple, MappingProxyType)
        if isinstance(subject, Made) and callable(length := getattr(subject, "length", None)):
            return length()  # a ``*args`` known by its least length (.starred_args)
        return len(subject) if isinstance(subject, sized) else _UNKNOWN
    return _UNKNOWN


def _method(node: ast.Call, func: ast.Attribute, known: Mapping[str, object], depth: int) -> object:
    """A pure method of a known string, bytes or tuple (``mode.startswith("r")``); a
    lookup in a ``**kwargs`` known to lack the key (:class:`.fixed_args.KeysAtMost`)."""
    if func.attr in ("get", "pop"):
        lookup = getattr(_value(func.value, known, depth), "lookup", None)
        args = [_value(a, known, depth) for a in node.args]
        if lookup is None or any(a is _UNKNOWN for a in args):
            return _UNKNOWN
        return lookup(func.attr, *args)  # a key it may hold raises: undecided
    if func.attr not in _PURE_METHODS:
        return _UNKNOWN
    subject = _value(func.value, known, depth)
    if not isinstance(subject, (str, bytes, tuple)) or _holds_global(subject):
        return _UNKNOWN
    args = [_value(a, known, depth) for a in node.args]
    if any(a is _UNKNOWN for a in args):
        return _UNKNOWN
    method = getattr(subject, func.attr, None)
    if method is None:
        return _UNKNOWN
    result = method(*args)  # a wrong argument type raises: caught by _value
    return result if is_immutable(result) else _UNKNOWN


def _is_name(node: ast.expr, name: str, known: Mapping[str, object]) -> bool:
    """``node`` is the builtin ``name``, not shadowed by a known value."""
    return isinstance(node, ast.Name) and node.id == name and name not in known


def _types(node: ast.expr) -> tuple[type, ...] | None:
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    out = []
    for item in items:
        if not isinstance(item, ast.Name) or item.id not in _TYPES:
            return None
        out.append(_TYPES[item.id])
    return tuple(out)
