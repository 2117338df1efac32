"""What a test expectation's calls land in, beyond the call graph's own resolution, and
the expectations a test reaches through a helper of its suite.

Two forms of test code the call graph alone misses (issue 10, item 2):

- ``self.reader.read_block(0)`` where ``setUp`` bound ``self.reader = Reader(...)``: the
  receiver's class is read from the binding in the test itself or in ``setUp`` /
  ``setUpClass`` / ``setup_method`` (a name bound there once, to a call of a class);
- ``self.check(BufferError, lib.fill, 200)`` where the suite's helper ``check(self, exc,
  func, *args)`` wraps ``with self.assertRaises(exc): func(*args)``: the helper's
  expectation is read with the call's arguments in place of its parameters, as a test of
  the caller's, and says which helper it went through; also where the test calls a
  helper that passes its own parameters on to that one (``check_both(self, p, msg)``
  calling ``self.check(p, msg)``), and where the expectation calls a method of the
  suite (``self._do(p)``), which runs on the caller's ``self``.
"""

from __future__ import annotations

import builtins
from dataclasses import replace

from .callgraph import Precision, called_functions, resolve_calls
from .class_operators import operator_targets
from .expects import CONSTRUCTED, HELPER_CALL, SYNTAX_DUNDERS
from .facts import CallRef, ClassFacts, Expect, FuncFacts
from .namespaces import Namespaces
from .repo import RepoIndex, Target
from .test_types import LocalTypes

__all__ = ["SETUP_METHODS", "ClassAttributes", "expect_callees", "through_helpers"]

#: The builtin exception classes a test class's body may bind an attribute to.
_BUILTIN_CLASSES = frozenset(
    n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)
)

#: Where a test class binds the objects its tests call.
SETUP_METHODS = ("setUp", "setUpClass", "setup_method", "setup_class", "asyncSetUp")


def _attribute_class(index: RepoIndex, func: FuncFacts, name: str) -> str | None:
    """The repository class of ``self.<name>`` in a test method, from the one binding
    the test itself or its class's set-up makes (``self.x = Cls(...)``)."""
    key = f"self.{name}"
    scopes: list[FuncFacts] = [func]
    if key not in func.local_calls and func.cls is not None:
        for setup in SETUP_METHODS:
            qual = index.method(func.cls, setup)
            found = index.function(qual) if qual else None
            if found is not None:
                scopes.append(found)
    for scope in scopes:
        ref = scope.local_calls.get(key) or scope.local_calls.get(f"cls.{name}")
        if ref is None:
            continue
        target = index.resolve(scope.module, ref, scope.local_imports)
        return target.qualname if target is not None and target.kind == "class" else None
    return None


