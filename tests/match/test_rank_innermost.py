"""A whole traceback ends where the error was raised: a Python site in another function
than the innermost frame's did not raise it (it would have printed its own frame).

The catalogue is this machine's ``base64.py`` beside a small package; every traceback is
printed by running the code, so the lines are the real ones.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.match.api import MATCHED, NOT_CATALOGUED, answers

from ._stdlib_catalogue import build, innermost, run
from .conftest import report_of_pytest

CORE = """\
import math


def own_sqrt(x):
    if x < 0:
        raise ValueError("math domain error")
    return x ** 0.5


def root(x):
    return math.sqrt(x)


def relay(x):
    try:
        own_sqrt(x)
    except ValueError as exc:
        error = exc
    raise error.with_traceback(None)


def through(x):
    return own_sqrt(x)


def both(x):
    if x is None:
        raise TypeError(f"object of type {type(x).__name__!r} has no len()")
    return len(x)
"""

CHECKED = """\
def checked_sqrt(x):
    __tracebackhide__ = True  # pytest leaves this frame out of its report
    if x < 0:
        raise ValueError("checked roots refuse anything below zero")
    return x ** 0.5


def via_checked(x):
    return checked_sqrt(x)
"""


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("innermost")
    package = root / "src"
    (package / "roots").mkdir(parents=True)
    (package / "roots" / "__init__.py").write_text("")
    (package / "roots" / "core.py").write_text(CORE)
    (package / "roots" / "checked.py").write_text(CHECKED)
    return build(root / "errdex.db", ["base64.py"], package, "acme/roots"), package


def test_a_c_raise_under_a_stdlib_line_is_not_answered_by_python_sites_elsewhere(
    catalogue: tuple[Path, Path],
) -> None:
    db, _ = catalogue
    traceback = run("import base64; base64.b64decode('abc')")
    path, line = innermost(traceback)
    assert path.endswith("base64.py") and "in b64decode" in traceback
    answer = answers(traceback, db=db)[-1]
    # base64's own Python raises of "Incorrect padding" are in _b32decode: ruled out
    assert answer.status == NOT_CATALOGUED
    assert answer.candidates == []
    assert f"base64.py:{line} in b64decode()" in answer.reason
    assert answer.ruled_out and all(c.filePath == "Lib/base64.py" for c in answer.ruled_out)
    assert all(c.ruledOut and c.errorMessage == "Incorrect padding" for c in answer.ruled_out)
    assert answer.to_json()["ruledOut"][0]["ruledOut"] is True


def test_the_same_message_without_frames_is_still_answered(catalogue: tuple[Path, Path]) -> None:
    db, _ = catalogue
    answer = answers("binascii.Error: Incorrect padding", db=db)[-1]
    assert answer.status == MATCHED
    assert {c.filePath for c in answer.candidates} == {"Lib/base64.py"}
    assert not any(c.ruledOut for c in answer.candidates)


def test_a_library_line_calling_c_rules_out_its_python_twin(catalogue: tuple[Path, Path]) -> None:
    db, package = catalogue
    traceback = run("from roots.core import root; root(-1)", package)
    answer = answers(traceback, db=db)[-1]
    assert answer.status == NOT_CATALOGUED
    # the Python raise of that message, and the re-raise in relay(): neither is root()
    assert sorted(c.lineNumber for c in answer.ruled_out) == [6, 19]
    assert "core.py:11 in root()" in answer.reason


def test_the_raising_frame_itself_is_answered(catalogue: tuple[Path, Path]) -> None:
    db, package = catalogue
    traceback = run("from roots.core import own_sqrt; own_sqrt(-1)", package)
    best = answers(traceback, db=db)[-1].candidates[0]
    assert (best.filePath, best.lineNumber, best.ruledOut) == ("roots/core.py", 6, False)
    assert best.confidence > 0.9


def test_a_re_raise_of_an_exception_made_elsewhere_rules_nothing_out(
    catalogue: tuple[Path, Path],
) -> None:
    db, package = catalogue
    traceback = run("from roots.core import relay; relay(-1)", package)
    # ``raise error.with_traceback(None)``: a raise, so nothing is ruled out
    assert innermost(traceback)[1] == 19
    found = answers(traceback, db=db)[-1].candidates
    # the re-raise stands as any raise printed innermost does; the message's origin fits
    assert [c.lineNumber for c in found[:2]] == [19, 6]
    assert not any(c.ruledOut for c in found)


def _hide_innermost(traceback: str) -> str:
    """The traceback as a library that hides its helpers' frames would print it."""
    lines = traceback.rstrip("\n").split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("  File "))
    end = next(i for i in range(last + 1, len(lines)) if not lines[i].startswith(" "))
    return "\n".join(lines[:last] + lines[end:]) + "\n"


