"""The repository class a test's local name holds, so that a call on it lands in one method.

A test calls the library through objects it binds at run time (issue 10, deliver 2):
``db`` of ``with dumbdbm.open(name) as db``, ``a`` of ``a, b = self.Pipe()``, ``nodemap``
of ``nodemap = elem.attributes``, ``f`` of ``f = obj.method``. The call graph sees
``db.keys()`` as a method named ``keys`` on anything; here the name's class is read
from its one binding (:mod:`errdex.analyze.binds`):

- a call's value: a class's instance, or what the function returns (every ``return``
  of it giving an instance of one class, ``return self`` its own; a tuple's element by
  position);
- a ``with`` block's value: what the class's ``__enter__`` returns, or the object given
  to it when it returns that (``with contextlib.closing(dumbdbm.open(name)) as f``);
- an attribute: a ``property``'s value, what ``__init__`` binds to ``self.<name>``, or
  what the class's ``_get_<name>`` returns where nothing else defines the name
  (``xml.dom.minidom``'s ``defproperty(Element, "attributes", ...)`` makes the property
  from ``_get_attributes`` at import time).

Nothing is guessed: a link comes only from a chain of bindings each of which names one
class, so ``db.keys()`` lands in ``_Database.keys`` exactly or not through here at all.
"""

from __future__ import annotations

from collections.abc import Callable

from .binds import SELF_ATTRIBUTE
from .callgraph import exact_targets
from .facts import CallRef, FuncFacts
from .io_enter import enters_itself
from .repo import RepoIndex

__all__ = ["LocalTypes"]

#: Bindings followed from a test's name to its class, at most.
MAX_HOPS = 6

#: The functions ``self.<name>(...)`` lands in for a test class (the class-body bindings
#: :class:`~errdex.analyze.tests_calls.ClassAttributes` reads): (class, ref) -> functions.
SelfTargets = Callable[[str, CallRef], list[str]]


