"""A test's expected message against a template: literal text must carry the fit."""

from __future__ import annotations

import pytest

from errdex.analyze.matching import fit, from_literal, from_regex, good_fit
from errdex.template import Hole, Literal, MessageTemplate

NODE = MessageTemplate([Literal("node "), Hole("{t}", "t"), Literal(" not in graph")])


@pytest.mark.parametrize(
    ("regex", "fits"),
    [
        ("not in graph", True),
        ("node 5 not in graph", True),  # the 5 falls in the hole
        (r"node \d+ not in", True),
        ("node.*graph", True),
        ("^node", True),
        ("graph$", True),
        ("^graph", False),  # anchored where the template has other text
        ("5", False),  # only hole text: says nothing
        ("node edge 5 not in graph", True),  # a hole may hold any text
        ("edges not in the graph", False),
        ("completely different", False),
    ],
)
def test_regex_fits_template(regex: str, fits: bool) -> None:
    expected = from_regex(regex)
    assert expected is not None
    assert good_fit(fit(expected, NODE)) is fits


def test_literal_and_whole_message() -> None:
    assert good_fit(fit(from_literal("not in graph"), NODE))
    assert good_fit(fit(from_literal("node 7 not in graph", whole=True), NODE))
    assert not good_fit(fit(from_literal("not in graph", whole=True), NODE))


def test_regex_that_does_not_compile() -> None:
    assert from_regex("(unclosed") is None


def test_debug_field_prefix_is_literal_text() -> None:
    template = MessageTemplate([Literal("bad "), Hole("{out_spec=}", "out_spec", "out_spec=")])
    assert good_fit(fit(from_literal("bad out_spec=P"), template))
