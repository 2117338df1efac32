"""A situation quotes a message's fixed words, never its raw holes (paired blind review,
stop 38: "breaks what its message requires: '...%r'", misleading)."""

from __future__ import annotations

from errdex.analyze.fixed_words import fixed_words
from errdex.template import Hole, Literal, MessageTemplate


def _template(*parts: str) -> MessageTemplate:
    return MessageTemplate(Hole(p, "x") if p.startswith(("%", "{")) else Literal(p) for p in parts)


def test_the_words_before_the_first_hole() -> None:
    t = _template("DocTestFinder.find: name must be given when obj.__name__ doesn't exist: ", "%r")
    assert fixed_words(t, t.display) == (
        "DocTestFinder.find: name must be given when obj.__name__ doesn't exist …"
    )


def test_a_clause_the_hole_completes_is_cut() -> None:
    t = _template("'$' must be followed by '$' or '{', found: ", "%r")
    assert fixed_words(t, t.display) == "'$' must be followed by '$' or '{' …"


def test_too_little_before_the_hole_is_not_quoted() -> None:
    t = _template("{key!r}", " is not a valid key for this mapping")
    assert fixed_words(t, t.display) is None


def test_a_message_without_holes_is_quoted_whole() -> None:
    t = _template("fp must be file pointer")
    assert fixed_words(t, t.display) == "fp must be file pointer"
