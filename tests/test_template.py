"""MessageTemplate: display text, regex and anchors agree, in Python re and RE2."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.template import HOLE_REGEX, Hole, Literal, MessageTemplate, escape_literal


def test_escape_only_metacharacters() -> None:
    assert escape_literal("a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o") == (
        "a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o"
    )
    assert escape_literal("plain text, with: punctuation - and 'quotes' / #!") == (
        "plain text, with: punctuation - and 'quotes' / #!"
    )


def test_seed_000_pattern() -> None:
    t = MessageTemplate.literal(
        "all_to_all must be used within a mapped context like vmap or shard_map."
    )
    assert t.pattern == "all_to_all must be used within a mapped context like vmap or shard_map\\."
    assert t.display == "all_to_all must be used within a mapped context like vmap or shard_map."


def test_adjacent_literals_merge_and_empty_literals_vanish() -> None:
    t = MessageTemplate([Literal("a"), Literal(""), Literal("b"), Hole("{x}", "x"), Literal("c")])
    assert t.parts == (Literal("ab"), Hole("{x}", "x"), Literal("c"))
    assert t.literals == ("ab", "c")


def test_percent_format() -> None:
    t = MessageTemplate.from_percent("%s is %(name)r at %5.2f%% of %d")
    assert t.display == "%s is %(name)r at %5.2f% of %d"
    assert [h.name for h in t.holes] == ["0", "name", "1", "2"]
    assert t.match("x is 'y' at  1.00% of 3") == {"0": "x", "name": "'y'", "1": " 1.00", "2": "3"}


def test_str_format() -> None:
    t = MessageTemplate.from_format("{} and {0!r} and {name:>10} {{literal}}")
    assert t.display == "{} and {0!r} and {name:>10} {literal}"
    assert [h.name for h in t.holes] == ["0", "0", "name"]
    assert t.match("a and 'b' and          c {literal}") == {"0": "a", "name": "         c"}


def test_empty_template_means_empty_message() -> None:
    t = MessageTemplate()
    assert t.pattern == "^$"
    assert t.match("") == {}
    assert t.match("x") is None


def test_holes_span_lines() -> None:
    t = (
        MessageTemplate.literal("array ")
        + MessageTemplate.expression("x")
        + MessageTemplate.literal(" is bad")
    )
    assert t.match("array [[1 2]\n [3 4]] is bad") == {"x": "[[1 2]\n [3 4]]"}


def test_anchors_longest_first() -> None:
    t = MessageTemplate.from_format("cannot convert {} to a graph: {} is not a node")
    assert t.anchors() == ["cannot convert", "is not a node", "to a graph:"]


def test_json_roundtrip() -> None:
    t = MessageTemplate.from_format("a {x} b {}")
    assert MessageTemplate.from_json(t.to_json()) == t


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)


@st.composite
def templates_and_values(draw: st.DrawFn) -> tuple[MessageTemplate, list[str]]:
    parts: list[Literal | Hole] = []
    for i in range(draw(st.integers(1, 5))):
        parts.append(Literal(draw(_text.filter(bool))))
        if draw(st.booleans()):
            parts.append(Hole(f"{{h{i}}}", f"h{i}"))
    template = MessageTemplate(parts)
    values = [draw(_text) for _ in template.holes]
    return template, values


@settings(max_examples=300, deadline=None)
@given(templates_and_values())
def test_rendered_message_matches_in_re_and_re2(case: tuple[MessageTemplate, list[str]]) -> None:
    template, values = case
    message = template.render(values)
    assert re.fullmatch(template.pattern, message) is not None
    assert re2.fullmatch(template.pattern, message) is not None
    assert template.match(message) is not None


@settings(max_examples=300, deadline=None)
@given(templates_and_values(), st.data())
def test_changing_one_literal_character_breaks_the_match(
    case: tuple[MessageTemplate, list[str]], data: st.DataObject
) -> None:
    template, values = case
    # With every hole empty, the message is the literal text alone: each character of it
    # is required, so changing any one of them must break the match.
    message = template.render(["" for _ in values])
    index = data.draw(st.integers(0, len(message) - 1))
    original = message[index]
    replacement = data.draw(
        st.characters(codec="utf-8", exclude_categories=("Cs",)).filter(lambda c: c != original)
    )
    changed = message[:index] + replacement + message[index + 1 :]
    assert re.fullmatch(template.pattern, changed) is None
    assert re2.fullmatch(template.pattern, changed) is None


def test_hole_regex_is_portable() -> None:
    assert HOLE_REGEX == r"([\s\S]*?)"
    assert re2.compile(HOLE_REGEX) is not None


def test_anchors_of_equal_length_keep_their_order_in_the_message() -> None:
    # a set ordered these by string hash: another PYTHONHASHSEED gave another first anchor
    code = (
        "from errdex.template import MessageTemplate as T;"
        "print(T.from_format('bbbb {} aaaa {} cccc {} dddd').anchors())"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in range(8)
    }
    assert seen == {"['bbbb', 'aaaa', 'cccc', 'dddd']"}
