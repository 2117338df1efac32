"""Reproducers built from a record's guards over a public function's own parameters.

When no test reached a raise inside a public function, a test snippet that calls that
function is taken, one argument of the call is replaced by a value that makes the
record's guards true (:mod:`._guard_solver` tries values on the guards: ``n < 0`` → ``-1``,
``t not in G`` → a value no container holds, ``len(G) == 0`` → ``type(G)()``, ``not
callable(f)`` → ``-1``, ``s == t`` → the value the call gives ``t``; two arguments at once
for ``b is not None and b < a``, :mod:`._pair_solver`), and the snippet is
cut after that statement. Where no trial value decides a guard (``G.is_directed()``), the
values the tests give the parameter's name are tried (:mod:`._alternatives`); where a
``try`` whose handler leads to the raise reads a parameter, values its failure needs
(a key no mapping holds for ``KeyError``); where the raise has no guard, the call as the
test makes it. A warning's candidates run with warnings as errors. The result is a
candidate like any other: it counts only when it raises this record's class, with a
message its pattern matches, at its file and line.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ._aliases import renamed
from ._alternatives import Alternative, Alternatives, fits, program_bindings
from ._guard_solver import CONDITION_KINDS, EMPTY, MISSING, parse_guards, rules_out, solve
from ._pair_solver import solve_pairs
from ._source_tree import source_tree
from .expectation import Expectation
from .from_tests import Candidate

__all__ = ["MISSING", "def_line", "guard_candidates", "try_names", "violating_value"]

_MAX_PER_RECORD = 3
#: Values the tests give a parameter's name, tried per record where no value is solved.
_MAX_TRIED = 6
_PARAMS = re.compile(r"[(,]\s*(\w+)")
_CALLED = re.compile(r"(\w+)\(")
_BUILTINS = frozenset(dir(builtins))
_CONSTRUCTORS = frozenset({"__init__", "__new__"})
_CONSTRUCTOR_DEF = re.compile(r"\s*(?:async\s+)?def\s+(?:__init__|__new__)\s*\(")


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
    tree = source_tree(file)
    if tree is None:
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
        # a constructor's first parameter is the instance or class whatever its name
        # (``weakref.KeyedRef.__new__(type, ob, callback, key)``): the call never passes it
        if self.positional[:1] and (
            self.positional[0] in ("self", "cls") or _CONSTRUCTOR_DEF.match(text)
        ):
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
    owner: str = ""  # a method's class: the tests that name it are tried first

    def ordered(self, found: Sequence[Candidate]) -> list[Candidate]:
        """``found`` with the programs naming the owner class outside their imports first
        (``DiGraph.add_edge`` is reached from ``nx.DiGraph()``, not ``nx.Graph()``)."""
        if not self.owner:
            return list(found)
        named = re.compile(rf"^(?!from |import ).*\b{re.escape(self.owner)}\b", re.MULTILINE)
        return sorted(found, key=lambda c: named.search(c.program) is None)

    def known(self, raising: _Signature, passed: dict[str, ast.expr]) -> dict[str, Any]:
        """The raising function's parameters whose values the call shows."""
        back = {mine: theirs for theirs, mine in self.passes.items()}
        known: dict[str, Any] = {}
        if self.sig is raising:
            known = {k: v for k, v in raising.defaults.items() if k not in passed}
        for name, value in self.sig.known(passed).items():
            if name in back:
                known[back[name]] = value
        return known

    def rules_out(
        self,
        guards: list[ast.expr],
        raising: _Signature,
        passed: dict[str, ast.expr],
        param: str,
        alt: Alternative,
    ) -> bool:
        """Whether a guard is false with the raising function's ``param`` set to ``alt``
        (a literal; any other value is not decided here)."""
        try:
            value = ast.literal_eval(alt.expr)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
        return rules_out(guards, {**self.known(raising, passed), param: value})

    def _frame(
        self, raising: _Signature, passed: dict[str, ast.expr]
    ) -> tuple[dict[str, Any], frozenset[str], list[str]]:
        """The known values, the parameters passed an expression, the parameters passed on."""
        back = {mine: theirs for theirs, mine in self.passes.items()}
        known = self.known(raising, passed)
        objects = frozenset(back[n] for n in passed if n in back) - frozenset(known)
        return known, objects, [p for p in raising.params if p in self.passes]

    def solve(
        self, guards: list[ast.expr], raising: _Signature, passed: dict[str, ast.expr]
    ) -> Iterator[tuple[str, Any]]:
        """(this function's parameter, value) that make the guards true."""
        known, objects, params = self._frame(raising, passed)
        for param, value in solve(guards, known, params, objects=objects):
            yield self.passes[param], value

    def solve_pairs(
        self, guards: list[ast.expr], raising: _Signature, passed: dict[str, ast.expr]
    ) -> Iterator[tuple[tuple[str, Any], tuple[str, Any]]]:
        """Two of this function's (parameter, value) that make the guards true together."""
        known, objects, params = self._frame(raising, passed)
        for (p, v), (q, w) in solve_pairs(guards, known, params, objects=objects):
            yield (self.passes[p], v), (self.passes[q], w)


