"""Whether a condition names a local that the record's source window does not bind.

:func:`.fall_through.site_reach` reads the raising function's whole text, so that its
conditions may name a local bound far above the window: "when `total <= 3`" with
``total`` set 40 lines up, which neither the record's code nor its evidence shows
(rr5, review of c48; :mod:`.branch_steps` keeps the same rule for its own phrases).
Where a local the phrase names is bound above the raise only outside the window, the
window's own sentence is said instead.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence

from .gathered import Gathered

__all__ = ["bound_outside", "local_names", "read_above", "unseen_in_window"]

_WORDS = re.compile(r"[A-Za-z_]\w*")
_KEYWORDS = frozenset(keyword.kwlist)


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


def unseen_in_window(g: Gathered, phrase: str) -> bool:
    """Whether ``phrase`` names in code a word the record's window does not hold: "the
    loop over `range(max_iter)`" where the loop stands above the window (networkx's
    ``birank``) says what neither the record's code nor its evidence shows, so the
    window's own sentence is said instead; every such phrase where there is no window."""
    named = {w for span in re.findall(r"`([^`]*)`", phrase) for w in _WORDS.findall(span)}
    named -= _KEYWORDS  # ``not``, ``is``, ``None``: the phrase's own words
    if not named:
        return False
    window = g.site.window()
    if window is None:
        return True
    shown = set(_WORDS.findall("\n".join(window[0])))
    return not named <= shown


def read_above(g: Gathered, lines: Sequence[str], phrase: str) -> tuple[str, ...]:
    """The lines of the raising function (``lines``, from its ``def``) above the raise
    that hold a word ``phrase`` names in code and the window does not show, as ``"N:
    text"``: the evidence a reader checks the conditions against."""
    if g.func is None:
        return ()
    window = g.site.window()
    shown = set(_WORDS.findall("\n".join(window[0]))) if window else set()
    named = {w for span in re.findall(r"`([^`]*)`", phrase) for w in _WORDS.findall(span)}
    wanted = named - shown - _KEYWORDS
    out: list[str] = []
    for i, text in enumerate(lines):
        number = g.func.line + i
        if number >= g.site.line:
            break
        if wanted & set(_WORDS.findall(text)):
            out.append(f"{number}: {text.strip()}")
    return tuple(out)
