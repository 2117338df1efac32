"""Names a module imports only for the type checker: ``if TYPE_CHECKING: from .api import
tc_get`` binds nothing at run time, so ``pkg.tc_get()`` is no call a user can write.

Review of d48's outer catch (rr3): a package's ``__init__`` that imports ``tc_get`` under
``if TYPE_CHECKING:`` was counted as exporting it, and the catch advice named
``pkg.tc_get()``, which raises ``AttributeError``.
"""

from __future__ import annotations

import ast
import os

from .facts import ModuleFacts, dotted
from .file_trees import module_tree
from .repo import RepoIndex

__all__ = ["runtime_imports", "type_only_names"]

_TESTS = frozenset({("TYPE_CHECKING",), ("typing", "TYPE_CHECKING")})


def runtime_imports(index: RepoIndex, facts: ModuleFacts) -> list[str]:
    """The names ``facts`` imports, less those it imports only under ``TYPE_CHECKING``."""
    if not index.root:
        return list(facts.imports)
    hidden = type_only_names(os.path.join(index.root, facts.rel))
    return [n for n in facts.imports if n not in hidden]


def type_only_names(path: str) -> frozenset[str]:
    """Names the module's top level binds by imports under ``if TYPE_CHECKING:`` (or
    ``typing.TYPE_CHECKING``) and by no import elsewhere at its top level."""
    tree = module_tree(path)
    if tree is None or _serves_lazily(tree):
        return frozenset()
    typed: set[str] = set()
    run: set[str] = set()
    _bound(tree.body, typed, run, checking=False)
    return frozenset(typed - run)


def _serves_lazily(tree: ast.Module) -> bool:
    """Whether the module defines its own ``__getattr__`` (PEP 562): then a name it
    imports only for the type checker is what it serves at run time (``if TYPE_CHECKING:
    from ._api import fetch`` beside ``def __getattr__(name): if name == "fetch": …``), so
    none of them is taken away (rr8, a read-only review: such a package lost its exports)."""
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "__getattr__"
        for node in tree.body
    )


def _bound(body: list[ast.stmt], typed: set[str], run: set[str], *, checking: bool) -> None:
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
            (typed if checking else run).update(names)
        elif isinstance(node, ast.If):
            test = dotted(node.test)
            _bound(node.body, typed, run, checking=checking or test in _TESTS)
            _bound(node.orelse, typed, run, checking=checking)
        elif isinstance(node, ast.Try):
            for part in (node.body, node.orelse, node.finalbody):
                _bound(part, typed, run, checking=checking)
            for handler in node.handlers:
                _bound(handler.body, typed, run, checking=checking)
