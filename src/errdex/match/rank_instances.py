"""A Cython frame whose line lands on another instance of the same template line.

A Tempita template (``hashtable_class_helper.pxi.in``) renders one method per type:
``Float64HashTable.get_item``, ``Int64HashTable.get_item``…, each with the raise its
template line writes (``raise KeyError(val)``). The catalogue reads the rendered file as
its build renders it; a user's build of another release, or with another type list, puts
the instances on other lines, so a traceback's line may land on one instance's raise
while the frame names another: Cython prints the frame's function whole
(``pandas._libs.hashtable.Int64HashTable.get_item``), and that name is the better witness.

The frame's credit moves only when all of these hold: the site on the frame's line was
rendered from a template line (its ``sourceLine``) in a function the frame does not name;
of the sites of the frame's own function in that file raising the site's class, exactly
one fits the pasted message; and that one was rendered from the same template line. The
site on the line then keeps what a line in another function lends (:data:`OTHER_INSTANCE`).
Anything less (a file not rendered from a template, two methods of one class, two
fitting sites, a message only the line's site fits) leaves the line's answer as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from errdex.match.rank_frames import is_relay, line_strength
from errdex.match.rank_verify import verify_once

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Clue, Scored

__all__ = [
    "OTHER_INSTANCE",
    "cython_method",
    "follow_instances",
    "instance_key",
    "instance_of",
    "template_line",
]

#: What a frame lends a site on its line when the frame names another instance's method:
#: what a frame a few lines from a site in another function lends (:mod:`.rank_frames`).
OTHER_INSTANCE = 0.35


def cython_method(qualname: object) -> str | None:
    """The last two parts of a Cython site's qualname: ``Class.method`` of
    ``module.Class.method``, ``module.function`` of a module-level function (compared
    only with the frame's printed name, which ends the same way), else None."""
    if not isinstance(qualname, str):
        return None
    parts = qualname.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 3 and all(parts[-2:]) else None


def instance_key(site: Mapping[str, Any]) -> str | None:
    """``"<template line> <name>"`` of a Cython site rendered from a Tempita template (the
    index's ``instances`` table), else None: only a template's copies are instances."""
    line, name = site.get("sourceLine"), cython_method(site.get("qualname"))
    if site.get("language") != "cython" or type(line) is not int or line <= 0 or not name:
        return None
    return f"{line} {name}"


def _instance(index: MatchIndex, i: int) -> tuple[int, str] | None:
    found: dict[int, str] = index._data.get("instances") or {}
    line, _, name = (found.get(i) or "").partition(" ")
    return (int(line), name) if line.isdigit() and name else None


def instance_of(index: MatchIndex, i: int) -> str | None:
    """The entry's ``Class.method`` when a template rendered it, else None."""
    found = _instance(index, i)
    return found[1] if found else None


def template_line(index: MatchIndex, i: int) -> int | None:
    """The template line that rendered the entry, for a template's site, else None."""
    found = _instance(index, i)
    return found[0] if found else None


def _names(function: str, method: str) -> bool:
    """Whether a printed frame function (``pkg.mod.Class.method``) is ``Class.method``."""
    return function == method or function.endswith("." + method)


def _short(name: str | None) -> str | None:
    return name.rsplit(".", 1)[-1] if name else None


def follow_instances(
    clue: Clue, message: str, index: MatchIndex, get: Callable[[int], Scored]
) -> None:
    """Move a Cython frame's credit from the site on its line, another instance's, to the
    one site of the frame's own function that the message fits, rendered from the same
    template line (see the module's doc)."""
    printed = list(reversed(clue.frames))  # innermost first
    fits = verify_once(index, message)
    for depth, (path, line, function) in enumerate(printed):
        if line is None or not function or "." not in function:
            continue  # Python prints a bare function name: no class to compare
        for i, distance in index.by_frame(path, line):
            here = _instance(index, i) if distance == 0 else None
            if here is None or _names(function, here[1]) or is_relay(index, i):
                continue
            entry = index.entry(i)
            if clue.error_class and _short(clue.error_class) != _short(entry.error_class):
                continue  # the paste's class is not this raise's: nothing to move
            fitting = [
                j
                for j in index.file_entries(path)
                if (other := _instance(index, j)) is not None
                and _names(function, other[1])
                and index.entry(j).error_class == entry.error_class
                and fits(j)[0]
            ]
            if len(fitting) != 1 or template_line(index, fitting[0]) != here[0]:
                continue  # none, two, or another template line's raise: the name cannot say
            _move(printed, depth, index, i, fitting[0], get)


def _move(
    printed: list[tuple[str, int | None, str | None]],
    depth: int,
    index: MatchIndex,
    i: int,
    j: int,
    get: Callable[[int], Scored],
) -> None:
    """The frame ``printed[depth]``'s credit, from site ``i`` on its line to ``j``."""
    path, line, function = printed[depth]
    entry, target = index.entry(i), index.entry(j)
    rendered = template_line(index, j)
    s, t = get(i), get(j)
    lent = line_strength(depth)
    if t.frame < lent:
        t.frame = lent
        t.reasons.append(
            f"the frame at {path}:{line} names {function}(), this site's function; the line "
            f"is {entry.file_path}:{entry.line}'s in {instance_of(index, i)}(), another "
            f"instance of the template: both are rendered from its line {rendered}, and a "
            "build of other instances puts them on other lines"
        )
    t.innermost = t.innermost or depth == 0
    if any(p == path and n == line for k, (p, n, _) in enumerate(printed) if k != depth):
        return  # another frame stands on this line too: its credit stays
    s.frame = min(s.frame, OTHER_INSTANCE)
    s.innermost = False
    s.reasons.append(
        f"the frame on this line names {function}(), not {instance_of(index, i)}(): "
        f"{target.file_path}:{target.line}, rendered from the same template line "
        f"{rendered} in the named function, fits the message"
    )
