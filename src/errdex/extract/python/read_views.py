"""Reads of a package file narrower than its whole text (issue 13).

A package-wide search (:mod:`.package_calls`, :mod:`.text_facts`) looks at every file of
the package, but what it learns from most of them is small: that ``fail(`` is not in the
text, that a class's name is not a word of it, what its attribute stores and indented
definitions are. Noting each such file as read whole re-extracted every raising file of
jax's package after any edit of any of its 668 files. A *view* read says what was taken:
``rel`` plus the views of it, and a cached scan reads the raising file again only when
the edited file's view changed (:mod:`errdex.scan_views`), not its text alone.

Views of one file (each a string without ``\\x00``/``\\x01``):

- ``s``, ``d``, ``c``: its text facts (:data:`.text_store.FileFacts`), each part apart:
  the attribute stores, the names defined at some indentation, the top-level classes
  and their bases (a local variable added in a body changes ``d`` alone, and only the
  searches that read definitions depend on it);
- ``o``: its ``self.<name>`` stores by class (:func:`.self_stores.self_stores_by_class`);
- ``n:<needle>``: the needle is not in its text (a file holding it is read whole);
- ``w:<name>``: the name is not a word of its text (likewise);
- ``b`` and ``f:<name>``: of a module read to resolve names in it, its statements other
  than top-level functions, and its top-level functions named ``<name>``
  (:mod:`.name_views`).

A file also read whole needs no view: :func:`merged` drops them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .project import Project

__all__ = [
    "CLASSES",
    "DEFINED",
    "MADE",
    "OWN_STORES",
    "STORES",
    "absent",
    "merged",
    "note",
    "split",
    "view_key",
    "word_absent",
]

_SEP, _ATOMS = "\x00", "\x01"
STORES, DEFINED, CLASSES, OWN_STORES = "s", "d", "c", "o"
#: The views made from a file's facts or stores (the others are absences).
MADE = (STORES, DEFINED, CLASSES, OWN_STORES)


def view_key(rel: str, views: Iterable[str]) -> str:
    return rel + _SEP + _ATOMS.join(sorted(set(views)))


def split(key: str) -> tuple[str, list[str]] | None:
    """(file, its views) of a view read; None for a read of the whole file (or folder)."""
    rel, sep, views = key.partition(_SEP)
    return (rel, views.split(_ATOMS)) if sep else None


def absent(needle: str) -> str:
    return f"n:{needle}"


def word_absent(name: str) -> str:
    return f"w:{name}"


def note(project: Project | None, file_path: str, rel: str, view: str) -> None:
    """Reading ``file_path`` took ``view`` of the package file ``rel``."""
    if project is not None:
        project.looked_for(file_path, view_key(rel, (view,)))


def merged(reads: Iterable[str]) -> set[str]:
    """``reads`` with the views of one file made one read (a file read whole: none)."""
    whole: set[str] = set()
    views: dict[str, set[str]] = {}
    for key in reads:
        found = split(key)
        if found is None:
            whole.add(key)
        else:
            views.setdefault(found[0], set()).update(found[1])
    return whole | {view_key(rel, v) for rel, v in views.items() if rel not in whole}
