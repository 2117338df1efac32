"""A situation quotes a message's fixed words, never its raw holes (paired blind review,
stop 38: "breaks what its message requires: '...%r'", misleading)."""

from __future__ import annotations

from errdex.analyze.fixed_words import fixed_words
from errdex.template import Hole, Literal, MessageTemplate


def _template(*parts: str) -> MessageTemplate:
    return MessageTemplate(Hole(p, "x") if p.startswith(("%", "{")) else Literal(p) for p in parts)


def test_a_hole_is_shown_as_an_ellipsis() -> None:
    t = _template("DocTestFinder.find: name must be given when obj.__name__ doesn't exist: ", "%r")
    assert fixed_words(t, t.display) == (
        "DocTestFinder.find: name must be given when obj.__name__ doesn't exist: …"
    )


def test_the_words_after_a_hole_are_kept() -> None:
    t = _template("in 'ext_modules' option (extension '", "%s", "'), 'sources' must be present")
    assert fixed_words(t, t.display) == (
        "in 'ext_modules' option (extension '…'), 'sources' must be present"
    )


def test_too_few_fixed_words_are_not_quoted() -> None:
    t = _template("'no entry ", "{key!r}", "'")
    assert fixed_words(t, t.display) is None


def test_a_message_without_holes_is_quoted_whole() -> None:
    t = _template("fp must be file pointer")
    assert fixed_words(t, t.display) == "fp must be file pointer"
