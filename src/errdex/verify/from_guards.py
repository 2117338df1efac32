"""Reproducers built from a record's guard over a public function's own parameter.

When no test reached a raise that sits behind one simple guard on a parameter of the
public function it is in (``if n < 0: raise …``, ``if t not in G: raise …``), a test
snippet that calls that function is taken, the call's argument for that parameter is
replaced by a value that makes the guard true (``n < 0`` → ``-1``; ``t not in G`` → a
value no container holds), and the snippet is cut after that statement. The result is a
candidate like any other: it counts only when it raises this record's class, with a
message its pattern matches, at its file and line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from typing import Any

from .from_tests import Candidate

__all__ = ["MISSING", "guard_candidates", "violating_value"]

#: The value put for ``x not in C``: a string no test's container holds.
MISSING = "__errdex_missing__"
_MAX_PER_RECORD = 2
_PARAMS = re.compile(r"[(,]\s*(\w+)")


def violating_value(guard: str) -> tuple[str, ast.expr] | None:
    """(parameter, a value that makes ``guard`` true) for ``p OP constant`` and
    ``p not in X``; None for any other guard."""
    try:
        node = ast.parse(guard, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, op, right = node.left, node.ops[0], node.comparators[0]
    if not isinstance(left, ast.Name):
        return None
    if isinstance(op, ast.NotIn):
        return left.id, ast.Constant(MISSING)
    if not isinstance(right, ast.Constant):
        return None
    value = right.value
    if isinstance(op, (ast.Eq, ast.Is)):
        return left.id, ast.Constant(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    steps = {ast.Lt: -1, ast.LtE: 0, ast.Gt: 1, ast.GtE: 0}
    step = steps.get(type(op))
    return None if step is None else (left.id, ast.Constant(value + step))


def _params(signature: str) -> list[str]:
    head = signature.split(")", 1)[0]
    return [p for p in _PARAMS.findall(head) if p not in ("self", "cls")]


def _rewrite(program: str, name: str, params: list[str], param: str, value: ast.expr) -> str | None:
    """The program up to the first statement calling ``name``, that call's ``param``
    argument replaced by ``value``."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return None
    for i, stmt in enumerate(tree.body):
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called != name or any(isinstance(a, ast.Starred) for a in node.args):
                continue
            position = params.index(param)
            if position < len(node.args):
                node.args[position] = value
            else:
                node.keywords = [k for k in node.keywords if k.arg != param]
                node.keywords.append(ast.keyword(arg=param, value=value))
            cut = ast.Module(body=[*tree.body[:i], ast.Expr(node)], type_ignores=[])
            return ast.unparse(ast.fix_missing_locations(cut))
    return None


def guard_candidates(
    envelopes: Iterable[dict[str, Any]], cands: list[Candidate]
) -> Iterator[Candidate]:
    """Candidates from the one guard of each record given, over its public function."""
    for env in envelopes:
        evidence = env.get("evidence") or {}
        site = evidence.get("site") or {}
        guards = site.get("guards") or []
        qualname = site.get("qualname")
        public = any(
            p.get("depth") == 0 and p.get("qualname") == qualname
            for p in evidence.get("entryPoints") or []
        )
        if len(guards) != 1 or not public or not site.get("function"):
            continue
        found = violating_value(str(guards[0].get("text") or ""))
        params = _params(str((evidence.get("function") or {}).get("signature") or ""))
        if found is None or found[0] not in params:
            continue
        name = str(site["function"])
        made = 0
        for cand in cands:
            if made >= _MAX_PER_RECORD or f"{name}(" not in cand.program:
                continue
            program = _rewrite(cand.program, name, params, *found)
            if program is None:
                continue
            made += 1
            yield Candidate(
                program,
                f"{cand.test} (guard `{guards[0]['text']}` made true)",
                cand.path,
                cand.line,
                "guard",
                False,
                cand.blocked,
                cand.imports,
            )