class ClassAttributes:
    """What ``self.<name>`` is where a test class binds it in its body: ``gen =
    random.Random()`` (an instance), ``tp = pyio.BufferedRWPair`` (a class), ``module =
    py_warnings`` (a module). A mixin's test (``TestBasicOps.test_seedargs`` on
    ``self.gen``) runs once per concrete subclass of its module, each with the binding
    first along its own bases; every binding errdex resolves is one a run really calls."""

    def __init__(
        self, index: RepoIndex, focus: str | None = None, shared: ClassAttributes | None = None
    ) -> None:
        self.index = index
        #: The one concrete class the test runs in (:mod:`errdex.analyze.mixins`); None:
        #: every subclass, their bindings together.
        self.focus = focus
        self._ancestors: dict[str, list[str]] = shared._ancestors if shared else {}
        # module -> class -> subclasses
        self._subclasses: dict[str, dict[str, list[str]]] = shared._subclasses if shared else {}
        self._focused: dict[str, ClassAttributes] = shared._focused if shared else {}
        self.namespaces: Namespaces = shared.namespaces if shared else Namespaces(index)
        self.types = LocalTypes(index, self.targets)  # what a test's local names hold

    def focused(self, cls: str | None) -> ClassAttributes:
        """These bindings as the test sees them when it runs in ``cls`` alone."""
        if cls is None or cls == self.focus:
            return self
        found = self._focused.get(cls)
        if found is None:
            found = self._focused[cls] = ClassAttributes(self.index, cls, self)
        return found

    def binds(self, cls: str, name: str) -> bool:
        """Whether the body of ``cls`` or of one of its repository bases binds ``name``,
        or the module its suite fills it from defines it (:mod:`.namespaces`)."""
        return (
            any(
                name in (facts := self.index.classes[owner]).attrs or name in facts.attr_calls
                for owner in self.ancestors(cls)
            )
            or self.filled(cls, (name,)) is not None
        )

    def filled(self, cls: str, ref: CallRef) -> Target | None:
        """What ``self.<ref>`` is where no class body binds its name and the suite fills
        ``cls`` from one module (``test_io``'s ``PyTextIOWrapperTest``: ``_pyio``)."""
        module = self.namespaces.module_of(cls, self.ancestors(cls))
        return self.index.resolve(module, ref) if module is not None else None

    def ancestors(self, cls: str) -> list[str]:
        """``cls`` and its repository bases, nearest first (breadth-first, each once)."""
        found = self._ancestors.get(cls)
        if found is None:
            found, todo = [], [cls]
            while todo and len(found) < 32:
                here = todo.pop(0)
                if here not in found and here in self.index.classes:
                    found.append(here)
                    todo.extend(self.index.bases(here))
            self._ancestors[cls] = found
        return found

    def expected_class(self, cls: str, name: str) -> str | None:
        """The class ``self.<name>`` names in a test of ``cls`` where the class bodies bind
        it to one (``TestCase.failureException = AssertionError``): the same one in every
        subclass the test runs in, else None."""
        index = self.index
        family = self.subclasses(cls)
        found: set[str | None] = set()
        for concrete in [self.focus] if self.focus in family else family:
            for owner in self.ancestors(concrete):
                facts = index.classes[owner]
                alias = facts.attrs.get(name)
                if alias is not None:
                    target = index.resolve(facts.module, alias)
                    builtin = len(alias) == 1 and alias[0] in _BUILTIN_CLASSES
                    if target is not None and target.kind == "class":
                        found.add(target.qualname)
                    else:
                        found.add(f"builtins.{alias[0]}" if builtin else None)
                    break
                if name in facts.attr_calls:
                    found.add(None)
                    break
            else:
                target = self.filled(concrete, (name,))
                if target is not None:
                    found.add(target.qualname if target.kind == "class" else None)
        return found.pop() if len(found) == 1 else None

    def subclasses(self, cls: str) -> list[str]:
        """The classes of ``cls``'s module that derive from it (itself first)."""
        facts = self.index.classes.get(cls)
        if facts is None:
            return [cls]
        table = self._subclasses.get(facts.module)
        if table is None:
            table = {}
            module = self.index.modules.get(facts.module)
            for other in module.classes if module is not None else ():
                for base in self.ancestors(other.qualname)[1:]:
                    table.setdefault(base, []).append(other.qualname)
            self._subclasses[facts.module] = table
        return [cls, *table.get(cls, [])]

    def targets(self, cls: str, ref: CallRef) -> list[str]:
        """The functions ``self.<name>...`` lands in over ``cls`` and its subclasses;
        ``ref`` is the call as written (``("self", "gen", "seed")``)."""
        name, rest = ref[1], ref[2:]
        out: list[str] = []
        family = self.subclasses(cls)
        for concrete in [self.focus] if self.focus in family else family:
            for owner in self.ancestors(concrete):
                found = self._bound(self.index.classes[owner], name, rest)
                if found is not None:
                    out.extend(f for f in found if f not in out)
                    break
            else:
                filled = called_functions(self.index, self.filled(concrete, (name, *rest)))
                out.extend(f for f in filled if f not in out)
        return out

    def _bound(self, owner: ClassFacts, name: str, rest: CallRef) -> list[str] | None:
        """The functions a binding of ``name`` in ``owner``'s body gives; None when the
        body does not bind it."""
        index = self.index
        made = owner.attr_calls.get(name)
        if made is not None:
            target = index.resolve(owner.module, made)
            if target is None or target.kind != "class" or len(rest) != 1:
                return []
            method = index.method(target.qualname, rest[0])
            return [method] if method is not None else []
        alias = owner.attrs.get(name)
        if alias is None:
            return None
        return called_functions(index, index.resolve(owner.module, (*alias, *rest)))


def expect_callees(
    index: RepoIndex, expect: Expect, attributes: ClassAttributes | None = None
) -> dict[str, Precision]:
    """The repository functions an expectation's calls land in: the call graph's
    resolution, with ``self.attr.method`` resolved exactly where ``attr``'s class is known
    (bound in the test or its set-up, or in the class body: :class:`ClassAttributes`)."""
    func = index.function(expect.function) if expect.function else None
    written = index.function(expect.written_in) if expect.written_in else None
    attributes = (attributes or ClassAttributes(index)).focused(expect.runs_in)
    plain: list[CallRef] = []
    out: dict[str, Precision] = {}
    for ref in expect.calls:
        cls = None
        if func is not None and len(ref) == 3 and ref[0] in ("self", "cls"):
            cls = _attribute_class(index, func, ref[1])
        method = index.method(cls, ref[2]) if cls is not None else None
        if method is not None:
            out[method] = "exact"
            continue
        scope = _scope(ref, func, written)
        typed = attributes.types.targets(scope, ref) if scope is not None else None
        if typed is not None:
            out.update((target, "exact") for target in typed)
            continue
        if len(ref) > 1 and ref[-1] in SYNTAX_DUNDERS:
            on_class = operator_targets(index, expect.module, ref, (func, written))
            out.update((target, "exact") for target in on_class or ())
            continue  # ``x[k]`` on an object of no known class: a list's as likely
        found = _class_bound(index, func, ref, attributes)
        for target in found:
            out[target] = "exact"
        if not found:
            plain.append(_unaliased(index, expect.module, ref, func, written))
    _merge(out, resolve_calls(index, expect.module, plain, expect.function))
    return out


