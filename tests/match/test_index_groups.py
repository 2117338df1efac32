"""Twins (:mod:`errdex.match.index_groups`): one template at hundreds of sites is scored
once, and the answers are exactly those of scoring every site."""

from __future__ import annotations

import random
import re
from array import array
from pathlib import Path
from typing import Any

import pytest

from errdex.match import index_groups, rank
from errdex.match.index import ONE_VALUE_CHARS, MatchIndex
from errdex.match.rank import Clue
from errdex.template import HOLE_REGEX

TWINS = 300  # more than index_groups.SCORED_ALONE: some are folded
AT = f"{HOLE_REGEX}{re.escape(' (at ')}{HOLE_REGEX}{re.escape(')')}"
SPECIAL = TWINS + 1  # a twin (not i % 6 == 5)
SHARED = TWINS + 2  # a twin whose site holds two more records
PASTED = f"pkg{SPECIAL}.errors.SpecialError"
OTHERS = [
    f"{re.escape('bad value (at line ')}{HOLE_REGEX}{re.escape(')')}",
    f"{re.escape('Unexpected character (at ')}{HOLE_REGEX}{re.escape(')')}",
    HOLE_REGEX,
    f"{re.escape('[')}{HOLE_REGEX}{re.escape(']')}",
]


def _envelope(i: int, error_class: str, pattern: str, path: str, **evidence: Any) -> dict[str, Any]:
    record = {
        "id": f"{i:016x}",
        "repo": "r",
        "filePath": path,
        "lineNumber": 10 + i,
        "errorClass": error_class,
        "messagePattern": pattern,
    }
    return {"record": record, "evidence": {"site": {"function": "parse"}, **evidence}}


def _catalogue() -> list[dict[str, Any]]:
    out = []
    for i in range(TWINS + 60):
        k = i % 7
        if i % 6 == 5:  # rivals: another anchor or template, the same class
            out.append(_envelope(i, "TOMLDecodeError", OTHERS[k % 4], f"other{k}/mod.py"))
        else:
            out.append(_envelope(i, "TOMLDecodeError", AT, f"pkg{i}/_parser.py"))
    # a subclass defined in the package of a twin past SCORED_ALONE: the file of each
    # twin decides its fit
    out.append(
        _envelope(
            len(out),
            "SpecialError",
            "special",
            f"pkg{SPECIAL}/errors.py",
            classInfo={"qualified": PASTED, "bases": ["TOMLDecodeError"]},
        )
    )
    # two records at the site of a twin past SCORED_ALONE: a twin, and one seen at run
    # time (no twin): that site's part of the group is split three ways
    shared = {"lineNumber": 10 + SHARED}
    for observed in ([], [{"message": "seen elsewhere (at y)"}]):
        twin = _envelope(len(out), "TOMLDecodeError", AT, f"pkg{SHARED}/_parser.py")
        twin["record"].update(shared)
        twin["evidence"]["observed"] = observed
        out.append(twin)
    # a site whose message was seen at run time, and one in C: never twins
    out.append(
        _envelope(len(out), "TOMLDecodeError", AT, "seen/p.py", observed=[{"message": "x (at y)"}])
    )
    out.append(_envelope(len(out), "TOMLDecodeError", AT, "ext/parser.c"))
    return out


def _unfolded(
    self: MatchIndex, message: str, pasted: str | None, alone: object
) -> index_groups.Candidates:
    return index_groups.Candidates(self.by_message(message))


def _answers(
    index: MatchIndex, clue: Clue | list[Clue], top: int = 5, prior: tuple[str, ...] | None = None
) -> list[tuple[Any, ...]]:
    clues = clue if isinstance(clue, list) else [clue]
    return [
        (s.index, s.score, s.confidence, s.holes, s.reasons, s.group_size, s.full_match, s.twins)
        for s in rank.rank(clues, index, top=top, prior=prior)
    ]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> MatchIndex:
    directory = tmp_path_factory.mktemp("twins") / "index"
    MatchIndex.build(_catalogue()).save(directory)
    loaded = MatchIndex.load(directory)
    assert loaded is not None
    return loaded


def _clues(index: MatchIndex) -> list[Clue]:
    late = index.entry(TWINS)  # a twin past the first SCORED_ALONE candidates
    frame = ((late.file_path, late.line, "parse"),)
    near = ((late.file_path, late.line + 3, "parse"),)
    return [
        Clue("TOMLDecodeError", "55 (at 'validator')", ()),
        Clue("pkg7._parser.TOMLDecodeError", "kumla (at argument)", ()),
        Clue(PASTED, "kumla (at argument)", ()),  # foreign_subclass
        Clue("TOMLDecodeError", "kumla (at argument)", frame),
        Clue("TOMLDecodeError", "kumla (at argument)", near),
        Clue("ValueError", "kumla (at argument)", ()),
        Clue(None, "x (at y)", ()),
        Clue("TOMLDecodeError", "kumla (at argu...", (), truncated=True),
        Clue("TOMLDecodeError", "kumla (at argument)\na note", ()),
        Clue("TOMLDecodeError", "bad value (at line 3) and more", ()),
        Clue("TOMLDecodeError", "nothing fits this", ()),
        Clue("TOMLDecodeError", "[1, 2]", ()),
        # a hole holds a message one twin of the group renders: that twin is set apart
        Clue("TOMLDecodeError", "bad value (at line bad value (at line 3))", ()),
        Clue("TOMLDecodeError", "Unexpected character (at Unexpected character (at 1))", ()),
    ]


