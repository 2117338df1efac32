"""Python code that a later import replaces: ``from _heapq import *`` at the end of heapq.py.

Much of the standard library (and many packages) defines a function or class in Python
and then rebinds the name to a C implementation when one imports. A record on the Python
line must not describe it as the code that runs. The rebinding is read from the module's
own statements, in order: a ``from M import name`` (or ``*``) after ``def name`` /
``class name`` rebinds it. Which names a ``*`` import brings is known only for modules
built into the interpreter or compiled into its standard library, whose names are read by
importing them (their initialisation is C code of the interpreter, not the repository's).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
import sysconfig
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = [
    "Shadow",
    "catches_import_error",
    "interpreter_module",
    "resolved_module",
    "shadowing_imports",
    "star_names",
]


@dataclass(frozen=True, slots=True)
class Shadow:
    module: str  # where the replacement comes from
    line: int  # the import's line
    conditional: bool  # inside ``try`` with an ``except ImportError`` (kept when it fails)
    #: The ``if`` test the import runs under, as written (``get_build_version() >= 8.0``;
    #: ``not (…)`` in its ``else``); "" when no ``if`` encloses it.
    guard: str = ""
    caught: bool = False  # inside ``try`` with an ``except ImportError`` (with a guard too)


def shadowing_imports(tree: ast.Module, package: str = "") -> dict[str, Shadow]:
    """Top-level names whose definition a later import in the module replaces, directly
    or by rebinding the name to what it imported (``FrozenList = CFrozenList``).
    ``package``: where a relative import (``from ._native import f``) looks."""
    defined: set[str] = set()
    found: dict[str, Shadow] = {}
    imported: dict[str, Shadow] = {}
    _walk(tree.body, defined, found, imported=imported, package=package, guard="", caught=False)
    return found


def _walk(
    body: list[ast.stmt],
    defined: set[str],
    found: dict[str, Shadow],
    *,
    imported: dict[str, Shadow],
    package: str,
    guard: str,
    caught: bool,
) -> None:
    """``guard``: the ``if`` tests the block runs under; ``caught``: whether a ``try`` with
    an ``except ImportError`` encloses it. A shadow is conditional on either."""

    def inner(block: list[ast.stmt], test: str = guard, in_try: bool = caught) -> None:
        _walk(block, defined, found, imported=imported, package=package, guard=test, caught=in_try)

    conditional = caught or bool(guard)

    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(stmt.name)
            found.pop(stmt.name, None)  # defined again after the import: the def wins
        elif isinstance(stmt, ast.ImportFrom) and (module := resolved_module(stmt, package)):
            for alias in stmt.names:
                names = star_names(module) if alias.name == "*" else {alias.name}
                bound = {alias.asname} if alias.asname and alias.name != "*" else names
                for name in bound:
                    imported[name] = Shadow(module, stmt.lineno, conditional, guard, caught)
                for name in bound & defined:
                    found[name] = Shadow(module, stmt.lineno, conditional, guard, caught)
        elif (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(target := stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Name)
        ):
            source = imported.get(stmt.value.id)
            if target.id in defined and source is not None:
                found[target.id] = Shadow(
                    source.module, source.line, conditional, source.guard, source.caught
                )
            else:
                found.pop(target.id, None)  # rebound to something else: not the import
        elif isinstance(stmt, ast.If):
            inner(stmt.body, _joined(guard, ast.unparse(stmt.test)))
            inner(stmt.orelse, _joined(guard, f"not ({ast.unparse(stmt.test)})"))
        elif isinstance(stmt, (ast.Try, ast.TryStar)):
            in_try = caught or any(catches_import_error(h) for h in stmt.handlers)
            inner(stmt.body, in_try=in_try)
            inner(stmt.orelse, in_try=in_try)


def _joined(outer: str, test: str) -> str:
    return f"{outer} and {test}" if outer else test


def resolved_module(stmt: ast.ImportFrom, package: str) -> str | None:
    """The module an import names, a relative one resolved in ``package``; None if it cannot be."""
    if stmt.level == 0:
        return stmt.module
    parts = package.split(".") if package else []
    if stmt.level - 1 > len(parts) or not parts:
        return None
    base = parts[: len(parts) - (stmt.level - 1)]
    return ".".join([*base, stmt.module] if stmt.module else base)


def catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = {t.id if isinstance(t, ast.Name) else getattr(t, "attr", "") for t in types}
    return bool(names & {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


@cache
def star_names(module: str) -> frozenset[str]:
    """The public names of an interpreter-provided C module; empty for any other."""
    if not interpreter_module(module):
        return frozenset()
    try:
        loaded = importlib.import_module(module)
    except Exception:  # absent from this build: nothing is known to be replaced
        return frozenset()
    exported = getattr(loaded, "__all__", None)
    if isinstance(exported, (list, tuple)):
        return frozenset(str(n) for n in exported)
    return frozenset(n for n in vars(loaded) if not n.startswith("_"))


@cache
def interpreter_module(module: str) -> bool:
    """Built into the interpreter, or a compiled module of its standard library."""
    if module in sys.builtin_module_names:
        return True
    if module.split(".")[0] not in sys.stdlib_module_names:
        return False
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return False
    origin = spec.origin if spec is not None else None
    if not origin or not origin.endswith((".so", ".pyd")):
        return False
    # the base interpreter's own folders: a venv's site-packages is not the stdlib
    stdlib = sysconfig.get_path(
        "platstdlib", vars={"platbase": sys.base_exec_prefix, "base": sys.base_prefix}
    )
    return Path(origin).resolve().is_relative_to(Path(stdlib).resolve())
