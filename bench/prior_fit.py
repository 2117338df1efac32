"""Fitting the tie prior (errdex.match.prior) on some errors, judging it on the others.

Each benchmark's errors are split by test file (a hash of the file part of ``test_id``):
two folds. For each fold, the prior is chosen on the other fold's errors: among the
candidates (no prior, each feature, each ordered pair), the one with the most top-1
answers there that lowers no benchmark's top-1 there; then it is scored on this fold,
beside no prior, in the same run. Summed over both folds, every error is scored by a
prior fitted without it. A prior is worth keeping only if that held-out top-1 is higher
with it and lower on no benchmark.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from errdex.match.prior import FEATURES, Prior

__all__ = ["CANDIDATES", "FOLDS", "choose", "fold_of", "held_out"]

FOLDS = 2
NONE = "none"
#: name -> prior: no prior, each feature alone, and each ordered pair.
CANDIDATES: dict[str, Prior] = {
    NONE: (),
    **{name: (name,) for name in FEATURES},
    **{f"{a}+{b}": (a, b) for a, b in permutations(FEATURES, 2)},
}
#: One error's fold and, per candidate, whether its first answer is the true site.
Scores = list[tuple[int, dict[str, bool]]]


def fold_of(row: Mapping[str, Any]) -> int:
    """The fold of an error: by its test file, so no file's errors are on both sides."""
    test_file = str(row.get("test_id") or "").split("::", 1)[0]
    return hashlib.sha256(test_file.encode()).digest()[0] % FOLDS


def _top1(scores: Scores, name: str, folds: Sequence[int]) -> int:
    return sum(hits[name] for fold, hits in scores if fold in folds)


def choose(per_benchmark: Mapping[str, Scores], folds: Sequence[int]) -> str:
    """The candidate with the most top-1 answers on ``folds`` that lowers no benchmark's
    top-1 there; fewer features first when tied, so a prior must earn each feature."""
    best, best_total = NONE, sum(_top1(s, NONE, folds) for s in per_benchmark.values())
    for name in sorted(CANDIDATES, key=lambda n: len(CANDIDATES[n])):
        if any(_top1(s, name, folds) < _top1(s, NONE, folds) for s in per_benchmark.values()):
            continue
        total = sum(_top1(s, name, folds) for s in per_benchmark.values())
        if total > best_total:
            best, best_total = name, total
    return best


def held_out(per_benchmark: Mapping[str, Scores]) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Per benchmark, held-out top-1 without and with the prior fitted on the other fold;
    and the prior chosen for each fold."""
    out = {name: (0, 0) for name in per_benchmark}
    chosen = []
    for fold in range(FOLDS):
        fitted = choose(per_benchmark, [f for f in range(FOLDS) if f != fold])
        chosen.append(fitted)
        for name, scores in per_benchmark.items():
            without, with_prior = out[name]
            out[name] = (
                without + _top1(scores, NONE, [fold]),
                with_prior + _top1(scores, fitted, [fold]),
            )
    return out, chosen
