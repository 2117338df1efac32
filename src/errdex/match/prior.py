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
  can print fewer other messages.

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


def _private_function(entry: Entry) -> bool:
    return _private(entry.function or "")


def _private_module(entry: Entry) -> bool:
    parts = entry.file_path.replace("\\", "/").split("/")
    return any(_private(part.removesuffix(".py")) for part in parts)


def _stdlib(entry: Entry) -> bool:
    return entry.repo == STDLIB_REPO


def _dunder(entry: Entry) -> bool:
    name = entry.function or ""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _holes(entry: Entry) -> int:
    return len(entry.runs) - 1 if entry.runs else 0


#: Each feature: a higher value (True over False) sorts the site after the others.
FEATURES: dict[str, Callable[[Entry], int]] = {
    "public_function": _private_function,
    "public_module": _private_module,
    "library": _stdlib,
    "not_dunder": _dunder,
    "fewer_holes": _holes,
}

#: The prior :func:`errdex.match.rank.rank` uses (see the module's docstring for why).
DEFAULT_PRIOR: Prior = ()


def prior_key(index: MatchIndex, prior: Prior | None = None) -> Callable[[int], tuple[int, ...]]:
    """The sort key of an index entry under ``prior`` (:data:`DEFAULT_PRIOR` if None)."""
    tests = [FEATURES[name] for name in (DEFAULT_PRIOR if prior is None else prior)]

    def key(i: int) -> tuple[int, ...]:
        if not tests:
            return ()
        entry = index.entry(i)
        return tuple(test(entry) for test in tests)

    return key
