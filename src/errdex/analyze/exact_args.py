"""Every condition on the way to a raise, said in a public call's arguments, through the
locals the raising function makes of its parameters (issue 10, b46).

``UUID(fields=...)`` raises "field 3 out of range" under ``fields is not None`` and
``not 0 <= time_hi_version < 1<<16``, with ``time_hi_version`` the third name of
``(...) = fields``; "a call of UUID() that passes fields as a value other than None, when
other conditions on the way to it also hold" hid the one that matters (paired blind
review, stop 38: misleading). ``DocTestFinder.find`` raises under ``name is None`` twice:
the second after ``name = getattr(obj, '__name__', None)``. Said here only where each
name every condition reads holds, at that condition, one of: a parameter as the caller
passed it, an item of a tuple unpacked from one (``a, b, c = fields``), or
``getattr(param, 'attr', None)``; each binding made once, outside a loop, on the
straight way to the raise (:mod:`.dominating`); each condition has a shape said
exactly (:mod:`.caller_words`, or a range an item falls outside); and no earlier
``raise`` or ``return`` on the way may fire under it (:mod:`.ways_out`; a length
check of the tuple unpacked cannot, nor ``how == 'OK'`` where ``how == 'ERROR'`` is said). Anything else: None, and the sentence says less.
"""

from __future__ import annotations

import ast
import builtins
import copy
from collections.abc import Mapping

from .caller_words import needs
from .chain_parts import signature_of
from .dominating import Binding, bindings_at, way_tests
from .file_trees import function_node
from .gathered import Gathered
from .guards import code, conjuncts, has_private, negated
from .param_requirement import call_name
from .parsed import parse_guard
from .special_words import article
from .ways_out import exit_tests, other_values, unpack_checks

__all__ = ["exact_argument"]

_BUILTINS = frozenset(dir(builtins))
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
#: A placeholder parameter standing for an item or an attribute while it is worded.
_STAND_IN = "x_b46"


def exact_argument(g: Gathered) -> tuple[str, list[str]] | None:
    """ "It comes from a call of `UUID()` that passes a `fields` whose third item is less
    than `0` or at least `65536`.", or None where a condition is not said exactly."""
    func = g.func
    if func is None or not g.source_file:
        return None
    node = function_node(g.source_file, func.line, func.name)
    tests = way_tests(node, g.site.line) if node is not None else None
    if node is None or not tests:
        return None
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    phrases: dict[str, list[str]] = {}  # parameter -> what it is, in order
    through_local = False
    unpacked: set[str] = set()
    for test in tests:
        for part in conjuncts(ast.unparse(test)):
            expr = parse_guard(part)
            names = _read(expr, params, func.bound_lines) if expr is not None else None
            if not names:
                return None
            bound = bindings_at(node, test.lineno, g.site.line, names, params)
            if bound is None or len(bound) != 1:
                return None  # two names: two bindings said in one phrase is not done here
            ((name, binding),) = bound.items()
            said = _said(part, name, binding)
            if said is None:
                return None
            through_local = through_local or binding.kind != "param"
            if binding.kind == "item":
                unpacked.add(binding.param)
            phrases.setdefault(binding.param, []).append(said)
    if not through_local:
        return None  # parameters alone: :func:`.param_requirement.param_requirement` says it
    exits = exit_tests(node, g.site.line)
    if exits is None or not unpack_checks(node, other_values(node, exits, tests), unpacked):
        return None  # an earlier raise or return may fire under what is said (``a < 0``)
    return _sentence(g, phrases)


def _read(expr: ast.expr, params: set[str], bound: Mapping[str, object]) -> set[str]:
    """The names ``expr`` reads but builtins the function does not bind (``len``)."""
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    return {n for n in names if n in params or n in bound or n not in _BUILTINS}


def _said(part: str, name: str, binding: Binding) -> str | None:
    """What ``part`` holding says of the parameter behind ``name``, as a phrase that
    follows the parameter ("as `None`", "whose third item is …")."""
    text = _folded(part)
    if text is None:
        return None
    if binding.kind == "param":
        found = needs(negated(text), frozenset({name}))
        if found is None or len(found[1]) != 1:
            return None
        return f"as {found[1][0].phrase}"
    if binding.kind == "item":
        expr = parse_guard(text)
        outside = _outside(expr, name) if expr is not None else None
        ordinal = _ORDINALS[binding.index] if binding.index < len(_ORDINALS) else None
        if outside is None or ordinal is None:
            return None
        return f"whose {ordinal} item is {outside}"
    if (
        binding.kind == "attr"
        and ast.unparse(ast.parse(text, mode="eval").body) == f"{name} is None"
    ):
        return f"that has no {code(binding.attr)} attribute (or has it set to `None`)"
    return None


