"""A guard over an attribute only ``__init__`` sets: the cause is an ``__init__`` that
did not run.

``threading.Thread.start`` asserts ``self._initialized``: the class body says
``_initialized = False`` and only ``Thread.__init__`` stores ``True``. "Triggered when
`not self._initialized`" restates private state (paired blind review, stop 36); what
the caller did is subclass ``Thread`` with an ``__init__`` that never calls
``super().__init__()``. Said so where the source shows it: every private attribute the
guard reads is stored by ``self.name = <literal>`` as a statement of the class's
``__init__`` itself (not under an ``if``, in a closure, nor after a ``return``) and by
no other line of the repository, on any object (:mod:`.attr_stores`: a base's
``close()`` in another module, ``object.__setattr__``), and the guard holds with the
class body's default (or with the attribute missing, for ``hasattr``) and fails with
``__init__``'s value. What the rule read is :func:`init_reads`, which a re-scan
compares (the record's context): a store added anywhere analyses the record again.
"""

from __future__ import annotations

import ast
import os
from collections import Counter
from functools import lru_cache

from errdex.evidence import GuardItem

from .attr_stores import store_names, stores_elsewhere
from .facts import FuncFacts, within_module
from .file_trees import Stamp, file_stamp, module_tree
from .gathered import Gathered
from .guards import CONDITION_KINDS, code

__all__ = ["init_cause", "init_reads", "own_class"]

#: An unset attribute: ``hasattr`` is false, ``getattr(self, name, d)`` gives ``d``.
_MISSING = object()
#: Nodes a guard over constants may hold to be evaluated here.
_PLAIN = (
    ast.Expression, ast.BoolOp, ast.UnaryOp, ast.Compare, ast.Constant, ast.And, ast.Or,
    ast.Not, ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.Load,
)  # fmt: skip


def init_cause(g: Gathered) -> str | None:
    """ "when the `Thread` object's `__init__` did not run: …", or None where the
    guards read no such attribute or read anything else."""
    cls = own_class(g.func)
    reads = init_reads(g.site.guards, g.func, g.source_file, g.repo_files)
    if reads is None or not reads[-1] or cls is None:
        return None
    return (
        f"when the `{cls}` object's `__init__` did not run: a subclass of {code(cls)} whose"
        f" `__init__` does not call `super().__init__()`, or a method called on an object"
        " made without `__init__`"
    )


def init_reads(
    guards: list[GuardItem],
    func: FuncFacts | None,
    source_file: str | None,
    repo_files: tuple[str, ...],
) -> tuple[object, ...] | None:
    """What the rule read for a guard (the names, their default and ``__init__``
    values, their stores elsewhere), its verdict last; None where it reads nothing."""
    cls = own_class(func)
    if func is None or cls is None or "." in cls or func.name == "__init__" or not source_file:
        return None
    tests = [str(x["text"]) for x in guards if x["kind"] in CONDITION_KINDS]
    if len(tests) != 1:
        return None
    test = tests[0]
    names = _self_attrs(test)
    if not names or any(not n.startswith("_") for n in names):
        return None
    facts = _class_facts(source_file, cls)
    if facts is None:
        return None
    defaults, stored, elsewhere = facts
    local = all(n in stored and n not in elsewhere for n in names)
    # other modules only where the module's own facts allow it (else no store there can)
    other = tuple(
        (n, _rel(p, source_file), k)
        for n in (sorted(names) if local else ())
        for p, k in stores_elsewhere(n, repo_files, source_file)
    )
    before = {n: defaults.get(n, _MISSING) for n in names}
    fires = local and not other
    if fires:
        after = {n: stored[n] for n in names}
        fires = _holds(test, before) is True and _holds(test, after) is False
    return (
        test,
        sorted((n, repr(before[n]), repr(stored.get(n, _MISSING))) for n in names),
        sorted(names & elsewhere),
        other,
        fires,
    )


def _rel(path: str, own: str) -> str:
    """``path`` beside the raising module's directory: a digest that holds across checkouts."""
    return os.path.relpath(path, os.path.dirname(own))


def own_class(func: FuncFacts | None) -> str | None:
    """The method's class as its module names it (``Thread``, ``Outer.Inner``)."""
    if func is None or not func.cls:
        return None
    return within_module(func.cls, func.module)


def _self_attrs(test: str) -> set[str] | None:
    """The attributes of ``self`` the test reads (``self._x``, ``hasattr(self, '_x')``);
    None where it reads any other name."""
    try:
        node = ast.parse(test.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            if sub.value.id != "self":
                return None
            out.add(sub.attr)
        elif isinstance(sub, ast.Call):
            got = _hasattr(sub)
            if got is None:
                return None
            out.add(got)
    return out


def _hasattr(call: ast.Call) -> str | None:
    if (
        isinstance(call.func, ast.Name)
        and call.func.id == "hasattr"
        and len(call.args) == 2
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id == "self"
        and isinstance(call.args[1], ast.Constant)
        and isinstance(call.args[1].value, str)
    ):
        return call.args[1].value
    return None


def _holds(test: str, values: dict[str, object]) -> bool | None:
    """The test's truth with ``self``'s attributes as ``values``; None where it reads
    anything else or an attribute is missing (an ``AttributeError``, not the guard)."""
    tree = ast.parse(test.strip(), mode="eval")

    class _Put(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            value = values.get(node.attr, _MISSING)
            if value is _MISSING:
                raise LookupError(node.attr)
            return ast.copy_location(ast.Constant(value), node)  # type: ignore[arg-type]

        def visit_Call(self, node: ast.Call) -> ast.AST:
            name = _hasattr(node)
            present = name is not None and values.get(name, _MISSING) is not _MISSING
            return ast.copy_location(ast.Constant(present), node)

    try:
        done = ast.fix_missing_locations(_Put().visit(tree))
    except LookupError:
        return None
    if not all(isinstance(n, _PLAIN) for n in ast.walk(done)):
        return None
    return bool(eval(compile(done, "<guard>", "eval"), {"__builtins__": {}}))


_Facts = tuple[dict[str, object], dict[str, object], frozenset[str]]


def _class_facts(path: str, cls: str) -> _Facts | None:
    """(the class body's literal defaults, the literal each attribute ``__init__``
    stores once as one of its own statements before any ``return``, the attributes
    stored anywhere else in the module)."""
    stamp = file_stamp(path)
    return None if stamp is None else _facts(path, stamp, cls)


@lru_cache(maxsize=256)
def _facts(path: str, stamp: Stamp, cls: str) -> _Facts | None:
    del stamp  # part of the key
    tree = module_tree(path)
    if tree is None:
        return None
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
    if node is None:
        return None
    defaults: dict[str, object] = {}
    init: ast.FunctionDef | None = None
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    defaults[target.id] = stmt.value.value
        elif isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__":
            init = stmt
    if init is None:
        return None
    counts = Counter(n for sub in ast.walk(init) for n in store_names(sub))
    stored: dict[str, object] = {}
    for stmt in init.body:
        if any(isinstance(sub, ast.Return) for sub in ast.walk(stmt)):
            break  # a store after an early ``return`` may never run
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            for target in stmt.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and _is_self(target.value)
                    and counts[target.attr] == 1
                ):
                    stored[target.attr] = stmt.value.value
    elsewhere = {n for sub in ast.walk(tree) for n in store_names(sub) if not _inside(sub, init)}
    return defaults, stored, frozenset(elsewhere)


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    line = getattr(node, "lineno", 0)
    return bool(outer.lineno <= line <= (outer.end_lineno or outer.lineno))  # type: ignore[attr-defined]
