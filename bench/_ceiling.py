"""The message-only ceiling, one definition for every matching benchmark.

Per error it is 1/(1 + k): the expected top-1 when each tie of indistinguishable sites is
broken at random and all else is right, k the other sites of the pasted class (agreeing in
full) whose template renders the message with at least as many literal characters as the
true site's. The true site always counts, with its right template: a site the extractor
reads wrong is the extractor's miss, not the text's, so where its catalogued template does
not render the message it is assumed as specific as the most specific one that does.
"""

from __future__ import annotations

from errdex.match.index import MatchIndex
from errdex.match.rank import _verify as verify
from errdex.match.rank import class_agreement

__all__ = ["ceiling", "fitting"]


def fitting(index: MatchIndex, exc_type: str, message: str) -> dict[tuple[str, int], int]:
    """Every site of the pasted class (by its short name, agreeing in full) whose template
    renders ``message``, with the literal characters it fixes."""
    out: dict[tuple[str, int], int] = {}
    for i in index.by_class(exc_type.rpartition(".")[2]):
        entry = index.entry(i)
        factor, _ = class_agreement(
            exc_type, entry.error_class, index.qualified_class(i), index.classes, entry.file_path
        )
        if factor < 1.0:
            continue
        ok, values, _ = verify(index, i, message)
        if ok:
            site = (entry.file_path, entry.line)
            out[site] = max(out.get(site, 0), len(message) - sum(map(len, values)))
    return out


def ceiling(index: MatchIndex, exc_type: str, message: str, truth: tuple[str, int]) -> float:
    """The expected top-1 of one error from its text alone (see the module docstring)."""
    fits = fitting(index, exc_type, message)
    own = fits.pop(truth, max(fits.values(), default=0))
    rivals = sum(1 for literal in fits.values() if literal >= own)
    return 1 / (1 + rivals)
