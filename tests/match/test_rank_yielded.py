"""An error made in one place and raised in another: jsonschema's shape in small. A keyword
generator yields ``ValidationError(f"…")``; ``validate`` raises what it yielded (``raise
error``), so the traceback's innermost line is the relay and the message, followed by the
lines ``__str__`` adds, was made at the ``yield``. The catalogue is scanned from real files
and each traceback printed by running them."""

from __future__ import annotations

from pathlib import Path

from errdex.match import match
from errdex.match.rank_frames import RELAY_FRAME, hands_over

from .conftest import build_package, traceback_of

ERRORS = """\
class ValidationError(Exception):
    def __init__(self, message, validator=None):
        super().__init__(message, validator)
        self.message = message
        self.validator = validator

    def __str__(self):
        if self.validator is None:
            return self.message
        return f"{self.message}\\n\\nFailed validating {self.validator!r}"
"""
KEYWORDS = """\
from .errors import ValidationError


def required(instance, names):
    for name in names:
        if name not in instance:
            yield ValidationError(f"{name!r} is a required property")


def items(instance, count):
    if len(instance) < count:
        message = "should be non-empty" if count == 1 else "is too short"
        yield ValidationError(f"{instance!r} {message}")
"""
VALIDATORS = """\
from . import keywords


def iter_errors(instance, schema):
    for keyword, value in schema.items():
        for error in getattr(keywords, keyword)(instance, value):
            error.validator = keyword
            yield error


def validate(instance, schema):
    for error in iter_errors(instance, schema):
        raise error
"""
MODULES = {"errors.py": ERRORS, "keywords.py": KEYWORDS, "validators.py": VALIDATORS}


def test_the_yield_that_made_the_message_answers_past_the_relay(tmp_path: Path) -> None:
    db = build_package(tmp_path, "schema", MODULES)
    traceback = traceback_of(
        tmp_path, "from schema.validators import validate; validate({}, {'required': ['id']})"
    )
    assert traceback.rstrip().endswith(
        'validators.py", line 13, in validate\n'
        "    raise error\n"
        "schema.errors.ValidationError: 'id' is a required property\n\n"
        "Failed validating 'required'"
    )
    candidates = match(traceback, db=db)
    best = candidates[0]
    assert (best.filePath, best.lineNumber) == ("src/schema/keywords.py", 7)
    assert best.holes == {"name": "'id'"}
    assert any("re-raises the error at src/schema/validators.py:13" in r for r in best.reasons)
    relay = next(c for c in candidates if c.filePath == "src/schema/validators.py")
    assert any("raises a name" in r for r in relay.reasons)
    assert relay.confidence < best.confidence


def test_the_relay_stays_the_answer_when_no_text_of_a_site_fits(tmp_path: Path) -> None:
    """``f"{instance!r} {message}"`` fits by its holes: the relay's line is what is known."""
    db = build_package(tmp_path, "schema", MODULES)
    traceback = traceback_of(
        tmp_path, "from schema.validators import validate; validate([], {'items': 1})"
    )
    assert "ValidationError: [] should be non-empty" in traceback
    best = match(traceback, db=db)[0]
    assert (best.filePath, best.lineNumber) == ("src/schema/validators.py", 13)
    assert best.confidence > 1 - (1 - RELAY_FRAME) * (1 - 0.3)


def test_only_a_line_that_raises_a_name_hands_over() -> None:
    assert hands_over("raise error")
    assert hands_over("    raise self._exception from None  ")
    assert not hands_over("raise make_error(name)")
    assert not hands_over("raise ValueError('x')")
    assert not hands_over(None)
