"""Calls in an ``except ImportError`` fallback whose imports cannot fail.

``distutils.util.byte_compile`` writes ``try: from tempfile import mkstemp; ... except
ImportError: from tempfile import mktemp; ... mktemp(".py")``: ``tempfile`` has had
``mkstemp`` for twenty years, so the fallback never runs and ``byte_compile`` is no way
to ``mktemp``'s errors. A fallback is dead when the handler catches only
``ImportError``/``ModuleNotFoundError``, its ``try`` imports something, calls nothing
that imports at run time (``importlib.import_module``, ``__import__``), and every name
it imports is defined in the scanned tree or by a compiled module of this interpreter. The body's other calls could raise ``ImportError`` only by importing.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .facts import dotted
from .flag_words import BUILT_WITH
from .platforms import PLATFORM_MODULES
from .shadows import resolved_module
from .twins import provides

if TYPE_CHECKING:
    from .repo import RepoIndex

__all__ = ["Imported", "dead_fallback", "guarded_imports"]

#: (module, name imported from it, or None for ``import module``).
Imported = tuple[tuple[str, str | None], ...]
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
#: Calls that import at run time: a ``try`` making one may fail to import through it.
_IMPORTING = frozenset({"import_module", "__import__", "import_fresh_module", "find_spec"})


def guarded_imports(
    node: ast.Try | ast.TryStar, handler: ast.ExceptHandler, package: str
) -> Imported:
    """What the ``try`` imports when ``handler`` can run only where one of those imports
    fails; empty when it may run for another reason."""
    if handler.type is None:
        return ()
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    if not types or any(_last(t) not in _IMPORT_ERRORS for t in types):
        return ()
    found: list[tuple[str, str | None]] = []
    for stmt in node.body:
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.Import):
                found.extend((a.name, None) for a in inner.names)
            elif isinstance(inner, ast.ImportFrom):
                module = resolved_module(inner, package)
                if module is None or any(a.name == "*" for a in inner.names):
                    return ()
                found.extend((module, a.name) for a in inner.names)
            elif isinstance(inner, ast.Call):
                ref = dotted(inner.func)
                if ref is None or ref[-1] in _IMPORTING:
                    return ()
    return tuple(found)


def _last(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")


def dead_fallback(index: RepoIndex, imported: Imported) -> bool:
    """Every import of the ``try`` certainly works: its module is in the scanned tree and
    defines the name (or has it as a submodule), or this interpreter provides it, and it
    is no module a build may lack (``ssl`` without OpenSSL) nor one platform's (``fcntl``):
    this interpreter having them says nothing of the user's."""
    return bool(imported) and all(_works(index, module, name) for module, name in imported)


def _works(index: RepoIndex, module: str, name: str | None) -> bool:
    top = module.partition(".")[0]
    if top in BUILT_WITH or top in PLATFORM_MODULES:
        return False  # a build without its library, or another platform, lacks it
    if module in index.modules:
        if name is None:
            return True
        return f"{module}.{name}" in index.modules or index.resolve(module, (name,)) is not None
    return provides(module, name)
