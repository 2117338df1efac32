"""What an operator on a class object runs: its metaclass's dunder, not the class's own.

``'first' in MainEnum``, ``len(Color)``, ``Color['RED']`` and ``for m in Color`` look
the dunder up on ``type(MainEnum)``: ``enum.EnumType.__contains__`` (which warns and
raises), never a ``__contains__`` the class itself defines for its members. The test
reads ``('MainEnum', '__contains__')`` (:func:`errdex.analyze.expects.syntax_calls`);
here the name must resolve to a repository class and the class, or one of its bases, must
name a repository metaclass (``class Enum(metaclass=EnumType)``). Otherwise nothing is
claimed: a plain class's metaclass is ``type``, whose operators the interpreter runs.
"""

from __future__ import annotations

from .facts import CallRef, FuncFacts
from .repo import RepoIndex

__all__ = ["metaclass_of", "operator_targets"]

#: Bases followed from a class to the one that names its metaclass, at most.
_MAX_BASES = 32


def metaclass_of(index: RepoIndex, cls: str) -> str | None:
    """The repository metaclass of ``cls``: the nearest ``metaclass=`` along its bases
    (breadth-first), resolved in the module of the class that names it."""
    seen: list[str] = []
    todo = [cls]
    while todo and len(seen) < _MAX_BASES:
        here = todo.pop(0)
        facts = index.classes.get(here)
        if facts is None or here in seen:
            continue
        seen.append(here)
        if facts.metaclass is not None:
            target = index.resolve(facts.module, facts.metaclass)
            return target.qualname if target is not None and target.kind == "class" else None
        todo.extend(index.bases(here))
    return None


def operator_targets(
    index: RepoIndex, module: str, ref: CallRef, scopes: tuple[FuncFacts | None, ...]
) -> list[str] | None:
    """The metaclass method an operator (``ref``'s last part, a dunder) on the class
    ``ref[:-1]`` runs; None when ``ref[:-1]`` is no repository class with a repository
    metaclass defining it, or its first name is bound in one of ``scopes``."""
    head = ref[0] if ref else ""
    if len(ref) < 2 or head in ("self", "cls", "super()", ""):
        return None
    for scope in scopes:
        if scope is not None and (
            head in scope.params
            or head in scope.local_calls
            or head in scope.local_binds
            or head in scope.bound_lines
        ):
            return None  # a local of the test: :mod:`.test_types` reads it
    local_imports = next((s.local_imports for s in scopes if s is not None), None)
    target = index.resolve(module, ref[:-1], local_imports)
    if target is None or target.kind != "class":
        return None
    meta = metaclass_of(index, target.qualname)
    method = index.method(meta, ref[-1]) if meta is not None else None
    return [method] if method is not None else None
