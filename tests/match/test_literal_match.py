"""The linear-time template matcher agrees with RE2 on the template's own pattern."""

from __future__ import annotations

import pytest
import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.match.literal_match import match_runs, may_fullmatch, pattern_literals, required_runs
from errdex.template import Hole, Literal, MessageTemplate

_text = st.text(alphabet=st.sampled_from("ab.c{}(x) \n*"), max_size=8)


@st.composite
def templates(draw: st.DrawFn) -> MessageTemplate:
    parts: list[Literal | Hole] = []
    for i in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            parts.append(Literal(draw(_text)))
        else:
            parts.append(Hole(f"{{h{i}}}", f"h{i}"))
    return MessageTemplate(parts)


@settings(max_examples=500, deadline=None)
@given(templates(), _text.flatmap(lambda t: st.just(t)), st.lists(_text, max_size=5))
def test_agrees_with_re2_on_arbitrary_messages(
    template: MessageTemplate, noise: str, values: list[str]
) -> None:
    runs = template.runs()
    candidates = [noise]
    if len(values) >= len(template.holes):
        candidates.append(template.render(values[: len(template.holes)]))
    for message in candidates:
        ours = match_runs(runs, message)
        theirs = re2.fullmatch(template.pattern, message)
        assert (ours is None) == (theirs is None), (template.pattern, message)
        if theirs is not None and ours is not None:
            assert ours == [g or "" for g in theirs.groups()]


def test_values_and_edges() -> None:
    assert match_runs(("Node ", " is not in the graph."), "Node 5 is not in the graph.") == ["5"]
    assert match_runs(("",), "") == []
    assert match_runs(("",), "x") is None
    assert match_runs(("a", "a"), "a") is None  # the two literals cannot overlap
    assert match_runs(("a", "a"), "aa") == [""]
    assert match_runs(("", "", ""), "xyz") == ["", "xyz"]


@settings(max_examples=300, deadline=None)
@given(templates())
def test_pattern_literals_count_the_literal_text_not_the_pattern(
    template: MessageTemplate,
) -> None:
    assert pattern_literals(template.pattern) == sum(len(r) for r in template.runs())


def test_pattern_literals_of_typed_holes() -> None:
    # a repr's quotes print whatever the value: fixed; the number is a value: not
    quoted = MessageTemplate(
        [
            Hole("{e}", "e"),
            Literal(" in "),
            Hole("'", "(quote)", kind="quote"),
            Literal("items["),
            Hole("{n}", "n", kind="int"),
            Literal("]"),
            Hole("'", "(quote)", kind="quote"),
        ]
    )
    assert len(quoted.pattern) > 40
    assert pattern_literals(quoted.pattern) == len(" in 'items[]'")
    assert pattern_literals(r"^\{(-?[0-9]+)([\s\S]*?)\}$") == 2
    assert pattern_literals(r"ab\d+c") == 3  # a repeated class fixes nothing
    assert pattern_literals(r"x{3}[^ab].") == 3  # a negated class or any character: a value


def test_pattern_literals_count_a_bytes_repr_b_and_quote() -> None:
    """C's ``%R`` of bytes prints ``b'`` whatever the bytes: two characters a str site's
    untyped ``%R`` hole does not fix (tests/extract/test_c_cpython.py's ``int(b'abc')``)."""
    as_bytes = MessageTemplate(
        [Literal("invalid literal: "), Hole("%R", "0", kind="bytes_repr")]
    ).pattern
    as_str = MessageTemplate([Literal("invalid literal: "), Hole("%R", "0", kind="str_repr")])
    assert pattern_literals(as_bytes) == len("invalid literal: b'")
    assert pattern_literals(as_str.pattern) == len("invalid literal: '")
    assert pattern_literals(MessageTemplate.from_percent("invalid literal: %s").pattern) == len(
        "invalid literal: "
    )


_kinds = st.sampled_from(["", "", "int", "char", "quote", "str_repr", "bytes_repr"])