def _unaliased(
    index: RepoIndex,
    module: str,
    ref: CallRef,
    func: FuncFacts | None,
    helper: FuncFacts | None,
) -> CallRef:
    """``F.from_decimal`` as ``fractions.Fraction.from_decimal`` where the test module
    binds ``F = fractions.Fraction`` once at its top level (and no function in the way
    binds ``F``): the call graph resolves imports and definitions, not such aliases."""
    facts = index.modules.get(module)
    head = ref[0] if ref else ""
    if facts is None or head in facts.top or head in facts.imports:
        return ref
    alias = facts.aliases.get(head)
    if not alias or alias[0] == head:
        return ref
    for scope in (func, helper):
        if scope is not None and (
            head in scope.params
            or head in scope.local_calls
            or head in scope.local_binds
            or head in scope.bound_lines
            or head in scope.local_imports
        ):
            return ref
    return (*alias, *ref[1:])


def _scope(ref: CallRef, func: FuncFacts | None, helper: FuncFacts | None) -> FuncFacts | None:
    """Where the call's first name is bound: the test, or the helper whose expectation
    took the test's arguments (its own calls beside them); neither when both bind it."""
    head = ref[0] if ref else ""
    scopes = [
        f
        for f in (func, helper)
        if f is not None and (head in f.local_calls or head in f.local_binds)
    ]
    return scopes[0] if len(scopes) == 1 else None


def _class_bound(
    index: RepoIndex, func: FuncFacts | None, ref: CallRef, attributes: ClassAttributes
) -> list[str]:
    """``self.<name>…`` as the test class's body binds ``name`` (not a method of its own)."""
    if func is None or func.cls is None or len(ref) < 2 or ref[0] not in ("self", "cls"):
        return []
    if len(ref) == 2 and index.method(func.cls, ref[1]) is not None:
        return []
    return attributes.targets(func.cls, ref)


def _merge(out: dict[str, Precision], more: dict[str, Precision]) -> None:
    for callee, precision in more.items():
        if out.get(callee) != "exact":
            out[callee] = precision


def _wrappers(index: RepoIndex) -> dict[str, list[Expect]]:
    """Functions of test modules whose expectation names one of their own parameters as
    the class or as what it calls."""
    out: dict[str, list[Expect]] = {}
    for module in index.modules.values():
        for expect in module.expects:
            if expect.kind == HELPER_CALL or expect.function is None:
                continue
            func = index.function(expect.function)
            if func is None:
                continue
            params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
            heads = {ref[0] for ref in (*expect.classes, *expect.calls) if ref}
            if expect.match is None and expect.match_source is not None:
                heads.add(expect.match_source)  # the message the helper checks
            if heads & params:
                out.setdefault(func.qualname, []).append(expect)
    return out


def _substitute(
    refs: list[CallRef], bound: dict[str, CallRef], params: set[str]
) -> list[CallRef] | None:
    """``refs`` with each parameter replaced by its argument; None when a parameter has
    no dotted argument."""
    out: list[CallRef] = []
    for ref in refs:
        if ref and ref[0] in params:
            arg = bound.get(ref[0])
            if not arg or arg[-1] == CONSTRUCTED:
                return None  # no dotted argument, or an object: no class
            out.append((*arg, *ref[1:]))
        else:
            out.append(ref)
    return out


