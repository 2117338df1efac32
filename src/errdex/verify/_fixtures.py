"""The fixtures a test takes, as statements: its module's, its conftests', pytest's own."""

from __future__ import annotations

import ast
from typing import Protocol

from ._ast_names import bound_names, used_names
from ._builtin_fixtures import builtin_fixture
from ._test_context import NotStandalone, fixture_lines

__all__ = ["Fixtures", "Module", "assigned", "fixture_params"]


class Module(Protocol):
    """A test module as :mod:`.from_tests` reads it (its tree, the header of a snippet)."""

    tree: ast.Module
    imports: list[tuple[ast.stmt, set[str]]]

    def header(self, needed: set[str]) -> list[ast.stmt]: ...


class Fixtures:
    """Fixtures a test takes: from its own module first, then the nearest ``conftest.py``
    up the folders (with the imports that conftest's fixture uses)."""

    def __init__(self, mod: Module, conftests: list[Module]) -> None:
        self.sources: list[tuple[Module, bool]] = [(mod, False)]
        self.sources += [(c, True) for c in conftests]

    def lines(self, name: str, depth: int = 0) -> list[ast.stmt]:
        if depth > 3:
            raise NotStandalone(f"fixture {name} is too deep")
        for owner, foreign in self.sources:
            found = fixture_lines(owner.tree, name)
            if found is None:
                continue
            statements, taken = found
            before = [line for t in taken for line in self.lines(t, depth + 1)]
            if foreign:
                needed = used_names(statements) - assigned(statements)
                statements = [*owner.header(needed), *statements]
            return [*before, *statements]
        made = builtin_fixture(name)
        if made is None:
            raise NotStandalone(f"fixture {name} is out of reach")
        return made


def fixture_params(
    fixtures: Fixtures, params: list[str], case: dict[str, ast.expr]
) -> list[ast.stmt]:
    prelude: list[ast.stmt] = []
    for param in params:
        if param in case:
            prelude.append(ast.Assign(targets=[ast.Name(param, ast.Store())], value=case[param]))
        else:
            prelude += fixtures.lines(param)
    return prelude


def assigned(statements: list[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for stmt in statements:
        out |= bound_names(stmt)
    return out
