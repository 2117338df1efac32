"""What makes the slowest queries fast must not change an answer.

``rank`` counts a class's distinct sites only as far as it needs to
(:meth:`MatchIndex.count_sites`), keeps the patterns RE2 verifies compiled
(``rank_verify._compiled``), hands RE2 only messages that hold a pattern's literal text
(``literal_match.required_runs``) and matches each template once per message
(``rank_verify.verify_once``: copies of one template, and entries of one pattern, share
the result). Here the answers are compared, on a few thousand real queries
over real templates (a few stdlib modules scanned, beside a package whose library
classes are raised at many and at few sites), with those of the straightforward way:
every site's entry made and counted, every pattern compiled by ``re2.fullmatch``,
every candidate matched on its own, by RE2 whatever its literal text, none ruled out by
its edges (:mod:`errdex.match.edges`), and every inner template of a hole's value tried
in order (``rank_nested._inner_fit`` tries the longest first, and only those that could
fix more).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import re2

from errdex.match import rank as rank_module
from errdex.match import rank_nested, rank_verify
from errdex.match.index import MatchIndex
from errdex.match.literal_match import match_prefix
from errdex.match.rank import Clue, rank
from errdex.store import SqliteStore
from errdex.template import MessageTemplate

from ._stdlib_catalogue import build

STDLIB = [
    "tomllib/_parser.py",
    "argparse.py",
    "configparser.py",
    "ipaddress.py",
    "tarfile.py",
    "_pydecimal.py",
    "zipfile.py",
    "smtplib.py",
]


def _package(root: Path) -> Path:
    """A library whose ``ManyError`` is raised at 80 sites and ``FewError`` at 37, 30 of
    them with one template."""
    lines = ["class ManyError(Exception):\n    pass\n", "class FewError(Exception):\n    pass\n"]
    for k in range(80):
        lines.append(
            f"def many_{k}(x):\n    raise ManyError(f'step {k} of the plan failed: {{x}}')\n"
        )
    for k in range(6):
        lines.append(f"def few_{k}(x):\n    raise FewError(f'{{x}} (at stage {k})')\n")
    for k in range(30):  # one template at 30 sites: matched once per message
        lines.append(f"def copy_{k}(x, y):\n    raise FewError(f'{{x}} (at {{y}})')\n")
    lines.append("def bare():\n    raise FewError\n")
    package = root / "src"
    (package / "plans").mkdir(parents=True)
    (package / "plans" / "__init__.py").write_text("")
    (package / "plans" / "core.py").write_text("\n\n".join(lines))
    return package


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchIndex, list[Clue]]:
    root = tmp_path_factory.mktemp("tail")
    db = build(root / "errdex.db", STDLIB, _package(root), "acme/plans")
    with SqliteStore(db) as store:
        envelopes = list(store.iter_envelopes())
    index = MatchIndex.build(envelopes)
    return index, _queries(envelopes)


def _queries(envelopes: list[dict[str, Any]]) -> list[Clue]:
    """Each template rendered, a word of it drifted, its class with no message, and its
    class with a text nothing catalogued says (an override)."""
    rng = random.Random(7)
    values = ["x", "42", "'abc'", "node (at 3)", "/tmp/a.toml", "", "Invalid value (at line 1)"]
    clues: list[Clue] = []
    for envelope in envelopes:
        template = (envelope.get("evidence", {}).get("site") or {}).get("template")
        name = (envelope["record"]["errorClass"] or "ValueError").rsplit(".", 1)[-1]
        if template is None:
            continue
        parsed = MessageTemplate.from_json(template)
        message = parsed.render([rng.choice(values) for _ in parsed.holes])
        clues.append(Clue(name, message, ()))
        words = message.split(" ")
        if len(words) > 1:
            words[rng.randrange(len(words))] = "zqxv"
            clues.append(Clue(name, " ".join(words), ()))
        clues.append(Clue(name, "", ()))
        clues.append(Clue(name, "the caller's own text", ()))
    return clues


def _answers(index: MatchIndex, clues: list[Clue]) -> list[list[tuple[Any, ...]]]:
    return [
        [
            (s.index, s.score, s.confidence, s.holes, s.reasons, s.literal, s.twins)
            for s in rank([clue], index, top=5)
        ]
        for clue in clues
    ]


def _reference(index: MatchIndex, clues: list[Clue], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The answers the straightforward way gives."""

    def count_every_site(self: MatchIndex, indices: Any, most: int) -> int:
        return len({(self.entry(i).file_path, self.entry(i).line) for i in indices})

    def verify_each(index: MatchIndex, message: str) -> Any:
        return lambda i: rank_verify.verify(index, i, message)

    def every_candidate(self: MatchIndex, candidates: Any, text: str) -> list[int]:
        return list(candidates)

    def inner_each(index: MatchIndex, value: str, verify: Any) -> tuple[int, int] | None:
        best: tuple[int, int] | None = None
        for i in index.by_message(value)[: rank_nested.MAX_INNER]:
            ok, _, literal = verify(index, i, value)
            if not ok:
                runs = index.runs(i)
                found = match_prefix(runs, value) if runs is not None else None
                literal = found[1] if found is not None else 0
            if literal >= rank_nested.NESTED_MIN and (best is None or literal > best[0]):
                best = (literal, i)
        return best

    with monkeypatch.context() as patched:
        patched.setattr(MatchIndex, "count_sites", count_every_site)
        patched.setattr(rank_verify, "_compiled", re2.compile)
        patched.setattr(rank_verify, "required_runs", lambda pattern: None)
        patched.setattr(rank_module, "verify_once", verify_each)
        patched.setattr(MatchIndex, "may_match", every_candidate)  # no edge rules anything out
        patched.setattr(MatchIndex, "may_start", every_candidate)
        patched.setattr(rank_nested, "_inner_fit", inner_each)  # each candidate, in order
        return _answers(index, clues)


def test_answers_equal_the_straightforward_ones(
    catalogue: tuple[MatchIndex, list[Clue]], monkeypatch: pytest.MonkeyPatch
) -> None:
    index, clues = catalogue
    assert len(clues) > 2000
    expected = _reference(index, clues, monkeypatch)
    assert _answers(index, clues) == expected
    # the queries reach what changed: overrides answered and refused, RE2-verified fits
    reasons = [r for answer in expected for *_, rs, _, _ in answer for r in rs]
    assert any("an override" in r for r in reasons)
    assert any(index.runs(i) is None for answer in expected for i, *_ in answer)
    shared = [[index.runs_text(i) for i, *_ in answer] for answer in expected]
    assert any(len(texts) > len(set(texts)) for texts in shared)  # copies of one template


def test_a_class_sites_are_counted_only_as_far_as_asked(
    catalogue: tuple[MatchIndex, list[Clue]],
) -> None:
    index, _ = catalogue
    many, few = index.by_class("ManyError"), index.by_class("FewError")
    assert len(many) == 80 and len(few) == 37
    assert index.count_sites(many, 64) == 65
    assert index.count_sites(many, 100) == 80
    assert index.count_sites(few, 64) == 37
    assert index.count_sites([*few, *few], 64) == 37  # a site counts once


def test_a_crowded_class_gets_no_override_and_a_few_sites_class_does(
    catalogue: tuple[MatchIndex, list[Clue]],
) -> None:
    index, _ = catalogue
    assert not rank([Clue("ManyError", "the caller's own text", ())], index, top=5)
    answer = rank([Clue("FewError", "the caller's own text", ())], index, top=10)
    assert {index.entry(s.index).error_class for s in answer} == {"FewError"}
    assert answer and all(any("an override" in r for r in s.reasons) for s in answer)
