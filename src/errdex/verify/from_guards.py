"""Reproducers built from a record's guards over a public function's own parameters.

When no test reached a raise inside a public function, a test snippet that calls that
function is taken, one argument of the call is replaced by a value that makes the
record's guards true (:mod:`._guard_solver` tries values on the guards: ``n < 0`` → ``-1``,
``t not in G`` → a value no container holds, ``len(G) == 0`` → ``type(G)()``, ``not
callable(f)`` → ``-1``), and the snippet is cut after that statement. The result is a
candidate like any other: it counts only when it raises this record's class, with a
message its pattern matches, at its file and line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ._guard_solver import CONDITION_KINDS, EMPTY, MISSING, parse_guards, solve
from .from_tests import Candidate

__all__ = ["MISSING", "def_line", "guard_candidates", "violating_value"]

_MAX_PER_RECORD = 3
_PARAMS = re.compile(r"[(,]\s*(\w+)")
_CALLED = re.compile(r"(\w+)\(")


def violating_value(guard: str) -> tuple[str, ast.expr] | None:
    """(parameter, a value that makes ``guard`` true), the guard's names being all
    parameters without a value; None when no trial value does."""
    guards = parse_guards([guard])
    if not guards:
        return None
    names = sorted({n.id for n in ast.walk(guards[0]) if isinstance(n, ast.Name)})
    for param, value in solve(guards, {}, names, limit=1):
        if value is not EMPTY:
            return param, _literal(value)
    return None


def _literal(value: Any) -> ast.expr:
    if isinstance(value, (list, tuple, dict)):
        return ast.parse(repr(value), mode="eval").body
    return ast.Constant(value)


#: (repository-relative path, line of the ``def``) -> the ``def`` line, or None.
Signatures = Callable[[str, int], str | None]


@lru_cache(maxsize=256)
def _defs(file: Path) -> dict[int, str]:
    """Line of each ``def`` (and of its first decorator) in ``file`` -> its ``def`` line."""
    try:
        tree = ast.parse(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return {}
    out: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            text = f"def {node.name}({ast.unparse(node.args)})"
            for line in [node.lineno, *(d.lineno for d in node.decorator_list)]:
                out.setdefault(line, text)
    return out


def def_line(file: Path | None, line: int) -> str | None:
    """The ``def`` line of the function defined at ``line`` of ``file`` (read, not run)."""
    return None if file is None else _defs(file).get(line)


class _Signature:
    """A function's parameters as its ``def`` line gives them: positional, keyword-only,
    and the constant defaults."""

    def __init__(self, text: str) -> None:
        self.positional: list[str] = []
        self.keyword: list[str] = []
        self.defaults: dict[str, Any] = {}
        try:
            tree = ast.parse(text.strip().rstrip(":") + ": pass")
            func = tree.body[0]
        except (SyntaxError, ValueError, IndexError):
            func = None
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.positional = [p for p in _PARAMS.findall(text.split(")", 1)[0])]
        else:
            args = func.args
            self.positional = [a.arg for a in [*args.posonlyargs, *args.args]]
            self.keyword = [a.arg for a in args.kwonlyargs]
            pairs = list(zip(reversed(self.positional), reversed(args.defaults), strict=False))
            pairs += [
                (a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d
            ]
            for name, node in pairs:
                try:
                    self.defaults[name] = ast.literal_eval(node)
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    continue
        if self.positional[:1] and self.positional[0] in ("self", "cls"):
            self.positional = self.positional[1:]

    @property
    def params(self) -> list[str]:
        return [*self.positional, *self.keyword]

    def arguments(self, call: ast.Call) -> dict[str, ast.expr] | None:
        """The call's argument expression for each parameter it passes; None for a call
        with ``*args``/``**kwargs`` or more positional arguments than the function takes."""
        if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(
            self.positional
        ):
            return None
        if any(k.arg is None for k in call.keywords):
            return None
        out = dict(zip(self.positional, call.args, strict=False))
        out.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        return out

    def known(self, passed: dict[str, ast.expr]) -> dict[str, Any]:
        """The values errdex knows: the defaults, and the arguments that are literals."""
        out = {k: v for k, v in self.defaults.items() if k not in passed}
        for name, node in passed.items():
            try:
                out[name] = ast.literal_eval(node)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
        return out


def _value_for(value: Any, passed: ast.expr | None) -> ast.expr | None:
    if value is EMPTY:  # an empty one of the argument's own type
        if passed is None:
            return None
        empty = ast.Call(func=ast.Name("type", ast.Load()), args=[passed], keywords=[])
        return ast.Call(func=empty, args=[], keywords=[])
    return _literal(value)


@dataclass(frozen=True)
class _Target:
    """A function a test may call to reach the raise: the raising function itself, or a
    public caller that passes some of its parameters on unchanged."""

    name: str  # as a call spells it: ``f(`` or ``obj.f(``
    sig: _Signature
    passes: dict[str, str]  # the raising function's parameter -> this function's

    def solve(
        self, guards: list[ast.expr], raising: _Signature, passed: dict[str, ast.expr]
    ) -> Iterator[tuple[str, Any]]:
        """(this function's parameter, value) that make the guards true."""
        back = {mine: theirs for theirs, mine in self.passes.items()}
        known: dict[str, Any] = {}
        if self.sig is raising:
            known = {k: v for k, v in raising.defaults.items() if k not in passed}
        for name, value in self.sig.known(passed).items():
            if name in back:
                known[back[name]] = value
        objects = frozenset(back[n] for n in passed if n in back) - frozenset(known)
        params = [p for p in raising.params if p in self.passes]
        for param, value in solve(guards, known, params, objects=objects):
            yield self.passes[param], value


def _rewrites(
    program: str, target: _Target, raising: _Signature, guards: list[ast.expr]
) -> Iterator[tuple[str, str]]:
    """(program, what was set) for the first statement calling the target whose arguments
    errdex can read: the program up to it, the call with one argument made to hold the
    guards."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return
    sig = target.sig
    for i, stmt in enumerate(tree.body):
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            passed = sig.arguments(node) if called == target.name else None
            if passed is None:
                continue
            for param, value in target.solve(guards, raising, passed):
                expr = _value_for(value, passed.get(param))
                if expr is None:
                    continue
                args = list(node.args)
                keywords = [k for k in node.keywords if k.arg != param]
                if param in sig.positional and sig.positional.index(param) < len(args):
                    args[sig.positional.index(param)] = expr
                else:
                    keywords.append(ast.keyword(arg=param, value=expr))
                call = ast.Call(func=node.func, args=args, keywords=keywords)
                cut = ast.Module(body=[*tree.body[:i], ast.Expr(call)], type_ignores=[])
                yield ast.unparse(ast.fix_missing_locations(cut)), f"{param}={ast.unparse(expr)}"
            return


def _targets(
    evidence: dict[str, Any], raising: _Signature, signatures: Signatures
) -> list[_Target]:
    """The raising function when it is public, then its public callers that pass on a
    parameter unchanged and let the error through as it is."""
    site = evidence.get("site") or {}
    out: list[_Target] = []
    for entry in evidence.get("entryPoints") or []:
        if entry.get("surfacesAs") or entry.get("precision") != "exact":
            continue
        parts = str(entry.get("qualname") or "").split(".")
        name = parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]
        if entry.get("depth") == 0 and entry.get("qualname") == site.get("qualname"):
            identity = {p: p for p in raising.params}
            out.append(_Target(str(site.get("function") or name), raising, identity))
            continue
        passes = entry.get("passes") or {}
        text = signatures(str(entry.get("path") or ""), int(entry.get("line") or 0))
        if passes and text is not None:
            out.append(_Target(name, _Signature(text), dict(passes)))
    return out


def guard_candidates(
    envelopes: Iterable[dict[str, Any]],
    cands: list[Candidate],
    signatures: Signatures = lambda path, line: None,
) -> Iterator[Candidate]:
    """Candidates from the guards of each record given, through a call of its function or
    of a public caller that passes the guarded parameter on (``signatures`` reads the
    callers' ``def`` lines)."""
    calling: dict[str, list[Candidate]] = {}
    for cand in cands:  # shortest first: the fewest statements before the call
        for name in set(_CALLED.findall(cand.program)):
            calling.setdefault(name, []).append(cand)
    for found in calling.values():
        found.sort(key=lambda c: len(c.program))
    for env in envelopes:
        evidence = env.get("evidence") or {}
        site = evidence.get("site") or {}
        items = site.get("guards") or []
        texts = [str(g.get("text") or "") for g in items if g.get("kind") in CONDITION_KINDS]
        guards = parse_guards(texts)
        if not guards:
            continue
        raising = _Signature(str((evidence.get("function") or {}).get("signature") or ""))
        shown = " and ".join(f"`{t}`" for t in texts)
        made: set[str] = set()
        for target in _targets(evidence, raising, signatures):
            for cand in calling.get(target.name, ()):
                if len(made) >= _MAX_PER_RECORD:
                    break
                for program, setting in _rewrites(cand.program, target, raising, guards):
                    if program in made or len(made) >= _MAX_PER_RECORD:
                        continue
                    made.add(program)
                    yield Candidate(
                        program,
                        f"{cand.test} ({setting} makes {shown} true)",
                        cand.path,
                        cand.line,
                        "guard",
                        False,
                        cand.blocked,
                        cand.imports,
                    )
