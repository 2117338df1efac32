"""The ``if`` conditions a call in a function body is made under, over the function's
parameters: a caller whose constants make one of them false never makes that call.

``TarFile.open`` builds a ``_Stream`` only in ``elif "|" in mode:``, after ``if mode in
("r", "r:*")`` and ``elif ":" in mode`` did not hold: ``tarfile.main``, which passes
``'r:*'`` or one of ``'w:gz'``, ``'w:xz'``, ``'w:bz2'``, ``'w'``, never gets to
``_Stream``'s "lzma module is not available" that way (blind review stop 32, record 18).
The entry-point walk (:mod:`errdex.analyze.chains`) judges a caller by the conditions of
every call its callee makes on the way to the raise (:func:`closed`).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Mapping

from .callsites import Arg
from .facts import FuncFacts
from .guard_eval import OneOf, is_immutable
from .guards import free_names
from .value_sets import contradicted

__all__ = ["Conditions", "call_conditions", "closed", "passed_values"]

#: Line -> the conditions (texts over parameters) every call on that line is made under.
Conditions = dict[int, tuple[str, ...]]
#: A condition longer than this is not kept.
_MAX_TEXT = 200
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPOUND = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
)


def call_conditions(
    func: ast.FunctionDef | ast.AsyncFunctionDef,
    params: tuple[str, ...],
    rebound: Collection[str],
    lines: Collection[int],
) -> Conditions:
    """Line -> the conditions of the ``if``/``elif``/``else`` clauses around it that read
    a parameter the body never binds again (and no parameter it does), for the ``lines``
    (those of its calls) that have one. A line shared by two clauses (``if x: f()``)
    keeps the conditions common to both."""
    names = {p.lstrip("*") for p in params} - {"self", "cls"}  # a caller's own objects
    found: dict[int, tuple[str, ...]] = {}
    nested: list[ast.stmt] = []
    reads: dict[str, set[str]] = {}
    _block(func.body, (), found, nested, names, reads)
    if not any(found.get(line) for line in lines):
        return {}
    # a nested function's ``nonlocal`` binds the name again too
    changed = set(rebound) | {
        name
        for scope in nested
        for node in ast.walk(scope)
        if isinstance(node, ast.Nonlocal)
        for name in node.names
    }
    fixed = names - changed
    usable: dict[str, bool] = {}
    out: Conditions = {}
    for line, conditions in found.items():
        if line not in lines:
            continue
        kept = []
        for text in conditions:
            if text not in usable:
                read = reads[text]
                usable[text] = (
                    len(text) <= _MAX_TEXT and bool(read & fixed) and not read & (names - fixed)
                )
            if usable[text]:
                kept.append(text)
        if kept:
            out[line] = tuple(kept)
    return out


def closed(
    conditions: Mapping[int, tuple[str, ...]],
    lines: Iterable[int],
    values: Mapping[str, object],
    self_calls: Iterable[tuple[int, Mapping[str, Arg]]] = (),
) -> bool:
    """Whether the values make one condition false on each of ``lines`` (the calls on
    the way to the raise): no call on the way is made. A line without conditions is
    open; so is every line when there is none. ``self_calls`` are the function's calls
    of itself (line, the parameters they pass): one that passes the parameters the
    conditions read unchanged is judged the same; any other must not be made either."""
    wanted = list(lines)
    if not wanted or not all(contradicted(conditions.get(n, ()), values) for n in wanted):
        return False
    read = {n for line in wanted for c in conditions[line] for n in free_names(c) or ()}
    for line, binding in self_calls:
        if all(binding.get(name) == ("name", name) for name in read & values.keys()):
            continue  # the same values again: the same calls are not made
        if not contradicted(conditions.get(line, ()), values):
            return False
    return True


def passed_values(
    binding: Mapping[str, Arg], callee: FuncFacts, caller: FuncFacts
) -> dict[str, object]:
    """The callee's parameters a call fixes: to a constant it passes or leaves as the
    default, to a local of the caller bound once to a literal, or to one of the few
    constants such a local may hold (:class:`OneOf`). A ``**kwargs`` the callee adds
    items to, removes them from or lets escape is not known."""
    out: dict[str, object] = {}
    changed = callee.filled | callee.drained | callee.escaped
    for name, (kind, value) in binding.items():
        if name in changed:
            continue
        if kind == "const" and is_immutable(value):
            out[name] = value
        elif kind == "name" and isinstance(value, str):
            if value in caller.local_consts and is_immutable(caller.local_consts[value]):
                out[name] = caller.local_consts[value]
            elif value in caller.local_sets:
                out[name] = OneOf(caller.local_sets[value])
    return out


def _block(
    body: list[ast.stmt],
    around: tuple[str, ...],
    found: dict[int, tuple[str, ...]],
    nested: list[ast.stmt],
    names: set[str],
    reads: dict[str, set[str]],
) -> None:
    """Note each line's clauses; a test that reads no parameter is left out whole (it
    would be dropped in the end, and writing it out is the cost)."""
    for stmt in body:
        if isinstance(stmt, _SCOPES):
            nested.append(stmt)
            continue
        if isinstance(stmt, ast.If):
            _note(stmt.test.lineno, stmt.test.end_lineno or stmt.test.lineno, around, found)
            read = {n.id for n in ast.walk(stmt.test) if isinstance(n, ast.Name)}
            if not read & names:
                _block(stmt.body, around, found, nested, names, reads)
                _block(stmt.orelse, around, found, nested, names, reads)
                continue
            text = ast.unparse(stmt.test)
            reads[text] = reads[f"not ({text})"] = read
            _block(stmt.body, (*around, text), found, nested, names, reads)
            _block(stmt.orelse, (*around, f"not ({text})"), found, nested, names, reads)
            continue
        if not isinstance(stmt, _COMPOUND):
            _note(stmt.lineno, stmt.end_lineno or stmt.lineno, around, found)
            continue
        inner = [
            getattr(stmt, name)
            for name in ("body", "orelse", "finalbody")
            if isinstance(getattr(stmt, name, None), list)
        ]
        inner += [h.body for h in getattr(stmt, "handlers", ())]
        inner += [c.body for c in getattr(stmt, "cases", ())]
        if not inner:
            _note(stmt.lineno, stmt.end_lineno or stmt.lineno, around, found)
            continue
        first = min(block[0].lineno for block in inner if block)
        _note(stmt.lineno, first - 1, around, found)  # the header: ``for x in f(y):``
        for block in inner:
            _block(block, around, found, nested, names, reads)


def _note(
    first: int, last: int, around: tuple[str, ...], found: dict[int, tuple[str, ...]]
) -> None:
    if first >= last and first not in found:
        found[first] = around
        return
    for line in range(first, max(first, last) + 1):
        known = found.get(line)
        if known is None:
            found[line] = around
            continue
        common = 0
        while common < min(len(known), len(around)) and known[common] == around[common]:
            common += 1
        found[line] = known[:common]
