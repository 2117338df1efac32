"""Each call of a function body with what surrounds it: the ``try`` handlers that enclose it
and the arguments it passes, as far as they are constants or plain names.

The call graph alone cannot tell whether an error gets out of a caller: ``try: f()
except ValueError: return None`` swallows what ``f`` raises, ``except OSError as e: raise
ReadError(...) from e`` converts it, and ``f(mode="r")`` may never satisfy the condition
that raises. These facts let the entry-point walk (:mod:`errdex.analyze.chains`) cut such
chains and say what a converted error surfaces as.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, fields, replace

from .astfields import child_fields as _child_fields
from .call_gates import gated
from .facts import dotted
from .guard_eval import Made
from .import_fallbacks import guarded_imports

__all__ = ["DISPLAY", "MADE", "Arg", "CallSite", "Handler", "call_sites", "constant_of"]

#: The dotted parts of a callee or a class, as :data:`errdex.analyze.facts.CallRef`.
Ref = tuple[str, ...]
#: A list or tuple display whose items are not all literals: ``(DISPLAY, its items)``,
#: each a literal, a name (as ``("const", value)``, ``("name", identifier)``) or None.
DISPLAY = "display"
#: A call of a plain dotted name (``DocTestCase(test)``): ``(MADE, the name)``; whether it
#: builds an instance is for the reader to resolve (:mod:`.fixed_args`).
MADE = "made"
#: An argument as far as it is known: ``("const", value)``, ``("name", identifier)`` or
#: ``(DISPLAY, items)``.
Arg = tuple[str, object]
#: A constant longer than this (in its repr) is not kept: it would only bloat the facts.
MAX_CONSTANT = 200

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: Expressions that build a new object each time they run (:class:`.guard_eval.Made`).
_BUILT = (ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


@dataclass(frozen=True, slots=True)
class Handler:
    """One ``except`` clause (or a ``contextlib.suppress``) around a call."""

    line: int
    classes: tuple[Ref, ...]  # empty: a bare ``except:``, which catches everything
    #: The class the handler raises instead (``raise ReadError(...) from e``), if any.
    raises: Ref | None
    #: A bare ``raise`` (or ``raise e`` of the caught name): the error goes on unchanged.
    reraises: bool
    #: The call the handler body ends with (``self.error(str(err))``), if it ends with one:
    #: a call that never returns (``sys.exit``) turns the error into what that raises.
    then: Ref | None = None
    #: ``if not fallback: raise``: the condition under which alone it re-raises (else
    #: the handler swallows what it caught).
    reraise_if: str | None = None


@dataclass(frozen=True, slots=True)
class CallSite:
    ref: Ref
    line: int
    #: The ``try`` statements whose body holds the call, innermost first.
    tries: tuple[tuple[Handler, ...], ...]
    args: tuple[Arg | None, ...]  # positional, up to the first ``*args``
    keywords: tuple[tuple[str, Arg | None], ...]
    starred: bool  # ``*args`` or ``**kwargs`` passed: later parameters are unknown
    #: The call is the function body's last statement: if it never returns, neither does
    #: the function (``ArgumentParser.error`` ends with ``self.exit(2, …)``).
    tail: bool = False
    #: The call is in an ``except ImportError`` whose ``try`` imports these (module,
    #: name or None) and does nothing else that could fail to import: it runs only where
    #: one is missing (:func:`errdex.analyze.import_fallbacks.dead_fallback`).
    fallback: tuple[tuple[str, str | None], ...] = ()
    #: The flag over ``self`` an enclosing ``if`` tests (``self._debug``): the call is
    #: made only when it holds (:mod:`errdex.analyze.call_gates`).
    when: str | None = None

    def __setstate__(self, state: list[object]) -> None:
        """As dataclasses' own, without a ``fields()`` call per object: an incremental
        scan unpickles some 80k of them on jax, and that call was a third of the cost."""
        for name, value in zip(_CALL_SITE_FIELDS, state, strict=True):
            object.__setattr__(self, name, value)


_CALL_SITE_FIELDS = tuple(f.name for f in fields(CallSite))


def constant_of(node: ast.expr) -> tuple[bool, object]:
    """``(True, value)`` for a literal (``3``, ``-1``, ``"r"``, ``None``, ``(1, 2)``)."""
    if isinstance(node, ast.Constant):
        value: object = node.value
    elif isinstance(node, (ast.UnaryOp, ast.Tuple, ast.List, ast.Set, ast.Dict)):
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False, None
    else:
        return False, None
    if len(repr(value)) > MAX_CONSTANT:
        return False, None
    return True, value


def _arg(node: ast.expr) -> Arg | None:
    if isinstance(node, ast.Name):
        return ("name", node.id)
    if isinstance(node, (ast.List, ast.Tuple)) and not any(
        isinstance(e, ast.Starred) for e in node.elts
    ):
        known, value = constant_of(node)
        if known and isinstance(value, tuple):
            return ("const", value)
        return (DISPLAY, tuple(_item(e) for e in node.elts))  # ``[target, dest]``
    known, value = constant_of(node)
    if known:
        return ("const", value)
    if isinstance(node, _BUILT):  # no ``None``, and a new object each call
        return ("const", Made(fresh=True))
    if isinstance(node, ast.JoinedStr):  # a str: no ``None``
        return ("const", Made(fresh=False))
    if isinstance(node, ast.Call) and (ref := _ref(node.func)) is not None:
        return (MADE, ref)
    return None


def _item(node: ast.expr) -> Arg | None:
    """An item of a display: a literal, a plain name, or None."""
    if isinstance(node, ast.Name):
        return ("name", node.id)
    known, value = constant_of(node)
    return ("const", value) if known else None


def _ref(node: ast.expr) -> Ref | None:
    """A plain dotted name (``errors.ReadError``); None for anything else."""
    ref = dotted(node)
    return ref if ref is not None and ref[0] not in ("", "super()") else None


def _caught(node: ast.expr | None) -> tuple[Ref, ...] | None:
    """The classes an ``except`` names; None when one of them is not a plain name."""
    if node is None:
        return ()
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    refs = [_ref(x) for x in items]
    return None if any(r is None for r in refs) else tuple(r for r in refs if r is not None)


def _raises_in(body: list[ast.stmt], name: str | None) -> tuple[Ref | None, bool]:
    """The class a handler body raises and whether it re-raises what it caught."""
    raised: Ref | None = None
    reraises = False
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (*_NESTED, ast.Lambda)):
            continue
        if isinstance(node, ast.Raise):
            exc = node.exc
            if exc is None or (isinstance(exc, ast.Name) and exc.id == name):
                reraises = True
            else:
                target = exc.func if isinstance(exc, ast.Call) else exc
                ref = _ref(target)
                if ref is None:
                    reraises = True  # ``raise self.error(...)``: unknown, so not cut
                elif raised is None:
                    raised = ref
        stack.extend(ast.iter_child_nodes(node))
    return raised, reraises


def _handlers(node: ast.Try | ast.TryStar) -> tuple[Handler, ...] | None:
    out = []
    for h in node.handlers:
        classes = _caught(h.type)
        if classes is None:
            return None  # ``except self.errors:``: what it catches is not known
        raised, reraises = _raises_in(h.body, h.name)
        gate = _reraise_gate(h.body) if reraises and raised is None else None
        out.append(Handler(h.lineno, classes, raised, reraises, _ends_with_call(h.body), gate))
    return tuple(out)


def _reraise_gate(body: list[ast.stmt]) -> str | None:
    """The test of the one ``if TEST: raise`` that is the handler's only re-raise."""
    gates = []
    for stmt in body:
        if isinstance(stmt, ast.Raise):
            return None  # re-raises unconditionally
        if (
            isinstance(stmt, ast.If)
            and len(stmt.body) == 1
            and isinstance(stmt.body[0], ast.Raise)
            and stmt.body[0].exc is None
            and not any(isinstance(n, ast.Raise) for x in stmt.orelse for n in ast.walk(x))
        ):
            gates.append(ast.unparse(stmt.test))
        elif any(isinstance(n, ast.Raise) for n in ast.walk(stmt)):
            return None  # a re-raise somewhere else too
    return gates[0] if len(gates) == 1 else None


