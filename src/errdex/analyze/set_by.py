"""Which public methods put an attribute of ``self`` in the state a raise tests, read from
the class's own stores (for :mod:`.state_words`).

``Aifc_write.getnchannels`` raises under ``not self._nchannels``: ``initfp`` (run by
``__init__``) stores ``0`` and only ``setnchannels`` stores another value, so the call
came "before `setnchannels()` was called on the same object"; ``Listener.accept`` raises
under ``self._listener is None``, which ``__init__`` sets and ``close()`` empties:
"after `close()` was called on the same object". Said only where every store of the
attribute in the module is the class's own (in ``__init__``, a method ``__init__`` calls
on ``self``, or public methods), what ``__init__`` leaves is one kind (unset: ``None``
or, for a truth test, a false literal; or set), and, for "after", the method stores a
literal that makes the test true on every way through it: ``self._debug = debug`` is no
such store (``configure(False)`` leaves it false), nor one under ``if self._ready:``, nor
one in a ``try`` past a call whose failure a handler swallows. A method that stores it
and is a property, a setter or otherwise decorated is not called by name: never said.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .guards import code

__all__ = ["set_by"]

_Function = (ast.FunctionDef, ast.AsyncFunctionDef)
#: Setters or closers named at most.
_MOST = 3


def set_by(tree: ast.Module, cls_name: str, test: ast.expr) -> str | None:
    """ "before `setnchannels()` was called on the same object", "after `close()` was
    called on the same object"; None where the stores do not say it exactly."""
    cls = _class_node(tree, cls_name)
    if cls is None:
        return None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_one(tree, cls, v) for v in test.values]
        if any(p is None or p[0] != "before" or len(p[1]) != 1 for p in parts):
            return None
        names = [p[1][0] for p in parts if p is not None]
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        return f"before each of {listed} was called on the same object"
    found = _one(tree, cls, test)
    if found is None:
        return None
    when, methods = found
    return f"{when} {' or '.join(methods)} was called on the same object"


def _one(tree: ast.Module, cls: ast.ClassDef, test: ast.expr) -> tuple[str, list[str]] | None:
    read = _reads(test)
    if read is None:
        return None
    attr, fires_unset, truth = read
    if _stored_outside(tree, cls, attr) or any(_class_store(s, attr) for s in cls.body):
        return None
    functions = [m for m in cls.body if isinstance(m, _Function)]
    methods = {m.name: m for m in functions}
    init = methods.get("__init__")
    if init is None or len(methods) != len(functions):
        return None  # a name defined twice (a property and its setter): not said
    if any(m.decorator_list and _kinds(m, attr, truth) for m in functions):
        return None  # ``obj.name = …`` through a setter is no ``name()`` call
    starting = {"__init__", *_self_calls(init)} & methods.keys()
    # a literal and another value both leave it set, for all said here
    first = {
        "set" if k == "value" else k
        for name in starting
        for k in _kinds(methods[name], attr, truth)
    }
    if len(first) != 1:
        return None  # nothing, or both kinds: what ``__init__`` leaves is not one thing
    (start,) = first
    later: dict[str, set[str]] = {}
    for name, method in methods.items():
        if name in starting:
            continue
        kinds = _kinds(method, attr, truth)
        if kinds and name.startswith("_"):
            return None  # a private method's stores: who runs it is not said here
        if kinds:
            later[name] = kinds
    # a method that stores both kinds leaves the state for its own run only
    # (``serve_forever`` sets a future and empties it in ``finally``): never named
    if fires_unset and start == "unset":
        named = [m for m, k in later.items() if k <= {"set", "value"}]
        return ("before", [code(f"{m}()") for m in named]) if 0 < len(named) <= _MOST else None
    if fires_unset and start == "set":
        named = [
            m
            for m, k in later.items()
            if k == {"unset"} and _every_way(methods[m], attr, _none, truth)
        ]
    elif not fires_unset and start == "unset":
        literal = _set_literal(truth)
        named = [
            m
            for m, k in later.items()
            if k == {"set"} and _every_way(methods[m], attr, literal, truth)
        ]
    else:
        return None
    return ("after", [code(f"{m}()") for m in named]) if 0 < len(named) <= _MOST else None


