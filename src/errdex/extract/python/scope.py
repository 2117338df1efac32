"""What the walk knows inside one function: its scope and the values names are bound to.

A name's value is kept as a *thunk* (the expression assigned, or what ``+=`` appended
to it) and only turned into a message template when a raise looks the name up.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from errdex.template import MessageTemplate

from .subtree import name_ids

__all__ = [
    "LAZY",
    "Env",
    "Fixed",
    "LazyEnv",
    "LoopTail",
    "NeedEnv",
    "Rebind",
    "Scope",
    "Thunk",
    "bind_assignment",
    "extends",
    "merge_envs",
]

# A thunk is a lazily evaluated message value: a node, or a node appended to earlier
# alternatives by ``+=``.
Thunk: TypeAlias = "ast.expr | LoopTail | Rebind | Fixed | tuple[Thunk, Thunk]"
Env = dict[str, tuple[Thunk, ...]]


@dataclass
class Scope:
    """Where the walk stands: the enclosing definition, its bindings, the caught names."""

    qualname: str  # without the module, as __qualname__ writes it
    function: str | None
    class_name: str | None
    env: Env = field(default_factory=dict)
    caught: set[str] = field(default_factory=set)  # names bound by ``except … as name``
    node: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    #: For a nested function: the enclosing function's scope and this ``def`` in it,
    #: so closures (``errmsg`` built outside, raised inside) resolve.
    outer: tuple[Scope, ast.stmt] | None = None
    #: While a helper or ``__init__`` of the repository runs for a raise: the class
    #: ``self`` is an instance of (``builders.SelfBinding``), for ``self.x[key]`` lookups.
    bound_self: Any = None


class NeedEnv(Exception):
    """A message refers to a local name: the function's assignments must be replayed."""


class LazyEnv(dict[str, tuple[Thunk, ...]]):
    """The environment of a function walked without tracking assignments.

    Most raises never look a local name up, so assignments are only followed (by a
    second walk of that one function) when a lookup happens.
    """

    def get(self, key: str, default: object = None) -> Any:
        raise NeedEnv

    def __contains__(self, key: object) -> bool:
        raise NeedEnv

    def __getitem__(self, key: str) -> tuple[Thunk, ...]:
        raise NeedEnv


LAZY = LazyEnv()


@dataclass(frozen=True, slots=True)
class Fixed:
    """A value whose template is already known (a caller's argument bound to a parameter)."""

    template: MessageTemplate


@dataclass(frozen=True, slots=True)
class Rebind:
    """``name = <expression using name>``: evaluated with ``name`` bound as before."""

    value: ast.expr
    name: str
    previous: tuple[Thunk, ...]


@dataclass(frozen=True, slots=True)
class LoopTail:
    """What a loop appends to a message with ``+=``: any number of repetitions."""

    name: str


def bind_assignment(stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, scope: Scope) -> None:
    """Follow what an assignment binds; a scope that does not track assignments keeps none."""
    if isinstance(stmt, ast.AugAssign):
        _augassign(stmt, scope)
    elif scope.env is LAZY:
        return
    elif isinstance(stmt, ast.Assign):
        _assign(stmt.targets, stmt.value, scope)
    elif stmt.value is not None:
        _assign([stmt.target], stmt.value, scope)


def _augassign(stmt: ast.AugAssign, scope: Scope) -> None:
    if scope.env is not LAZY and isinstance(stmt.target, ast.Name):
        name = stmt.target.id
        before = scope.env.get(name)
        if before is not None and isinstance(stmt.op, ast.Add):
            scope.env[name] = tuple((thunk, stmt.value) for thunk in before)
        elif before is not None:
            del scope.env[name]


def _assign(targets: Sequence[ast.expr], value: ast.expr, scope: Scope) -> None:
    for target in targets:
        if isinstance(target, ast.Name):
            previous = scope.env.get(target.id)
            if target.id in name_ids(value):
                # ``text = text + …``: the right side means the earlier binding; with none
                # known (a tuple target, a parameter), the earlier value is a hole
                unknown = (Fixed(MessageTemplate.expression(target.id)),)
                scope.env[target.id] = (Rebind(value, target.id, previous or unknown),)
            else:
                scope.env[target.id] = (value,)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                if isinstance(elt, ast.Name):
                    scope.env.pop(elt.id, None)


def merge_envs(a: Env, b: Env) -> Env:
    """Names bound on either path of a branch: the union of their alternatives."""
    merged: Env = {}
    for name in a.keys() | b.keys():
        x, y = a.get(name), b.get(name)
        if x is None or y is None:
            # bound on one path only: the other path keeps what it had (possibly nothing)
            merged[name] = x if y is None else y  # type: ignore[assignment]
            continue
        if x is y:
            merged[name] = x
            continue
        combined = list(x)
        for thunk in y:
            if not any(thunk is t for t in combined):
                combined.append(thunk)
        merged[name] = tuple(combined)
    return merged


def extends(thunk: Thunk, bases: tuple[Thunk, ...]) -> bool:
    """Whether ``thunk`` is one of ``bases`` with text appended (``+=``) after it."""
    while isinstance(thunk, tuple):
        if any(thunk[0] is b for b in bases):
            return True
        thunk = thunk[0]
    return any(thunk is b for b in bases)