def _expand(
    call: Expect, helper: FuncFacts, inner: Expect, keep: set[str] | frozenset[str] = frozenset()
) -> Expect | None:
    """The helper's expectation as the call's, its parameters bound to the arguments.
    ``keep``: the calling function's own parameters, when it is a helper too: a message
    it passes on from one of them stays that parameter's to give."""
    params = [p for p in helper.params if not p.startswith("*")]
    own_self = helper.cls is not None and call.calls[0][0] in ("self", "cls")
    if own_self:
        params = params[1:]
    bound = dict(zip(params, call.classes, strict=False))
    names = {p.lstrip("*") for p in helper.params}
    classes = _substitute(inner.classes, bound, names)
    if classes is None:
        return None
    calls: list[CallRef] = []
    passed = classes != inner.classes  # the caller's argument decides the class
    for ref in inner.calls:
        if ref and ref[0] in ("self", "cls") and helper.cls is not None and own_self:
            calls.append(ref)  # ``self._do(p)``: the caller's ``self`` is the helper's
        elif ref and ref[0] in names:
            arg = bound.get(ref[0])
            if arg and arg[-1] == CONSTRUCTED:
                arg = arg[:-1] if len(ref) > 1 else ()  # its method is the class's
            if arg:
                calls.append((*arg, *ref[1:]))
                passed = True
        elif helper.module == call.module and ref[0] not in ("self", "cls"):
            calls.append(ref)  # resolved in the caller's module, which is the helper's
    match, match_source = inner.match, inner.match_source
    if match is None and match_source in names:
        # the caller's own text: its string argument, else not claimed
        assert match_source is not None
        match = _argument_text(call, params, match_source)
        given = bound.get(match_source, ())
        match_source = given[0] if match is None and len(given) == 1 and given[0] in keep else None
        passed = passed or match is not None or match_source is not None
    if not calls or not passed:
        return None  # nothing of the caller's in it: the helper's own link says it
    return replace(
        inner,
        path=call.path,
        line=call.line,
        name=call.name,
        classes=classes,
        calls=calls,
        match=match,
        match_source=match_source,
        snippet=call.snippet,
        module=call.module,
        function=call.function,
        written_in=inner.written_in or inner.function,
    )


def _argument_text(call: Expect, params: list[str], name: str) -> str | None:
    """The string the call passes for parameter ``name``, by position or keyword."""
    if name in call.texts:
        return call.texts[name]
    if name in params:
        return call.texts.get(str(params.index(name)))
    return None


def _in_test(call: Expect) -> bool:
    """Whether the call is made by a test (a helper calling a helper is not followed)."""
    return (call.function or "").rpartition(".")[2].startswith("test")


def _outer_wrappers(index: RepoIndex, wrappers: dict[str, list[Expect]]) -> dict[str, list[Expect]]:
    """Helpers that pass their own parameters on to a wrapper (``check_error(self, exc,
    text)`` calls ``self._check(exc, lib.parse, text)``, which holds the ``with
    self.assertRaises(exc)``): the wrapper's expectation over the outer helper's
    parameters, so that a test's call of the outer one is read as well."""
    out: dict[str, list[Expect]] = {}
    for call, helper, target in _helper_calls(index, wrappers, tests=False):
        outer = index.function(call.function or "")
        if outer is None:
            continue
        own = {p.lstrip("*") for p in outer.params} - {"self", "cls"}
        for inner in wrappers[target]:
            expanded = _expand(call, helper, inner, keep=own)
            if expanded is None:
                continue
            heads = {ref[0] for ref in (*expanded.classes, *expanded.calls) if ref}
            if expanded.match_source is not None:
                heads.add(expanded.match_source)
            if heads & own:
                out.setdefault(outer.qualname, []).append(expanded)
    return out


def _helper_calls(
    index: RepoIndex, wrappers: dict[str, list[Expect]], *, tests: bool
) -> list[tuple[Expect, FuncFacts, str]]:
    """Calls made by tests (or, ``tests=False``, by other functions of test modules)
    that resolve exactly to a wrapper: (the call, the wrapper, its qualified name)."""
    out: list[tuple[Expect, FuncFacts, str]] = []
    for module in index.modules.values():
        for call in module.expects:
            if call.kind != HELPER_CALL or _in_test(call) != tests or call.function is None:
                continue
            targets = resolve_calls(index, call.module, call.calls, call.function)
            for target, precision in targets.items():
                helper = index.function(target)
                if precision == "exact" and helper is not None and target in wrappers:
                    out.append((call, helper, target))
    return out


def through_helpers(index: RepoIndex) -> list[tuple[Expect, str]]:
    """Each test call of a helper that wraps an expectation over its parameters (itself,
    or through one more helper of the suite), as that expectation with the call's
    arguments, beside the helper's qualified name."""
    wrappers = _wrappers(index)
    if not wrappers:
        return []
    for name, found in _outer_wrappers(index, wrappers).items():
        wrappers.setdefault(name, []).extend(found)
    out: list[tuple[Expect, str]] = []
    seen: set[tuple[object, ...]] = set()
    for call, helper, target in _helper_calls(index, wrappers, tests=True):
        for inner in wrappers[target]:
            expanded = _expand(call, helper, inner)
            if expanded is None:
                continue
            # an outer helper calling the inner one twice alike is one expectation
            key = (
                expanded.line,
                expanded.match,
                expanded.given,
                repr(sorted(expanded.constants.items())),
                *expanded.classes,
                (),
                *expanded.calls,
            )
            if (target, key) not in seen:
                seen.add((target, key))
                out.append((expanded, target))
    return out
