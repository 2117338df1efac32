"""The tie prior: the order of a group of sites the paste cannot tell apart.

The text decides the group (:mod:`.group`) and the confidence is shared within it; the
prior only says which member is shown first. Each feature is a property of the site that
would make it likelier to be the one a user met, read from the index alone:

* ``public_function``: a site in a function whose name has no leading underscore (a
  dunder counts as public) before one in a private helper;
* ``public_module``: a site in a module none of whose path parts is private;
* ``library``: a site of the library before one of the standard library beside it;
* ``not_dunder``: a site outside the data model's hooks (``__init__``, ``__call__``);
* ``fewer_holes``: of templates fixing as many characters, the one with fewer holes, which
  can print fewer other messages;
* ``fewer_texts``: a site with fewer catalogued texts (records at its line) first: a raise
  that can print any of k texts prints a given one less often (marshmallow's
  ``String._deserialize`` prints its subclass's ``invalid`` text, one of three).

A prior is a tuple of feature names, applied in order; what they leave tied keeps the
evidence's order (best score, then index order). Which features are used is not a
matter of taste: ``bench/match_realerrors.py --prior`` fits them on the errors of part
of the test files and reports top-1 on the others with and without, and a feature is in
:data:`DEFAULT_PRIOR` only if it helped the held-out errors and lowered no benchmark.

A preference between a compiled site and its shadowed pure-Python twin (the ``.pyx``
that is imported over the ``.py`` of the same module) belongs here as one more feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from errdex.match.index import Entry, MatchIndex

__all__ = ["DEFAULT_PRIOR", "FEATURES", "Prior", "prior_key"]

Prior = tuple[str, ...]
#: The repository the standard library is catalogued under: :mod:`errdex.source.stdlib`'s
#: constant, not imported, since importing ``errdex.source`` costs ~70 ms on the
#: excepthook's path, which ranks.
STDLIB_REPO = "python/cpython"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_function(index: MatchIndex, entry: Entry) -> int:
    return _private(entry.function or "")


def _private_module(index: MatchIndex, entry: Entry) -> int:
    parts = entry.file_path.replace("\\", "/").split("/")
    return any(_private(part.removesuffix(".py")) for part in parts)


def _stdlib(index: MatchIndex, entry: Entry) -> int:
    return entry.repo == STDLIB_REPO


def _dunder(index: MatchIndex, entry: Entry) -> int:
    name = entry.function or ""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _holes(index: MatchIndex, entry: Entry) -> int:
    return len(entry.runs) - 1 if entry.runs else 0


def _texts(index: MatchIndex, entry: Entry) -> int:
    """Records at the site's line (a frame key other files share is filtered out)."""
    found = (index.entry(j) for j, distance in index.by_frame(entry.file_path, entry.line))
    return sum(
        1
        for e in found
        if (e.file_path, e.line, e.repo) == (entry.file_path, entry.line, entry.repo)
    )


#: Each feature: a higher value (True over False) sorts the site after the others.
FEATURES: dict[str, Callable[[MatchIndex, Entry], int]] = {
    "public_function": _private_function,
    "public_module": _private_module,
    "library": _stdlib,
    "not_dunder": _dunder,
    "fewer_holes": _holes,
    "fewer_texts": _texts,
}

#: The prior :func:`errdex.match.rank.rank` uses (see the module's docstring for why).
DEFAULT_PRIOR: Prior = ()


#: Each index's feature values, computed once: a feature may read the site's whole file.
_VALUES: WeakKeyDictionary[MatchIndex, dict[tuple[str, int], int]] = WeakKeyDictionary()


def prior_key(index: MatchIndex, prior: Prior | None = None) -> Callable[[int], tuple[int, ...]]:
    """The sort key of an index entry under ``prior`` (:data:`DEFAULT_PRIOR` if None)."""
    names = DEFAULT_PRIOR if prior is None else prior
    tests = [(name, FEATURES[name]) for name in names]
    values = _VALUES.setdefault(index, {}) if tests else {}

    def key(i: int) -> tuple[int, ...]:
        if not tests:
            return ()
        out = []
        for name, test in tests:
            value = values.get((name, i))
            if value is None:
                value = values[name, i] = int(test(index, index.entry(i)))
            out.append(value)
        return tuple(out)

    return key
