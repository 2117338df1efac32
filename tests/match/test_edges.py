"""The literal edge codes never rule out a template that matches the message."""

from __future__ import annotations

import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.match.edges import EDGE, ends, head_code, pattern_start, starts, tail_code
from errdex.match.index import MatchIndex
from errdex.match.literal_match import match_runs

from .conftest import pattern_envelope

# ASCII, two- and four-byte UTF-8 and a lone surrogate: edges are cut in bytes
_char = st.sampled_from(["a", "b", " ", ".", "é", "–", "\U0001f600", "\ud800", "x"])
_text = st.lists(_char, max_size=12).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.lists(_text, min_size=1, max_size=5), st.lists(_text, max_size=5), _text)
def test_a_match_always_passes_its_edges(runs: list[str], values: list[str], noise: str) -> None:
    holes = len(runs) - 1
    values = (values + [""] * holes)[:holes]
    rendered = runs[0] + "".join(v + r for v, r in zip(values, runs[1:], strict=True))
    for message in (rendered, noise, noise + rendered, rendered + noise):
        if match_runs(runs, message) is not None:
            assert head_code(runs) in starts(message), (runs, message)
            assert tail_code(runs) in ends(message), (runs, message)
    assert head_code(runs) in starts(rendered)
    assert tail_code(runs) in ends(rendered)


def test_edges_rule_out_a_different_start_or_end() -> None:
    runs = ("Node ", " is not in the graph.")
    assert head_code(runs) in starts("Node 7 is not in the graph.")
    assert head_code(runs) not in starts("Edge 7 is not in the graph.")
    assert tail_code(runs) not in ends("Node 7 is not in the tree.")
    # only the first and last EDGE bytes are coded: a longer run differing later passes
    long = ("x" * EDGE + "tail", "")
    assert head_code(long) in starts("x" * EDGE + "other")


def test_no_runs_means_nothing_is_known() -> None:
    """A template checked by regex alone is let through whatever the message."""
    for message in ("", "anything at all", "é"):
        assert head_code(None) in starts(message)
        assert tail_code(None) in ends(message)


#: Pieces of patterns: literals plain and escaped, and what ends an opening literal.
_PIECES = ["a", "é", " ", "\\.", "\\(", "\\\\", "\n", "b?", "c*", "d+", "x{2}", "[ab]"]
_PIECES += ["\\d", "(y)", "(?:z)?", "|", "^", "$", "\\b", "([\\s\\S]*?)", "(-?[0-9]+)"]


@st.composite
def _matched(draw: st.DrawFn) -> tuple[str, str]:
    pattern = "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=8)))
    message = draw(st.from_regex(pattern, fullmatch=True))
    return pattern, message


@settings(max_examples=800, deadline=None)
@given(_matched(), st.sampled_from(["", "\n", "\r\n"]))
def test_a_pattern_start_is_the_start_of_every_match(matched: tuple[str, str], around: str) -> None:
    """Whatever RE2 fits starts with it, also less line breaks around (as rank reads
    a message) or with them (a pattern that opens with one, retried so by verify)."""
    pattern, message = matched
    if re2.fullmatch(pattern, message) is None:  # Python's reading differs: not RE2's match
        return
    start = pattern_start(pattern)
    for text in (message, around + message):
        assert text.lstrip("\r\n").startswith(start), (pattern, message, start)
        assert head_code((start,)) in starts(text.lstrip("\r\n"))


def test_a_pattern_start_stops_where_the_literal_text_does() -> None:
    position = r"cannot refer to an open group at position (-?[0-9]+)(?: \(line (-?[0-9]+))?"
    assert pattern_start(position) == "cannot refer to an open group at position "
    assert pattern_start(r"a\.b\*c+") == "a.b*"  # c may be absent, the escaped are not
    assert pattern_start(r"\(at ([\s\S]*?)\)") == "(at "
    assert pattern_start("abc|abd") == ""  # an alternative may start otherwise
    assert pattern_start("(?i)abc") == pattern_start(r"\d+") == ""
    assert pattern_start("\nfoo(x)") == "foo"


def test_an_entry_re2_verifies_is_ruled_out_by_its_start() -> None:
    """Hundreds of ``re.error`` templates share the anchor ``at position``: one whose
    literal start the message lacks is not handed to RE2."""
    records = [
        (r"cannot refer to an open group at position (-?[0-9]+)", "error"),
        (r"bad escape ([\s\S]*?) at position (-?[0-9]+)", "error"),
        (r"([\s\S]*?) at position (-?[0-9]+)", "error"),
    ]
    index = MatchIndex.build(
        pattern_envelope(i, pattern, cls, "re/_parser.py")
        for i, (pattern, cls) in enumerate(records)
    )
    assert all(index.runs(i) is None for i in range(3))
    assert index.may_match([0, 1, 2], "bad escape \\q at position 3") == [1, 2]
    assert index.may_start([0, 1, 2], "cannot refer to an open group at position 3") == [0, 2]