def _folded(text: str) -> str | None:
    """``text`` with constant arithmetic on numbers worked out (``1<<16`` -> ``65536``)."""
    expr = parse_guard(text)
    if expr is None:
        return None

    class Fold(ast.NodeTransformer):
        def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
            self.generic_visit(node)
            left, right = node.left, node.right
            if not (_int(left) and _int(right)):
                return node
            value = _worked(type(node.op), ast.literal_eval(left), ast.literal_eval(right))
            return node if value is None else ast.copy_location(ast.Constant(value), node)

    return ast.unparse(Fold().visit(expr))


def _outside(expr: ast.expr, name: str) -> str | None:
    """``not lo <= v < hi`` (or ``v < lo or v >= hi``) as "less than `lo` or at least `hi`";
    else what :mod:`.caller_words` says of ``v`` holding the condition."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        inner = expr.operand
        if (
            isinstance(inner, ast.Compare)
            and len(inner.ops) == 2
            and isinstance(inner.comparators[0], ast.Name)
            and inner.comparators[0].id == name
            and all(isinstance(o, (ast.Lt, ast.LtE)) for o in inner.ops)
            and all(_int(e) for e in (inner.left, inner.comparators[1]))
        ):
            low, high = ast.unparse(inner.left), ast.unparse(inner.comparators[1])
            below = "less than" if isinstance(inner.ops[0], ast.LtE) else "at most"
            above = "at least" if isinstance(inner.ops[1], ast.Lt) else "greater than"
            return f"{below} `{low}` or {above} `{high}`"
    text = ast.unparse(_renamed(expr, name))  # the name alone, not a string holding it
    found = needs(negated(text), frozenset({_STAND_IN}))
    if found is None or len(found[1]) != 1:
        return None
    phrase = found[1][0].phrase
    return phrase.removeprefix("a value ") if phrase.startswith("a value ") else phrase


#: Integer operators worked out, with a bound on the result's size.
def _worked(op: type[ast.operator], a: int, b: int) -> int | None:
    """``a op b`` for the integer operators a bound is written with, kept small."""
    if op is ast.LShift:
        return a << b if 0 <= b <= 64 else None
    if op is ast.Pow:
        return a**b if 0 <= b <= 64 and abs(a) <= 1 << 16 else None
    if op is ast.Add:
        return a + b
    if op is ast.Sub:
        return a - b
    if op is ast.Mult:
        return a * b
    return None


def _renamed(expr: ast.expr, name: str) -> ast.expr:
    """``expr`` with each ``Name`` node ``name`` read as :data:`_STAND_IN`."""

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            return ast.Name(_STAND_IN, node.ctx) if node.id == name else node

    out = Rename().visit(copy.deepcopy(expr))
    assert isinstance(out, ast.expr)
    return out


def _int(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _sentence(g: Gathered, phrases: dict[str, list[str]]) -> tuple[str, list[str]] | None:
    """The sentence, in the parameters of the nearest public entry point that passes
    every one on unchanged."""
    for entry in sorted(g.entry_points, key=lambda e: (bool(e.get("onlyWhen")), e.get("depth", 0))):
        passes = entry.get("passes") or {}
        if not phrases.keys() <= passes.keys():
            continue
        func = g.entry_funcs.get(entry["qualname"])
        if func is None and g.func is not None and g.func.qualname == entry["qualname"]:
            func = g.func
        call = call_name(entry["qualname"], func)
        if has_private(call) or call.startswith("__"):
            continue
        sig = signature_of(func.signature) if func is not None else None
        defaults = dict(sig.defaults) if sig is not None else {}
        parts = [_param_phrase(passes[p], said, defaults) for p, said in phrases.items()]
        if any(p is None for p in parts):
            return None
        text = f"It comes from a call of {code(call)} that passes " + " and ".join(
            p for p in parts if p
        )
        return text + ".", ["entryPoints", "site.guards"]
    return None


def _param_phrase(param: str, said: list[str], defaults: Mapping[str, object]) -> str | None:
    """One parameter's phrases: "`k` as a negative value", "a `fields` whose third item …";
    "other than `None`" left out beside what an item or attribute says (it is implied)."""
    kept = [s for s in said if s != "as a value other than `None`"] or said
    values = [s for s in kept if s.startswith("as ")]
    others = [s for s in kept if not s.startswith("as ")]
    if len(values) > 1:
        return None
    if not others:
        left_out = param in defaults and values[0] == f"as `{defaults[param]!r}`"
        note = " (its default, as when it is left out)" if left_out else ""
        return f"{code(param)} {values[0]}{note}"
    head = f"{article(param)} {code(param)}"
    if values:
        return f"{code(param)} {values[0]}, and {head} " + " and ".join(others)
    return f"{head} " + " and ".join(others)
