"""Which parameters a local the prose names was made from, so a condition over it says
what the caller passed.

"Triggered when `r_scheme.startswith('/') and not r_scheme.startswith('//')`" restates
``urllib.request._parse_proxy``'s locals (paired blind review, stop 36: misleading);
``r_scheme`` is the second part of ``_splittype(proxy)``. Where :mod:`.local_terms`
cannot restate a local over the parameters (a tuple unpacked, a call that is not pure),
the prose says which parameters it comes from: "with `r_scheme` made from what was
passed as `proxy`". Only a local bound once in the function (no loop, ``with``, augmented
or annotated store of it), before the raise.
"""

from __future__ import annotations

import ast

from errdex.evidence import GuardItem

from .file_trees import function_node
from .gathered import Gathered
from .guards import CONDITION_KINDS, code, free_names

__all__ = ["made_from", "origin_note"]


def origin_note(g: Gathered, guards: list[GuardItem]) -> str | None:
    """ "with `r_scheme` made from what was passed as `proxy`", or None."""
    func = g.func
    if func is None or not g.source_file:
        return None
    params = [p.lstrip("*") for p in func.params if p.lstrip("*") not in {"self", "cls"}]
    read: set[str] = set()
    for guard in guards:
        if guard["kind"] in CONDITION_KINDS:
            read |= free_names(str(guard["text"])) or set()
    locals_ = read - set(params) - {"self", "cls"} - set(g.import_lines) - set(g.constants)
    locals_ = {n for n in locals_ if n in func.bound_lines}
    if not locals_:
        return None
    node = function_node(g.source_file, func.line, func.name)
    if node is None:
        return None
    made = made_from(node, g.site.line, set(params))
    said = {n: made[n] for n in sorted(locals_) if n in made}
    if not said or len(said) > 2:
        return None
    parts = [
        f"{code(local)} made from what was passed as {' and '.join(code(p) for p in sources)}"
        for local, sources in said.items()
    ]
    return "with " + " and ".join(parts)


def made_from(func: ast.AST, before: int, params: set[str]) -> dict[str, list[str]]:
    """Locals bound once, before line ``before``, by ``=`` to an expression over
    parameters (``action = action_class(**kwargs)``, ``scheme, rest = split(url)``):
    name -> those parameters."""
    binds: dict[str, list[ast.Assign | None]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _target_names(target):
                    binds.setdefault(name, []).append(node)
        elif isinstance(
            node,
            (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr, ast.comprehension),
        ):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    binds.setdefault(sub.id, []).append(None)
    out: dict[str, list[str]] = {}
    for name, assigns in binds.items():
        first = assigns[0]
        if len(assigns) != 1 or first is None or first.lineno >= before or name in params:
            continue
        read = {n.id for n in ast.walk(first.value) if isinstance(n, ast.Name)}
        if read & params:
            out[name] = sorted(read & params)
    return out


def _target_names(target: ast.expr) -> list[str]:
    """``a`` and ``b`` of ``a, b = …``; nothing for ``x.y`` or ``x[i]``."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []
