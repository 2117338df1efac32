"""Messages that end with a newline, begin with one, or span lines fit their template from a
traceback, from pytest's report and from a ``Class: message`` paste.

A traceback prints ``raise ValueError("bad\\n")`` as ``ValueError: bad`` and a blank line,
which every paste trims: the template is compared without the whitespace around it, as the
message is read. Every traceback here is printed by running the code.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.match.api import answers

from .conftest import build_package, report_of_pytest

SPACED = """\
def trailing(x):
    raise ValueError(f"the value {x} is out of range for this gauge\\n")


def leading(x):
    raise ValueError(f"\\n  problem with the gauge reading {x} here\\n")


def lines(x, y):
    raise ValueError(f"first line about the gauge {x}\\nsecond line about the dial {y}\\n")
"""


def line_of(needle: str) -> int:
    return next(n for n, text in enumerate(SPACED.splitlines(), 1) if needle in text)


@pytest.fixture(scope="module")
def spaced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_package(tmp_path_factory.mktemp("spaced"), "gauges", {"core.py": SPACED})


def traceback_of(db: Path, call: str) -> str:
    script = f"import sys; sys.path.insert(0, {str(db.parent / 'src')!r})\n"
    script += f"from gauges.core import *\n{call}\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    return done.stderr


CASES = [
    ("trailing(7)", "the value {x} is out of range"),
    ("leading(7)", "problem with the gauge reading"),
    ("lines(1, 2)", "first line about the gauge"),
]


@pytest.mark.parametrize(("call", "needle"), CASES)
def test_the_message_pasted_alone_fits_its_template(spaced: Path, call: str, needle: str) -> None:
    printed = traceback_of(spaced, call)
    last = printed[printed.index("\nValueError:") + 1 :]
    (answer,) = answers(last, db=spaced)
    best = answer.candidates[0]
    assert best.lineNumber == line_of(needle)
    assert any("the message matches the template" in r for r in best.reasons)
    assert best.confidence >= 0.9


@pytest.mark.parametrize(("call", "needle"), CASES)
def test_the_traceback_matches_message_and_frame(spaced: Path, call: str, needle: str) -> None:
    (answer,) = answers(traceback_of(spaced, call), db=spaced)
    best = answer.candidates[0]
    assert best.lineNumber == line_of(needle)
    assert any("the message matches the template" in r for r in best.reasons)


def test_pytest_reports_match_the_template(spaced: Path, tmp_path: Path) -> None:
    tests = tmp_path / "test_gauges.py"
    tests.write_text(
        textwrap.dedent(
            """\
            from gauges.core import lines, trailing

            def test_trailing():
                trailing(7)

            def test_lines():
                lines(1, 2)
            """
        )
    )
    out = report_of_pytest(tests, spaced.parent / "src", "-q")
    assert "2 failed" in out, out
    found = answers(out, db=spaced)
    # each failure is reported twice: its long entry, and the short summary's line
    firsts = {a.candidates[0].lineNumber for a in found if a.candidates}
    assert firsts == {line_of("the value {x} is out of range"), line_of("first line about")}
    for answer in found:
        assert any("the message matches the template" in r for r in answer.candidates[0].reasons)
