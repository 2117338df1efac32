"""What ``with Cls(...) as f`` gives when ``Cls`` derives from one of ``io``'s bases.

``io.IOBase.__enter__`` is C (``_io._IOBase``): it checks the file is open and returns
``self``. A file-like class of the repository (``bz2.BZ2File`` through
``_compression.BaseStream``, a package's ``class Packed(io.BufferedIOBase)``) inherits
it, so no repository ``__enter__`` says what ``f`` is; here it is the instance itself,
and ``f.readline(None)`` in the block is ``Cls.readline`` (:mod:`.test_types`).
"""

from __future__ import annotations

from .repo import RepoIndex

__all__ = ["IO_BASES", "enters_itself"]

#: ``io``'s abstract bases and their C originals, as :meth:`RepoIndex.bases` names them.
IO_BASES = frozenset(
    f"{module}.{prefix}{name}"
    for module, prefix in (("io", ""), ("_io", "_"), ("_pyio", ""))
    for name in ("IOBase", "RawIOBase", "BufferedIOBase", "TextIOBase")
)

#: Bases followed from a class to ``io``'s, at most.
_MAX_BASES = 32


def enters_itself(index: RepoIndex, cls: str) -> bool:
    """Whether ``cls``, which defines no ``__enter__`` of the repository's, inherits
    ``io.IOBase``'s, which returns the instance."""
    seen: set[str] = set()
    todo = [cls]
    while todo and len(seen) < _MAX_BASES:
        here = todo.pop(0)
        if here in IO_BASES:
            return True
        if here in seen:
            continue
        seen.add(here)
        todo.extend(index.bases(here))
    return False
