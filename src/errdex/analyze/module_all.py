"""A module's ``__all__`` as its statements build it.

``os`` starts with a list and adds to it as it goes: ``__all__.append("popen")``,
``__all__.extend(["makedirs", ...])``, ``__all__ += [...]``; ``socket`` extends it with
what ``_socket`` exports (``__all__.extend(os._get_exports_list(_socket))``), names no
reading of the file can list. A name missing from a list that may be longer proves
nothing (:attr:`ModuleFacts.all_partial`).
"""

from __future__ import annotations

import ast

from .facts import ModuleFacts

__all__ = ["note_all", "string_list"]


def string_list(node: ast.expr) -> list[str] | None:
    """The strings of a list or tuple display (or a sum of them); None for anything else."""
    if isinstance(node, (ast.List, ast.Tuple)):
        out = [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        return out if len(out) == len(node.elts) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = string_list(node.left), string_list(node.right)
        return None if left is None or right is None else left + right
    return None


def note_all(stmt: ast.Assign | ast.AugAssign | ast.Expr, facts: ModuleFacts) -> None:
    """Fold one module-level statement into ``facts.all_names``."""
    if isinstance(stmt, ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
            names = string_list(stmt.value)
            facts.all_names = tuple(names) if names is not None else None
        return
    if isinstance(stmt, ast.AugAssign):
        if isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__":
            _add(facts, string_list(stmt.value))
        return
    call = stmt.value
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "__all__"
        and len(call.args) == 1
    ):
        return
    arg = call.args[0]
    if call.func.attr == "append":
        known = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        _add(facts, [str(arg.value)] if isinstance(arg, ast.Constant) and known else None)
    elif call.func.attr == "extend":
        _add(facts, string_list(arg))


def _add(facts: ModuleFacts, extra: list[str] | None) -> None:
    if facts.all_names is None:
        return
    if extra is None:
        facts.all_partial = True  # names only running the module would tell
    else:
        facts.all_names = (*facts.all_names, *extra)
