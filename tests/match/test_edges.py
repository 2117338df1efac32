"""The literal edge codes never rule out a template that matches the message."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.match.edges import EDGE, ends, head_code, starts, tail_code
from errdex.match.literal_match import match_runs

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