@st.composite
def kinded_templates(draw: st.DrawFn) -> MessageTemplate:
    """Templates RE2 verifies: typed holes, optional parts, line breaks at the edges."""
    parts: list[Literal | Hole] = []
    for i in range(draw(st.integers(0, 6))):
        optional = draw(st.integers(0, 3)) == 0
        if draw(st.booleans()):
            parts.append(Literal(draw(_text), optional=optional))
        else:
            parts.append(Hole(f"{{h{i}}}", f"h{i}", kind=draw(_kinds), optional=optional))
    return MessageTemplate(parts)


_values = st.sampled_from(["7", "-12", "a", "'", '"', "b'x\n", "'a.c'", "", "x (y"])


@settings(max_examples=600, deadline=None)
@given(
    kinded_templates(), _text, st.lists(_values, max_size=6), st.sampled_from(["", "\n", "\r\n"])
)
def test_required_runs_never_rule_out_what_re2_matches(
    template: MessageTemplate, noise: str, values: list[str], around: str
) -> None:
    """A message RE2 fits (also with line breaks around it, as verify retries such
    patterns) has every run required_runs reads from the pattern; and most others lack one."""
    pattern = template.pattern
    required = required_runs(pattern)
    assert required is not None  # errdex's own patterns are read
    candidates = [noise, around + noise + around]
    if len(values) >= len(template.holes):
        rendered = template.render(values[: len(template.holes)])
        candidates += [rendered, around + rendered + around, rendered[1:], rendered[:-1]]
    for message in candidates:
        fits = re2.fullmatch(pattern, message) is not None or (
            re2.fullmatch(rf"[\r\n]*(?:{pattern})[\r\n]*", message) is not None
        )
        assert may_fullmatch(required, message) or not fits, (pattern, message, required)


def test_required_runs_of_re_errors_and_of_what_they_cannot_read() -> None:
    position = r"missing \), unterminated subpattern at position (-?[0-9]+)(?: \(line (-?[0-9]+), column (-?[0-9]+)\))?"
    start = "missing ), unterminated subpattern at position "
    assert required_runs(position) == (start, (start,), "")
    assert not may_fullmatch(required_runs(position) or ("", (), ""), "bad escape at position 3")
    assert required_runs(r"([\s\S]*?) \(at ([\s\S]*?)\)") == ("", (" (at ", ")"), ")")
    assert required_runs(r"^a\bb$") == ("ab", ("ab",), "ab")  # assertions consume nothing
    assert required_runs(r"(?i)abc") is None  # abc matches ABC
    assert required_runs(r"\pL+") is None  # RE2's, not Python's: nothing is known


#: (pattern, messages RE2 matches in full): each checked by RE2 itself below.
CASES = [
    (r"x[[:alpha:]]y", ["xay", "xZy"]),
    (r"a[^[:space:]]b", ["aZb", "a]b"]),
    (r"a[[:^digit:]]b", ["a b", "a]b"]),
    (r"a[x[:digit:]]b", ["a5b", "axb"]),
    (r"code [[:digit:]]+: ([\s\S]*?)", ["code 12: bad", "code 7: "]),
    (r"[[:upper:]][[:lower:]]+ failed", ["Read failed"]),
]


@pytest.mark.parametrize(("pattern", "messages"), CASES)
def test_required_runs_read_posix_classes_as_re2_does(pattern: str, messages: list[str]) -> None:
    """Python's parser read ``[[:alpha:]]`` as a set and a literal ``]``: ``xay`` was ruled
    out before RE2, which matches it."""
    compiled = re2.compile(pattern)
    required = required_runs(pattern)
    assert required is not None
    for message in messages:
        assert compiled.fullmatch(message) is not None  # what RE2 does
        assert may_fullmatch(required, message)


def test_posix_classes_fix_no_literal_text() -> None:
    assert required_runs(r"x[[:alpha:]]y") == ("x", ("x", "y"), "y")
    assert pattern_literals(r"x[[:alpha:]]y") == 2  # x and y; the class is a value
    assert pattern_literals(r"a[[:blank:]]b") == 3  # one of two characters, as a quote
