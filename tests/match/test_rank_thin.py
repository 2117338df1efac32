"""Honest answers where the text cannot decide: a library's class whose message is one
value at every site that could raise it is answered by those sites, as a group; a builtin
class's message that a template fits only by its holes is answered by nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errdex.match import answers, match

from ..extract.python.test_runtime_str import DICTS
from .conftest import build_package

PARSER = """\
class ParseError(Exception):
    pass


def parse(text):
    try:
        return int(text)
    except ValueError as e:
        raise ParseError(str(e)) from e


def parse_list(items):
    try:
        return [int(x) for x in items]
    except ValueError as e:
        raise ParseError(str(e)) from e


def check(text):
    if not text:
        raise ParseError("empty input")


def token(text):
    raise ValueError("bad token")
"""

FORMATS = """\
def describe(kind, name, value):
    raise ValueError("invalid {0} {1}: {2}".format(kind, name, value))


def ratio(a, b):
    if b == 0:
        raise ValueError(f"invalid ratio {a}/{b}: the divisor is zero")
"""


def test_a_library_class_raised_as_one_value_is_answered_by_those_sites(
    tmp_path: Path,
) -> None:
    """The two ``str(e)`` sites fit any text, so exactly as well as ``check``'s site would
    with its message replaced (match/rank_override.py): the text cannot tell the three
    apart, and they are one group; the sites that fit with their template lead it."""
    db = build_package(tmp_path, "tokens", {"parser.py": PARSER})
    found = match("tokens.parser.ParseError: invalid literal for int() with base 10: 'x'", db=db)
    sites = [(c.filePath, c.lineNumber) for c in found]
    assert set(sites) == {
        ("src/tokens/parser.py", 9),
        ("src/tokens/parser.py", 16),
        ("src/tokens/parser.py", 21),
    }
    assert len(sites) == 3
    assert set(sites[:2]) == {("src/tokens/parser.py", 9), ("src/tokens/parser.py", 16)}
    assert all(c.errorClass == "ParseError" for c in found)  # not token()'s ValueError
    assert all(c.group == 0 and c.groupSize == 3 for c in found)
    assert sum(c.confidence for c in found) < 0.5
    assert found[0].holes == {"str(e)": "invalid literal for int() with base 10: 'x'"}


def test_a_site_of_another_class_fitting_the_text_does_not_hide_them(tmp_path: Path) -> None:
    db = build_package(tmp_path, "tokens", {"parser.py": PARSER})
    found = match("tokens.parser.ParseError: bad token", db=db)
    assert {(c.filePath, c.lineNumber) for c in found} == {
        ("src/tokens/parser.py", 9),
        ("src/tokens/parser.py", 16),
    }


def test_a_message_with_text_still_beats_the_one_value_sites(tmp_path: Path) -> None:
    db = build_package(tmp_path, "tokens", {"parser.py": PARSER})
    found = match("tokens.parser.ParseError: empty input", db=db)
    assert [(c.filePath, c.lineNumber) for c in found][:1] == [("src/tokens/parser.py", 21)]
    assert all(c.lineNumber != 9 for c in found)


def test_a_builtin_message_fitted_only_by_holes_finds_no_record(tmp_path: Path) -> None:
    db = build_package(tmp_path, "shapes", {"formats.py": FORMATS})
    paste = "ValueError: invalid literal for int() with base 10: 'abc'"
    [answer] = answers(paste, db=db)
    assert answer.candidates == []
    assert answer.status == "no match"
    run = subprocess.run(
        [sys.executable, "-m", "errdex", "match", "--db", str(db), paste],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    # the same template still answers a message its words make most of
    [fits] = answers("ValueError: invalid kind name: 3", db=db)
    assert [(c.filePath, c.lineNumber) for c in fits.candidates] == [("src/shapes/formats.py", 2)]


def test_a_frame_at_the_thin_template_still_weighs_its_message(tmp_path: Path) -> None:
    db = build_package(tmp_path, "shapes", {"formats.py": FORMATS})
    run = subprocess.run(
        [sys.executable, "-c", "from shapes.formats import describe; describe('a', 'b c d', 'e')"],
        cwd=tmp_path / "src",
        capture_output=True,
        text=True,
    )
    assert "ValueError: invalid a b c d: e" in run.stderr
    best = match(run.stderr, db=db)[0]
    assert (best.filePath, best.lineNumber) == ("src/shapes/formats.py", 2)
    assert any("matches the template" in r for r in best.reasons)


SCHEMA = (
    DICTS
    + """

def wrap(e):
    raise Invalid(str(e))


def again(e):
    raise Invalid(e.args[0])
"""
)


def test_a_dict_printed_as_the_message_picks_the_site_raising_a_dict(tmp_path: Path) -> None:
    db = build_package(tmp_path, "schema", {"core.py": SCHEMA})
    found = match("schema.core.Invalid: {'age': ['Missing data for required field.']}", db=db)
    assert (found[0].filePath, found[0].lineNumber) == ("src/schema/core.py", 11)
    assert found[0].group is None  # the braces tell it from the sites raising any one value
    assert {c.lineNumber for c in found} == {11, 15, 19}
