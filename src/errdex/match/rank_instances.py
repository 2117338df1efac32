"""A Cython frame whose line lands on another instance of the same template's method.

A Tempita template (``hashtable_class_helper.pxi.in``) renders one method per type:
``Float64HashTable.get_item``, ``Int64HashTable.get_item``…, each with the same
``raise KeyError(val)``. The catalogue reads the rendered file as its build renders it;
a user's build of another release, or with another type list, puts the instances on
other lines, so a traceback's line may land on one instance's raise while the frame
names another: Cython prints the frame's function whole
(``pandas._libs.hashtable.Int64HashTable.get_item``), and that name is the better
witness. When the site on the frame's line is a method of another class, and exactly one
site of the frame's own method in that file raises the same class with the same message
pattern, the frame's credit goes to it, and the site on the line keeps what a line in
another function lends (:data:`OTHER_INSTANCE`). Two such sites in the named method (or
none) leave the line's answer as it was: the name does not decide between them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["OTHER_INSTANCE", "cython_method", "follow_instances", "instance_of"]

#: What a frame lends a site on its line when the frame names another instance's method:
#: what a frame a few lines from a site in another function lends (:mod:`.rank_frames`).
OTHER_INSTANCE = 0.35

Frames = Iterable[tuple[str, int | None, str | None]]


def cython_method(qualname: object) -> str | None:
    """``Class.method`` of a Cython site's ``module.Class.method`` qualname, else None (a
    module-level function: its name alone tells the instances apart)."""
    if not isinstance(qualname, str):
        return None
    parts = qualname.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 3 and all(parts[-2:]) else None


def instance_of(index: MatchIndex, i: int) -> str | None:
    """The entry's ``Class.method`` when it is a Cython method's site, else None."""
    found: dict[int, str] = index._data.get("instances") or {}
    return found.get(i)


def _names(function: str, method: str) -> bool:
    """Whether a printed frame function (``pkg.mod.Class.method``) is ``Class.method``."""
    return function == method or function.endswith("." + method)


def follow_instances(frames: Frames, index: MatchIndex, get: Callable[[int], Scored]) -> None:
    """Move a Cython frame's credit from the site on its line, a method of another
    instance, to the one site of the frame's own method raising the same class and
    message pattern (see the module's doc). ``frames``: innermost last."""
    for path, line, function in frames:
        if line is None or not function or "." not in function:
            continue  # Python prints a bare function name: no class to compare
        for i, distance in index.by_frame(path, line):
            method = instance_of(index, i) if distance == 0 else None
            if method is None or _names(function, method):
                continue
            entry = index.entry(i)
            own = [
                j
                for j in index.file_entries(path)
                if j != i
                and (other := instance_of(index, j)) is not None
                and _names(function, other)
                and index.entry(j).error_class == entry.error_class
                and index.entry(j).pattern == entry.pattern
            ]
            if len(own) != 1:
                continue
            s, t = get(i), get(own[0])
            if t.frame < s.frame:
                t.frame = s.frame
                t.innermost = t.innermost or s.innermost
                t.reasons.append(
                    f"the frame at {path}:{line} names {function}(), this site's method; the "
                    f"line is {entry.file_path}:{entry.line}'s, the same raise in {method}(), "
                    "another instance of the template: the build put them on other lines"
                )
            s.frame = min(s.frame, OTHER_INSTANCE)
            s.innermost = False
            s.reasons.append(
                f"the frame on this line names {function}(), not {method}(): another "
                "instance of the same template raises there"
            )
