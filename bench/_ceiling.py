"""The message-only ceiling, one definition for every matching benchmark.

Per error it is 1/(1 + k): the expected top-1 when each tie of indistinguishable sites is
broken at random and all else is right, k the other sites of the pasted class (agreeing in
full) whose template renders the message with at least as many literal characters as the
true site's. The true site always counts, with its right template: a site the extractor
reads wrong is the extractor's miss, not the text's, so where its catalogued template does
not render the message it is assumed as specific as the most specific one that does.
A Python twin that its own module replaces by a compiled one (the index's
``shadowed_by``) is no rival when a site of that compiled module fits too: the catalogue
says the Python line runs only where that import fails (``errdex.match.native``), so the
tie is not one the text leaves open.
"""

from __future__ import annotations

from errdex.match.index import MatchIndex
from errdex.match.native import _compiled, _is_module

try:
    from errdex.match.native import _builds
except ImportError:  # an older errdex: a file builds the module its path names

    def _builds(index: MatchIndex, i: int, module: str) -> bool:
        return _is_module(index.entry(i).file_path, module)


from errdex.match.rank import class_agreement

try:
    from errdex.match.rank_verify import verify
except ImportError:  # an older errdex measured as the baseline (``PYTHONPATH=…/src``)
    from errdex.match.rank import _verify as verify  # type: ignore[attr-defined,no-redef]

__all__ = ["ceiling", "fitting", "replaced"]


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


def replaced(index: MatchIndex, exc_type: str, message: str) -> set[tuple[str, int]]:
    """The fitting Python twins whose module replaces them by a compiled module of the same
    repository that has a fitting site too (see the module docstring)."""
    fits: list[tuple[int, str, str, int, str | None]] = []  # entry, repo, path, line, by
    for i in index.by_class(exc_type.rpartition(".")[2]):
        entry = index.entry(i)
        if verify(index, i, message)[0]:
            fits.append((i, entry.repo, entry.file_path, entry.line, index.shadowed_by(i)))
    live = [(i, repo) for i, repo, path, _, _ in fits if _compiled(path)]
    return {
        (path, line)
        for _, repo, path, line, module in fits
        if module is not None and any(r == repo and _builds(index, k, module) for k, r in live)
    }


def ceiling(index: MatchIndex, exc_type: str, message: str, truth: tuple[str, int]) -> float:
    """The expected top-1 of one error from its text alone (see the module docstring)."""
    fits = fitting(index, exc_type, message)
    for site in replaced(index, exc_type, message) - {truth}:
        fits.pop(site, None)
    own = fits.pop(truth, max(fits.values(), default=0))
    rivals = sum(1 for literal in fits.values() if literal >= own)
    return 1 / (1 + rivals)
