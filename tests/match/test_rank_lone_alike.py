"""A builtin class's one-value sites alike (``raise NotImplementedError(x)`` in hundreds of
functions) are scored once, as twins, for a frameless one-value paste: the answers are
those scoring each site in turn gives, and the sites are not each made and scored."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import rank_lone
from errdex.match.index import MatchIndex
from errdex.match.rank import MAX_GROUP, Clue, Scored, rank
from errdex.store.sqlite import SqliteStore

from .conftest import build_package

SITES = 120


def _module(first: int, count: int) -> str:
    return "".join(
        f"def f{k}(x):\n    raise NotImplementedError(x)\n\n\n" for k in range(first, first + count)
    )


@pytest.fixture
def index(tmp_path: Path) -> MatchIndex:
    half = SITES // 2
    db = build_package(
        tmp_path,
        "many",
        {
            "a.py": _module(0, half),
            "b.py": _module(half, half) + "def g():\n    raise NotImplementedError\n",
        },
    )
    with SqliteStore(db) as store:
        return MatchIndex.build(store.iter_envelopes(), version=store.data_version())


def _seen(ranked: list[Scored]) -> list[tuple[object, ...]]:
    return [
        (s.index, s.confidence, s.score, s.holes, s.reasons, s.group_size, s.undecided)
        for s in ranked
    ]


def test_alike_one_value_sites_are_scored_once_with_the_same_answers(
    index: MatchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(index.one_value_sites("NotImplementedError")) == SITES
    clue = Clue("NotImplementedError", "-553.180", ())
    made: list[int] = []
    entry = index.entry

    def counted(i: int) -> object:
        made.append(i)
        return entry(i)

    monkeypatch.setattr(index, "entry", counted)
    folded = rank([clue], index, top=5)
    assert len(made) < 3 * MAX_GROUP  # the answers shown, not every site
    with monkeypatch.context() as patch:  # each site scored on its own, as before
        patch.setattr(rank_lone, "_alike", lambda _i, _c, lone, *_: {i: [] for i in lone})
        made.clear()
        alone = rank([clue], index, top=5)
        assert len(made) >= SITES
    assert len(folded) == MAX_GROUP and all(s.undecided for s in folded)
    assert {s.group_size for s in folded} == {SITES}
    assert _seen(folded) == _seen(alone)


def test_a_site_scored_already_stands_apart_from_its_twins(index: MatchIndex) -> None:
    lone = list(index.one_value_sites("NotImplementedError"))
    heads = rank_lone._alike(index, "NotImplementedError", lone, "NotImplementedError", {})
    assert list(heads) == [lone[0]] and sorted(heads[lone[0]]) == lone[1:]
    scored = {lone[0]: None, lone[5]: None}
    heads = rank_lone._alike(index, "NotImplementedError", lone, "NotImplementedError", scored)
    assert heads[lone[0]] == [] and heads[lone[5]] == []
    rest = [i for i in lone if i not in scored]
    assert heads[rest[0]] == rest[1:]
    assert sorted(heads) == sorted([lone[0], lone[5], rest[0]])