def _with_argument(node: ast.Call, sig: _Signature, param: str, expr: ast.expr) -> ast.Call:
    """``node`` with ``param`` passed ``expr`` (in its place, or as a keyword)."""
    args = list(node.args)
    keywords = [k for k in node.keywords if k.arg != param]
    if param in sig.positional and sig.positional.index(param) < len(args):
        args[sig.positional.index(param)] = expr
    else:
        keywords.append(ast.keyword(arg=param, value=expr))
    return ast.Call(func=node.func, args=args, keywords=keywords)


def _cut(tree: ast.Module, i: int, call: ast.Call, imports: Sequence[str] = ()) -> str:
    """The program's statements before ``i``, then ``call``; ``imports`` put after any
    ``from __future__`` line."""
    body = list(tree.body[:i])
    future = 0
    while (
        future < len(body)
        and isinstance(body[future], ast.ImportFrom)
        and (getattr(body[future], "module", None) == "__future__")
    ):
        future += 1
    added = [ast.parse(line).body[0] for line in imports]
    cut = ast.Module(body=[*body[:future], *added, *body[future:], ast.Expr(call)], type_ignores=[])
    return ast.unparse(ast.fix_missing_locations(cut))


def _bound(tree: ast.Module, i: int, call: ast.Call) -> bool:
    """Whether every name ``call`` reads is a builtin or bound before statement ``i`` (a
    call inside ``for G in graphs:`` is cut out of its loop, and ``G`` with it)."""
    bound = set(program_bindings(ast.Module(body=tree.body[:i], type_ignores=[])))
    bound |= {  # the helpers a snippet brings in: ``def _boo():``, ``class MockFile:``
        stmt.name
        for stmt in tree.body[:i]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    for node in ast.walk(call):  # a comprehension's or a lambda's own names
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return all(
        n.id in bound or n.id in _BUILTINS
        for n in ast.walk(call)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )


@dataclass(frozen=True)
class _Problem:
    """What a record asks of a call: its condition guards, the raising function's
    parameters read inside a ``try`` whose handler leads to the raise (with the values to
    try for them), and whether the raise has no guard at all."""

    raising: _Signature
    guards: list[ast.expr]
    excepted: tuple[tuple[str, Any], ...] = ()
    unconditional: bool = False


@lru_cache(maxsize=4096)
def _parsed(program: str) -> ast.Module | None:
    """A test's program parsed once, not once per record whose function it calls (every
    record left without a reproducer walks the calls of its function's name: most of a
    stdlib verify's time between its runs). The tree is only read: ``_cut`` and
    ``_with_argument`` build new nodes around it."""
    try:
        return ast.parse(program)
    except SyntaxError:
        return None


def _rewrites(
    program: str, target: _Target, problem: _Problem, alternatives: Alternatives | None = None
) -> Iterator[tuple[str, str, str]]:
    """(program, what was set, how) for the first statement calling the target whose
    arguments errdex can read: the program up to it, then the call with one argument
    changed: a value solved from the guards (how ``solved``; two at once, ``paired``, where
    one guard reads both and neither decides it alone), one a ``try`` around the
    raise should fail on (``excepted``), one the tests give the parameter's name
    (``tried``, for a guard no trial value decides); or the call as it is, for a raise
    without a guard (``as-is``)."""
    tree = _parsed(program)
    if tree is None:
        return
    sig, raising, guards = target.sig, problem.raising, problem.guards
    for i, stmt in enumerate(tree.body):
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            passed = sig.arguments(node) if called == target.name else None
            if passed is None or not _bound(tree, i, node):
                continue
            if problem.unconditional:
                yield _cut(tree, i, node), "the call as the test makes it", "as-is"
                return
            for param, value in target.solve(guards, raising, passed):
                expr = _value_for(value, passed.get(param))
                if expr is None:
                    continue
                call = _with_argument(node, sig, param, expr)
                yield _cut(tree, i, call), f"{param}={ast.unparse(expr)}", "solved"
            for (p, v), (q, w) in target.solve_pairs(guards, raising, passed):
                first, second = _value_for(v, passed.get(p)), _value_for(w, passed.get(q))
                if first is None or second is None:
                    continue
                call = _with_argument(_with_argument(node, sig, p, first), sig, q, second)
                said = f"{p}={ast.unparse(first)}, {q}={ast.unparse(second)}"
                yield _cut(tree, i, call), said, "paired"
            known = target.known(raising, passed)
            for theirs, value in problem.excepted:
                mine = target.passes.get(theirs)
                if mine is None or rules_out(guards, {**known, theirs: value}):
                    continue
                call = _with_argument(node, sig, mine, _literal(value))
                yield _cut(tree, i, call), f"{mine}={value!r}", "excepted"
            if alternatives is not None:
                yield from _tried(tree, i, node, (target, raising, guards), passed, alternatives)
            return


def _tried(
    tree: ast.Module,
    i: int,
    node: ast.Call,
    problem: tuple[_Target, _Signature, list[ast.expr]],
    passed: dict[str, ast.expr],
    alternatives: Alternatives,
) -> Iterator[tuple[str, str, str]]:
    """The call with a guarded parameter passed a value the tests give that name, where
    its guards do not rule that value out."""
    target, raising, guards = problem
    bindings = program_bindings(tree)
    named = {n.id for g in guards for n in ast.walk(g) if isinstance(n, ast.Name)}
    for theirs in raising.params:
        mine = target.passes.get(theirs)
        if theirs not in named or mine is None:
            continue
        now = passed.get(mine)
        names = [mine] + ([now.id] if isinstance(now, ast.Name) and now.id != mine else [])
        shown = ast.unparse(now) if now is not None else ""
        for name in names:
            for alt in alternatives.of(name, _MAX_TRIED, besides=shown):
                imports = fits(alt, bindings)
                if imports is None or target.rules_out(guards, raising, passed, theirs, alt):
                    continue
                call = _with_argument(node, target.sig, mine, alt.expr)
                yield _cut(tree, i, call, imports), f"{mine}={alt.text}", "tried"


def _owner(parts: list[str]) -> str:
    """The class of a method's dotted name (``networkx.classes.digraph.DiGraph.add_edge``),
    by its capital; "" for a function."""
    return parts[-2] if len(parts) > 1 and parts[-2][:1].isupper() else ""


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
        # a constructor is called by its class's name: its own ``__init__(``/``__new__(``
        # named only ``super().__init__(...)`` and ``object.__new__(cls)`` in the tests
        made = parts[-1] in _CONSTRUCTORS and len(parts) > 1
        name = parts[-2] if made else parts[-1]
        if entry.get("depth") == 0 and entry.get("qualname") == site.get("qualname"):
            identity = {p: p for p in raising.params}
            owner = _owner(parts)
            called = name if made else str(site.get("function") or name)
            out.append(_Target(called, raising, identity, owner))
            continue
        passes = entry.get("passes") or {}
        text = signatures(str(entry.get("path") or ""), int(entry.get("line") or 0))
        if passes and text is not None:
            out.append(_Target(name, _Signature(text), dict(passes), _owner(parts)))
    return out


#: (repository-relative path, line of an ``except``) -> the names its ``try`` body reads.
TryNames = Callable[[str, int], frozenset[str]]
#: Values tried for a parameter a ``try`` body reads, by the class its handler catches:
#: a key no mapping holds, a string no parser takes, a value of no useful type.
_EXCEPT_TRIALS: dict[str, tuple[Any, ...]] = {
    "KeyError": (MISSING,),
    "LookupError": (MISSING,),
    "ValueError": (MISSING, -1),
    "TypeError": (None, -1),
    "AttributeError": (None, -1),
}
_ANY_TRIALS: tuple[Any, ...] = (MISSING, None, -1)
_CAUGHT = re.compile(r"^\(?([\w., ]+?)\)? was raised")


@lru_cache(maxsize=256)
def _try_bodies(file: Path) -> dict[int, frozenset[str]]:
    """Line of each ``except`` in ``file`` -> the names its ``try`` body reads."""
    tree = source_tree(file)
    if tree is None:
        return {}
    out: dict[int, frozenset[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            read = frozenset(
                n.id
                for stmt in node.body
                for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            )
            for handler in node.handlers:
                out[handler.lineno] = read
    return out


def try_names(file: Path | None, line: int) -> frozenset[str]:
    """The names read by the ``try`` body whose ``except`` is at ``line`` (read, not run)."""
    return frozenset() if file is None else _try_bodies(file).get(line, frozenset())


def _excepted(
    items: list[dict[str, Any]], raising: _Signature, path: str, names: TryNames
) -> tuple[tuple[str, Any], ...]:
    """(parameter, value) for the raising function's parameters that a ``try`` body on
    the way to the raise reads, the values by the class its handler catches."""
    out: list[tuple[str, Any]] = []
    for item in items:
        if item.get("kind") != "except":
            continue
        caught = _CAUGHT.match(str(item.get("text") or ""))
        classes = (
            [c.strip().rsplit(".", 1)[-1] for c in caught.group(1).split(",")] if caught else []
        )
        values = [v for c in classes for v in _EXCEPT_TRIALS.get(c, _ANY_TRIALS)] or _ANY_TRIALS
        read = names(path, int(item.get("line") or 0))
        for param in raising.params:
            if param in read:
                out += [(param, v) for v in dict.fromkeys(values, None) if (param, v) not in out]
    return tuple(out)


#: (repository-relative path, line of a raise) -> {local: the parameter it renames}.
Renames = Callable[[str, int], dict[str, str]]


def guard_candidates(
    envelopes: Iterable[dict[str, Any]],
    cands: list[Candidate],
    signatures: Signatures = lambda path, line: None,
    names: TryNames = lambda path, line: frozenset(),
    renames: Renames = lambda path, line: {},
) -> Iterator[Candidate]:
    """Candidates from the guards of each record given, through a call of its function or
    of a public caller that passes the guarded parameter on (``signatures`` reads the
    callers' ``def`` lines, ``names`` what a ``try`` body reads, ``renames`` the locals that
    only rename a parameter, read in its place): solved values first, then
    values a handler on the way catches the failure of, then values the tests give the
    name; for a raise with no guard, the call as a test makes it."""
    calling: dict[str, list[Candidate]] = {}
    for cand in cands:  # shortest first: the fewest statements before the call
        for name in set(_CALLED.findall(cand.program)):
            calling.setdefault(name, []).append(cand)
    for found in calling.values():
        found.sort(key=lambda c: len(c.program))
    alternatives: Alternatives | None = None
    for env in envelopes:
        evidence = env.get("evidence") or {}
        site = evidence.get("site") or {}
        items = site.get("guards") or []
        texts = [str(g.get("text") or "") for g in items if g.get("kind") in CONDITION_KINDS]
        raising = _Signature(str((evidence.get("function") or {}).get("signature") or ""))
        path = str(env["record"].get("filePath") or "")
        line = int(env["record"].get("lineNumber") or 0)
        problem = _Problem(
            raising,
            renamed(parse_guards(texts), renames(path, line)),
            _excepted(items, raising, path, names),
            unconditional=not items,
        )
        if not (problem.guards or problem.excepted or problem.unconditional):
            continue
        if alternatives is None:
            alternatives = Alternatives(c.program for c in cands)
        warns = str(env["record"].get("errorClass") or "").endswith("Warning")
        rid = str(env["record"].get("id") or "")
        yield from _record_candidates(
            evidence, problem, calling, alternatives, (signatures, warns, texts, rid)
        )


def _record_candidates(
    evidence: dict[str, Any],
    problem: _Problem,
    calling: dict[str, list[Candidate]],
    alternatives: Alternatives,
    how: tuple[Signatures, bool, list[str], str],
) -> Iterator[Candidate]:
    signatures, warns, texts, rid = how
    shown = " and ".join(f"`{t}`" for t in texts)
    made: set[str] = set()
    counts: Counter[str] = Counter()
    caps = {"solved": _MAX_PER_RECORD, "excepted": _MAX_PER_RECORD, "tried": _MAX_TRIED}
    caps["paired"] = _MAX_PER_RECORD
    caps["as-is"] = 1
    for target in _targets(evidence, problem.raising, signatures):
        for cand in target.ordered(calling.get(target.name, ())):
            if all(counts[k] >= caps[k] for k in caps):
                return
            for program, setting, kind in _rewrites(cand.program, target, problem, alternatives):
                if program in made or counts[kind] >= caps[kind]:
                    continue
                made.add(program)
                counts[kind] += 1
                name = setting.split("=", 1)[0]
                note = {
                    "solved": f"{setting} makes {shown} true",
                    "paired": f"{setting} make {shown} true together",
                    "excepted": f"{setting}, which the `try` before the raise should fail on",
                    "tried": f"{setting}: a value the tests give `{name}`, tried for {shown}",
                    "as-is": "its call, up to the raise that has no condition",
                }[kind]
                yield Candidate(
                    program,
                    f"{cand.test} ({note})",
                    cand.path,
                    cand.line,
                    "guard",
                    warns,
                    cand.blocked,
                    cand.imports,
                    rid,
                    cand.cut_from or cand.test,
                    # the test's own call: its expectation still says what it takes
                    cand.expects if kind == "as-is" else Expectation(),
                )
