"""Chains from callers down to a raise, through exactly resolved calls only.

A caller counts only when its call resolves to the raising function without guessing
(:func:`errdex.analyze.callgraph.exact_targets`). Along the way a chain is cut where an
enclosing ``try`` in a caller certainly catches the class (or a base of it, by the
repository's class hierarchy and the builtin one) and swallows it; where the handler
raises another class instead, the chain goes on as that class and remembers the
conversion. A call whose constant arguments (or the defaults it leaves) make the site's
guard false is no way to the raise and is not followed (nor one whose constants make an
``if`` false around each call its callee makes towards it, :mod:`.call_paths`), and neither is a call made by a
function that a later import replaces with the interpreter's C code (``datetime.py``'s
``datetime.strptime`` is ``_datetime``'s at run time): that Python body does not run. Each function reached also
carries which of the raising function's parameters it passes on unchanged, so that a
requirement on those can be said in the caller's own parameters. A call that resolves to
such a replaced definition is no edge either: it lands in the C code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from .bound_names import built_class
from .call_fit import site_fits
from .call_paths import closed, passed_values
from .callgraph import MAX_DEPTH, MAX_VISITED, exact_targets
from .callsites import DISPLAY, Arg, CallSite, Handler
from .chain_funcs import (
    bound_targets,
    closure_class,
    display_item,
    early_params,
    element,
    own_params,
    rebound_before,
    replaced,
    static,
)
from .chain_parts import Catcher, Conversion, Hop, Signature, Walk, nearest_hops, signature_of
from .chain_targets import CarriedTargets, context
from .classes import ClassTree
from .closures import closure_edges, hands_out
from .facts import FuncFacts
from .filled_locals import NonEmpty, filled_at, trusted
from .fixed_args import after_removals, made_value
from .guard_eval import EMPTY_KWARGS, Built, OneOf, is_immutable
from .guards import free_names
from .import_fallbacks import dead_fallback
from .local_values import substitute
from .param_changes import kept_params
from .platform_binds import PlatformBinds
from .receivers import Lookup, dispatched_after
from .repo import RepoIndex
from .settled import UNSETTLED, module_objects, named_values, settled_value
from .starred_args import packed_at_least
from .unbound_calls import names_class, unbound_call
from .walk_scope import Scope, apart, name_roles, packed_of, with_exits
from .way_needs import needs_up

__all__ = [
    "Catcher",
    "Chains",
    "Conversion",
    "Hop",
    "Signature",
    "Walk",
    "own_params",
    "replaced",
    "signature_of",
]


#: Calls that end the program (as ``SystemExit``, or at once).
_EXITS = frozenset({"sys.exit", "os._exit", "os.abort"})
#: Calls followed to decide whether a function never returns.
_EXIT_DEPTH = 3
#: Ways (sets of ``self`` lookups) one function is walked up from, at most.
_MAX_WAYS = 4


class Chains:
    """The exact call edges of a repository, walked per raising site."""

    def __init__(self, index: RepoIndex, tree: ClassTree) -> None:
        self.index = index
        self.tree = tree
        self.callers: dict[str, list[tuple[FuncFacts, CallSite]]] = {}
        #: (call site, callee) -> the platform on which the call goes there (``os.path``).
        self.edge_on: dict[tuple[int, str], str] = {}
        binds = PlatformBinds(index)
        #: (function, line) -> callee -> its calls an ``if`` may cut (:mod:`.call_paths`)
        self._cut: dict[tuple[str, int], dict[str, list[CallSite]]] = {}
        targets = CarriedTargets(index.carried, context(index, self._subclasses(), binds.bound))
        for defs in index.functions.values():
            for func in defs:
                if replaced(index, func):
                    continue  # its calls are not made: another definition runs instead
                found = targets.of(func, lambda site: self._platform_targets(binds, func, site))  # noqa: B023
                for site, landed in zip(func.call_sites, found, strict=True):
                    if site.fallback and dead_fallback(index, site.fallback):
                        continue  # its ``try`` imports what exists: this never runs
                    for callee, on in landed:
                        if func.call_conditions:
                            table = self._cut.setdefault((func.qualname, func.line), {})
                            table.setdefault(callee, []).append(site)
                        if callee != func.qualname and not self._lands_in_c(callee):
                            self.callers.setdefault(callee, []).append((func, site))
                            if on is not None:
                                self.edge_on[id(site), callee] = on
        for outer, nested, stand_in in closure_edges(index):
            self.callers.setdefault(nested, []).append((outer, stand_in))  # ``return lint_app``
        self._memo: dict[tuple[object, ...], Walk] = {}
        self._exits: dict[str, bool] = {}
        self._methods: dict[tuple[str, str], str | None] = {}

    def _platform_targets(
        self, binds: PlatformBinds, func: FuncFacts, site: CallSite
    ) -> list[tuple[str, str | None]]:
        """:meth:`_targets`, a call through ``os.path`` to each platform's module instead
        of this interpreter's alone, with the platform it goes there on."""
        found: list[tuple[str, str | None]] = [(c, None) for c in self._targets(func, site)]
        per_platform = binds.targets(func, site.ref)
        if not per_platform:
            return found
        bound = {callee for callee, _ in per_platform}
        return [*(t for t in found if t[0] not in bound), *per_platform]

    def _lands_in_c(self, callee: str) -> bool:
        """The call resolves to a definition its module replaces here: it runs the C one
        (``statistics`` calls ``bisect.bisect_right``, which is ``_bisect``'s)."""
        target = self.index.function(callee)
        return target is not None and replaced(self.index, target)

    def _targets(self, func: FuncFacts, site: CallSite) -> list[str]:
        """What a call lands in: its exact targets and, for ``self.m()``, the overrides of
        ``m`` in the repository's subclasses of the caller's class, which run instead when
        ``self`` is one of them (``BaseEventLoop.sock_sendfile`` runs
        ``_UnixSelectorEventLoop._sock_sendfile_native``)."""
        found = exact_targets(self.index, func, site.ref) or bound_targets(
            self.index, func, site.ref
        )
        cls = func.cls
        if len(site.ref) == 2 and site.ref[0] == "self" and cls is None:
            cls = closure_class(self.index, func)
            method = self.index.method(cls, site.ref[1]) if cls is not None else None
            found = [method] if method is not None else found
        if len(site.ref) == 2 and site.ref[0] == "self" and cls is not None and found:
            for sub in self._subclasses().get(cls, ()):
                own = f"{sub}.{site.ref[1]}"
                if own in self.index.functions and own not in found:
                    found = [*found, own]
        return found

    def subclasses(self) -> dict[str, list[str]]:
        """Repository class -> the repository classes below it."""
        return self._subclasses()

    def _subclasses(self) -> dict[str, list[str]]:
        """Repository class -> the repository classes below it (built once)."""
        known = getattr(self, "_below", None)
        if known is None:
            known = {}
            for cls in self.index.classes:
                for above in self.tree.ancestors(cls):
                    if above != cls and above in self.index.classes:
                        known.setdefault(above, []).append(cls)
            for subs in known.values():
                subs.sort()
            self._below = known
        return known

    def exits(self, func: FuncFacts, ref: tuple[str, ...], depth: int = 0) -> bool:
        """Whether the call ``ref`` made in ``func`` never returns: ``sys.exit()``, or a
        repository function whose body ends with such a call."""
        module = self.index.modules.get(func.module)
        head = func.local_imports.get(ref[0]) or (module.imports.get(ref[0]) if module else None)
        if ".".join((head or ref[0], *ref[1:])) in _EXITS:
            return True
        if depth >= _EXIT_DEPTH:
            return False
        for target in exact_targets(self.index, func, ref):
            known = self._exits.get(target)
            if known is None:
                self._exits[target] = False  # a cycle never returns by this rule
                callee = self.index.function(target)
                known = callee is not None and any(
                    s.tail and self.exits(callee, s.ref, depth + 1) for s in callee.call_sites
                )
                self._exits[target] = known
            if known:
                return True
        return False

    def at_calls(
        self, function: str, error_class: str | None
    ) -> list[tuple[FuncFacts, Conversion | int | None]]:
        """Each exact caller of ``function`` (but itself) and what the handlers around the
        call do with ``error_class``: convert it, swallow it (the handler's line; -1 when
        a handler re-raises it only under a condition), or let it out (None)."""
        out: list[tuple[FuncFacts, Conversion | int | None]] = []
        for caller, site in self.callers.get(function, []):
            found = self._through(caller, site, error_class)
            if isinstance(found, int):
                out.append((caller, found))
            else:
                out.append((caller, found[1] if found[2] is None else -1))
        return out

    def reach(self, function: str, *args: Any, **kwargs: Any) -> list[Hop]:
        """:meth:`walk`'s functions only."""
        return self.walk(function, *args, **kwargs).hops

    def walk(
        self,
        function: str,
        error_class: str | None,
        guards: Sequence[str] = (),
        *,
        catchable: bool = True,
        max_depth: int = MAX_DEPTH,
        line: int | None = None,
        at: int | None = None,
        guard_lines: Sequence[int] = (),
    ) -> Walk:
        """Every function reaching ``function`` within ``max_depth`` exact calls, closest
        first (itself at depth 0), with the class that gets out of it; and the callers
        whose handler swallows it (and that let it out through no other call).

        ``guards`` are the conditions under which the site raises (all must hold);
        ``catchable`` is False for warnings, which no ``except`` catches. ``line`` is the
        raise's when no loop encloses it: a parameter the body binds again only after it
        still holds what the caller passed when the guards are tested. ``at`` is the
        raise's line in any case: of a function defined once per platform, the definition
        that holds it is the one walked up from. ``guard_lines``, beside ``guards``, are
        where each is tested: a local the test reads is replaced by the expression over
        the parameters it certainly holds there (:mod:`.local_values`).
        """
        func = self.index.function(function, at or line)
        if func is None:
            return Walk([], [])
        params = {p: p for p in own_params(func) if not rebound_before(func, p, line)}
        early, guards, held = early_params(self.index, func, guards, guard_lines, line, params)
        params.update((p, p) for p in sorted(early))  # tested before the body binds it again
        guards, guard_lines = with_exits(func, guards, guard_lines, at or line)
        packed = tuple(
            p for p in packed_of(func) if not rebound_before(func, p, line) and p not in func.filled
        )
        alternatives = dict.fromkeys(held, ()) | {  # ``held``: a direct caller's ``None``
            p: tuple(v for at_line, v in func.param_literals[p] if at_line <= line)
            for p in own_params(func)
            if p not in params and line is not None and p in func.param_literals
        }
        names = {*params, *alternatives, *packed}
        kept = kept_params(func.param_changes, params, min(guard_lines, default=line))
        if guard_lines and func.local_values:
            guards = [
                substitute(g, at_line, func.local_values, {*params, *packed})
                for g, at_line in zip(guards, guard_lines, strict=False)
            ]
        relevant = tuple(g for g in guards if (free_names(g, names) or set()) & names)
        key = (
            function,
            func.line,
            error_class,
            catchable,
            relevant,
            max_depth,
            name_roles(params, alternatives, packed),
            kept,
        )
        found = self._memo.get(key)
        if found is None:
            objects = module_objects(self.index, func, relevant, names)
            read = {n for g in relevant for n in free_names(g, names) or ()}
            tested = {p: alts for p, alts in alternatives.items() if p in read}
            drained, own = func.drained & set(packed), frozenset(params)
            scope = Scope(relevant, packed, objects, drained, tested, own, kept)
            found = self._walk(func, error_class, scope, params, catchable, max_depth)
            self._memo[key] = found
        return found

    def _walk(
        self,
        func: FuncFacts,
        error_class: str | None,
        scope: Scope,
        params: dict[str, str],
        catchable: bool,
        max_depth: int,
    ) -> Walk:
        start = Hop(
            func.qualname, 0, (func.qualname,), error_class, None, params, {}, line=func.line
        )
        # a function is visited once per set of ``self`` lookups it is reached with: the
        # first way up may hold for no caller's class where another does (``IMAP4.open``
        # reached through ``IMAP4_SSL._create_socket``'s ``super()`` call as well)
        found: dict[tuple[str, tuple[Lookup, ...]], Hop] = {(func.qualname, ()): start}
        ways: dict[str, int] = {func.qualname: 1}
        walked: set[tuple[object, ...]] = set()
        catchers: dict[str, Catcher] = {}
        queue: deque[Hop] = deque([start])
        # calls the callee's ``if`` clauses may cut wait for all that reaches (.call_paths)
        waiting: dict[tuple[str, str, int], tuple[Hop, FuncFacts, FuncFacts, CallSite]] = {}
        opened: set[tuple[str, str, int]] = set()
        open_ways: set[str] = set()  # reached by some way that no flag gates
        while queue and len(found) < MAX_VISITED:
            here = queue.popleft()
            if here.cost >= max_depth:
                continue
            callee = self.index.function(here.qualname, here.line)
            if callee is None:
                continue
            for caller, site in self.callers.get(here.qualname, []):
                handed = hands_out(self.index, caller.qualname, here.qualname)
                if here.handed and not handed:
                    continue  # what takes a handed-out function may call it or keep it
                if ways.get(caller.qualname, 0) >= _MAX_WAYS:
                    open_ways.add(caller.qualname)  # its flags on this way are not known
                    continue
                lookups = self._lookups(here, callee, caller, site)
                seen = found.get((caller.qualname, lookups)) if lookups is not None else None
                if seen is not None and seen.when != (
                    ((caller.qualname, site.when), *here.when) if site.when else here.when
                ):
                    open_ways.add(caller.qualname)  # reached under other flags too
                if lookups is None or (seen and not seen.needs and handed >= seen.handed):
                    continue  # its ``self`` runs an override; or it is walked that way
                step = (here.qualname, caller.qualname, site.line)
                if (
                    here.depth
                    and step not in opened
                    and self._closed(callee, caller, site, here.via[1:2])
                ):
                    waiting[step] = (here, callee, caller, site)
                    continue
                hop = self._step(here, callee, caller, site, scope, catchable, lookups)
                hop = replace(hop, handed=True) if isinstance(hop, Hop) and handed else hop
                if (
                    isinstance(hop, Hop)
                    and (hop.qualname, hop.lookups, hop.needs, handed) not in walked
                ):
                    # walked again where the first way needed conditions this one does not
                    walked.add((hop.qualname, hop.lookups, hop.needs, handed))
                    kept = found.setdefault((caller.qualname, hop.lookups), hop)
                    if kept.handed and not hop.handed:
                        found[caller.qualname, hop.lookups] = hop  # a call reaches it too
                    ways[caller.qualname] = ways.get(caller.qualname, 0) + 1
                    queue.append(hop)
                elif isinstance(hop, int) and caller.qualname not in catchers:
                    catchers[caller.qualname] = Catcher(caller.qualname, hop, here.depth + 1)
            if not queue and waiting:
                reached = {q for q, _ in found} | {step[1] for step in waiting}  # recursion
                for step, (back, callee, caller, site) in list(waiting.items()):
                    if not self._closed(callee, caller, site, reached):
                        del waiting[step]  # a call on the way to the raise is made
                        opened.add(step)
                        queue.append(back)
        hops = nearest_hops(found.values(), open_ways)
        reached_here = {h.qualname for h in hops}
        caught = [c for q, c in catchers.items() if q not in reached_here]
        return Walk(hops, sorted(caught, key=lambda c: (c.depth, c.qualname)))

    def _step(
        self,
        here: Hop,
        callee: FuncFacts,
        caller: FuncFacts,
        site: CallSite,
        scope: Scope,
        catchable: bool,
        lookups: tuple[Lookup, ...],
    ) -> Hop | int | None:
        """``here`` seen from ``caller`` through one call; the line of the handler that
        swallows it; or None when the caller's constants rule the raise out."""
        if apart(callee.platform, caller.platform):
            return None  # the two definitions never exist on the same platform
        if not site_fits(callee, site):
            return None  # the interpreter's ``TypeError``: the arguments do not bind
        on = self.edge_on.get((id(site), here.qualname)) or here.on
        if apart(on, caller.platform):
            return None  # the call goes there only where the caller is not defined
        passes, known = self._bind(here, callee, caller, site, scope)
        if scope.guards and known != here.known and scope.ruled_out(known):
            return None  # the caller's constants make the condition false
        needs = needs_up(
            here.needs, scope.guards, scope.params, passes, caller, site,
            lambda: self._arguments(callee, caller, site),
        )  # fmt: skip
        if needs is None:
            return None  # the caller raised or left already where a condition holds
        error_class, conversion, gate = here.error_class, here.conversion, here.gate
        if catchable:
            outcome = self._through(caller, site, error_class)
            if isinstance(outcome, int):
                return outcome
            error_class, converted, condition = outcome
            conversion = converted or conversion
            if condition is not None and gate is None:
                gate = (caller.qualname, condition)
        inside = callee.parent is not None and callee.parent in (caller.qualname, caller.parent)
        return Hop(
            caller.qualname,
            here.depth + 1,
            (caller.qualname, *here.via),
            error_class,
            conversion,
            passes,
            known,
            here.cost + (0 if inside else 1),
            gate,
            lookups,
            caller.line,
            on,
            ((caller.qualname, site.when), *here.when) if site.when else here.when,
            needs,
        )

    def _closed(
        self, callee: FuncFacts, caller: FuncFacts, site: CallSite, reaching: Collection[str]
    ) -> bool:
        """The caller's constants make an ``if`` around each call towards the raise false."""
        table = self._cut.get((callee.qualname, callee.line), {})
        lines = {s.line for q, sites in table.items() if q in reaching for s in sites}
        if not table or not lines <= callee.call_conditions.keys():
            return False
        again = [
            (s.line, self._arguments(callee, callee, s)) for s in table.get(callee.qualname, ())
        ]
        values = passed_values(self._arguments(callee, caller, site), callee, caller)
        return closed(callee.call_conditions, lines, values, again)

    def _method(self, cls: str, name: str) -> str | None:
        """:meth:`RepoIndex.method`, once per class and name."""
        key = (cls, name)
        if key not in self._methods:
            self._methods[key] = self.index.method(cls, name)
        return self._methods[key]

    def _lookups(
        self, here: Hop, callee: FuncFacts, caller: FuncFacts, site: CallSite
    ) -> tuple[Lookup, ...] | None:
        """The ``self`` lookups the caller's receiver must satisfy (:mod:`.receivers`),
        or None when its class runs an override of one."""
        if callee.cls is None:
            return ()
        return dispatched_after(
            self.index,
            self._method,
            here.lookups,
            callee,
            caller,
            site,
            caller_class=caller.cls or closure_class(self.index, caller),
            subclasses=self._subclasses(),
            unbound=lambda: (
                names_class(self.index, caller, site.ref[:-1]) and site.ref[-1] == callee.name
            ),
            constructed=lambda: built_class(self.index, caller, site.ref),
        )

    # -- arguments ----------------------------------------------------------------------

    def _bind(
        self,
        here: Hop,
        callee: FuncFacts,
        caller: FuncFacts,
        site: CallSite,
        scope: Scope,
    ) -> tuple[dict[str, str], dict[str, object]]:
        """The raising function's parameters as the caller passes them: on unchanged from
        its own parameters, or fixed to constants; and its ``*args`` as the constants a
        direct caller passes there (``add_option('-o', '--out')``)."""
        known = dict(here.known)
        passes: dict[str, str] = {}
        if not here.passes and not ((scope.packed or scope.alternatives) and here.depth == 0):
            return passes, known
        binding = self._arguments(callee, caller, site)
        if here.depth == 0:  # a direct caller's constants for ``*args`` and the like
            for name in (*scope.packed, *scope.alternatives):
                kind, value = binding.get(name, ("", None))
                if name in scope.drained:  # items may be removed, none added (.fixed_args)
                    kept = after_removals(value) if kind == "const" else None
                    if kept is not None:
                        known[name] = kept
                elif kind == "const" and is_immutable(value):
                    known[name] = value
        caller_params = set(own_params(caller)) - caller.rebound
        for origin, param in here.passes.items():
            arg = binding.get(param)
            if arg is None:
                continue
            kind, value = arg
            if kind == "const" and is_immutable(value):
                known[origin] = value
            elif kind == DISPLAY and isinstance(value, tuple):
                known[origin] = Built(display_item(item, caller) for item in value)
            elif kind == "name" and isinstance(value, str) and value in caller_params:
                passes[origin] = value
            elif here.depth == 0 and trusted(
                filled_at(caller.filled_lists, str(value), site.line), origin, scope.kept
            ):
                known[origin] = NonEmpty()  # ``running_tasks.append(first)`` before the call
            elif kind == "name" and value in caller.local_consts:
                literal = caller.local_consts[str(value)]
                if is_immutable(literal):
                    known[origin] = literal  # ``main_name = "__main__"`` bound once
            elif kind == "name" and value in caller.local_sets:
                held = named_values(self.index, caller, caller.local_sets[str(value)])
                if held is not None:
                    known[origin] = OneOf(held)  # one of a few
            elif (made := made_value(self.index, caller, arg)) is not None:
                known[origin] = made  # ``DocTestCase(test)``: a new instance (.fixed_args)
        return passes, known

    def _arguments(self, callee: FuncFacts, caller: FuncFacts, site: CallSite) -> dict[str, Arg]:
        """The callee's parameters bound to what the call passes (known values only)."""
        sig = signature_of(callee.signature)
        if sig is None:
            return {}
        positional = list(sig.positional)
        if callee.cls is not None and not static(callee):
            if not unbound_call(self.index, caller, site, callee):
                positional = positional[1:]
            if not positional and sig.varargs is None:
                return {}
        out: dict[str, Arg] = {}
        passed: set[str] = set()
        for name, arg in zip(positional, site.args, strict=False):
            passed.add(name)
            if arg is not None:
                out[name] = arg
        for name, arg in site.keywords:
            passed.add(name)
            if arg is not None:
                out[name] = arg
        if not site.starred:
            for name, value in sig.defaults.items():
                if name not in passed:
                    out[name] = ("const", value)
            for name, written in sig.named.items():
                settled = settled_value(self.index, callee.module, written, before=callee.line)
                if name not in passed and settled is not UNSETTLED:
                    out[name] = ("const", settled)
            if sig.varargs is not None:  # known in length; an element passed by name is not
                extra = site.args[len(positional) :]
                out[sig.varargs] = ("const", tuple(element(a) for a in extra))
            if sig.varkw is not None:  # the keywords it collects, their values if known
                named = {*positional, *sig.keyword_only}
                collected = {k: element(a) for k, a in site.keywords if k not in named}
                out[sig.varkw] = ("const", MappingProxyType(collected) or EMPTY_KWARGS)
        elif sig.varargs and (least := packed_at_least(self.index, caller, site, len(positional))):
            out[sig.varargs] = ("const", least)  # ``f(*parts, other)``: not empty (.starred_args)
        return out

    # -- handlers -----------------------------------------------------------------------

    def _through(
        self, caller: FuncFacts, site: CallSite, error_class: str | None
    ) -> tuple[str | None, Conversion | None, str | None] | int:
        """What leaves the call's enclosing ``try`` statements: the class (and a conversion,
        if a handler raised another class, and the condition a re-raise needs), or the
        line of the handler that swallows it."""
        conversion: Conversion | None = None
        gate: str | None = None
        for handlers in site.tries:
            for handler in handlers:
                verdict = self._catches(caller, handler, error_class)
                if verdict == "no":
                    continue
                if verdict == "yes":
                    if handler.reraises:
                        gate = gate or handler.reraise_if
                    elif handler.then is not None and self.exits(caller, handler.then):
                        error_class = "builtins.SystemExit"  # ``self.error(str(err))``
                        conversion = Conversion("SystemExit", caller.qualname, handler.line)
                    elif handler.raises is not None:
                        error_class = self.index.canonical_class(caller.module, handler.raises)
                        conversion = Conversion(
                            ".".join(handler.raises), caller.qualname, handler.line
                        )
                    else:
                        return handler.line
                break  # "maybe": not cut on a guess; either way, this try is done
        return error_class, conversion, gate

    def _catches(self, caller: FuncFacts, handler: Handler, error_class: str | None) -> str:
        """``yes``, ``no`` or ``maybe`` (the class's ancestry is not fully known)."""
        if not handler.classes:
            return "yes"
        if error_class is None:
            return "maybe"
        ancestors = self.tree.ancestors(error_class)
        for ref in handler.classes:
            if self.index.canonical_class(caller.module, ref) in ancestors:
                return "yes"
        return "no" if "builtins.BaseException" in ancestors else "maybe"
