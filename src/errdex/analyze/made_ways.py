"""A method of a class users never name, reached on the object a public call returns.

``argparse``'s ``_MutuallyExclusiveGroup.add_mutually_exclusive_group`` warns "Nesting
mutually exclusive groups is deprecated."; no public function calls it, so "Which public
call leads here is not known" was said (paired blind review of stop 38, record
bd4d354ad2742bdb: misleading). Users hold such a group all the same:
``ArgumentParser.add_mutually_exclusive_group()`` returns one, and calling its
``add_mutually_exclusive_group()`` warns (run). The way is that call on that object.

Exact only: the function (or the method, named through the public class that inherits
it, :mod:`.heirs`) must give a new instance of the class at every ``return``, the
class's call or a local bound once to it (``FuncFacts.returns``), and end with a
``return`` or ``raise`` (never falling off to ``None``), as :mod:`.factories` asks of
module functions; no decorator, ``yield`` or ``async``; the class no ``__new__`` of the
repository and no metaclass, decorator or base written as a call (``opaque``); and the
class (the method's own or one below it: ``add_argument``, which ``_ActionsContainer``
defines, runs ``_MutuallyExclusiveGroup._add_action`` on a group) must run the method
for its name and the chain's ``self`` lookups as the walk did.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .chain_parts import Hop
from .factories import returned_class
from .facts import FuncFacts
from .file_trees import function_node
from .heirs import heir_name, inherited, is_read, plain_or_read, runs_as_walked
from .made_returns import fresh_returns
from .param_requirement import call_name
from .repo import RepoIndex

__all__ = ["MadeWay", "MadeWays"]


@dataclass(frozen=True, slots=True)
class MadeWay:
    """Calling ``method`` on what ``factory`` (a public name) returns: a new ``made``."""

    factory: str
    made: str
    method: str
    path: str  # the factory's definition
    line: int
    call: str  # how a caller writes the factory's call: ``ArgumentParser.add_…_group()``
    read: bool = False  # ``method`` is a property: read, not called

    def evidence(self) -> dict[str, object]:
        """``evidence.madeBy``."""
        return {
            "qualname": self.factory,
            "path": self.path,
            "line": self.line,
            "returns": self.made,
            "method": self.method,
        }


class MadeWays:
    """Finds, once per index, which functions return a new instance of which class."""

    def __init__(
        self,
        index: RepoIndex,
        below: Mapping[str, Sequence[str]],
        public: Callable[[str], bool],
        rank: Callable[[str], tuple[object, ...]],
    ) -> None:
        self.index = index
        self.below = below
        self.public = public
        self.rank = rank
        self._made: dict[str, list[FuncFacts]] | None = None

    def way(self, hops: Sequence[Hop]) -> MadeWay | None:
        """The nearest hop that is a method of a class users reach only as what a
        public call returns, with that call; None where there is none."""
        for hop in sorted(hops, key=lambda h: h.depth):
            func = self.index.function(hop.qualname, hop.line)
            if func is None or func.cls is None or func.parent is not None:
                continue
            if func.name.startswith("_") or self.public(hop.qualname):
                continue
            if not plain_or_read(func):
                continue  # a setter runs on assignment: no call or read of its name
            for cls in (func.cls, *self.below.get(func.cls, ())):
                if not runs_as_walked(self.index, cls, func, hop):
                    continue  # its objects run another method on the way
                for factory in self._factories().get(cls, ()):
                    name = self._named(factory)
                    if name is not None and _ends_returning(self.index, factory):
                        seen = factory_function(self.index, name) or factory
                        return MadeWay(
                            name,
                            cls,
                            func.qualname,
                            factory.path,
                            factory.line,
                            call_name(name, seen),
                            is_read(func),
                        )
        return None

    def _named(self, factory: FuncFacts) -> str | None:
        """The public name a caller calls ``factory`` by: its own, or through the public
        class that inherits it."""
        if self.public(factory.qualname):
            return factory.qualname
        hop = Hop(factory.qualname, 0, (factory.qualname,), None, None, line=factory.line)
        return heir_name(self.index, hop, self.below, self.public, self.rank)

    def _factories(self) -> dict[str, list[FuncFacts]]:
        """Class -> the functions whose every ``return`` gives a new instance of it."""
        if self._made is None:
            made: dict[str, list[FuncFacts]] = {}
            for defs in self.index.functions.values():
                if len(defs) != 1:
                    continue  # defined twice: which one runs is not known
                cls = _made_class(self.index, defs[0])
                if cls is not None:
                    made.setdefault(cls, []).append(defs[0])
            self._made = made
        return self._made


def _made_class(index: RepoIndex, func: FuncFacts) -> str | None:
    """The class every ``return`` of ``func`` gives a new instance of, from its facts."""
    if func.is_test or func.parent is not None or func.decorators:
        return None
    if func.is_generator or func.is_async or not func.returns:
        return None
    cls = returned_class(index, func)
    if cls is None:
        return None
    facts = index.classes.get(cls)
    if facts is None or facts.opaque or index.method(cls, "__new__") is not None:
        return None
    return cls


def _ends_returning(index: RepoIndex, func: FuncFacts) -> bool:
    """Whether the body's last statement is a ``return`` or ``raise`` (it never falls
    off the end, which returns ``None``) and every ``return`` gives a new object on
    every path (:mod:`.made_returns`: no parameter or global set only sometimes)."""
    module = index.modules.get(func.module)
    if module is None or not index.root:
        return False
    node = function_node(os.path.join(index.root, module.rel), func.line, func.name)
    return node is not None and fresh_returns(node)


def factory_function(index: RepoIndex, qualname: str) -> FuncFacts | None:
    """The definition a :class:`MadeWay`'s factory names (its own or inherited)."""
    return index.function(qualname) or inherited(index, qualname)
