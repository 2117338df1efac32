"""The group of a message-only answer is exactly the sites whose templates fit the paste
equally well: a template fixing more of the message's characters outranks one that
leaves more of it to holes, however long both are."""

from __future__ import annotations

from pathlib import Path

from errdex.match import answers

from .conftest import build_package

WIDGETS = """\
class WidgetError(Exception):
    pass


def frobnicate(widget, name, state):
    if state == "locked":
        raise WidgetError(f"cannot frobnicate the widget {name} because it is locked")
    raise WidgetError(f"cannot frobnicate the widget {name} because it is {state}")


def polish(widget, name):
    raise WidgetError(f"cannot frobnicate the widget {name} because it is locked")
"""

PASTE = "widgets.core.WidgetError: cannot frobnicate the widget w7 because it is locked"


def _line(needle: str, nth: int = 0) -> int:
    lines = [n for n, text in enumerate(WIDGETS.splitlines(), 1) if needle in text]
    return lines[nth]


def test_more_literal_characters_fit_better_than_a_hole(tmp_path: Path) -> None:
    db = build_package(tmp_path, "widgets", {"core.py": WIDGETS})
    (answer,) = answers(PASTE, db=db, top=5)
    locked = {_line("because it is locked", 0), _line("because it is locked", 1)}
    group = {c.lineNumber for c in answer.group}
    assert group == locked  # the two sites raising the text verbatim, not the {state} one
    assert all(c.groupSize == 2 for c in answer.group)
    loose = [c for c in answer.candidates if c.lineNumber == _line("because it is {state}")]
    assert loose and loose[0].group is None
    assert answer.candidates.index(loose[0]) == 2  # after the whole group
    assert loose[0].confidence < min(c.confidence for c in answer.group)


def test_the_group_shares_its_confidence(tmp_path: Path) -> None:
    db = build_package(tmp_path, "widgets", {"core.py": WIDGETS})
    (answer,) = answers(PASTE, db=db, top=5)
    first, second = answer.group
    assert abs(first.confidence - second.confidence) < 1e-3
    assert first.confidence + second.confidence <= 1 + 1e-9


LEXER = """\
class UnexpectedCharError(Exception):
    pass


def expect_equals(line, col):
    raise UnexpectedCharError(f"Unexpected character: '=' at line {line} col {col}")


def expect_value(char, line, col):
    raise UnexpectedCharError(f"Unexpected character: {char!r} at line {line} col {col}")


def expect_key(char, line, col):
    raise UnexpectedCharError(f"Unexpected character: {char!r} at line {line} col {col}")
"""


def test_a_template_fixing_only_a_short_value_more_is_no_surer(tmp_path: Path) -> None:
    # the ``'='`` that one template fixes is a value the others' hole takes as readily
    db = build_package(tmp_path, "lexer", {"core.py": LEXER})
    (answer,) = answers(
        "lexer.core.UnexpectedCharError: Unexpected character: '=' at line 1 col 9", db=db
    )
    assert len(answer.group) == 3
    assert answer.group[0].lineNumber == 6  # the most literal characters first
    assert max(c.confidence for c in answer.group) < 0.5


FEATURES = """\
def check_features(estimator, n_features, expected):
    if n_features != expected:
        raise ValueError(
            f"X has {n_features} features, but {estimator} is expecting {expected} "
            "features as input."
        )


class PowerTransformer:
    def transform(self, X):
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but PowerTransformer is expecting "
                f"{self.n_features_in_} features as input."
            )
"""


def test_a_looser_template_that_fits_the_whole_message_keeps_the_answer_unsure(
    tmp_path: Path,
) -> None:
    """The narrower template leads, but the generic check renders the very same text: the
    message cannot rule it out, so the lead is not near-certain (scikit-learn's
    ``validation.py`` check against an estimator's own copy of it)."""
    db = build_package(tmp_path, "fitting", {"core.py": FEATURES})
    paste = "ValueError: X has 1 features, but PowerTransformer is expecting 30 features as input."
    (answer,) = answers(paste, db=db, top=5)
    lead, *others = answer.candidates
    assert "PowerTransformer is expecting" in lead.errorMessage  # the narrower one first
    assert 0.5 < lead.confidence < 0.9
    assert any("{estimator}" in c.errorMessage for c in others)
