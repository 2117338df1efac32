"""Whether a condition names a local that the record's source window does not bind.

:func:`.fall_through.site_reach` reads the raising function's whole text, so that its
conditions may name a local bound far above the window: "when `total <= 3`" with
``total`` set 40 lines up, which neither the record's code nor its evidence shows
(rr5, review of c48; :mod:`.branch_steps` keeps the same rule for its own phrases).
Where a local the phrase names is bound above the raise only outside the window, the
window's own sentence is said instead.
"""

from __future__ import annotations

import re

from .gathered import Gathered

__all__ = ["bound_outside", "local_names"]

_WORDS = re.compile(r"[A-Za-z_]\w*")


def local_names(g: Gathered) -> set[str]:
    """The raising function's locals (its bindings but its parameters)."""
    if g.func is None:
        return set()
    return set(g.func.bound_lines) - {p.lstrip("*") for p in g.func.params}


def bound_outside(g: Gathered, phrase: str) -> bool:
    """Whether ``phrase`` names in code a local of the function that the record's window
    does not bind: each of its bindings above the raise lies outside it (``dirlist``,
    bound at ``_get_default_tempdir``'s start); every such local where there is no
    window. One binding shown (``(code, resp) = self.docmd(...)`` beside ``if code in
    (235, 503): return``) lets the reader find it."""
    named = {w for span in re.findall(r"`([^`]*)`", phrase) for w in _WORDS.findall(span)}
    named &= local_names(g)
    if not named or g.func is None:
        return False
    window = g.site.window()
    if window is None:
        return True
    lines, at = window
    first = g.site.line - at
    last = first + len(lines) - 1
    above = {
        name: [n for n in g.func.bound_lines.get(name, ()) if n < g.site.line] for name in named
    }
    return any(lines and not any(first <= n <= last for n in lines) for lines in above.values())
