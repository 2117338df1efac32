"""A method of a private class, named through the public class below it that inherits it.

``multiprocessing.connection.Connection`` defines no ``recv``: it inherits
``_ConnectionBase.recv``, which calls ``self._check_readable()``; ``urllib.parse``'s
``ParseResult`` and ``SplitResult`` inherit the ``port`` property of
``_NetlocResultMixinBase``. A private class's method is no way in by its own name, so
"Which public call leads here is not known" was said of both (paired blind review of
stop 38: misleading, and ``Connection.recv()`` / ``urlsplit(url).port`` ran and raised).
The way in is the method as the public class runs it: ``Connection.recv``, whose
definition stays the base's (``evidence.entryPoints[].inheritedFrom``).

A class below counts only where looking the method's name up on it finds this very
definition, as do the ``self.m()`` lookups the chain below depends on
(:mod:`.entry_receivers`): ``Connection`` overriding ``_check_readable`` would run
another check.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from .chain_parts import Hop
from .facts import FuncFacts
from .heir_lookup import binds_read, runs
from .repo import RepoIndex

__all__ = ["heir_name", "inherited", "is_read", "plain_or_read", "runs_as_walked"]


def inherited(index: RepoIndex, qualname: str) -> FuncFacts | None:
    """The definition ``qualname`` (``…Connection.recv``) runs where its class inherits
    it from another (``_ConnectionBase.recv``), seen as the heir's method: its
    ``qualname``, ``cls`` and ``module`` are the heir's, its place the definition's.
    None where ``qualname`` is defined as it is or names no method of a class."""
    cls, _, name = qualname.rpartition(".")
    facts = index.classes.get(cls)
    if qualname in index.functions or facts is None or facts.is_test:
        return None
    found = runs(index, cls, name)
    func = index.function(found) if found is not None else None
    if func is None or func.cls is None or func.cls == cls:
        return None
    return dataclasses.replace(func, qualname=qualname, cls=cls, module=facts.module)


def heir_name(
    index: RepoIndex,
    hop: Hop,
    below: Mapping[str, Sequence[str]],
    public: Callable[[str], bool],
    rank: Callable[[str], tuple[object, ...]],
) -> str | None:
    """The name users call ``hop``'s method by where it is no way in by its own
    (``public`` says no): the first, by ``rank``, of the classes below its class that
    ``public`` admits, that run this definition for its name and run every ``self``
    lookup the hop depends on as the chain did; then one defined on every platform
    (``Connection``, not Windows' ``PipeConnection``), then the first defined. None
    where there is none."""
    func = index.function(hop.qualname, hop.line)
    if func is None or func.cls is None or func.parent is not None or public(hop.qualname):
        return None
    if func.name.startswith("_") and not (func.name.startswith("__") and func.name.endswith("__")):
        return None  # private by its own name: no class below makes it a way in
    if not plain_or_read(func):
        return None  # a setter runs on assignment, not on a call of its name
    found = [
        (sub, f"{sub}.{func.name}")
        for sub in below.get(func.cls, ())
        if public(f"{sub}.{func.name}") and runs_as_walked(index, sub, func, hop)
    ]
    if not found:
        return None
    return min(
        found, key=lambda p: (rank(p[1]), _on_platform(index, p[0]), index.classes[p[0]].line)
    )[1]


def runs_as_walked(index: RepoIndex, cls: str, func: FuncFacts, hop: Hop) -> bool:
    """Whether ``cls``'s objects run ``func`` for its name and each ``self`` lookup of
    the chain as the walk did (by the MRO, :mod:`.heir_lookup`), and no class body
    above ``func``'s class binds an attribute the chain's methods read on ``self``."""
    wanted = (*hop.lookups, (func.name, func.qualname))
    if runs(index, cls, func.name) != func.qualname:
        return False
    if not all(runs(index, cls, name) in (None, target) for name, target in wanted):
        return False
    return func.cls == cls or not binds_read(index, cls, func.cls or "", hop.via)


def plain_or_read(func: FuncFacts) -> bool:
    """A method called by its name (undecorated, a static or class method) or read as
    an attribute (:func:`is_read`); not a setter, deleter or other wrapper, whose way
    in is no call of its name."""
    called = not func.decorators or [tuple(d) for d in func.decorators] in _CALLED
    return called or is_read(func)


_CALLED = ([("staticmethod",)], [("classmethod",)])


def is_read(func: FuncFacts) -> bool:
    """Whether ``func`` runs when its name is read: a plain ``property`` getter or a
    ``cached_property`` (``functools.`` or not)."""
    if len(func.decorators) != 1:
        return False
    parts = tuple(func.decorators[0])
    return parts == ("property",) or parts[-1:] == ("cached_property",)


def _on_platform(index: RepoIndex, cls: str) -> bool:
    """Whether ``cls`` is defined in an ``if`` on the platform, as every method of its
    own says (``PipeConnection``, under ``if _winapi:``; ``Connection`` defines only
    its ``_close`` so)."""
    module = index.modules.get(index.classes[cls].module)
    own = [f.platform for f in module.functions if f.cls == cls] if module is not None else []
    return bool(own) and None not in own


def by_heirs(
    index: RepoIndex,
    hops: Sequence[Hop],
    below: Mapping[str, Sequence[str]],
    public: Callable[[str], bool],
    rank: Callable[[str], tuple[object, ...]],
) -> tuple[list[Hop], dict[str, str]]:
    """``hops`` with each private class's method that a public class inherits named
    through that class (:func:`heir_name`), and each such name -> the definition."""
    out: list[Hop] = []
    defined: dict[str, str] = {}
    for hop in hops:
        name = heir_name(index, hop, below, public, rank)
        if name is not None and name not in defined:
            defined[name] = hop.qualname
            hop = dataclasses.replace(hop, qualname=name)
        out.append(hop)
    return out, defined