def _ends_with_call(body: list[ast.stmt]) -> Ref | None:
    """The callee of the block's last statement, when that statement is a plain call."""
    last = body[-1] if body else None
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        ref = dotted(last.value.func)
        return ref if ref is not None and ref[0] != "" else None
    return None


def _suppressed(node: ast.With | ast.AsyncWith) -> Handler | None:
    """``with contextlib.suppress(A, B):`` as a handler that swallows A and B."""
    for item in node.items:
        call = item.context_expr
        if isinstance(call, ast.Call) and (_ref(call.func) or ())[-1:] == ("suppress",):
            refs = [_ref(a) for a in call.args]
            if refs and all(r is not None for r in refs):
                return Handler(node.lineno, tuple(r for r in refs if r is not None), None, False)
    return None


def _site(node: ast.Call, ref: Ref, tries: tuple[tuple[Handler, ...], ...]) -> CallSite:
    args: list[Arg | None] = []
    starred = False
    for a in node.args:
        if isinstance(a, ast.Starred):
            starred = True
            break
        args.append(_arg(a))
    keywords = []
    for k in node.keywords:
        if k.arg is None:
            starred = True
        else:
            keywords.append((k.arg, _arg(k.value)))
    return CallSite(ref, node.lineno, tries, tuple(args), tuple(keywords), starred)


