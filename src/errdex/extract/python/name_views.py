"""Which names a dependent read of an imported module, and what those names show (issue 13).

A module read to resolve names in it (:class:`.project.Project`: ``core.Tracer``, ``from
core import f``) was a whole-file read of every file that imported it: an edit of jax's
``core.py`` re-extracted the 18 files that import it. What such a reader answers comes
from its index (:class:`.module.ModuleReader`): the names it binds, its classes and their
methods, its imports, its text. Of these, only the module's top-level functions are many
and looked up by name; the rest is read as one view, so a dependent is a reader of

- ``b``: every top-level statement that is not a function definition, in order, each by
  its lines' text (imports, classes, assignments, ``del``, ``__all__``, guarded blocks
  whole), and
- ``f:<name>``: the top-level function definitions named ``<name>`` (none, too), each by
  its text and its place in that order: how many ``b`` statements come before it, and
  which functions since the last of them,

for the names looked up in :attr:`~.module.ModuleReader.functions` and
:attr:`~.module.ModuleReader.binding_lines` (:class:`Watched`). Any other reading that
could see what these views leave out (iterating the functions, the module's text or its
lines) marks the module read whole, as does a module whose names may mean what its
statements do not show: one that star-imports (``from x import *``), defines a module
``__getattr__``, or is a symlink (the package searches do not read one). The names are
kept on the reader, which serves every later file of the process: a file depends on all
names any file looked up in the readers it relied on (over-wide, never too narrow: a memo
of a reader holds answers other files' lookups made).

A view holds no line numbers: what a dependent reads of a module's lines is their order
(a binding after a function, :func:`.module.binding_lines`), which the places keep, so
lines added inside one function, or a function inserted mid-file, leave the other views
alone and re-extract only the dependents that looked that function up. (A dependent's
own records hold only its own file's lines.)
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from errdex.extract._downgrade import parse_any

from . import read_views

if TYPE_CHECKING:
    from .module import ModuleReader

__all__ = [
    "BASE",
    "NameWatch",
    "Watched",
    "is_name_view",
    "module_views",
    "read_of",
    "view_atom",
    "watch",
    "watched_rel",
]

#: The view of a module's statements other than its top-level functions.
BASE = "b"
_FUNCTION = "f:"


class NameWatch:
    """What dependents looked up in one kept reader of the package file ``rel``."""

    __slots__ = ("names", "rel", "whole")

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.names: set[str] = set()
        self.whole = False

    def read(self) -> str:
        """The read to note: the file whole, or its base and the functions looked up."""
        if self.whole:
            return self.rel
        return read_views.view_key(self.rel, [BASE, *(_FUNCTION + n for n in self.names)])


class Watched(dict[Any, Any]):
    """A reader's name index whose lookups are noted by name, any other read as whole."""

    _watch: NameWatch

    def _name(self, key: Any) -> None:
        if isinstance(key, str):
            self._watch.names.add(key)
        else:
            self._watch.whole = True

    def _all(self) -> None:
        self._watch.whole = True

    def __getitem__(self, key: Any) -> Any:
        self._name(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._name(key)
        return super().__contains__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._name(key)
        return super().get(key, default)

    def __iter__(self) -> Iterator[Any]:
        self._all()
        return super().__iter__()

    def __len__(self) -> int:
        self._all()
        return super().__len__()

    def keys(self) -> Any:
        self._all()
        return super().keys()

    def values(self) -> Any:
        self._all()
        return super().values()

    def items(self) -> Any:
        self._all()
        return super().items()

    def copy(self) -> dict[Any, Any]:
        self._all()
        return dict(super().items())

    def __eq__(self, other: object) -> bool:
        self._all()
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        self._all()
        return super().__repr__()

    def __setitem__(self, key: Any, value: Any) -> None:
        self._all()
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self._all()
        super().__delitem__(key)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._all()
        return super().setdefault(key, default)

    def pop(self, key: Any, *default: Any) -> Any:
        self._all()
        return super().pop(key, *default)

    def popitem(self) -> tuple[Any, Any]:
        self._all()
        return super().popitem()

    def clear(self) -> None:
        self._all()
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._all()
        super().update(*args, **kwargs)

    def __or__(self, other: Any) -> Any:
        self._all()
        return dict(super().items()) | other

    def __reduce__(self) -> Any:
        self._all()
        return (dict, (dict(super().items()),))


def _watched(data: dict[Any, Any], found: NameWatch) -> Watched:
    out = Watched(data)
    out._watch = found
    return out


def watch(reader: ModuleReader, rel: str, tree: ast.Module) -> None:
    """Note by name what dependents look up in ``reader`` (just indexed from the package
    file ``rel``), unless its names may mean what its statements do not show: then it
    stays read whole (:func:`read_of` is None)."""
    if reader.star_imports or any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__getattr__"
        for s in tree.body
    ):
        return
    found = NameWatch(rel)
    reader.functions = _watched(reader.functions, found)
    reader.binding_lines = _watched(reader.binding_lines, found)
    reader._watch = found


def read_of(reader: ModuleReader) -> str | None:
    """The read a dependent of the kept ``reader`` notes (None: not watched, its file is
    noted read whole where it was found)."""
    found = reader._watch
    return None if found is None else found.read()


def watched_rel(reader: ModuleReader | None) -> str | None:
    """The package file a watched reader was read from (None: not watched)."""
    found = reader._watch if reader is not None else None
    return None if found is None else found.rel


def _digest(parts: list[str]) -> str:
    text = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=16).hexdigest()


def module_views(rel: str, text: str) -> dict[str, str]:
    """The views of a module's text: :data:`BASE` and ``f:<name>`` for each top-level
    function; a module that would not be watched (or not parsed) has one view, ``*``,
    its whole text."""
    try:
        tree, fields = parse_any(text, rel)
    except (SyntaxError, ValueError, RecursionError):
        tree, fields = None, {}
    if not isinstance(tree, ast.Module) or _unwatched(tree):
        return {"*": _digest([text])}
    lines = text.split("\n")  # the parser's lines: splitlines() also breaks at \x0c, \u2028
    base: list[str] = [repr(sorted(fields.items()))]
    functions: dict[str, list[str]] = {}
    gap: list[str] = []  # the functions since the last other statement, in order
    for stmt in tree.body:
        decorators = getattr(stmt, "decorator_list", [])
        start = min([stmt.lineno, *(d.lineno for d in decorators)])
        end = stmt.end_lineno or stmt.lineno
        shown = "\n".join(lines[start - 1 : end])
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            place = f"{len(base)}:{','.join(gap)}:"
            functions.setdefault(stmt.name, []).append(place + shown)
            gap.append(stmt.name)
        else:
            base.append(shown)
            gap = []
    out = {BASE: _digest(base)}
    out.update({_FUNCTION + name: _digest(shown) for name, shown in functions.items()})
    return out


def view_atom(views: dict[str, str], view: str) -> str:
    """What ``view`` of a module shows, given its :func:`module_views`."""
    if "*" in views:
        return "*" + views["*"]
    return view + views.get(view, "none") if view.startswith(_FUNCTION) else views[BASE]


def is_name_view(view: str) -> bool:
    return view == BASE or view.startswith(_FUNCTION)


def _unwatched(tree: ast.Module) -> bool:
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
            return True
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__getattr__":
            return True
    return False
