"""The types a parameter may have, where a raise is reached only after ``isinstance``
branches over it that all return: ``httpx``'s ``encode_content`` returns for ``bytes``
or ``str``, for an ``Iterable`` that is not a ``dict`` and for an ``AsyncIterable``, and
its last line raises ``TypeError`` for anything else. The record had no enclosing
condition to state, so it said "no fix" (blind review stop 39, record 05: "pass
bytes/str/iterator as content="); the accepted types are read from the branches.

Stated only where the function's body is exactly that: its docstring, then ``if``/
``elif`` tests over one parameter (each ``isinstance(p, T)``, or that and ``not
isinstance(p, U)``; ``p is None``; ``callable(p)``), each branch ending in ``return``,
then the raise (as the last statement, or the whole final ``else``), and the parameter
reaches it from the call the fix names (the entry point's ``passes``).
"""

from __future__ import annotations

import ast

from .accepted_checks import class_names, forwards_unchanged, is_docstring
from .chain_funcs import own_params
from .entrypoints import run_by_syntax
from .file_trees import function_node
from .gathered import Gathered
from .guards import code, has_private
from .param_requirement import call_name
from .parsed import is_none_of, name_call

__all__ = ["accepted_types_fix"]

Remedy = tuple[str, list[str]]


def accepted_types_fix(g: Gathered) -> Remedy | None:
    """ "Pass ``p`` to ``call()`` as one of …", from the returning ``isinstance`` branches."""
    func = g.func
    if g.site.kind != "raise" or func is None or not g.source_file:
        return None
    node = function_node(g.source_file, func.line, func.name)
    if node is None:
        return None
    branches = _branches(node.body, g.site.line)
    if not branches:
        return None
    params = {b[0] for b in branches}
    if len(params) != 1:
        return None
    param = params.pop()
    if param not in own_params(func):  # ``self`` aside: a caller passes it
        return None
    kinds = [_kind(b[1], b[2]) for b in branches]
    named = [k for b in branches for k in (*b[1], *b[2]) if k not in (_CALLABLE, "None")]
    if any(has_private(k) for k in named):
        return None  # a private class is nothing a caller can make
    if not class_names(g, named, tuple(func.params)):
        return None  # ``cls``, ``self.klass``, a parameter, a tuple constant: no class
    call, name = _call(g, param)
    if call is None:
        return None
    lines = f"line{'s' if len(branches) > 1 else ''} {', '.join(str(b[3]) for b in branches)}"
    raises = f"raises {code(g.site.error_class or 'it')} at line {g.site.line}"
    checked = [b[3] for b in branches if b[4]]
    what = (
        f"{code(func.name)} returns for these ({lines}) and {raises}"
        if not checked
        else f"{code(func.name)} {raises}"
    )
    one = len(branches) == 1
    tail = (
        ""
        if not checked
        else f" ({'the branch' if one else 'the branches'} for these, at {lines}, "
        f"{'makes checks of its' if one else 'make checks of their'} own that may raise)"
    )
    return (
        f"{_pass(g, name, call)} one of: {'; '.join(kinds)}: {what} for a value of any "
        f"other type{tail}.",
        ["sourceCode", "entryPoints"],
    )


def _pass(g: Gathered, name: str, call: str) -> str:
    """ "Pass ``p`` to ``f()`` as", or for a property's setter, which runs on
    ``obj.x = …``, "Assign to ``C.x`` (``obj.x = …``)"."""
    func = g.func
    if func is not None and func.cls is not None and _setter(func.decorators):
        attr = f"{func.cls.rpartition('.')[2]}.{func.name}"
        return f"Assign to {code(attr)} (`obj.{func.name} = …`) a value of"
    return f"Pass {code(name)} to {code(call)} as"


def _setter(decorators: list[tuple[str, ...]]) -> bool:
    return any(ref and ref[-1] == "setter" for ref in decorators)


def _accessor(decorators: list[tuple[str, ...]]) -> bool:
    """A property's getter, setter or deleter: run by a read, an assignment or ``del``."""
    return any(
        ref and (ref[-1] in ("setter", "getter", "deleter") or ref[-1] == "property")
        for ref in decorators
    )


#: param, accepted, excluded, line, whether the branch holds a ``raise`` of its own
Branch = tuple[str, list[str], list[str], int, bool]


