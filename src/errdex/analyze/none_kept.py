"""Parameters the body binds again only where they are not ``None``: a caller's
``None`` is still ``None`` at the test.

``httpx.HTTPTransport.__init__`` starts with ``proxy = Proxy(url=proxy) if
isinstance(proxy, (str, URL)) else proxy`` and raises its SOCKS ``ImportError`` and
"Proxy protocol must be …" only past ``if proxy is None:``. ``Client._init_transport``
builds ``HTTPTransport(verify=…, …)`` without ``proxy``, leaving ``None``; but the walk
dropped ``proxy`` from the parameters it judges, the body binding it again, and named
``Client.__init__`` and ``httpx.request`` ways to the raise through ``_init_transport``
(blind review stop 36 record 29, stop 37 record 28: false, run). Where every binding of
the parameter in the body is ``p = A if C else p`` with ``C`` false for ``None`` (or ``p =
p if C else B`` with ``C`` true), or ``p = E`` directly inside ``if C:`` with ``C``
false for ``None`` (or its ``else:`` with ``C`` true), a caller's ``None`` stays
``None`` at every line, and every condition over it, the raise's and the early exits'
before it, is judged on that ``None``; any other value a caller passes is not known
there (:class:`.walk_scope.Scope`). Only a direct caller's value counts: passed on
by name, the parameter would make a condition on the caller's parameter read the
value bound again (:attr:`.chain_parts.Hop.passes`). ``C`` is decided on ``None`` by
:func:`.guard_eval.guard_value` where every other name it reads is surely the builtin
(the module binds none of them: :mod:`.top_binds`), and ``isinstance(p, T)`` is false for ``None`` where
each ``T`` is a builtin class but ``object``, or a class of the repository that
:func:`.fixed_args._plain` shows in full (no metaclass may answer otherwise).
"""

from __future__ import annotations

import ast
import builtins
import os
from collections.abc import Collection, Sequence

from .facts import FuncFacts, dotted
from .file_trees import function_node
from .fixed_args import _plain
from .guard_eval import guard_value
from .guards import free_names
from .local_binding import binds_otherwise
from .repo import RepoIndex
from .top_binds import STAR, top_bindings

__all__ = ["kept_none"]


def kept_none(
    index: RepoIndex, func: FuncFacts, guards: Sequence[str], kept: Collection[str]
) -> set[str]:
    """The parameters a guard reads (not in ``kept``, not bound again to literals only)
    every binding of which in the body keeps a ``None``."""
    read = {n for g in guards for n in free_names(g, func.params) or ()}
    wanted = [
        p
        for p in func.rebound
        if p in read and p not in kept and p not in func.param_literals and p in func.params
    ]
    module = index.modules.get(func.module)
    if not wanted or module is None or not index.root:
        return set()
    node = function_node(os.path.join(index.root, module.rel), func.line, func.name)
    if node is None:
        return set()
    return {p for p in wanted if _keeps_none(index, func, node, p)}


def _keeps_none(
    index: RepoIndex, func: FuncFacts, node: ast.FunctionDef | ast.AsyncFunctionDef, name: str
) -> bool:
    """Whether every binding of ``name`` in the body leaves a ``None`` as it is."""
    parents: dict[int, tuple[ast.AST, str]] = {}
    stack: list[ast.AST] = list(node.body)
    for stmt in node.body:
        parents[id(stmt)] = (node, "body")
    seen = False
    while stack:
        here = stack.pop()
        if isinstance(here, (ast.Nonlocal, ast.Global)) and name in here.names:
            return False  # a nested scope may bind it
        if binds_otherwise(here, name):
            return False
        if isinstance(here, ast.Name) and here.id == name and not isinstance(here.ctx, ast.Load):
            return False  # stores are judged at their ``Assign``, which is skipped below
        if isinstance(here, ast.Assign) and _names_target(here, name):
            seen = True
            if not _assign_keeps(index, func, here, parents.get(id(here)), name):
                return False
            stack.append(here.value)
            continue
        for field, value in ast.iter_fields(here):
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, ast.AST):
                    parents[id(item)] = (here, field)
                    stack.append(item)
    return seen


