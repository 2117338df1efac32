"""A package's pure-Python module that its ``__init__`` imports only in place of a
compiled one: multidict's ``_multidict_py`` beside ``_multidict`` (C), msgpack's
``fallback`` beside ``_cmsgpack`` (Cython).

The standard library's twins (:mod:`.twins`) are decided by importing the C module in
this interpreter. A package's compiled module is not built here, so what is read is the
shape of the choice, from the importing module's own statements:

* ``if not USE_EXTENSIONS: from ._py import A`` / ``else: from ._c import A``: the
  branches exclude each other, and the compiled one is taken where its test holds;
* ``try: from ._c import A`` / ``except ImportError: from ._py import A``: the Python
  module is taken where the compiled one fails to import;
* ``from ._py import A`` followed by ``try: from ._c import A``: the later import wins.

The compiled module is one of the importing package's own (same top-level package) with
no Python source in the repository. The Python module is a twin only when no other
module of the library imports it at run time: an import under ``if TYPE_CHECKING:``
does not run (multidict's ``_abc`` imports ``istr`` from ``_multidict_py`` so).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .shadows import catches_import_error, resolved_module

if TYPE_CHECKING:
    from .repo import RepoIndex

__all__ = ["Alternative", "alternatives", "package_twins", "typing_only"]

#: Where an import sits: (id of the ``if``/``try`` node, which of its blocks) outermost first.
_Path = tuple[tuple[int, str], ...]


class Alternative(NamedTuple):
    """A Python module imported only where a compiled one is not taken (a tuple: module
    facts are pickled)."""

    python: str  # the pure-Python module
    compiled: str  # the compiled module taken in its place
    line: int  # the compiled module's import
    guard: str = ""  # the ``if`` test that import runs under, simplified ("" none)
    caught: bool = False  # inside ``try`` … ``except ImportError``


@dataclass(frozen=True, slots=True)
class _Import:
    module: str
    names: frozenset[str]  # the names it binds ("*": a star import)
    line: int
    path: _Path
    guard: str
    caught: bool


def _imports(tree: ast.Module, package: str) -> tuple[list[_Import], set[str]]:
    """The module's top-level ``from`` imports that run, and the modules imported only
    under ``if TYPE_CHECKING:``."""
    found: list[_Import] = []
    typing: set[str] = set()

    def walk(body: list[ast.stmt], path: _Path, tests: tuple[ast.expr, ...], caught: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.ImportFrom):
                module = resolved_module(stmt, package)
                if module is not None:
                    names = frozenset(a.asname or a.name for a in stmt.names)
                    guard = _guard(tests)
                    found.append(_Import(module, names, stmt.lineno, path, guard, caught))
            elif isinstance(stmt, ast.If):
                key = id(stmt)
                if _is_typing(stmt.test):
                    typing.update(_modules(stmt.body, package))
                else:
                    walk(stmt.body, (*path, (key, "body")), (*tests, stmt.test), caught)
                negated = ast.UnaryOp(ast.Not(), stmt.test)
                walk(stmt.orelse, (*path, (key, "orelse")), (*tests, negated), caught)
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                key = id(stmt)
                catches = any(catches_import_error(h) for h in stmt.handlers)
                walk(stmt.body, (*path, (key, "body")), tests, caught or catches)
                for handler in stmt.handlers:
                    block = "handler" if catches_import_error(handler) else "other"
                    walk(handler.body, (*path, (key, block)), tests, caught)
                walk(stmt.orelse, (*path, (key, "else")), tests, caught)

    walk(tree.body, (), (), False)
    return found, typing - _run_time(tree, package)


def _run_time(tree: ast.Module, package: str) -> set[str]:
    """The modules any ``import`` or ``from`` import outside ``if TYPE_CHECKING:``
    names, however deep (a plain ``import pkg._py``, one in a function, too)."""
    out: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_typing(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom) and (module := resolved_module(node, package)):
            out.add(module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _modules(body: list[ast.stmt], package: str) -> Iterator[str]:
    for stmt in body:
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.ImportFrom) and (m := resolved_module(inner, package)):
                yield m
            elif isinstance(inner, ast.Import):
                yield from (a.name for a in inner.names)


def _is_typing(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "TYPE_CHECKING") or (
        isinstance(node, ast.Attribute) and node.attr == "TYPE_CHECKING"
    )


def _guard(tests: tuple[ast.expr, ...]) -> str:
    """The tests joined, ``TYPE_CHECKING`` (false at run time) and double negations
    removed: ``not (TYPE_CHECKING or not USE_EXTENSIONS)`` -> ``USE_EXTENSIONS``."""
    parts = [s for s in (_simplified(t) for t in tests) if s is not True]
    if any(p is False for p in parts):
        return "False"
    return " and ".join(ast.unparse(p) for p in parts if isinstance(p, ast.expr))


def _simplified(node: ast.expr) -> ast.expr | bool:
    """``node`` with ``TYPE_CHECKING`` taken as False and constants folded."""
    if _is_typing(node):
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _simplified(node.operand)
        if isinstance(inner, bool):
            return not inner
        if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, ast.Not):
            return inner.operand
        return ast.UnaryOp(ast.Not(), inner)
    if isinstance(node, ast.BoolOp):
        short = isinstance(node.op, ast.Or)  # the value that decides an ``or``
        kept: list[ast.expr] = []
        for value in node.values:
            done = _simplified(value)
            if done is short:
                return short
            if isinstance(done, ast.expr):
                kept.append(done)
        if not kept:
            return not short
        return kept[0] if len(kept) == 1 else ast.BoolOp(node.op, kept)
    return node


def _instead(python: _Path, rival: _Path) -> bool:
    """Whether the Python import runs only where the rival's does not: the other block
    of one ``if``, or the ``except ImportError`` of the ``try`` whose body is the rival's
    (in the body itself, it is the one that runs where it imports)."""
    for (node_p, block_p), (node_r, block_r) in zip(python, rival, strict=False):
        if node_p != node_r:
            return False
        if block_p != block_r:
            return {block_p, block_r} == {"body", "orelse"} or (
                block_p == "handler" and block_r == "body"
            )
    return False


def _replaces(rival: _Import, python: _Import) -> bool:
    """The Python import runs only where the rival's does not, or the rival comes later
    and rebinds the names (unless it runs only where the Python one failed)."""
    if _instead(python.path, rival.path):
        return True
    return rival.line > python.line and not _instead(rival.path, python.path)


def alternatives(tree: ast.Module, package: str) -> list[Alternative]:
    """The modules this one imports only where another module's import of the same names
    is not taken (whether that one is compiled is decided over the repository)."""
    found, _ = _imports(tree, package)
    out: list[Alternative] = []
    for python in dict.fromkeys(i.module for i in found):
        own = [i for i in found if i.module == python]
        chosen: _Import | None = None
        for imp in own:
            rival = next(
                (
                    o
                    for o in found
                    if o.module != python
                    and (imp.names <= o.names or "*" in o.names)
                    and _replaces(o, imp)
                ),
                None,
            )
            if rival is None:
                chosen = None
                break
            chosen = chosen or rival
        if chosen is not None and chosen.guard != "False":
            out.append(Alternative(python, chosen.module, chosen.line, chosen.guard, chosen.caught))
    return out


def typing_only(tree: ast.Module, package: str) -> tuple[str, ...]:
    """Modules imported only under ``if TYPE_CHECKING:``: no import of them runs."""
    return tuple(sorted(_imports(tree, package)[1]))


def package_twins(index: RepoIndex) -> dict[str, tuple[Alternative, str]]:
    """Python module of the repository -> (its alternative, the importing module) for
    each imported, at run time, only in place of a compiled module of the same package."""
    wanted: dict[str, tuple[Alternative, str]] = {}
    for facts in index.modules.values():
        if facts.is_test:
            continue
        top = facts.name.split(".")[0]
        for alt in map(Alternative._make, facts.alternatives):
            if (
                alt.python in index.modules
                and alt.python != facts.name
                and alt.compiled not in index.modules
                and alt.compiled.split(".")[0] == top == alt.python.split(".")[0]
            ):
                wanted.setdefault(alt.python, (alt, facts.name))
    for facts in index.modules.values():
        if facts.is_test or not wanted:
            continue
        chosen = {a[0] for a in facts.alternatives}
        named = [m for m in (*facts.imports.values(), *facts.star) if not _within(m, chosen)]
        for func in facts.functions:
            named.extend(func.local_imports.values())
        for target in named:
            if _within(target, set(facts.typing_only)):
                continue
            for module in [m for m in wanted if m != facts.name]:
                if _within(target, {module}):
                    del wanted[module]
    return wanted


def _within(target: str, modules: set[str]) -> bool:
    return any(target == m or target.startswith(m + ".") for m in modules)