class LocalTypes:
    """Classes of local names, read lazily and kept per (function, name)."""

    def __init__(self, index: RepoIndex, self_targets: SelfTargets | None = None) -> None:
        self.index = index
        self.self_targets = self_targets
        self._memo: dict[tuple[str, str], str | None] = {}

    def targets(self, func: FuncFacts, ref: CallRef, hops: int = 0) -> list[str] | None:
        """The functions the call ``ref`` in ``func`` lands in through a local name's
        binding; None when ``ref`` does not start with such a name, or its class or
        method is not known."""
        head = ref[0] if ref else ""
        if head in ("", "super()") or _own(func, head) or head in func.local_imports:
            return None
        bound = func.local_binds.get(head)
        if bound is not None and bound[0] == "alias" and len(ref) == 1:
            # f = obj.method; f(x)
            return self._called(func, bound[1], hops + 1) or None if hops <= MAX_HOPS else None
        if head not in func.local_calls and bound is None:
            return None
        if bound is not None and bound[0] == "alias" and bound[1][0] in ("self", "cls"):
            # ``wmod = self.module; wmod.catch_warnings()``: what the class body binds
            found = self._called(func, (*bound[1], *ref[1:]), hops + 1) if hops <= MAX_HOPS else []
            if found:
                return found
        cls = self.local_class(func, head, hops + 1)
        for attr in ref[1:-1]:
            cls = self._attribute(cls, attr, hops + 1) if cls is not None else None
        if cls is None:
            return None
        method = self.index.method(cls, ref[-1] if len(ref) > 1 else "__call__")
        return [method] if method is not None else None

    def value(self, func: FuncFacts, callee: CallRef) -> str | None:
        """The class of the value ``callee(...)`` gives in ``func``."""
        return self._value(func, callee, None, 0)

    def local_class(self, func: FuncFacts, name: str, hops: int) -> str | None:
        key = (func.qualname, name)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # a cycle of bindings names no class
        found = self._local_class(func, name, hops)
        self._memo[key] = found
        return found

    def _local_class(self, func: FuncFacts, name: str, hops: int) -> str | None:
        if hops > MAX_HOPS:
            return None
        made = func.local_calls.get(name)
        if made is not None:
            return self._value(func, made, None, hops + 1)
        bound = func.local_binds.get(name)
        if bound is None:
            return None
        kind, ref = bound
        if kind == "alias":
            cls = self.local_class(func, ref[0], hops + 1)
            for attr in ref[1:]:
                cls = self._attribute(cls, attr, hops + 1) if cls is not None else None
            return cls
        if kind == "enter":
            cls = self._value(func, ref, None, hops + 1)
            enter = self.index.method(cls, "__enter__") if cls is not None else None
            if cls is not None and enter is None and enters_itself(self.index, cls):
                return cls  # ``io.IOBase.__enter__`` (C) returns the file itself
            if cls is None or enter is None:
                return None
            if self._hands_back(cls, enter):
                given = func.local_binds.get(f"{name}()")
                return self._value(func, given[1], None, hops + 1) if given else None
            return self._returned(enter, None, hops + 1)
        return self._value(func, ref, int(kind), hops + 1)

    def _hands_back(self, cls: str, enter: str) -> bool:
        """Whether ``cls``'s ``__enter__`` returns what its ``__init__`` was given first
        (``contextlib.closing``: ``self.thing = thing`` … ``return self.thing``)."""
        facts = self.index.function(enter)
        if facts is None or len(facts.returns) != 1 or len(facts.returns[0]) != 1:
            return False
        returned = facts.returns[0][0]
        if returned is None or len(returned) != 2 or returned[0] != SELF_ATTRIBUTE:
            return False
        init = self.index.method(cls, "__init__")
        init_facts = self.index.function(init) if init is not None else None
        if init_facts is None or len(init_facts.params) < 2:
            return False
        bound = init_facts.local_binds.get(f"self.{returned[1]}")
        return bound == ("alias", (init_facts.params[1],))

    def _value(self, func: FuncFacts, callee: CallRef, pos: int | None, hops: int) -> str | None:
        """The class of ``callee(...)``'s value (its element ``pos`` for a tuple)."""
        if hops > MAX_HOPS:
            return None
        if callee == ("cls",) and pos is None and func.cls is not None and _own(func, "cls"):
            return func.cls  # ``return cls(...)`` in a class method
        if pos is None and not _own(func, callee[0]):
            target = self.index.resolve(func.module, callee, func.local_imports)
            if target is not None and target.kind == "class":
                return target.qualname
        found: set[str | None] = set()
        for landed in self._called(func, callee, hops):
            facts = self.index.function(landed)
            if facts is not None and facts.name in ("__init__", "__new__") and pos is None:
                found.add(facts.cls)
            else:
                found.add(self._returned(landed, pos, hops + 1))
        return found.pop() if len(found) == 1 else None

    def _called(self, func: FuncFacts, callee: CallRef, hops: int) -> list[str]:
        """The functions a call of ``callee`` in ``func`` lands in exactly."""
        head = callee[0]
        if not _own(func, head):
            pass  # a local name (``cls = self.theclass``), read below
        elif func.cls is not None and len(callee) == 2:
            method = self.index.method(func.cls, callee[1])
            if method is not None:
                return [method]
            return self.self_targets(func.cls, callee) if self.self_targets else []
        elif func.cls is not None and self.self_targets and len(callee) > 2:
            # ``x = self.module.catch_warnings()``: a name the class body binds
            found = self.self_targets(func.cls, callee)
            if found:
                return found
        if head in func.local_calls or head in func.local_binds:
            typed = self.targets(func, callee, hops + 1) if hops <= MAX_HOPS else None
            if typed is not None:
                return typed
        return exact_targets(self.index, func, callee)

    def _returned(self, qualname: str, pos: int | None, hops: int) -> str | None:
        """The one class every ``return`` of ``qualname`` gives an instance of."""
        facts = self.index.function(qualname)
        if facts is None or not facts.returns or hops > MAX_HOPS:
            return None
        found: set[str | None] = set()
        for elements in facts.returns:
            if len(elements) != 1 if pos is None else len(elements) <= pos:
                return None
            element = elements[0 if pos is None else pos]
            if element is None:
                return None
            if element == ("self",):
                found.add(facts.cls)
            elif element[0] == SELF_ATTRIBUTE:  # ``return self.reader``: its class
                found.add(self._attribute(facts.cls, element[1], hops + 1) if facts.cls else None)
            else:
                found.add(self._value(facts, element, None, hops + 1))
            if len(found) > 1 or None in found:
                return None
        return found.pop() if len(found) == 1 else None

    def _attribute(self, cls: str, attr: str, hops: int) -> str | None:
        """The class of ``<an instance of cls>.<attr>``: a property's value, what
        ``__init__`` binds to ``self.<attr>``, or what ``_get_<attr>`` returns."""
        method = self.index.method(cls, attr)
        if method is not None:
            facts = self.index.function(method)
            if facts is not None and ("property",) in facts.decorators:
                return self._returned(method, None, hops + 1)
            return None  # a bound method, not an instance
        init = self.index.method(cls, "__init__")
        facts = self.index.function(init) if init is not None else None
        made = facts.local_calls.get(f"self.{attr}") if facts is not None else None
        if facts is not None and made is not None:
            return self._value(facts, made, None, hops + 1)
        getter = self.index.method(cls, f"_get_{attr}")
        return self._returned(getter, None, hops + 1) if getter is not None else None


def _own(func: FuncFacts, head: str) -> bool:
    """Whether ``head`` is the method's ``self``/``cls``, not a local the test binds
    (``cls = self.theclass``; ``t = cls(1, 1, 1)``: ``datetimetester``)."""
    return head == "self" or (head == "cls" and "cls" not in func.local_binds)