def _names_target(node: ast.Assign, name: str) -> bool:
    """``name = …`` with that one plain target; any other assignment to it is refused
    by the caller's walk (it meets the name as a store)."""
    return len(node.targets) == 1 and _is_name(node.targets[0], name)


def _assign_keeps(
    index: RepoIndex,
    func: FuncFacts,
    node: ast.Assign,
    parent: tuple[ast.AST, str] | None,
    name: str,
) -> bool:
    value = node.value
    if isinstance(value, ast.IfExp):
        if _is_name(value.orelse, name) and _on_none(index, func, value.test, name) is False:
            return True
        if _is_name(value.body, name) and _on_none(index, func, value.test, name) is True:
            return True
    if parent is None or not isinstance(parent[0], ast.If):
        return False
    test = _on_none(index, func, parent[0].test, name)
    return (parent[1] == "body" and test is False) or (parent[1] == "orelse" and test is True)


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _on_none(index: RepoIndex, func: FuncFacts, test: ast.expr, name: str) -> bool | None:
    """The condition's truth where ``name`` is ``None``; None when not decided. The
    module's (and the function's) own names first: :func:`.guard_value` reads every
    other name as the builtin, and ``class int(metaclass=…)`` may answer ``isinstance``."""
    if all(_builtin(index, func, n) for n in _builtins_read(test)):
        found = guard_value(ast.unparse(test), {name: None})
        if found is not None:
            return found
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    if not (
        isinstance(inner, ast.Call)
        and _is_name(inner.func, "isinstance")
        and len(inner.args) == 2
        and not inner.keywords
        and _is_name(inner.args[0], name)
        and _builtin(index, func, "isinstance")
    ):
        return None
    kinds = inner.args[1]
    refs = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    if not refs or not all(_never_none(index, func, ref) for ref in refs):
        return None
    return negated  # ``isinstance(None, T)`` is false


def _builtins_read(test: ast.expr) -> set[str]:
    """The names :func:`.guard_value` reads as builtins: callees (``isinstance``,
    ``len``, ``int``) and the classes ``isinstance`` tests against."""
    out: set[str] = set()
    for node in ast.walk(test):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            out.add(node.func.id)
            if node.func.id == "isinstance" and len(node.args) == 2:
                out |= {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
    return out


def _never_none(index: RepoIndex, func: FuncFacts, node: ast.expr) -> bool:
    """Whether ``isinstance(None, <node>)`` is surely false."""
    ref = dotted(node)
    if ref is None or not ref[0] or ref[0] == "super()":
        return False
    target = index.resolve(func.module, ref, func.local_imports)
    if target is not None:
        return target.kind == "class" and _plain(index, target.qualname, 0)
    if len(ref) != 1 or not _builtin(index, func, ref[0]):
        return False
    found = getattr(builtins, ref[0], None)
    return isinstance(found, type) and found is not object


def _builtin(index: RepoIndex, func: FuncFacts, name: str) -> bool:
    """Whether ``name`` in the function is surely the builtin: no parameter or local of
    it or of a function around it, and no binding of the module's top level
    (:mod:`.top_binds`; a star import may bind any name)."""
    module = index.modules.get(func.module)
    if module is None or not index.root or module.star:
        return False
    if any(name in names for names in (module.imports, module.settled, module.top)):
        return False
    bound = top_bindings(os.path.join(index.root, module.rel))
    if bound is None or bound[name] or bound[STAR]:
        return False
    here: FuncFacts | None = func
    while here is not None:
        if name in here.bound_lines or name in {p.lstrip("*") for p in here.params}:
            return False
        here = index.function(here.parent) if here.parent else None
    return True
