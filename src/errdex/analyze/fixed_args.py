"""What a caller's fixed arguments still say of a ``**kwargs`` the callee pops from.

``logging.basicConfig(**kwargs)`` pops ``force``, ``encoding`` and ``errors`` before it
tests ``"stream" in kwargs and "filename" in kwargs``; ``lib2to3.main.main`` calls it with
``format=`` and ``level=`` alone. The chain walk knew a ``**kwargs`` only when the call
left it empty, since the body may remove items before the test, and named ``main`` as a
way to "'stream' and 'filename' should not be specified together" (blind review stop 36,
issue 10). Removing items never adds a key: whatever the body pops, a key the call does
not pass is not in the mapping at the test. :class:`KeysAtMost` holds that and nothing
more: ``"stream" in kwargs`` is false and ``kwargs.pop("handlers", None)`` is ``None``;
``"format" in kwargs``, its length and its truth are not known (a ``pop`` may have taken
them).

``doctest.DocTestSuite`` calls ``suite.addTest(DocTestCase(test, **options))``, and
``addTest`` raises "TestCases and TestSuites must be instantiated" under ``isinstance(test,
type) and issubclass(...)``: a call of a repository class builds an instance of it, no
class and no ``None`` (blind review stop 36, record 3e4ae74c9f619235). :class:`Instance`
holds that, for a class whose ancestry the repository shows in full: no decorator, no
base written as a call, no metaclass, no ``__new__`` defined or stored, no
``__init_subclass__`` bound to something not followed, any of which could hand back
something else (:func:`_plain`); and only where
the name called is the module's class, not a parameter or local of the caller or of a
function around it.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from types import MappingProxyType
from typing import TYPE_CHECKING

from .callsites import MADE, Arg
from .factories import factory_class
from .guard_eval import Made

if TYPE_CHECKING:
    from .facts import FuncFacts
    from .repo import RepoIndex

__all__ = ["Instance", "KeysAtMost", "after_removals", "made_value"]

#: Base classes, and functions around a caller, are followed this deep at most.
_MAX_BASES = 12
#: Hooks that, bound in a class body to something not followed, may make its call or its
#: subclasses' build another thing (a ``def __new__`` is one too).
_HOOKS = frozenset({"__new__", "__init_subclass__"})


class KeysAtMost:
    """A ``**kwargs`` whose keys are among ``keys``; which of them remain is not known."""

    __slots__ = ("keys",)

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = frozenset(keys)

    def __contains__(self, key: object) -> bool:
        if key in self.keys:
            raise LookupError("the body may have removed it")  # undecided (guard_eval)
        return False

    def __bool__(self) -> bool:
        raise TypeError("the body may have removed every key")

    def lookup(self, method: str, key: object, *default: object) -> object:
        """``kwargs.get(key, …)`` or ``kwargs.pop(key, default)`` of a key the call did
        not pass: the default (read by :func:`.guard_eval.guard_value`)."""
        if key in self.keys or (method == "pop" and not default) or len(default) > 1:
            raise LookupError("not decided")
        return default[0] if default else None

    def __len__(self) -> int:
        raise TypeError("the body may have removed some keys")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeysAtMost) and other.keys == self.keys

    def __hash__(self) -> int:
        return hash(("KeysAtMost", self.keys))

    def __repr__(self) -> str:
        return f"KeysAtMost({sorted(self.keys)!r})"


def after_removals(value: object) -> object | None:
    """What a ``**kwargs`` the body removes items from is known as at the test, given
    what the call collects in it (:meth:`Chains._arguments`): an empty one stays empty,
    one with keywords holds at most those; None for anything else."""
    if not isinstance(value, MappingProxyType):
        return None
    return value if not value else KeysAtMost(value.keys())


class Instance(Made):
    """What ``Cls(...)`` returns for a class :func:`_plain` admits: a new instance, no
    ``None``, no class (``isinstance(x, type)`` is false); its truth and equality are the
    class's own, not known. Nothing is said of a class it does not admit."""

    __slots__ = ("cls",)
    #: Read by :func:`.guard_eval.guard_value`: ``isinstance(x, type)`` is false.
    no_class = True

    def __init__(self, cls: str) -> None:
        super().__init__(fresh=True)
        self.cls = cls

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Instance) and other.cls == self.cls

    def __hash__(self) -> int:
        return hash(("Instance", self.cls))

    def __repr__(self) -> str:
        return f"Instance({self.cls!r})"


def made_value(index: RepoIndex, caller: FuncFacts, arg: Arg) -> Instance | None:
    """The :class:`Instance` a caller passes as ``Cls(...)`` (:data:`MADE`), or as a
    local it bound once to such a call, or as a call of a function that only returns
    ``Cls(...)`` (:mod:`.factories`); None for anything else."""
    kind, value = arg
    if kind == "name" and isinstance(value, str) and value in caller.local_calls:
        ref: object = caller.local_calls[value]
    elif kind == MADE:
        ref = value
    else:
        return None
    if not isinstance(ref, tuple) or not ref or not isinstance(ref[0], str):
        return None
    if _bound_around(index, caller, ref[0]):
        return None  # a local or a parameter here or in an enclosing function
    target = index.resolve(caller.module, ref, caller.local_imports)
    if target is not None and target.kind == "function":
        target = factory_class(index, target.qualname)  # ``DocFileTest(path)`` (.factories)
    if target is None or target.kind != "class" or not _plain(index, target.qualname, 0):
        return None
    return Instance(target.qualname)


def _bound_around(index: RepoIndex, caller: FuncFacts, name: str) -> bool:
    """Whether ``name`` is a parameter or local of the caller or of a function around it
    (``def outer(Case): def inner(): add(Case())``): not the module's class."""
    scope: FuncFacts | None = caller
    for _ in range(_MAX_BASES):
        if scope is None:
            return False
        if name in scope.bound_lines or name in {p.lstrip("*") for p in scope.params}:
            return True
        scope = index.function(scope.parent) if scope.parent is not None else None
    return True  # nested deeper than followed: not known


def _plain(index: RepoIndex, cls: str, depth: int) -> bool:
    """Whether calling ``cls`` surely builds an instance of it: it and every base is a
    repository class the index shows in full (no decorator, no base written as a call,
    no class keyword but ``metaclass=``, no store of ``__new__``: :mod:`.class_shape`),
    none names a metaclass, defines ``__new__`` or assigns it or ``__init_subclass__``
    in its body (a ``def __init_subclass__`` that stores no ``__new__`` is allowed), and
    a base outside the repository is a builtin class other than ``type`` and its subclasses."""
    facts = index.classes.get(cls)
    if facts is None or facts.metaclass is not None or facts.opaque or depth > _MAX_BASES:
        return False
    if f"{cls}.__new__" in index.functions or facts.assigned & _HOOKS:
        return False
    for base in index.bases(cls):
        if base.startswith("builtins.") and base.count(".") == 1:
            found = getattr(builtins, base.removeprefix("builtins."), None)
            if not isinstance(found, type) or issubclass(found, type):
                return False
        elif not _plain(index, base, depth + 1):
            return False
    return True
