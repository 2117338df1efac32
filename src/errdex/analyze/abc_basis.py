"""Where an abstract method's class gets ``ABCMeta``, as its source writes it.

An ``@abstractmethod`` stops instantiation only under ``ABCMeta``. The record said
"under `ABCMeta` (an `abc.ABC` subclass)" of every such class; of ``numbers.Integral``
that was false (stop-37 paired blind review): ``numbers.Number`` is
``class Number(metaclass=ABCMeta)`` and ``issubclass(numbers.Integral, abc.ABC)`` is
False. The nearest class of the lineage that names ``abc.ABC`` as a base or
``metaclass=ABCMeta`` is said instead, and where none is found, that is said. A
metaclass of the repository's own is followed through its bases (``class Meta(ABCMeta)``,
``typing.Protocol``'s ``_ProtocolMeta``) before "none" is said.
"""

from __future__ import annotations

from .ancestors import ancestors, lineage
from .gathered import short_name
from .repo import RepoIndex

__all__ = ["abc_basis", "abc_words"]

_ABC = "abc.ABC"
#: ``abc.ABCMeta`` as an index resolves it: 3.11's ``abc`` falls back to ``_py_abc``.
_META = frozenset({"abc.ABCMeta", "_py_abc.ABCMeta"})


def abc_basis(index: RepoIndex, cls: str) -> str | None:
    """ "`Number`, a base of `Integral`, is declared with `metaclass=ABCMeta`",
    "`Base` derives from `abc.ABC`", or None: no class of the lineage that the index
    knows does either (a base of outside code is not read)."""
    for here in lineage(index, cls):
        facts = index.classes.get(here)
        if facts is None or here == _ABC:
            continue
        name = short_name(here)
        whose = "" if here == cls else f", a base of `{short_name(cls)}`,"
        if _ABC in index.bases(here):
            return f"`{name}`{whose} derives from `abc.ABC`"
        if facts.metaclass is not None:
            target = index.resolve(facts.module, facts.metaclass)
            written = ".".join(facts.metaclass)
            meant = target.qualname if target is not None else _imported(index, here, written)
            if meant in _META:
                return f"`{name}`{whose} is declared with `metaclass={written}`"
            if target is not None and target.kind == "class" and _derives(index, meant):
                return (
                    f"`{name}`{whose} is declared with `metaclass={written}`, "
                    "which derives from `ABCMeta`"
                )
    return None


def _derives(index: RepoIndex, meta: str) -> bool:
    """Whether a repository metaclass has ``ABCMeta`` among its bases, as the index
    resolves them (``class Meta(ABCMeta)``, ``typing._ProtocolMeta``)."""
    return any(base in _META for base in ancestors(index, meta))


def _imported(index: RepoIndex, cls: str, written: str) -> str:
    """``ABCMeta`` as the class's module imports it (``from abc import ABCMeta``)."""
    facts = index.classes[cls]
    owner = index.modules.get(facts.module)
    head, _, rest = written.partition(".")
    if owner is not None and head in owner.imports:
        return ".".join(p for p in (owner.imports[head], rest) if p)
    return written


def abc_words(basis: str | None, base: str) -> str:
    """The clause after "under `ABCMeta`"."""
    if basis is not None:
        return f"`ABCMeta` ({basis})"
    return (
        f"`ABCMeta` (if `{base}` gets it: errdex found no `abc.ABC` base nor "
        "`metaclass=ABCMeta` among the classes it read)"
    )