def _reads(test: ast.expr) -> tuple[str, bool, bool] | None:
    """(attribute, fires when unset, a truth test rather than ``is None``)."""
    negate = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    subject = test.operand if isinstance(test, ast.UnaryOp) and negate else test
    if _self_attr(subject):
        assert isinstance(subject, ast.Attribute)
        return subject.attr, negate, True
    if (
        not negate
        and isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.IsNot))
        and _none(test.comparators[0])
        and _self_attr(test.left)
    ):
        assert isinstance(test.left, ast.Attribute)
        return test.left.attr, isinstance(test.ops[0], ast.Is), False
    return None


def _kinds(method: ast.AST, attr: str, truth: bool) -> set[str]:
    """What ``method``'s stores of ``self.<attr>`` leave: ``unset`` (``None``; a false
    literal for a truth test), ``set`` (another literal) or ``value`` (not a literal:
    ``self._debug = debug`` may be either)."""
    out: set[str] = set()
    for node in ast.walk(method):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets, value = [node.target], None if isinstance(node, ast.AugAssign) else node.value
        elif isinstance(node, ast.Delete):
            if _names_attr(node.targets, attr):
                out.add("gone")
            continue
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Attribute) and sub.attr == attr and _self_attr(sub):
                    if not isinstance(target, ast.Attribute):
                        out.add("gone")  # unpacked: no value known
                    elif value is not None and _unset(value, truth):
                        out.add("unset")
                    elif isinstance(value, ast.Constant):
                        out.add("set")
                    else:
                        out.add("value")
    return out


def _unset(value: ast.expr, truth: bool) -> bool:
    if _none(value):
        return True
    if not truth or not isinstance(value, ast.Constant):
        return False
    return not value.value  # ``0``, ``False``, ``''``: ``...`` is true


def _set_literal(truth: bool) -> Callable[[ast.AST], bool]:
    """A store's value that makes a test firing when set true: a literal, not ``None``
    (and true, for a truth test)."""

    def literal(value: ast.AST) -> bool:
        return isinstance(value, ast.Constant) and not _unset(value, truth)

    return literal


def _every_way(method: ast.AST, attr: str, wanted: Callable[[ast.AST], bool], truth: bool) -> bool:
    """Whether ``self.<attr> = <wanted value>`` runs on every way through ``method`` that
    does not raise: at its top (through ``try``/``with`` bodies, in a ``try`` with
    handlers only first in its body; or in its ``finally``), or in an ``if`` past which it
    holds the wanted kind anyway (``if conn is not None: self._conn = None``; ``if not
    self._parsing: self._parsing = True``)."""
    body = getattr(method, "body", [])
    if wanted is _none:
        return _store_on_way(body, attr, {attr}, wanted, _tests_set)
    return _store_on_way(body, attr, {attr}, wanted, lambda t, h: _tests_unset(t, h, truth))


def _store_on_way(
    body: list[ast.stmt],
    attr: str,
    held: set[str],
    wanted: Callable[[ast.AST], bool],
    already: Callable[[ast.expr, set[str]], bool],
) -> bool:
    for stmt in body:
        if isinstance(stmt, ast.Assign) and wanted(stmt.value) and _names_attr(stmt.targets, attr):
            return True
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and _self_attr(stmt.value)
            and stmt.value.attr == attr  # type: ignore[attr-defined]
        ):
            held = held | {stmt.targets[0].id}
            continue
        if isinstance(stmt, (ast.With, ast.AsyncWith, ast.Try)) and _store_on_way(
            _reached(stmt), attr, held, wanted, already
        ):
            return True
        if isinstance(stmt, ast.Try) and _store_on_way(stmt.finalbody, attr, held, wanted, already):
            return True
        if (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and already(stmt.test, held)
            and _store_on_way(stmt.body, attr, held, wanted, already)
        ):
            return True
        if any(isinstance(n, (ast.Return, ast.Raise)) for n in ast.walk(stmt)):
            return False  # a way out before the store
    return False


