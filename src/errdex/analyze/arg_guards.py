"""What the literal arguments of the call a test checks say of a raise's conditions.

Without a message, ``assertRaises(E, f, ...)`` is linked only where its call reaches one
raise of ``E``. The literals it passes often settle which: ``assert_has_awaits(calls,
any_order=True)`` never reaches the raise under ``if not any_order``, and
``TextIOWrapper(b, newline='xyzzy')`` meets ``_check_newline``'s ``newline not in (None,
"", …)`` and none of the other ``ValueError`` raises ``__init__`` reaches (issue 10,
deliver 2). A raise is *ruled out* when the arguments make one of its conditions false,
and *met* when they make every condition on its way true; the raise is in the function
the test calls, or one call below it where that function passes the test's literal (or
its own parameter holding one) straight on (``self._check_newline(newline)``).
A parameter the body converts in place (``indent = int(indent)``) holds its converted
literal (:mod:`.arg_values`); others a body binds again, and raises in a loop, are left
unjudged.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from .arg_values import bound_values, caller_params, defaults_left
from .callgraph import exact_targets
from .callsites import CallSite
from .facts import Expect, FuncFacts
from .guard_eval import guard_value
from .guards import CONDITION_KINDS
from .repo import RepoIndex
from .sites import SiteView

__all__ = ["ArgGuards"]

#: Where the literals make a condition around the call towards the raise false.
_NOT_CALLED = "<not called>"


class ArgGuards:
    """Judges a site's conditions under the literals a test passes (memoised per call)."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._below: dict[tuple[str, str], list[CallSite]] = {}

    def open_above(
        self, expect: Expect, callees: Mapping[str, str], site: SiteView, others: list[SiteView]
    ) -> bool:
        """Whether a raise of ``others`` (of the met raise's class, reached too) sits above
        ``site`` in its function with a condition the test's literals, or the defaults of
        the parameters its call leaves out, do not make false: that raise may run first
        (``with_suffix('/')`` meets ``suffix and not suffix.startswith('.')``, but the
        ``f.sep in suffix`` raise above it is what runs). ``PrettyPrinter(width=0)``:
        ``indent`` is 1 and ``depth`` ``None`` by default, so the two raises above ``not
        width`` are ruled out."""
        return any(
            other.function == site.function
            and other.line < site.line
            and self.verdict(expect, callees, other, defaults=True) is not False
            for other in others
        )

    def verdict(
        self, expect: Expect, callees: Mapping[str, str], site: SiteView, defaults: bool = False
    ) -> bool | None:
        """False when the literals ``expect`` passes make a condition of ``site`` false,
        True when they make every one true, None when they do not say. ``callees``: the
        functions the test's call lands in, with how exactly. With ``defaults`` (for
        :meth:`open_above` alone), a parameter the call the test makes leaves out holds
        its literal default where ``site`` is in the function that call lands in."""
        func = self.index.function(site.function or "")
        passed = expect.passed if defaults else None
        if (not expect.constants and passed is None) or func is None or not site.guards:
            return None
        if any(g["kind"] in ("for", "while") for g in site.guards):
            return None
        if callees.get(func.qualname) == "exact":
            left = defaults_left(func, passed) if passed is not None else {}
            known = bound_values(func, {**left, **expect.constants}, site.line)
        else:
            above = [
                c
                for c, how in callees.items()
                if how == "exact"
                and (f := self.index.function(c))
                and self._calls(f, func.qualname)
            ]
            if len(above) != 1:
                return None
            known = self._passed(above[0], func, expect.constants)
        if not known:
            return None
        if _NOT_CALLED in known:
            return False
        values = [
            guard_value(g["text"], known) for g in site.guards if g["kind"] in CONDITION_KINDS
        ]
        if any(v is False for v in values):
            return False
        if values and len(values) == len(site.guards) and all(v is True for v in values):
            return True
        return None

    def overfilled(self, expect: Expect, callees: Mapping[str, str]) -> bool:
        """Whether the test passes more positional arguments than each function its call
        lands in exactly takes (``time(0, 0, 0, 0, None, 0)`` with ``fold`` keyword-only):
        the interpreter's ``TypeError`` comes before any raise of theirs."""
        given = [int(k) for k in expect.constants if k.isdigit()]
        funcs = [self.index.function(c) for c, how in callees.items() if how == "exact"]
        if not given or not funcs:
            return False
        for func in funcs:
            most = _positional(func) if func is not None else None
            if most is None or max(given) < most:
                return False
        return True

    def _passed(
        self, callee: str, func: FuncFacts, constants: dict[str, object]
    ) -> dict[str, object]:
        """The values ``callee`` (given the test's literals) passes to ``func``'s
        parameters at its one call of it: literals, and its own parameters unchanged."""
        outer = self.index.function(callee)
        if outer is None:
            return {}
        calls = self._calls(outer, func.qualname)
        if len(calls) != 1:
            return {}  # two calls may pass two values
        call = calls[0]
        if call.starred or len(call.ref) > 2:
            return {}
        held = bound_values(outer, constants, call.line)
        around = [guard_value(c, held) for c in outer.call_conditions.get(call.line, ())]
        if any(v is False for v in around):
            return {_NOT_CALLED: True}  # the literals keep ``callee`` from making the call
        if not all(around):
            return {}  # made only under a condition they do not settle
        params = caller_params(func) if len(call.ref) == 1 or call.ref[0] in ("self", "cls") else []
        out: dict[str, object] = {}
        pairs = [*zip(params, call.args, strict=False), *call.keywords]
        for name, arg in pairs:
            if arg is None or name not in func.params or name in func.rebound:
                continue
            how, value = arg
            if how == "const":
                out[name] = value
            elif how == "name" and isinstance(value, str) and value in held:
                out[name] = held[value]
        return out

    def _calls(self, outer: FuncFacts, target: str) -> list[CallSite]:
        key = (outer.qualname, target)
        found = self._below.get(key)
        if found is None:
            found = [
                c for c in outer.call_sites if target in exact_targets(self.index, outer, c.ref)
            ]
            self._below[key] = found
        return found


def _positional(func: FuncFacts) -> int | None:
    """How many positional arguments a caller may pass (``self`` aside), from the
    signature (``params`` does not mark keyword-only ones); None: any number, or not
    read."""
    try:
        tree = ast.parse(f"{func.signature.strip()}:\n    pass")
    except SyntaxError:
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.args.vararg:
        return None
    names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    bound = func.cls is not None and bool(names) and names[0] in ("self", "cls")
    return len(names) - bound
