"""Which parameters a local the prose names was made from, so a condition over it says
what the caller passed.

"Triggered when `r_scheme.startswith('/') and not r_scheme.startswith('//')`" restates
``urllib.request._parse_proxy``'s locals (paired blind review, stop 36: misleading);
``r_scheme`` is the second part of ``_splittype(proxy)``. Where :mod:`.local_terms`
cannot restate a local over the parameters (a tuple unpacked, a call that is not pure),
the prose says which parameters it comes from: "with `r_scheme` made from what was
passed as `proxy`". Only a local bound once in the function (no loop, ``with``, augmented
or annotated store of it), before the raise, from parameters never bound again.
"""

from __future__ import annotations

import ast
import re

from errdex.evidence import GuardItem

from .file_trees import function_node
from .gathered import Gathered
from .guards import CONDITION_KINDS, code, free_names
from .local_binding import binding_lines

__all__ = ["made_from", "origin_note", "set_inside_note"]


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


def set_inside_note(g: Gathered, guards: list[GuardItem], phrase: str) -> str | None:
    """ "where `exceptions` is a local of `create_connection` (bound at lines 1064 and
    1082) and `sock` is also bound inside `create_connection` (lines 1069 and 1076)": names a
    condition said reads that the function binds itself, so that "the arguments passed"
    before them is not read as covering them (``asyncio``'s ``create_connection``:
    ``sock is None`` and ``len(exceptions) == 1`` hold after every connection attempt
    failed; stop-39 differing review: misleading). At most two names, each with the
    lines above the raise that bind it (in the function's own scope, :func:`.local_binding.
    binding_lines`); None where none or more, or the function is not read again."""
    func = g.func
    node = function_node(g.source_file, func.line, func.name) if func and g.source_file else None
    if func is None or node is None:
        return None
    params = {p.lstrip("*") for p in func.params}
    read: set[str] = set()
    for guard in guards:
        if guard["kind"] in CONDITION_KINDS:
            read |= free_names(str(guard["text"])) or set()
    said = set(re.findall(r"[A-Za-z_]\w*", " ".join(re.findall(r"`([^`]*)`", phrase))))
    notes: list[str] = []
    for name in sorted(read & said - {"self", "cls"}):
        # the function's own bindings: a comprehension's target is the comprehension's,
        # and a ``global``/``nonlocal`` name is no local at all (rr5, f7.py and f12.py)
        own = binding_lines(node, name)
        lines = [n for n in own or () if func.line < n < g.site.line]
        if not lines:
            continue
        at = _lines(lines)
        if name in params:
            notes.append(f"{code(name)} is also bound inside {code(func.name)} ({at})")
        else:
            notes.append(f"{code(name)} is a local of {code(func.name)} (bound at {at})")
    if not notes or len(notes) > 2:
        return None
    return "where " + " and ".join(notes)


def _lines(lines: list[int]) -> str:
    shown = [str(n) for n in sorted(set(lines))]
    if len(shown) == 1:
        return f"line {shown[0]}"
    return f"lines {', '.join(shown[:-1])} and {shown[-1]}"


def made_from(func: ast.AST, before: int, params: set[str]) -> dict[str, list[str]]:
    """Locals bound once, before line ``before`` and outside any loop, by ``=`` to an
    expression over parameters never bound again but from themselves (``action = action_class(**kwargs)``,
    ``scheme, rest = split(url)``): name -> those parameters. ``proxy = DEFAULT`` before
    ``scheme = split(proxy)`` (or ``size -= length`` in a loop) makes it no longer what
    the caller passed (re-reader, stop 38)."""
    assigned: dict[int, ast.Assign] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for sub in ast.walk(target):
                    assigned[id(sub)] = node
    in_loop = _loop_nodes(func)
    binds: dict[str, list[ast.Assign | None]] = {}
    for name, bound in _bindings(func):
        first = assigned.get(id(bound)) if bound is not None else None
        binds.setdefault(name, []).append(
            first if first is not None and id(first) not in in_loop else None
        )
    rebound = {n for n in params if n in binds and not _kept(n, binds[n])}
    out: dict[str, list[str]] = {}
    for name, assigns in binds.items():
        first = assigns[0]
        if len(assigns) != 1 or first is None or first.lineno >= before or name in params:
            continue
        read = {n.id for n in ast.walk(first.value) if isinstance(n, ast.Name)}
        if read & params and not read & rebound:
            out[name] = sorted(read & params)
    return out


def _kept(param: str, assigns: list[ast.Assign | None]) -> bool:
    """Whether each store of ``param`` makes it from itself, outside a loop (argparse's
    ``kwargs = self._get_positional_kwargs(*args, **kwargs)``): still what was passed."""
    return all(
        a is not None and any(isinstance(n, ast.Name) and n.id == param for n in ast.walk(a.value))
        for a in assigns
    )


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _bindings(func: ast.AST) -> list[tuple[str, ast.AST | None]]:
    """Every name bound or unbound anywhere in ``func`` (nested scopes too: a
    ``nonlocal`` there rebinds it), with the ``Name`` node where it is one."""
    out: list[tuple[str, ast.AST | None]] = []
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.append((node.id, node))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.append((node.name, None))
        elif isinstance(node, ast.alias):
            out.append(((node.asname or node.name).partition(".")[0], None))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.extend((n, None) for n in node.names)
        elif node is not func and isinstance(node, _SCOPES):
            out.append((node.name, None))
        else:
            name = getattr(node, "rest" if isinstance(node, ast.MatchMapping) else "name", None)
            if isinstance(node, (ast.MatchAs, ast.MatchStar, ast.MatchMapping)) and name:
                out.append((name, None))
    return out


def _loop_nodes(func: ast.AST) -> set[int]:
    """Ids of the nodes inside a loop of ``func`` (its body and ``else``)."""
    out: set[int] = set()
    for node in ast.walk(func):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            for stmt in [*node.body, *node.orelse]:
                out.update(id(sub) for sub in ast.walk(stmt))
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
