"""A parameter that does not match the regular expression the function reads it with.

``StrictVersion.parse(vstring)`` binds ``match = self.version_re.match(vstring)`` and
raises ``ValueError("invalid version number '%s'")`` when ``not match``; ``Fraction("x")``
tests ``m is None`` after ``m = _RATIONAL_FORMAT.match(numerator)``. errdex said "no fix"
for each (about 40 stdlib records test such a local): the test reads a local, and the
pattern is often private. The fix in the caller's terms is the form of the string the
caller passed, said without the private pattern's name: where the innermost condition
is ``m is None`` or ``not m``, ``m`` certainly holds ``P.match(x)`` (``fullmatch``,
``search``; or ``re.match(pattern, x)``) at the test, and ``x`` is a parameter of the
function a caller calls by name, passed on unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .chain_funcs import rebound_before
from .compiled_patterns import pattern_kind
from .facts import FuncFacts
from .gathered import Gathered, class_phrase
from .guards import code, has_private, parse_guard
from .param_requirement import innermost_condition, message_shows
from .stated_fixes import called_by_name

__all__ = ["match_call", "matched_param", "pattern_fix", "tested_local"]

_MATCHERS = frozenset({"match", "fullmatch", "search"})


def tested_local(text: str) -> str | None:
    """``m`` of ``m is None`` or ``not m``."""
    node = parse_guard(text)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
        return node.id if isinstance(node, ast.Name) else None
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is)
        and isinstance(node.left, ast.Name)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return node.left.id
    return None


def match_call(
    expr: str, patterns: Mapping[str, str], func: FuncFacts | None
) -> tuple[str, str] | None:
    """(the matched name, the pattern's text) of ``P.match(x)`` or ``re.match(p, x)``,
    where ``P`` is a compiled pattern (:mod:`.compiled_patterns`)."""
    if pattern_kind(expr, patterns, func) is None:
        return None  # ``index.search(key)``: a method of anything
    node = parse_guard(expr)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr not in _MATCHERS or node.keywords:
        return None
    owner = node.func.value
    if isinstance(owner, ast.Name) and owner.id == "re":
        args = node.args[1:2] if len(node.args) >= 2 else []
        pattern = ast.unparse(node.args[0]) if node.args else ""
    else:
        args = node.args[:1] if len(node.args) == 1 else []
        pattern = ast.unparse(owner)
    if not args or not isinstance(args[0], ast.Name):
        return None
    return args[0].id, pattern


def _matched_expr(g: Gathered) -> str:
    """The match call the innermost condition's local certainly holds, or ``""``."""
    func, guard = g.func, innermost_condition(g)
    if func is None or guard is None:
        return ""
    local = tested_local(str(guard["text"]))
    line = int(guard.get("line") or 0)
    if local is None:
        return ""
    spans = [expr for first, last, expr in func.local_values.get(local, ()) if first < line <= last]
    return spans[0] if len(spans) == 1 else ""


def matched_param(g: Gathered) -> tuple[str, str] | None:
    """(parameter, the pattern) when the innermost condition says
    a match of a parameter the caller passed failed."""
    func, guard = g.func, innermost_condition(g)
    expr = _matched_expr(g)
    if func is None or guard is None or not expr:
        return None
    line = int(guard.get("line") or 0)
    found = match_call(expr, g.patterns, func)
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    if found is None or found[0] not in params or rebound_before(func, found[0], line):
        return None
    return found


def pattern_fix(g: Gathered) -> tuple[str, list[str]] | None:
    """ "Pass ``x`` to ``f()`` in the form its regular expression accepts", with the
    pattern named where it is public and whether the message shows the value."""
    call = called_by_name(g)
    found = matched_param(g)
    if call is None or found is None:
        return None
    param, pattern = found
    if pattern.startswith("self.") and g.func is not None and g.func.cls:
        pattern = f"{g.func.cls.rpartition('.')[2]}.{pattern[5:]}"  # the class's attribute
    which = (
        f"the regular expression {code(pattern)}"
        if not has_private(pattern) and len(pattern) <= 60
        else "the regular expression the function reads it with"
    )
    kind = "bytes" if pattern_kind(_matched_expr(g), g.patterns, g.func) == "bytes" else "a string"
    text = (
        f"Pass {code(param)} to {code(call)} as {kind} in the form {which} accepts: the "
        f"call raises {class_phrase(g)} when {code(param)} does not match it (line "
        f"{g.site.line})."
    )
    if message_shows(g, param):
        text += f" The message shows the value of {code(param)} that was passed."
    return text, ["site.guards", "sourceCode", "entryPoints"]
