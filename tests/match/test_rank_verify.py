"""RE2 verification (:mod:`errdex.match.rank_verify`): a non-match told on the message's
bytes encoded once gives what the wrapper's ``fullmatch`` gives, text groups included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import re2
from click.testing import CliRunner

from errdex.cli import main
from errdex.match import rank_verify
from errdex.match.index import MatchIndex

from .conftest import pattern_envelope

PATTERNS = [r"bad escape (.*?) at position (\d+)", r"é(.+)ü", r"(?s)(.*)\n(.*)", r"[^a]+"]
MESSAGES = [
    "bad escape \\q at position 3",
    "bad escape \\q at position x",
    "é日本ü",
    "éü",
    "line\nnext",
    "bbb",
    "abba",
    "",
]


def test_fullmatch_is_the_wrappers_on_matches_and_non_matches() -> None:
    assert rank_verify._BOTH is not None  # the fast path is taken with this pyre2
    for pattern in PATTERNS:
        compiled = re2.compile(pattern)
        for message in MESSAGES * 2:  # the second time from the bytes kept
            got, want = rank_verify._fullmatch(compiled, message), compiled.fullmatch(message)
            assert (got is None) == (want is None), (pattern, message)
            if want is not None:
                assert got.groups() == want.groups() and got.span() == want.span()
    assert rank_verify._last[0] == MESSAGES[-1]


LINE_BREAK_EDGES = """\
def f(n):
    if n > 2:
        raise ValueError("too many: %d items\\n" % n)
    if n < 0:
        raise ValueError(f"\\nnegative count {n:d}")
"""


def test_a_template_with_a_line_break_at_an_edge_fits_the_message_as_pasted(
    tmp_path: Path,
) -> None:
    """A pasted message is read without its edge line breaks; the pattern's own break at
    that edge (``"…items\\n" % n`` verified by RE2: a ``%d`` hole) must not be demanded."""
    (tmp_path / "nl").mkdir()
    (tmp_path / "nl" / "__init__.py").write_text(LINE_BREAK_EDGES)
    db = tmp_path / "c.db"
    runner = CliRunner()
    scanned = runner.invoke(main, ["scan", str(tmp_path), "--repo", "me/nl", "--db", str(db)])
    assert scanned.exit_code == 0, scanned.output
    for paste, line in (("ValueError: too many: 3 items", 3), ("ValueError: negative count -1", 5)):
        found = runner.invoke(main, ["match", "--db", str(db), "--json", paste])
        answers = json.loads(found.output)
        assert answers and answers[0]["lineNumber"] == line, (paste, found.output)


def test_an_escaped_line_break_at_the_edge_stays_an_escape() -> None:
    assert rank_verify._trimmed("\nab\\\n") == "[\\r\\n]*(?:ab\\\n)[\\r\\n]*"
    assert rank_verify._trimmed("ab\\\\\n") == "[\\r\\n]*(?:ab\\\\)[\\r\\n]*"
    assert re2.fullmatch(rank_verify._trimmed("\nab\\\n"), "ab\n")


#: Checked by RE2 (a typed hole), at two sites of other classes: not twins.
POSITION = r"missing \), unterminated subpattern at position (-?[0-9]+)"


def _regex_index() -> MatchIndex:
    classes = ["error", "PatternError", "error"]
    patterns = [POSITION, POSITION, r"bad escape (.*?) at position (-?[0-9]+)"]
    index = MatchIndex.build(
        pattern_envelope(i, p, c) for i, (p, c) in enumerate(zip(patterns, classes, strict=True))
    )
    assert all(index.runs(i) is None for i in range(3))  # all verified by RE2
    return index


def test_a_message_without_the_literal_text_is_not_handed_to_re2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _regex_index()
    handed: list[str] = []

    def counted(compiled: Any, message: str) -> Any:
        handed.append(message)
        return compiled.fullmatch(message)

    monkeypatch.setattr(rank_verify, "_fullmatch", counted)
    assert rank_verify.verify(index, 0, "bad escape \\q at position 3") == (False, [], 0)
    assert (
        rank_verify.verify(index, 2, "missing ), unterminated subpattern at position 7")[0] is False
    )
    assert handed == []  # neither holds the other's literal start
    ok, values, _ = rank_verify.verify(index, 2, "bad escape \\q at position 3")
    assert (ok, values) == (True, ["\\q", "3"]) and handed == ["bad escape \\q at position 3"]


def test_entries_of_one_pattern_are_verified_once_per_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _regex_index()
    calls: list[int] = []
    plain = rank_verify.verify

    def counted(index: MatchIndex, entry: int, message: str) -> Any:
        calls.append(entry)
        return plain(index, entry, message)

    monkeypatch.setattr(rank_verify, "verify", counted)
    once = rank_verify.verify_once(index, "missing ), unterminated subpattern at position 7")
    assert (
        once(0) == once(1) == (True, ["7"], len("missing ), unterminated subpattern at position "))
    )
    assert once(2)[0] is False
    assert calls == [0, 2]


def test_a_match_is_read_from_one_run_of_re2(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message RE2 matches is not matched a second time through the wrapper for its groups."""
    compiled = re2.compile(PATTERNS[0])
    again: list[str] = []
    monkeypatch.setattr(
        type(compiled), "fullmatch", lambda self, text, *_: again.append(text) or None
    )
    m = rank_verify._fullmatch(compiled, "bad escape \\é at position 3")
    assert m is not None and m.groups() == ("\\é", "3") and again == []
