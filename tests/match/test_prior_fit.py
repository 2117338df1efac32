"""bench/prior_fit.py: a tie prior is chosen on some test files and judged on the others,
and one that lowers any benchmark where it is fitted is not chosen."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from prior_fit import CANDIDATES, NONE, choose, fold_of, held_out


def _hits(**better: bool) -> dict[str, bool]:
    """Every candidate misses, save those named (by the first feature of a pair too)."""
    return {name: better.get(name.split("+")[0], False) for name in CANDIDATES}


def test_folds_follow_the_test_file() -> None:
    a = fold_of({"test_id": "tests/test_a.py::test_one"})
    assert all(fold_of({"test_id": f"tests/test_a.py::test_{n}"}) == a for n in range(20))
    assert len({fold_of({"test_id": f"tests/test_{n}.py::t"}) for n in range(40)}) == 2


def test_a_prior_lowering_one_benchmark_is_not_chosen() -> None:
    helps = [(0, _hits(library=True)), (1, _hits(library=True))]
    hurts = [(0, {**_hits(), NONE: True}), (1, {**_hits(), NONE: True})]
    assert choose({"a": helps * 3, "b": hurts}, [0, 1]) == NONE
    assert choose({"a": helps * 3}, [0, 1]) == "library"


def test_held_out_scores_each_fold_with_the_prior_fitted_on_the_other() -> None:
    # "library" helps on fold 0 only: fitted there (for fold 1) it is judged on fold 1
    scores = {"a": [(0, _hits(library=True)), (0, _hits(library=True)), (1, _hits())]}
    out, chosen = held_out(scores)
    assert chosen == [NONE, "library"]
    assert out == {"a": (0, 0)}
