"""Which definition an object of a class runs for a name, by the class's C3 MRO.

:meth:`.repo.RepoIndex.method` looks bases up depth-first and skips those outside the
repository: ``class Pub(_A, _B)`` with ``_B`` overriding ``_Base.m`` found ``_Base.m``
(``Pub().m()`` returns 1), ``class Store(collections.UserDict, _Lookup)`` found
``_Lookup.get`` though ``UserDict.get`` runs, and ``class Conn(_CB): _check = _noop``
read as "defines no ``_check``" (review rr5: each a false way in, :mod:`.heirs` and
:mod:`.made_ways`). A way in named through a class must know what that class runs, so
here a class outside the repository met before the name is found, an assignment in a
class body, and a hierarchy C3 cannot order are each "not known", told apart from
"defined nowhere in the repository".
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Sequence

from .file_trees import function_node
from .namedtuple_bases import namedtuple_names
from .repo import RepoIndex

__all__ = ["SHADOWED", "UNKNOWN", "binds_read", "mro", "runs"]

OBJECT = "builtins.object"
#: ``runs``: the name is bound in a class body to something not a method of the class.
SHADOWED = "<shadowed>"
#: ``runs``: a class outside the repository (or an unordered hierarchy) decides it.
UNKNOWN = "<unknown>"
_DEPTH = 20


def mro(index: RepoIndex, cls: str, depth: int = 0) -> list[str] | None:
    """``cls``'s method resolution order (C3); a class outside the repository stands
    for itself and its unknown bases. None where C3 fails or the hierarchy is too deep."""
    if cls == OBJECT:
        return [OBJECT]
    if cls not in index.classes:
        return [cls, OBJECT]
    if depth > _DEPTH:
        return None
    module = index.classes[cls].module
    bases = [_named(index, module, b) for b in index.bases(cls) if b != cls] or [OBJECT]
    seqs: list[list[str]] = []
    for base in bases:
        found = mro(index, base, depth + 1)
        if found is None:
            return None
        seqs.append(found)
    merged = _merge([*seqs, list(bases)])
    return None if merged is None else [cls, *merged]


def _named(index: RepoIndex, module: str, base: str) -> str:
    """A base outside the repository as ``module.name`` where it is a top-level name of
    ``module`` bound to a call (``_ParseResultBase = namedtuple(...)``)."""
    owner = index.modules.get(module)
    return f"{module}.{base}" if owner is not None and base in owner.bound_calls else base


def _merge(seqs: list[list[str]]) -> list[str] | None:
    out: list[str] = []
    seqs = [list(s) for s in seqs if s]
    while seqs:
        head = next(
            (s[0] for s in seqs if not any(s[0] in other[1:] for other in seqs)),
            None,
        )
        if head is None:
            return None  # Python raises TypeError for this class statement
        out.append(head)
        seqs = [rest for s in seqs if (rest := s[1:] if s[0] == head else s)]
    return out


def runs(index: RepoIndex, cls: str, name: str) -> str | None:
    """The repository definition ``cls().name`` runs; None where no class of its MRO
    binds ``name`` (``object``'s non-special names); :data:`SHADOWED` where a class body
    assigns it something else, :data:`UNKNOWN` where a class outside the repository
    comes first or the MRO is not known."""
    order = mro(index, cls)
    if order is None:
        return UNKNOWN
    for here in order:
        if here == OBJECT:
            special = name.startswith("__") and name.endswith("__")
            return UNKNOWN if special else None
        facts = index.classes.get(here)
        if facts is None:
            names = namedtuple_names(index, here)
            if names is None or name in names or name.startswith("__"):
                return UNKNOWN
            continue  # a namedtuple that binds no such name
        qual = f"{here}.{name}"
        if qual in index.functions:
            return qual
        if name in facts.assigned:
            ref = facts.attrs.get(name)
            own = f"{here}.{ref[0]}" if ref is not None and len(ref) == 1 else None
            return own if own is not None and own in index.functions else SHADOWED
    return None


def binds_read(index: RepoIndex, cls: str, definer: str, via: Sequence[str]) -> bool:
    """Whether a class body above ``definer`` in ``cls``'s MRO binds anew a name that
    ``definer``'s own classes bind too and the raising method (``via``'s last) reads as
    ``self.<name>``: ``class Writer(_W): _mode = "w"`` makes ``_W.write``'s ``if
    self._mode != "w": raise`` false on every ``Writer``. A name only the classes below
    supply (``ipaddress._BaseAddress.__lt__``'s ``self._version``) is what the base
    expects of each, no override. True too where the MRO is not known."""
    order = mro(index, cls)
    if order is None or definer not in order:
        return True
    bound: set[str] = set()
    for here in order[: order.index(definer)]:
        facts = index.classes.get(here)
        if facts is not None:
            bound.update(facts.assigned)
        elif namedtuple_names(index, here) is None:
            return True  # a namedtuple's fields differ by object, not by class
    read = _self_reads(index, via[-1:]) & bound if bound else set()
    return any(runs(index, definer, name) is not None for name in read)


def _self_reads(index: RepoIndex, via: Iterable[str]) -> set[str]:
    """The ``self.<name>`` attributes the methods of ``via`` read."""
    out: set[str] = set()
    for qualname in via:
        for func in index.functions.get(qualname, ()):
            module = index.modules.get(func.module)
            if func.cls is None or module is None or not index.root or not func.params:
                continue
            node = function_node(os.path.join(index.root, module.rel), func.line, func.name)
            if node is None:
                continue
            me = func.params[0]
            out.update(
                n.attr
                for n in ast.walk(node)
                if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name)
                and n.value.id == me
                and isinstance(n.ctx, ast.Load)
            )
    return out
