"""Whether a subclass's override of an abstract method is itself abstract: ``Mid._make``
that again raises ``NotImplementedError`` defines nothing, and naming its class as one
"that defines" the hook sends the caller into the same raise (re-reader rr3, item 3)."""

from __future__ import annotations

import ast
import os

from .facts import FuncFacts
from .file_trees import function_node
from .repo import RepoIndex

__all__ = ["still_abstract"]


def still_abstract(index: RepoIndex, impl: FuncFacts) -> bool:
    """A statement of the override's own body (not a nested block) raises
    ``NotImplementedError``; False where its file cannot be read again."""
    module = index.modules.get(impl.module)
    if module is None or not index.root:
        return False
    node = function_node(os.path.join(index.root, module.rel), impl.line, impl.name)
    return node is not None and any(_raises_not_implemented(s) for s in node.body)


def _raises_not_implemented(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.Raise) or stmt.exc is None:
        return False
    exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
    name = exc.attr if isinstance(exc, ast.Attribute) else getattr(exc, "id", None)
    return name == "NotImplementedError"
