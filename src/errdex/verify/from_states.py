"""Reproducers for a method's raise behind its object's own state (``if self._root is None``,
``if self._closed``): the state a new object is in, or the state a method of its class
puts it in.

:mod:`.from_guards` changes a call's arguments; a guard over ``self.<attr>`` names no
argument, so a test's call of the method is kept as it is and never meets it. Here the
class's ``def``s are read (not run): the attributes ``__init__`` and each method taking
no argument set to a literal at their top level (``self._closed = True`` in ``close()``).
Where the guards, evaluated on those values, leave none false and one over ``self`` true,
a test that builds the object (``h = PairingHeap()``) and calls the method gives two
programs: the call right after the object is built, and the call after ``h.close()``.
The sandbox then says whether either raises at the record's line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from ._guard_solver import CONDITION_KINDS, parse_guards, truth
from ._source_tree import source_tree
from .from_guards import _bound, _cut
from .from_tests import Candidate

__all__ = ["class_states", "state_candidates"]

_PER_RECORD = 2
_CALLED = re.compile(r"\.(\w+)\(")
#: A method's state: attribute -> the literal it sets; None for a method taking arguments.
States = dict[str, dict[str, Any]]


class _SelfAttributes(ast.NodeTransformer):
    """``self.x`` as a name ``self.x`` the guard solver can look up."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return ast.copy_location(ast.Name(f"self.{node.attr}", ast.Load()), node)
        return self.generic_visit(node)


def _sets(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, Any]:
    """The attributes of ``self`` a method's top-level statements set to a literal."""
    out: dict[str, Any] = {}
    for stmt in func.body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                continue
            try:
                out[f"self.{target.attr}"] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                out.pop(f"self.{target.attr}", None)  # set to what is not a literal
    return out


def _no_arguments(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    args = func.args
    required = len(args.posonlyargs) + len(args.args) - len(args.defaults)
    return required <= 1 and all(d is not None for d in args.kw_defaults)


@lru_cache(maxsize=256)
def _classes(file: Path) -> dict[str, States]:
    tree = source_tree(file)
    if tree is None:
        return {}
    out: dict[str, States] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        states: States = {}
        for func in node.body:
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            public = not func.name.startswith("_") or func.name == "__init__"
            if public and (_no_arguments(func) or func.name == "__init__"):
                states[func.name] = _sets(func)
        out.setdefault(node.name, states)
    return out


def class_states(file: Path | None, owner: str) -> States:
    """Method of ``owner`` in ``file`` taking no argument (and ``__init__``) -> the
    attributes of ``self`` it sets to a literal (read, not run)."""
    return {} if file is None else _classes(file).get(owner, {})


def _states_meeting(guards: list[ast.expr], states: States) -> list[str]:
    """``__init__`` when a new object meets the guards over ``self``, then each method
    whose state (over the new object's) does: no guard false, one naming it true."""
    renamed = [_SelfAttributes().visit(g) for g in guards]
    over_self = [
        g
        for g in renamed
        if any(isinstance(n, ast.Name) and n.id.startswith("self.") for n in ast.walk(g))
    ]
    if not over_self:
        return []
    fresh = states.get("__init__", {})
    out: list[str] = []
    for name, sets in states.items():
        env = fresh if name == "__init__" else {**fresh, **sets}
        if name != "__init__" and not sets:
            continue
        if any(truth(g, env) is False for g in renamed):
            continue
        if any(truth(g, env) for g in over_self):
            out.append(name)
    out.sort(key=lambda n: n != "__init__")
    return out


def _built(tree: ast.Module, i: int, receiver: str, owner: str) -> int | None:
    """The last statement before ``i`` that binds ``receiver`` to a new ``owner``."""
    for j in range(i - 1, -1, -1):
        stmt = tree.body[j]
        if not isinstance(stmt, ast.Assign):
            continue
        if not any(isinstance(t, ast.Name) and t.id == receiver for t in stmt.targets):
            continue
        value = stmt.value
        func = value.func if isinstance(value, ast.Call) else None
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        return j if called == owner else None
    return None


def _programs(
    program: str, owner: str, method: str, meeting: list[str]
) -> Iterator[tuple[str, str]]:
    """(program, how) for the first statement calling ``<receiver>.<method>(...)`` on a
    new ``owner``: the call after the object is built, or after ``receiver.<setter>()``."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return
    for i, stmt in enumerate(tree.body):
        for node in ast.walk(stmt):
            func = node.func if isinstance(node, ast.Call) else None
            if not (isinstance(func, ast.Attribute) and func.attr == method):
                continue
            if not isinstance(func.value, ast.Name) or not isinstance(node, ast.Call):
                continue
            receiver = func.value.id
            j = _built(tree, i, receiver, owner)
            if j is None:
                continue
            for name in meeting:
                if name == "__init__":
                    if _bound(tree, j + 1, node):
                        yield _cut(tree, j + 1, node), f"a new `{owner}`"
                    continue
                if not _bound(tree, i, node):
                    continue
                setter = ast.parse(f"{receiver}.{name}()").body
                before = ast.Module(body=[*tree.body[:i], *setter], type_ignores=[])
                yield _cut(before, i + 1, node), f"`{receiver}.{name}()` first"
            return


def state_candidates(
    envelopes: Iterable[dict[str, Any]],
    cands: list[Candidate],
    file_of: Callable[[str], Path | None],
) -> Iterator[Candidate]:
    """Candidates for each record raised in a method behind a guard over ``self``: a test's
    call of that method on a new object of its class, as it is or after a method that
    sets the state the guard asks for."""
    for env in envelopes:
        evidence = env.get("evidence") or {}
        site = evidence.get("site") or {}
        parts = str(site.get("qualname") or "").split(".")
        if len(parts) < 2 or not parts[-2][:1].isupper():
            continue
        owner, method = parts[-2], parts[-1]
        items = site.get("guards") or []
        texts = [str(g.get("text") or "") for g in items if g.get("kind") in CONDITION_KINDS]
        if not any("self." in t for t in texts):
            continue
        record = env["record"]
        meeting = _states_meeting(
            parse_guards(texts), class_states(file_of(str(record.get("filePath") or "")), owner)
        )
        if not meeting:
            continue
        made: set[str] = set()
        shown = " and ".join(f"`{t}`" for t in texts)
        warns = str(record.get("errorClass") or "").endswith("Warning")
        for cand in cands:
            if f".{method}(" not in cand.program or owner not in cand.program:
                continue
            for program, how in _programs(cand.program, owner, method, meeting):
                if program in made:
                    continue
                made.add(program)
                yield Candidate(
                    program,
                    f"{cand.test} ({how}: {shown} holds on it)",
                    cand.path,
                    cand.line,
                    "guard",
                    warns,
                    cand.blocked,
                    cand.imports,
                    str(record.get("id") or ""),
                    cand.cut_from or cand.test,
                )
            if len(made) >= _PER_RECORD:
                break
