"""A call that left out every one of the arguments the message names as missing.

``loop.create_unix_server`` raises ``ValueError("path was not specified, and no sock
specified")`` when ``path is None and sock is None``; errdex said "found no fix" (blind
review stop 35: "the fix is plain: pass path= or sock="), as the requirement over those
parameters reached no public entry point it could name. The message and the condition
together say it whatever the entry point: the only condition on the way is a test that
each parameter is ``None`` (or false), the message names every one of them and says it
was not given.
"""

from __future__ import annotations

import ast
import re

from .chain_funcs import own_params
from .gathered import Gathered, class_phrase, short_name
from .guards import code, parse_guard
from .param_requirement import call_name
from .parsed import is_none_of

__all__ = ["missing_args_fix", "none_value_fix"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

#: The message says something was not given.
_MISSING = re.compile(
    r"\b(?:not\s+(?:specified|given|supplied|provided|passed)|(?:is|are)\s+required|missing)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z_]\w*")
#: "None cannot be a node": the message says what ``None`` cannot stand for.
_NONE_CANNOT = re.compile(r"^None cannot be (a|an) ([A-Za-z][\w ]{0,40}?)\.?$")


def _left_out(node: ast.expr) -> tuple[str, str] | None:
    """``P is None`` -> ``(P, "None")``; ``not P`` -> ``(P, "false")``."""
    name = is_none_of(node)
    if name is not None:
        return name, "None"
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and isinstance(node.operand, ast.Name)
    ):
        return node.operand.id, "false"
    return None


def _rebound(g: Gathered, name: str) -> bool:
    """The body binds ``name`` again before the raise, outside the ``if`` bodies that the
    ``else`` guards on the way skip (``path = os.fspath(path)`` under ``if path is not
    None:`` does not reach the ``else``)."""
    func = g.func
    if func is None or name not in func.rebound:
        return False
    skipped = [
        func.else_skips[int(c.get("line") or 0)]
        for c in g.site.guards
        if c["kind"] == "else" and int(c.get("line") or 0) in func.else_skips
    ]
    return any(
        bound <= g.site.line and not any(a <= bound <= b for a, b in skipped)
        for bound in func.bound_lines.get(name, (0,))
    )


def missing_args_fix(g: Gathered) -> Remedy | None:
    """ "Pass ``path`` or ``sock``", when every condition on the way (an ``else``'s as what
    holds there) is that one of them is left out, and the message names them all as not
    given; None otherwise."""
    func = g.func
    if func is None or g.site.kind != "raise" or g.site.template.is_opaque:
        return None
    if any(c["kind"] not in ("if", "elif", "else") for c in g.site.guards):
        return None  # a loop, a handler, an assert: more than the arguments decides
    tests: list[tuple[str, str] | None] = []
    for guard in g.site.guards:  # an ``else`` guard's text is what holds there
        node = parse_guard(str(guard["text"]))
        if node is None:
            return None
        both = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
        parts = node.values if isinstance(node, ast.BoolOp) and both else [node]
        tests += [_left_out(p) for p in parts]
    if not tests or any(t is None for t in tests):
        return None
    names = list(dict.fromkeys(t[0] for t in tests if t is not None))
    text = " ".join(g.site.template.literals)
    words = set(_WORD.findall(text))
    params = set(own_params(func))
    if not _MISSING.search(text) or not set(names) <= params or not set(names) <= words:
        return None
    if any(_rebound(g, n) for n in names):
        return None  # the test reads another value than the caller's
    who = " or ".join(code(n) for n in names)
    if len(names) == 1:
        when = f"{who} is left out"
    elif len(names) == 2:
        when = f"neither {code(names[0])} nor {code(names[1])} is given"
    else:
        when = "none of them is given"
    falsy = " or false" if any(t is not None and t[1] == "false" for t in tests) else ""
    call = code(call_name(func.qualname, func))
    if func.cls is not None and short_name(func.cls).startswith("_") and func.name != "__init__":
        call = code(f"{func.name}()")  # ``loop.create_unix_server()``: the class is private
    return (
        f"Pass {who} to {call} (not None{falsy}): it raises {class_phrase(g)} when {when}, "
        "the case the message names.",
        ["site.template", "site.guards"],
    )


def none_value_fix(g: Gathered) -> Remedy | None:
    """ "Use a value other than ``None`` for each node", where the message is "None cannot
    be a node" and the nearest condition is that a name ``is None`` (networkx's
    ``Graph.add_edge``: ``if u is None:`` beside ``if u not in self._node:``, a condition
    that keeps errdex from saying it over the parameter alone)."""
    func = g.func
    if func is None or g.site.kind != "raise" or g.site.template.is_opaque:
        return None
    found = _NONE_CANNOT.match(g.site.template.display.strip())
    conditions = [c for c in g.site.guards if c["kind"] in ("if", "elif")]
    if found is None or not conditions or g.site.guards[-1] is not conditions[-1]:
        return None
    node = parse_guard(str(conditions[-1]["text"]))
    test = _left_out(node) if node is not None else None
    if test is None or test[1] != "None":
        return None
    article, what = found.group(1), found.group(2)
    call = code(call_name(func.qualname, func))
    return (
        f"Use a value other than `None` for every {what} given to {call}: `None` cannot be "
        f"{article} {what}, and it raises {class_phrase(g)} when "
        f"{code(str(conditions[-1]['text']))}.",
        ["site.template", "site.guards"],
    )
