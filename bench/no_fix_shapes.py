"""The records that say "errdex found no fix", by the shape of the guard that raises (issue 10).

    PYTHONPATH=$PWD/src .venv/bin/python bench/no_fix_shapes.py BASE.jsonl BRANCH.jsonl [--top N]

Reads two exports of the same catalogue (``errdex export --jsonl``), main's and a
branch's, and counts their ``NO_FIX`` records by what stands nearest the raise: no
condition, a handler, an ``else``, or an ``if``/``assert`` whose condition has a shape
(membership in constants or in a name, a comparison with a constant, ``isinstance``,
``len(x)`` compared, ``is None``, truthiness, a call, ``and``/``or``) over a subject (a
parameter of the raising function, an attribute of ``self``, a local or global name).
The biggest classes are where a fix in the caller's terms is worth looking for first;
side by side, which classes a change emptied.
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter

from solution_kinds import CONDITION_KINDS, Envelope, _params, _table, load

NO_FIX = "errdex found no fix"


def _subject(node: ast.expr, params: set[str]) -> str:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        node = node.args[0] if node.args else node
    root = node
    while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
        root = root.func if isinstance(root, ast.Call) else root.value
    if isinstance(node, ast.Name):
        return "param" if node.id in params else "local/global"
    if isinstance(root, ast.Name) and root.id in ("self", "cls"):
        return "self-attr"
    if isinstance(root, ast.Name) and root.id in params:
        return "param-derived"
    return "other"


def _constant(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except ValueError:
        return isinstance(node, ast.Name) and node.id.isupper()
    return True


def shape(text: str, params: set[str]) -> str:
    """The shape of a condition and what it tests."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return "does not parse"
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    if isinstance(node, ast.BoolOp):
        return "and/or"
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, left, right = node.ops[0], node.left, node.comparators[0]
        sized = isinstance(left, ast.Call) and getattr(left.func, "id", None) == "len"
        const = "constant" if _constant(right) else "name"
        if isinstance(op, (ast.In, ast.NotIn)):
            kind = f"membership in a {const}"
        elif isinstance(right, ast.Constant) and right.value is None:
            kind = "is None"
        elif sized:
            kind = "len compared"
        else:
            kind = f"compared with a {const}"
        return f"{kind} / {_subject(left, params)}"
    if isinstance(node, ast.Compare):
        return "chained comparison"
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
        return f"isinstance / {_subject(node.args[0], params)}" if node.args else "call"
    if isinstance(node, ast.Call):
        return "call"
    if isinstance(node, (ast.Name, ast.Attribute)):
        return f"truthiness / {_subject(node, params)}"
    return "other"


def classify(env: Envelope) -> str:
    guards = env["evidence"]["site"].get("guards") or []
    inner = next(
        (g for g in reversed(guards) if g["kind"] == "except" or g["kind"] in CONDITION_KINDS),
        None,
    )
    if inner is None:
        return "no condition"
    if inner["kind"] == "except":
        return "in a handler"
    if inner["kind"] == "else":
        return "an else branch"
    head = "assert" if inner["kind"] == "assert" else "if"
    return f"{head}: {shape(str(inner['text']), _params(env))}"


def tally(records: dict[str, Envelope]) -> Counter[str]:
    out: Counter[str] = Counter()
    for env in records.values():
        if any(s.startswith(NO_FIX) for s in env["record"]["solutions"]):
            out[classify(env)] += 1
            out["all NO_FIX records"] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("branch")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    base, branch = tally(load(args.base)), tally(load(args.branch))
    keys = sorted(set(base) | set(branch), key=lambda k: (k != "all NO_FIX records", -base[k]))
    _table("NO_FIX records by the guard nearest the raise", base, branch, keys[: args.top + 1])


if __name__ == "__main__":
    main()
