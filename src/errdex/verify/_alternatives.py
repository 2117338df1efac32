"""Values the repository's tests give a name, tried for a guard errdex cannot evaluate.

``G.is_directed()`` or ``not nx.is_connected(G)`` cannot be decided without running the
repository's code, so :mod:`._guard_solver` finds no value for them. The tests, though,
build many values under the parameter's name (``G = nx.DiGraph()``, ``G =
nx.path_graph(4)``, ``G = nx.MultiGraph()``): each kind of them is tried in place of the
argument, and the sandbox says whether the call then raises at the record's site, with
its class and message. Nothing here is run; a value is only text with the imports it needs.
"""

from __future__ import annotations

import ast
import builtins
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Alternative", "Alternatives", "program_bindings"]

_MAX_TEXT = 80
_BUILTINS = frozenset(dir(builtins))
#: Syntax a value may not hold: it binds names of its own, or runs only in a function.
_UNFIT = (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.comprehension)


@dataclass(frozen=True)
class Alternative:
    """A value's text, and the import statements that bind the names it reads."""

    text: str
    imports: tuple[tuple[str, str], ...]  # (name, the import statement that binds it)

    @property
    def expr(self) -> ast.expr:
        return ast.parse(self.text, mode="eval").body


def program_bindings(tree: ast.Module) -> dict[str, str]:
    """Top-level name -> the statement that binds it (an import's text, else ``=``)."""
    out: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                if alias.name == "*":
                    continue
                name = alias.asname or alias.name
                if isinstance(stmt, ast.Import) and alias.asname is None:
                    name = name.split(".")[0]
                    text = f"import {name}"
                else:
                    one = (
                        ast.Import(names=[alias])
                        if isinstance(stmt, ast.Import)
                        else ast.ImportFrom(module=stmt.module, names=[alias], level=stmt.level)
                    )
                    text = ast.unparse(one)
                out[name] = text
        else:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    out.setdefault(node.id, "=")
    return out


def _head(expr: ast.expr) -> str:
    """What kind of value it is: the callee of a call, else the node's type."""
    if isinstance(expr, ast.Call):
        return ast.unparse(expr.func)
    if isinstance(expr, ast.Constant):
        return type(expr.value).__name__
    return type(expr).__name__


class Alternatives:
    """Name -> the values the tests assign to it or pass under it as a keyword."""

    def __init__(self, programs: Iterable[str] = ()) -> None:
        self._seen: dict[str, Counter[Alternative]] = {}
        for program in programs:
            self.add(program)

    def add(self, program: str) -> None:
        try:
            tree = ast.parse(program)
        except (SyntaxError, ValueError, RecursionError):
            return
        bindings = program_bindings(tree)
        pairs: list[tuple[str, ast.expr]] = []
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                pairs.append((stmt.targets[0].id, stmt.value))
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call):
                    pairs += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
        for name, expr in pairs:
            found = _alternative(expr, bindings)
            if found is not None:
                self._seen.setdefault(name, Counter())[found] += 1

    def of(self, name: str, limit: int, besides: str = "") -> list[Alternative]:
        """Up to ``limit`` values for ``name``, one of each kind, the most common kinds
        first and the shortest of a kind; never ``besides`` (the value already passed)."""
        kinds: dict[str, list[tuple[int, Alternative]]] = {}
        for alt, count in (self._seen.get(name) or Counter()).items():
            if alt.text != besides:
                kinds.setdefault(_head(alt.expr), []).append((count, alt))
        ranked = sorted(
            kinds.values(),
            key=lambda group: (-sum(c for c, _ in group), min(len(a.text) for _, a in group)),
        )
        return [
            min(group, key=lambda pair: (len(pair[1].text), pair[1].text))[1] for group in ranked
        ][:limit]


def _alternative(expr: ast.expr, bindings: dict[str, str]) -> Alternative | None:
    """``expr`` as a value another program can use: short, reading only imported names
    and builtins; None otherwise."""
    if any(isinstance(node, _UNFIT) for node in ast.walk(expr)):
        return None
    text = ast.unparse(expr)
    if len(text) > _MAX_TEXT or "\n" in text:
        return None
    imports: dict[str, str] = {}
    for node in ast.walk(expr):
        if not isinstance(node, ast.Name):
            continue
        bound = bindings.get(node.id)
        if bound is None:
            if node.id not in _BUILTINS:
                return None
            continue
        if bound == "=":  # a value the program made: out of reach elsewhere
            return None
        imports[node.id] = bound
    return Alternative(text, tuple(sorted(imports.items())))


def fits(alt: Alternative, bindings: dict[str, str]) -> list[str] | None:
    """The import statements to put before a program with ``bindings`` so ``alt`` reads
    what it read where the tests wrote it; None when the program binds one of its names
    to something else."""
    out: list[str] = []
    for name, stmt in alt.imports:
        have = bindings.get(name)
        if have is None:
            out.append(stmt)
        elif have != stmt:
            return None
    return out