def test_twins_are_folded_and_the_answers_are_those_of_scoring_each(
    index: MatchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = "kumla (at argument)"
    folded = index.message_candidates(message, "TOMLDecodeError", {})
    assert len(folded) < len(index.by_message(message)) and folded.twins
    assert index.classes.relation(PASTED, "TOMLDecodeError") == "superclass"
    clues = _clues(index)
    got = [_answers(index, clue) for clue in clues]
    monkeypatch.setattr(MatchIndex, "message_candidates", _unfolded)
    expected = [_answers(index, clue) for clue in clues]
    assert got == expected
    assert got[0][0][5] == TWINS + 2  # the group counts every twin, and the two own sites
    assert len(got[0]) == rank.MAX_GROUP  # a group is shown whole, up to MAX_GROUP


@pytest.fixture(scope="module")
def shadowed_index(tmp_path_factory: pytest.TempPathFactory) -> MatchIndex:
    """The catalogue with a twin past SCORED_ALONE that the C module ``ext.parser``
    replaces when it imports (``evidence.shadowedBy``)."""
    catalogue = _catalogue()
    catalogue[SHADOWED]["evidence"]["shadowedBy"] = {"module": "ext.parser"}
    directory = tmp_path_factory.mktemp("shadowed") / "index"
    MatchIndex.build(catalogue).save(directory)
    loaded = MatchIndex.load(directory)
    assert loaded is not None and loaded.any_shadowed
    return loaded


SHADOWED = TWINS + 6  # a twin (not i % 6 == 5), past SCORED_ALONE


def test_a_stand_in_is_copied_out_where_each_twin_is_read_alone(
    index: MatchIndex, shadowed_index: MatchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several errors merged by entry, a prior that reads each site, a twin a compiled
    module replaces, and every answer shown: the same answers as scoring each."""
    cause = Clue("TOMLDecodeError", "elem (at 4)", (), weight=0.5, final=False)
    final = Clue("TOMLDecodeError", "55 (at 'validator')", ())
    cases: list[tuple[Clue | list[Clue], int, tuple[str, ...] | None]] = [
        ([cause, final], 5, None),
        (final, 5, ("public_function", "fewer_texts")),
        (final, 1000, None),
    ]

    def run() -> list[list[tuple[Any, ...]]]:
        out = [_answers(shadowed_index, final, 1000)]
        return out + [_answers(index, clue, top, prior) for clue, top, prior in cases]

    got = run()
    monkeypatch.setattr(MatchIndex, "message_candidates", _unfolded)
    expected = run()
    assert got == expected
    shadowed = next(a for a in got[0] if a[0] == SHADOWED)
    compiled = next(a for a in got[0] if shadowed_index.entry(a[0]).file_path == "ext/parser.c")
    assert shadowed[1] < compiled[1]  # ranked below the compiled site that replaces it
    assert len(got[3]) == TWINS + 4  # every record of the group, each shown
    assert all(not answer[7] for answers in got for answer in answers)  # no stand-in left


def test_sites_whose_own_file_counts_are_never_twins(index: MatchIndex) -> None:
    entries = len(index)
    seen, compiled = entries - 2, entries - 1
    folded = index.message_candidates("x (at y)", "TOMLDecodeError", {})
    assert seen in folded and compiled in folded
    stood_for = {i for members in folded.twins.values() for i in members}
    assert not stood_for & {seen, compiled}
    index_groups.unfold_head(folded, {})  # as the passes reading the first ones see them
    stood_for = {i for members in folded.twins.values() for i in members}
    assert all(i >= index_groups.SCORED_ALONE for i in (*folded.twins, *stood_for))


def test_twins_among_the_first_candidates_are_folded_until_read_one_by_one(
    index: MatchIndex,
) -> None:
    message = "bad value (at line 3)"
    found = index.by_message(message)
    first = set(found[: index_groups.SCORED_ALONE])
    folded = index.message_candidates(message, "TOMLDecodeError", {})
    assert len(folded) < len(first)
    assert any(head in first and set(members) & first for head, members in folded.twins.items())
    index_groups.unfold_head(folded, {})
    assert first <= set(folded)  # each of the first ones is a candidate again
    assert sum(1 + len(folded.twins.get(i, ())) for i in folded) == len(found)


def test_a_subclass_paste_scores_each_twin_on_its_own(index: MatchIndex) -> None:
    folded = index.message_candidates("x (at y)", PASTED, {})
    assert not folded.twins
    assert len(folded) == len(index.by_message("x (at y)"))


def test_framed_twins_are_scored_on_their_own(index: MatchIndex) -> None:
    late = TWINS + 1
    folded = index.message_candidates("x (at y)", "TOMLDecodeError", {late: None})
    assert late in folded
    assert all(late not in members for members in folded.twins.values())


def test_ranking_reads_no_more_candidates_alone_than_are_kept_apart() -> None:
    # rank: notes over candidates[:MAX_NOTED], fuzzy over candidates[:200]
    assert rank.MAX_NOTED <= index_groups.SCORED_ALONE
    source = Path(rank.__file__).read_text()
    assert "candidates[:200]" in source and index_groups.SCORED_ALONE >= 200
    assert rank.LONE_CHARS <= ONE_VALUE_CHARS


def test_one_value_sites_are_the_class_sites_of_one_value(index: MatchIndex) -> None:
    sites = list(index.one_value_sites("TOMLDecodeError"))
    by_filter = [
        i
        for i in index.by_class("TOMLDecodeError")
        if (runs := index.runs(i)) is not None
        and len(runs) == 2
        and len(runs[0]) + len(runs[1]) < ONE_VALUE_CHARS
    ]
    assert sites == by_filter and len(sites) > 1


def test_a_crowded_posting_folded_whole_is_folded_as_entry_by_entry() -> None:
    rng = random.Random(5)
    for _ in range(300):
        size = rng.randrange(2, 90)
        groups = array("I", [rng.choice([0, 0, 1, 2, 3]) for _ in range(size)])
        members = {g: [i for i in range(size) if groups[i] == g] for g in (1, 2, 3)}
        crowded = [i for i in range(size) if rng.random() < 0.7 or groups[i]]
        loose = sorted(set(range(size)) - set(crowded))
        alone = {i for i in range(size) if rng.random() < 0.05}
        apart = {g for g in (1, 2, 3) if rng.random() < 0.3}
        fold = index_groups.fold_posting(crowded, groups, lambda g, m=members: len(m[g]))
        assert fold is not None
        got = index_groups.collapse_folded(
            loose, [(crowded, *fold)], groups, members.__getitem__, alone, apart.__contains__
        )
        want = index_groups.collapse(sorted(crowded + loose), groups, alone, apart.__contains__)
        assert (list(got), got.twins, got.found) == (list(want), want.twins, want.found)
    split = array("I", [1, 1, 0])  # group 1 has an entry in another posting
    assert index_groups.fold_posting([0, 2], split, lambda g: 2) is None


def _crowds() -> list[dict[str, Any]]:
    """Three templates, each copied at many sites: one record at each site; two records at
    each site; one record at each site but one, which holds two; and a record of the first
    template at one of its sites that is no twin."""
    out: list[dict[str, Any]] = []
    for word, count, per_site in (("", 100, None), (" ended", 80, 2), (" stopped", 70, 68)):
        pattern = f"{HOLE_REGEX}{re.escape(word + ' (at ')}{HOLE_REGEX}{re.escape(')')}"
        for k in range(count):
            site = k // 2 if per_site == 2 else min(k, per_site or k)
            envelope = _envelope(len(out), "ParseError", pattern, f"w{word.strip()}{site}/p.py")
            envelope["record"]["lineNumber"] = 7
            out.append(envelope)
    # a record seen at run time (no twin) at a site of the first group: it counts there
    seen = _envelope(len(out), "ParseError", out[0]["record"]["messagePattern"], "w0/p.py")
    seen["record"]["lineNumber"] = 7
    seen["evidence"]["observed"] = [{"message": "seen (at here)"}]
    return [*out, seen]


def test_a_whole_group_is_shared_by_its_counted_sites(tmp_path: Path) -> None:
    MatchIndex.build(_crowds()).save(tmp_path / "index")
    index = MatchIndex.load(tmp_path / "index")
    assert index is not None
    one, two, uneven = 0, 100, 180
    assert index.twin_sites(one, 100) is not None and index.twin_sites(one, 100)[1] == 1
    assert index.twin_sites(two, 80) is not None and index.twin_sites(two, 80)[1] == 2
    assert len(index.twin_sites(two, 80)[0]) == 40
    assert index.twin_sites(uneven, 70) is None  # one site holds two of its records
    assert index.twin_sites(one, 99) is None  # not the whole group
    clues = [
        Clue("ParseError", f"v{word} (at w)", frames)
        for word in ("", " ended", " stopped")
        for frames in ((), (("w3/p.py", 7, "parse"),))
    ]
    cases = [(clue, top) for clue in clues for top in (5, 1000)]
    got = [_answers(index, clue, top) for clue, top in cases]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(MatchIndex, "message_candidates", _unfolded)
        expected = [_answers(index, clue, top) for clue, top in cases]
    assert got == expected
    assert got[1][0][5] == 100 and got[5][0][5] == 40  # sites in the group