_NESTED_TYPES = frozenset(_NESTED)
_TRY_TYPES = frozenset({ast.Try, ast.TryStar})
_WITH_TYPES = frozenset({ast.With, ast.AsyncWith})
Tries = tuple[tuple[Handler, ...], ...]


#: Name -> the lines where the body binds it.
Bound = dict[str, list[int]]


def call_sites(
    func: ast.FunctionDef | ast.AsyncFunctionDef, lines: Bound | None = None, package: str = ""
) -> tuple[list[CallSite], frozenset[str]]:
    """The calls of a function body (nested definitions aside) and the names it rebinds;
    ``lines``, when given, receives where each is bound; ``package`` resolves a relative
    import a fallback is written around."""
    out: list[CallSite] = []
    bound: Bound = {} if lines is None else lines
    _block(func.body, (), out, bound, package)
    out.sort(key=lambda c: c.line)
    out = gated(func, out)
    last = func.body[-1] if func.body else None
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        tail = _ends_with_call([last])
        for i, site in enumerate(out):
            if site.line == last.lineno and site.ref == tail:
                out[i] = replace(site, tail=True)
                break
    return out, frozenset(bound)


def _block(
    body: list[ast.stmt], tries: Tries, out: list[CallSite], bound: Bound, package: str = ""
) -> None:
    """One block's nodes, all under the same handlers (exact type tests: this visits
    every node of the repository's functions)."""
    stack: list[ast.AST] = list(body)
    pop, push, extend = stack.pop, stack.append, stack.extend
    call_t, name_t, arg_t, load_t = ast.Call, ast.Name, ast.arg, ast.Load
    while stack:
        node = pop()
        t = type(node)
        if t in _NESTED_TYPES:
            bound.setdefault(node.name, []).append(node.lineno)  # type: ignore[attr-defined]
            continue
        if t in _TRY_TYPES:
            _try(node, tries, out, bound, package)  # type: ignore[arg-type]
            continue
        if t in _WITH_TYPES:
            extend(node.items)  # type: ignore[attr-defined]
            suppress = _suppressed(node)  # type: ignore[arg-type]
            if suppress is None:
                extend(node.body)  # type: ignore[attr-defined]
            else:
                _block(node.body, ((suppress,), *tries), out, bound, package)  # type: ignore[attr-defined]
            continue
        if t is call_t:
            ref = dotted(node.func)  # type: ignore[attr-defined]
            if ref is not None:
                out.append(_site(node, ref, tries))  # type: ignore[arg-type]
        elif t is name_t:
            if type(node.ctx) is not load_t:  # type: ignore[attr-defined]
                bound.setdefault(node.id, []).append(node.lineno)  # type: ignore[attr-defined]
        elif t is arg_t:
            bound.setdefault(node.arg, []).append(node.lineno)  # type: ignore[attr-defined]  # a lambda's parameter
        for field_name in _child_fields(t):
            value = getattr(node, field_name, None)
            if type(value) is list:
                extend(value)
            elif value is not None:
                push(value)


def _try(
    node: ast.Try | ast.TryStar, tries: Tries, out: list[CallSite], bound: Bound, package: str
) -> None:
    handlers = _handlers(node)
    _block(node.body, (handlers, *tries) if handlers else tries, out, bound, package)
    for h in node.handlers:
        if h.name:
            bound.setdefault(h.name, []).append(h.lineno)
        first = len(out)
        _block(h.body, tries, out, bound, package)
        imported = guarded_imports(node, h, package)
        if imported:
            out[first:] = [replace(site, fallback=imported) for site in out[first:]]
    _block(node.orelse, tries, out, bound, package)
    _block(node.finalbody, tries, out, bound, package)