def _reached(stmt: ast.With | ast.AsyncWith | ast.Try) -> list[ast.stmt]:
    """The part of ``stmt``'s body that runs on every way through it that does not raise:
    all of it, but in a ``try`` whose handler may end without raising only its first
    statement (``self.sock.close()`` may fail before ``self.sock = None``)."""
    swallows = isinstance(stmt, ast.Try) and any(
        not h.body or not isinstance(h.body[-1], ast.Raise) for h in stmt.handlers
    )
    return stmt.body[:1] if swallows else stmt.body


def _tests_set(test: ast.expr, held: set[str]) -> bool:
    subject = test
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and _none(test.comparators[0])
    ):
        subject = test.left
    if isinstance(subject, ast.Name):
        return subject.id in held
    return _self_attr(subject) and subject.attr in held  # type: ignore[attr-defined]


def _tests_unset(test: ast.expr, held: set[str], truth: bool) -> bool:
    """``not X`` (or, for an ``is None`` guard, ``X is None``) over a held name: where it
    is false, X already makes a guard firing when set true."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        subject = test.operand
    elif (
        not truth
        and isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and _none(test.comparators[0])
    ):
        subject = test.left
    else:
        return False
    if isinstance(subject, ast.Name):
        return subject.id in held
    return _self_attr(subject) and subject.attr in held  # type: ignore[attr-defined]


def _names_attr(targets: list[ast.expr], attr: str) -> bool:
    """Whether one of ``targets`` is ``self.<attr>``."""
    return any(isinstance(t, ast.Attribute) and t.attr == attr and _self_attr(t) for t in targets)


def _self_calls(method: ast.AST) -> set[str]:
    """Methods ``method`` calls on ``self`` (``Aifc_write.__init__`` runs ``initfp`` in
    each branch of its ``if``): what they store is where an object starts."""
    return {
        n.func.attr
        for n in ast.walk(method)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "self"
    }


def _stored_outside(tree: ast.Module, cls: ast.ClassDef, attr: str) -> bool:
    """Whether a line of the module outside ``cls``'s methods stores ``<x>.<attr>``; a
    store on ``self`` in a class neither a base nor a subclass of it is another object's."""
    inside = {id(n) for m in cls.body if isinstance(m, _Function) for n in ast.walk(m)}
    related = _related(tree, cls)
    for other in tree.body:
        if isinstance(other, ast.ClassDef) and other is not cls and other.name not in related:
            inside |= {
                id(n)
                for m in other.body
                if isinstance(m, _Function)
                for n in ast.walk(m)
                if _self_attr(n)
            }
    return any(
        isinstance(n, ast.Attribute)
        and n.attr == attr
        and isinstance(n.ctx, (ast.Store, ast.Del))
        and id(n) not in inside
        for n in ast.walk(tree)
    ) or any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id in ("setattr", "delattr")
        and len(n.args) >= 2
        and isinstance(n.args[1], ast.Constant)
        and n.args[1].value == attr
        for n in ast.walk(tree)
    )


def _related(tree: ast.Module, cls: ast.ClassDef) -> set[str]:
    """The names of the module's classes that are bases or subclasses of ``cls``."""
    bases = {
        n.name: {ast.unparse(b).rpartition(".")[2] for b in n.bases}
        for n in tree.body
        if isinstance(n, ast.ClassDef)
    }
    up, todo = set(), [cls.name]
    while todo:
        for base in bases.get(todo.pop(), ()):
            if base not in up:
                up.add(base)
                todo.append(base)
    down, todo = set(), [cls.name]
    while todo:
        name = todo.pop()
        for sub, its in bases.items():
            if name in its and sub not in down:
                down.add(sub)
                todo.append(sub)
    return up | down


def _class_store(stmt: ast.stmt, attr: str) -> bool:
    """A class attribute of that name: its default, beside ``__init__``'s."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else []
    if isinstance(stmt, ast.AnnAssign):
        targets = [stmt.target]
    return any(isinstance(t, ast.Name) and t.id == attr for t in targets)


def _class_node(tree: ast.Module, name: str) -> ast.ClassDef | None:
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    return found[0] if len(found) == 1 else None


def _self_attr(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
