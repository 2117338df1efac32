"""The per-file analysis budget: charged per file, cut between sites, set by a knob."""

from __future__ import annotations

import math

import pytest

from errdex.analyze.budget import BUDGET_ENV, DEFAULT_BUDGET, FileBudget, budget_from_env


def busy() -> None:
    sum(i * i for i in range(20_000))


def test_a_file_over_its_budget_is_cut_and_others_go_on() -> None:
    clock = FileBudget(1e-9)
    with clock.charge("a.py") as allowed:
        assert allowed
        busy()
    with clock.charge("a.py") as allowed:
        assert not allowed  # the next site of the same file is not analysed
    with clock.charge("b.py") as allowed:
        assert allowed  # another file has its own budget
    assert clock.is_cut("a.py") and not clock.is_cut("b.py")
    ((path, reason),) = clock.cut_files()
    assert path == "a.py" and reason.startswith("analysis cut after") and BUDGET_ENV in reason


def test_no_limit_never_cuts() -> None:
    clock = FileBudget(math.inf)
    for _ in range(3):
        with clock.charge("a.py") as allowed:
            assert allowed
            busy()
    assert clock.cut_files() == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", DEFAULT_BUDGET),
        ("2.5", 2.5),
        ("0", math.inf),
        ("none", math.inf),
        ("junk", DEFAULT_BUDGET),
    ],
)
def test_the_budget_knob(monkeypatch: pytest.MonkeyPatch, value: str, expected: float) -> None:
    monkeypatch.setenv(BUDGET_ENV, value)
    assert budget_from_env() == expected
    assert FileBudget().budget == expected
