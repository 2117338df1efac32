"""Optional parts and typed ``%d`` holes: what the runtime prints on each way through an
``if`` that decides whether a part is printed (``re.error``'s line and column, argparse's
``argument NAME: ``), and the digits ``%d`` prints."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import re2

from errdex.template import Hole, Literal, MessageTemplate, fold_optional


def _position() -> tuple[MessageTemplate, MessageTemplate]:
    short = MessageTemplate.from_percent("missing : at position %d")
    return short, MessageTemplate.from_percent("missing : at position %d (line %d, column %d)")


def test_percent_d_prints_digits() -> None:
    t = MessageTemplate.from_percent("at position %d, %i of %(n)u, %05d, %.3d, %ld")
    assert [h.kind for h in t.holes] == ["int"] * 6
    assert t.match("at position 4, -1 of 2, 00012, 003, 7") is not None
    assert t.match("at position four, -1 of 2, 00012, 003, 7") is None
    assert re.fullmatch(
        t.pattern,
        "at position %d, %i of %u, %05d, %.3d, %ld" % (4, -1, 2, 12, 3, 7),  # noqa: UP031
    )


def test_percent_d_with_padding_or_a_sign_stays_untyped() -> None:
    # ``%5d`` pads with spaces, ``%+d`` prints a plus, ``%-3d`` trailing spaces
    t = MessageTemplate.from_percent("%5d|%+d|%-3d|% d|%*d|%s|%r")
    assert [h.kind for h in t.holes] == [""] * 7
    printed = "%5d|%+d|%-3d|% d|%*d|%s|%r" % (1, 2, 3, 4, 2, 5, "x", "y")  # noqa: UP031
    assert t.match(printed) is not None


def test_format_d_prints_digits() -> None:
    t = MessageTemplate.from_format("{:d} of {n:d} and {x:>4d}")
    assert [h.kind for h in t.holes] == ["int", "int", ""]
    assert t.match("1 of 2 and    3") is not None and t.match("a of 2 and    3") is None


def test_fold_a_suffix_printed_on_one_way() -> None:
    short, long = _position()
    (folded,) = fold_optional([long, short])
    assert folded.display == "missing : at position %d[ (line %d, column %d)]"
    assert folded.pattern == (
        r"missing : at position (-?[0-9]+)(?: \(line (-?[0-9]+), column (-?[0-9]+)\))?"
    )
    assert folded.match("missing : at position 4") == {"0": "4"}
    assert folded.match("missing : at position 6 (line 2, column 5)") == {
        "0": "6",
        "1": "2",
        "2": "5",
    }
    assert folded.match("missing : at position 6 (line 2)") is None


def test_fold_a_prefix_and_an_insertion_inside_a_literal() -> None:
    message = MessageTemplate.hole("{msg}")
    named = (
        MessageTemplate.literal("argument ")
        + MessageTemplate.hole("%(argument_name)s")
        + MessageTemplate.literal(": ")
        + message
    )
    (folded,) = fold_optional([message, named])
    assert folded.display == "[argument %(argument_name)s: ]{msg}"
    assert folded.match("argument -x: spam!") == {"argument_name": "-x", "msg": "spam!"}
    assert folded.match("spam!") == {"msg": "spam!"}
    assert folded.is_opaque  # on one way the message is the value alone
    plural = fold_optional(
        [
            MessageTemplate.from_percent("expected %s argument"),
            MessageTemplate.from_percent("expected %s arguments"),
        ]
    )
    assert [t.display for t in plural] == ["expected %s argument[s]"]


def test_fold_keeps_what_is_not_one_insertion() -> None:
    a = MessageTemplate.literal("bad value")
    b = MessageTemplate.literal("good value")
    c = MessageTemplate.literal("bad value!")
    assert fold_optional([a, b]) == [a, b]
    assert fold_optional([a, a]) == [a]
    # the first fold stands where ``a`` stood; ``b`` is kept as it is
    assert [t.display for t in fold_optional([a, b, c])] == ["bad value[!]", "good value"]


def test_no_fold_where_literal_brackets_would_make_the_display_ambiguous() -> None:
    # packaging's ``context=f"{key}[{len(result)}]"``, with or without ``.{cause.context}``
    short = MessageTemplate.from_format("bad in 'extras[{n}]'")
    long = MessageTemplate.from_format("bad in 'extras[{n}].{context}'")
    assert fold_optional([short, long]) == [short, long]


def test_optional_parts_are_left_out_of_runs_and_anchors_and_kept_in_json() -> None:
    short, long = _position()
    (folded,) = fold_optional([short, long])
    assert folded.runs() == ("missing : at position ", "")
    assert folded.anchors() == ["missing : at position"]
    assert folded.has_kinds  # its runs do not decide a match: the pattern does
    data = folded.to_json()
    assert [d.get("optional", False) for d in data] == [False, False, True, True, True, True, True]
    assert MessageTemplate.from_json(json.loads(json.dumps(data))) == folded
    assert folded.render(["4", "2", "5"]) == "missing : at position 4 (line 2, column 5)"
    assert folded.render(["4", "2", "5"], optional=False) == "missing : at position 4"


def test_adjacent_literals_merge_only_when_both_or_neither_are_optional() -> None:
    t = MessageTemplate([Literal("a"), Literal("b", optional=True), Literal("c", optional=True)])
    assert t.parts == (Literal("a"), Literal("bc", optional=True))
    assert t.display == "a[bc]"
    assert Hole("{x}", "x", optional=True) != Hole("{x}", "x")


def test_optional_pattern_means_the_same_in_re_re2_and_javascript() -> None:
    short, long = _position()
    named = (
        MessageTemplate.literal("argument ")
        + MessageTemplate.hole("{name}")
        + (MessageTemplate.literal(": ") + MessageTemplate.hole("{msg}"))
    )
    (position,) = fold_optional([short, long])
    (argument,) = fold_optional([MessageTemplate.hole("{msg}"), named])
    cases = [
        (position, "missing : at position 4", True),
        (position, "missing : at position 6 (line 2, column 5)", True),
        (position, "missing : at position x", False),
        (position, "missing : at position 6 (line two, column 5)", False),
        (argument, "argument -x: spam!", True),
        (argument, "spam!", True),
    ]
    for template, message, fits in cases:
        assert (re.fullmatch(template.pattern, message) is not None) == fits, message
        assert (re2.fullmatch(template.pattern, message) is not None) == fits, message
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run JavaScript")
    script = (
        "const cases = JSON.parse(process.argv[1]);"
        "console.log(JSON.stringify(cases.map(([p, m]) => new RegExp('^(?:' + p + ')$').test(m))))"
    )
    given = [[t.pattern, m] for t, m, _ in cases]
    run = subprocess.run(
        [node, "-e", script, json.dumps(given)], capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) == [fits for _, _, fits in cases]
