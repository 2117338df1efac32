"""What the "already started" family (:mod:`.family_fixes`) needs of the raising
method's class, read again from its file (with its bases defined in the same module):
whether it has a ``start()`` at all, and which
other methods store the state its check reads (``BaseManager.connect`` sets
``self._state.value = State.STARTED`` too, so "a second ``start()``" is not the only way
in: re-reader rr3, item 4)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .facts import FuncFacts
from .file_trees import module_tree

__all__ = ["StartedState", "started_state"]

_Function = (ast.FunctionDef, ast.AsyncFunctionDef)
#: ``self._state.value`` in a guard's text.
_SELF_ATTR = re.compile(r"\bself((?:\.[A-Za-z_]\w*)+)")


@dataclass(frozen=True, slots=True)
class StartedState:
    has_start: bool
    #: Other methods (not ``__init__``, ``start`` or the raising one) storing what the
    #: check reads, in source order.
    other_starters: tuple[str, ...]


def started_state(source_file: str, func: FuncFacts, guard_texts: list[str]) -> StartedState | None:
    """None where the file or the class is not found again."""
    tree = module_tree(source_file)
    cls = _class_of(tree, func) if tree is not None else None
    if tree is None or cls is None:
        return None
    methods = [n for c in _lineage(tree, cls) for n in c.body if isinstance(n, _Function)]
    read = {m for text in guard_texts for m in _SELF_ATTR.findall(text)}
    others = [
        m.name
        for m in methods
        if m.name not in ("__init__", "start", func.name) and read & _stored(m)
    ]
    return StartedState(any(m.name == "start" for m in methods), tuple(dict.fromkeys(others)))


def _lineage(tree: ast.Module, cls: ast.ClassDef) -> list[ast.ClassDef]:
    """The class and its bases defined at the top of the same module, nearest first
    (``SharedMemoryManager`` gets ``start()`` from ``BaseManager``)."""
    top = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    out, todo = [cls], [cls]
    while todo:
        for base in todo.pop(0).bases:
            found = top.get(base.id) if isinstance(base, ast.Name) else None
            if found is not None and found not in out:
                out.append(found)
                todo.append(found)
    return out


def _class_of(tree: ast.Module, func: FuncFacts) -> ast.ClassDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            isinstance(n, _Function) and n.name == func.name and n.lineno == func.line
            for n in node.body
        ):
            return node
    return None


def _stored(method: ast.AST) -> set[str]:
    """The ``self`` attribute chains the method assigns: ``.x`` and, for
    ``self._state.value = ...``, both ``._state.value`` and ``._state``."""
    out: set[str] = set()
    for node in ast.walk(method):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            chain = _chain(target)
            while chain:
                out.add(chain)
                chain = chain.rpartition(".")[0]
    return out


def _chain(node: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "self" and parts:
        return "." + ".".join(reversed(parts))
    return ""
