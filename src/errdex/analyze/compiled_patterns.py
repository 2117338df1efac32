"""Which receivers of ``.match``/``.search``/``.fullmatch`` are compiled regular expressions.

Any object may have a ``search`` method: ``node = index.search(key)`` then ``if node is
None: raise ValueError("invalid key")`` is a lookup, and "pass `key` in the form the
regular expression `index` accepts" was false (re-read of session 37's merged prose). A
receiver counts as a pattern only where the module or the method's class binds it, once,
to ``re.compile(...)``, or the call is ``re.match(p, x)`` itself; and a pattern compiled
from a bytes literal matches bytes, not a string (``BWORD.fullmatch(data)``).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .facts import FuncFacts
from .parsed import parse_guard

__all__ = ["compiled_patterns", "pattern_kind"]


def pattern_kind(expr: str, patterns: Mapping[str, str], func: FuncFacts | None) -> str | None:
    """``"str"`` or ``"bytes"`` (what the pattern of the match call ``expr`` matches;
    ``"str"`` where the pattern's text is not a literal), or None where its receiver is
    not known to be a compiled pattern. ``patterns``: the module's
    (:func:`compiled_patterns`); ``func``: the function calling it, for ``self.P``."""
    node = parse_guard(expr)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    owner = node.func.value
    if isinstance(owner, ast.Name) and owner.id == "re":
        return _literal_kind(node.args[0]) if node.args else None
    if isinstance(owner, ast.Name):
        return patterns.get(owner.id)
    if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name):
        holder = owner.value.id
        cls = (func.cls or "").rpartition(".")[2] if func is not None else ""
        if holder in ("self", "cls") and cls:
            holder = cls
        return patterns.get(f"{holder}.{owner.attr}")
    return None


def _literal_kind(node: ast.expr) -> str:
    return "bytes" if isinstance(node, ast.Constant) and isinstance(node.value, bytes) else "str"


def compiled_patterns(tree: ast.Module) -> dict[str, str]:
    """Names bound once to ``re.compile(p)`` at the top level (``NAME``) or in a top
    level class body (``Class.NAME``) -> ``"bytes"`` for a bytes literal ``p``, else
    ``"str"``; a top-level ``NAME = None`` that functions declaring ``global NAME`` bind
    only to ``re.compile(p)`` counts too (``pkgutil._NAME_PATTERN``, compiled on first
    use)."""
    kinds: dict[str, str] = {}
    seen: set[str] = set()
    lazy: set[str] = set()
    _bind(tree.body, "", kinds, seen, lazy)
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            _bind(stmt.body, f"{stmt.name}.", kinds, seen, set())
    kinds.update(_compiled_later(tree, lazy))
    return kinds


def _compiled(value: ast.expr | None) -> str | None:
    """What ``re.compile(p)`` matches; None for any other value."""
    if isinstance(value, ast.Call) and ast.unparse(value.func) == "re.compile" and value.args:
        return _literal_kind(value.args[0])
    return None


def _bind(
    body: list[ast.stmt], prefix: str, kinds: dict[str, str], seen: set[str], lazy: set[str]
) -> None:
    """Note ``NAME = re.compile(p)`` in ``body`` (and ``NAME = None`` in ``lazy``); a
    name bound twice is no pattern."""
    for stmt in body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else []
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            name = prefix + target.id
            value = stmt.value if isinstance(stmt, ast.Assign) else None
            kind = _compiled(value)
            none = isinstance(value, ast.Constant) and value.value is None
            if name in seen or kind is None:
                kinds.pop(name, None)
                if name in seen or not none:
                    lazy.discard(name)
                else:
                    lazy.add(name)
            else:
                kinds[name] = kind
            seen.add(name)


def _compiled_later(tree: ast.Module, lazy: set[str]) -> dict[str, str]:
    """Of the top-level names bound to None, those every function that declares them
    ``global`` binds only to ``re.compile(p)`` (of one kind), at least once."""
    found: dict[str, set[str | None]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        declared = {
            name
            for stmt in ast.walk(node)
            if isinstance(stmt, ast.Global)
            for name in stmt.names
            if name in lazy
        }
        for stmt in ast.walk(node):
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name) and target.id in declared:
                        found.setdefault(target.id, set()).add(_compiled(stmt.value))
    return {
        name: kind
        for name, kinds in found.items()
        if len(kinds) == 1 and (kind := next(iter(kinds))) is not None
    }