def test_a_site_the_innermost_line_calls_is_kept(catalogue: tuple[Path, Path]) -> None:
    db, package = catalogue
    shown = run("from roots.core import through; through(-1)", package)
    hidden = _hide_innermost(shown)
    assert innermost(hidden)[1] == 23 and "own_sqrt(x)" in hidden  # ``return own_sqrt(x)``
    best = answers(hidden, db=db)[-1].candidates[0]
    assert (best.lineNumber, best.ruledOut) == (6, False)


def test_frames_a_paste_says_were_removed_rule_nothing_out(catalogue: tuple[Path, Path]) -> None:
    db, package = catalogue
    traceback = run("from roots.core import root; root(-1)", package).rstrip("\n")
    traceback += (
        "\n--------------------\nFor simplicity, JAX has removed its internal frames from the "
        "traceback of the following exception.\n"
    )
    answer = answers(traceback, db=db)[-1]
    assert answer.status == MATCHED
    assert answer.candidates[0].lineNumber == 6
    assert not any(c.ruledOut for c in answer.candidates)


def test_a_printed_line_that_raises_nothing_rules_out_its_own_function_too(
    catalogue: tuple[Path, Path],
) -> None:
    """CPython's test suite: ``callable_obj(*args, **kwargs)`` in unittest's ``handle``
    printed innermost, and ``handle``'s own raise of the same message answered at 1.0."""
    db, package = catalogue
    traceback = run("from roots.core import both; both(5)", package)
    assert innermost(traceback)[1] == 29 and "return len(x)" in traceback
    answer = answers(traceback, db=db)[-1]
    assert answer.status == NOT_CATALOGUED
    assert 28 in {c.lineNumber for c in answer.ruled_out}


def test_a_raise_printed_at_a_moved_line_keeps_its_own_function(
    catalogue: tuple[Path, Path],
) -> None:
    """The user's copy is another version: the raise printed two lines lower than the
    catalogue has it. Its printed line raises, so the site in that function stands."""
    db, package = catalogue
    traceback = run("from roots.core import both; both(None)", package)
    assert innermost(traceback)[1] == 28
    moved = traceback.replace('core.py", line 28,', 'core.py", line 30,')
    best = answers(moved, db=db)[-1].candidates[0]
    assert (best.lineNumber, best.ruledOut) == (28, False)


def _pytest_report(package: Path, tmp_path: Path, body: str, style: str) -> str:
    """pytest's report of one failing test whose body is ``body``, in ``--tb=style``."""
    tests = tmp_path / "test_roots.py"
    tests.write_text("def test_it():\n" + textwrap.indent(textwrap.dedent(body), "    "))
    out = report_of_pytest(tests, package, f"--tb={style}")
    assert "1 failed" in out, out
    return out


@pytest.mark.parametrize("style", ["long", "short", "native"])
def test_pytest_reports_rule_out_as_a_traceback_does(
    catalogue: tuple[Path, Path], tmp_path: Path, style: str
) -> None:
    db, package = catalogue
    report = _pytest_report(package, tmp_path, "from roots.core import root\nroot(-1)\n", style)
    answer = answers(report, db=db)[0]
    assert answer.status == NOT_CATALOGUED
    assert sorted(c.lineNumber for c in answer.ruled_out) == [6, 19]
    assert "core.py:11 in root()" in answer.reason


def test_pytest_line_style_names_no_function_and_rules_nothing_out(
    catalogue: tuple[Path, Path], tmp_path: Path
) -> None:
    db, package = catalogue
    report = _pytest_report(package, tmp_path, "from roots.core import root\nroot(-1)\n", "line")
    answer = answers(report, db=db)[0]
    assert answer.status == MATCHED
    assert not any(c.ruledOut for c in answer.candidates)


def test_a_frame_pytest_hides_keeps_the_site_its_caller_calls(
    catalogue: tuple[Path, Path], tmp_path: Path
) -> None:
    db, package = catalogue
    body = "from roots.checked import via_checked\nvia_checked(-1)\n"
    report = _pytest_report(package, tmp_path, body, "long")
    # the raise in checked_sqrt() is hidden: via_checked()'s call of it is printed innermost
    assert "def checked_sqrt" not in report and "return checked_sqrt(x)" in report
    best = answers(report, db=db)[0].candidates[0]
    assert best.errorMessage == "checked roots refuse anything below zero"
    assert not best.ruledOut