def _branches(body: list[ast.stmt], line: int) -> list[Branch] | None:
    """The returning branches before the raise at ``line``, or None where the body is
    anything else: the raise is the body's last statement, or the whole ``else`` of the
    last ``if``/``elif`` chain."""
    stmts = body[1:] if body and is_docstring(body[0]) else body
    if not stmts:
        return None
    out: list[Branch] = []
    for at, stmt in enumerate(stmts):
        last = at == len(stmts) - 1
        if last and _raise_at(stmt, line):
            return out or None
        if not isinstance(stmt, ast.If):
            return None
        chain: ast.stmt = stmt
        while isinstance(chain, ast.If):
            test = _test(chain.test)
            if test is None or not _returns(chain.body):
                return None
            raises = any(isinstance(n, ast.Raise) for s in chain.body for n in ast.walk(s))
            out.append((*test, chain.test.lineno, raises))
            rest = chain.orelse
            if len(rest) == 1 and isinstance(rest[0], ast.If):
                chain = rest[0]
                continue
            if rest and not (last and len(rest) == 1 and _raise_at(rest[0], line)):
                return None  # an ``else`` with another body: the raise is not after the chain
            if rest:
                return out
            break
    return None


def _raise_at(stmt: ast.stmt, line: int) -> bool:
    return isinstance(stmt, ast.Raise) and stmt.lineno == line


def _returns(body: list[ast.stmt]) -> bool:
    """The branch ends in a ``return``: no way through it falls out to the raise (a
    ``return`` inside a nested block is not trusted)."""
    return bool(body) and isinstance(body[-1], ast.Return)


def _test(test: ast.expr) -> tuple[str, list[str], list[str]] | None:
    """``isinstance(p, T)`` or ``isinstance(p, T) and not isinstance(p, U)``: the
    parameter, the accepted type names and the excluded ones."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    first = _isinstance(parts[0])
    if first is None:
        return None
    excluded: list[str] = []
    for part in parts[1:]:
        if not (isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)):
            return None
        other = _isinstance(part.operand)
        if other is None or other[0] != first[0]:
            return None
        excluded.extend(other[1])
    return first[0], first[1], excluded


def _isinstance(node: ast.expr) -> tuple[str, list[str]] | None:
    """``isinstance(p, T)``; ``p is None`` and ``callable(p)`` as the kinds they admit."""
    none = is_none_of(node)
    if none is not None:
        return none, ["None"]
    called = name_call(node, "callable")
    if called is not None:
        return called, [_CALLABLE]
    name = name_call(node, "isinstance", 2)
    if name is None or not isinstance(node, ast.Call):
        return None
    kinds = node.args[1]
    elts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    if not elts or not all(isinstance(e, ast.Name | ast.Attribute) for e in elts):
        return None
    return name, [ast.unparse(e) for e in elts]


#: What ``callable(p)`` admits, said in words rather than as a type.
_CALLABLE = "a callable"


def _kind(accepted: list[str], excluded: list[str]) -> str:
    text = " or ".join(a if a == _CALLABLE else code(a) for a in accepted)
    if excluded:
        text += f" that is not {' or '.join(e if e == _CALLABLE else code(e) for e in excluded)}"
    return text


def _call(g: Gathered, param: str) -> tuple[str | None, str]:
    """The call to name and what its caller calls the parameter: the raising function
    when public (depth 0, or a public heir's that inherits it), else an entry point one
    hop up whose body only passes the value on (:func:`.forwards_unchanged`): an outer
    function that tests it or returns first takes other types (review rr1, f6.py)."""
    ranked = sorted(
        (e for e in g.entry_points if not run_by_syntax(e["qualname"])),
        key=lambda e: (
            e.get("depth", 0),
            (e.get("passes") or {}).get(param) != param,
        ),
    )
    for entry in ranked:
        passed = (entry.get("passes") or {}).get(param)
        if passed is None:
            continue
        if entry.get("depth", 0) != 0 and not forwards_unchanged(g, entry, str(passed)):
            continue
        name = entry["qualname"]
        outer = g.entry_funcs.get(name)
        if entry.get("depth", 0) != 0 and outer is not None and _accessor(outer.decorators):
            continue  # ``obj.val = v`` runs a setter: no call a user writes (rr8)
        return call_name(name, g.entry_funcs.get(name)), str(passed)
    return None, param
