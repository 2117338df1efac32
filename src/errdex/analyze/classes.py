"""Exception classes: what the repository says about its own, and which classes catch which.

A test's ``pytest.raises(Base)`` is triggered by a subclass too, so agreement is decided
along the base classes: the repository's own (resolved through imports) and, past them,
the builtin hierarchy.
"""

from __future__ import annotations

import builtins

from errdex.evidence import ClassInfo

from .ancestors import ancestors
from .docstrings import cleaned
from .repo import RepoIndex

__all__ = ["ClassTree", "class_info"]

_BUILTIN_CLASSES: dict[str, type] = {
    name: obj
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
}


def class_info(index: RepoIndex, canonical: str) -> ClassInfo | None:
    """The class's docstring and bases, when the repository defines it."""
    facts = index.classes.get(canonical)
    if facts is None or facts.is_test:
        return None
    return ClassInfo(
        qualified=canonical,
        bases=index.bases(canonical),
        ancestors=ancestors(index, canonical),
        docstring=cleaned(facts.docstring),
        path=facts.path,
        line=facts.line,
    )


class ClassTree:
    """Ancestors of classes by canonical name (repo qualname, ``builtins.X`` or dotted)."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._memo: dict[str, frozenset[str]] = {}

    def ancestors(self, canonical: str) -> frozenset[str]:
        """The class itself and every base above it."""
        found = self._memo.get(canonical)
        if found is None:
            self._memo[canonical] = frozenset({canonical})  # cycles stop here
            found = frozenset(self._walk(canonical, 0))
            self._memo[canonical] = found
        return found

    def _walk(self, canonical: str, depth: int) -> set[str]:
        out = {canonical}
        if canonical.startswith("builtins."):
            cls = _BUILTIN_CLASSES.get(canonical.removeprefix("builtins."))
            if cls is not None:
                out.update(f"builtins.{k.__name__}" for k in cls.__mro__ if k is not object)
            return out
        if depth > 12:
            return out
        for base in self.index.bases(canonical):
            out |= self.ancestors(base) if base != canonical else {base}
        return out

    def catches(self, expected: str, raised: str) -> bool:
        """Whether ``except expected`` (or ``pytest.raises(expected)``) catches ``raised``."""
        if expected == raised:
            return True
        ancestors = self.ancestors(raised)
        if expected in ancestors:
            return True
        # a class the repository does not define: compare the names a traceback would show
        short = expected.rpartition(".")[2]
        return (
            not expected.startswith("builtins.")
            and expected not in self.index.classes
            and any(a.rpartition(".")[2] == short for a in ancestors)
        )
