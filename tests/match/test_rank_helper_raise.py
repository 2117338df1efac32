"""A traceback through a helper that raises what its caller passes: the innermost frame
is the helper's raise (``raise error(explanation)``), the next frame out the call that
named the class and the message. The call's site answers, not the helper's line."""

from __future__ import annotations

from pathlib import Path

from errdex.match import match

from ..extract.python.test_caller_sites import DECIMALISH
from ._stdlib_catalogue import build, innermost, run
from .conftest import build_package, traceback_of

#: ``_pydecimal``'s shape in small: ``Context._raise_error`` and three callers (``other``
#: passes its own parameter: the helper's raise keeps a site of its own).
NUMBERS = DECIMALISH


def test_the_call_through_the_helpers_raise_is_the_answer(tmp_path: Path) -> None:
    db = build_package(tmp_path, "num", {"numbers.py": NUMBERS})
    raise_line = 1 + next(
        i for i, t in enumerate(NUMBERS.splitlines()) if "raise error(explanation)" in t
    )
    call_line = 1 + next(i for i, t in enumerate(NUMBERS.splitlines()) if '"x / 0"' in t)
    traceback = traceback_of(
        tmp_path, "from num.numbers import Context, divide; divide(1, 0, Context())"
    )
    assert f'numbers.py", line {raise_line}, in _raise_error' in traceback
    assert traceback.rstrip().endswith("num.numbers.DivisionByZero: x / 0")
    candidates = match(traceback, db=db)
    best = candidates[0]
    assert (best.filePath, best.lineNumber) == ("src/num/numbers.py", call_line)
    assert best.errorClass == "DivisionByZero"
    assert any("the raise of the helper this site's line calls" in r for r in best.reasons)
    # the helper's own site (``other`` passes its parameter: kept) gives way
    helper = next(c for c in candidates if c.lineNumber == raise_line)
    assert helper.confidence < best.confidence
    assert any("is a site of its own whose message fits" in r for r in helper.reasons)


def test_the_mapped_class_is_the_one_the_traceback_prints(tmp_path: Path) -> None:
    db = build_package(tmp_path, "num", {"numbers.py": NUMBERS})
    call_line = 1 + next(i for i, t in enumerate(NUMBERS.splitlines()) if "Invalid literal" in t)
    traceback = traceback_of(
        tmp_path, "from num.numbers import Context, parse; parse('abc', Context())"
    )
    assert traceback.rstrip().endswith("num.numbers.InvalidOperation: Invalid literal: 'abc'")
    for paste in (traceback, "num.numbers.InvalidOperation: Invalid literal: 'abc'"):
        best = match(paste, db=db)[0]
        assert (best.filePath, best.lineNumber) == ("src/num/numbers.py", call_line)
        assert best.errorClass == "InvalidOperation"


def test_a_real_pydecimal_traceback_answers_the_call_at_its_printed_class(
    tmp_path: Path,
) -> None:
    """``_pydecimal`` sets ``__name__ = 'decimal'``: its errors print as
    ``decimal.InvalidOperation``, not the namesake of ``_pydecimal.InvalidOperation``."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "x.py").write_text("X = 1\n")
    db = build(tmp_path / "e.db", ["_pydecimal.py", "decimal.py"], package, "local/pkg")
    traceback = run(
        """\
        import _pydecimal as d
        d.getcontext().traps[d.InvalidOperation] = True
        d.Decimal('x')
        """
    )
    last = traceback.rstrip().splitlines()[-1]
    assert last == "decimal.InvalidOperation: Invalid literal for Decimal: 'x'"
    assert innermost(traceback)[0].endswith("_pydecimal.py")
    source = Path(innermost(traceback)[0]).read_text(encoding="utf-8").splitlines()
    # ``return context._raise_error(ConversionSyntax,`` on the line above the literal
    call = next(i for i, t in enumerate(source, 1) if "Invalid literal for Decimal: %r" in t) - 1
    for paste in (traceback, last):
        best = match(paste, db=db)[0]
        assert (best.filePath, best.errorClass) == ("Lib/_pydecimal.py", "InvalidOperation")
        assert best.lineNumber == call
        assert best.confidence >= 0.9
        assert not any("namesake" in r for r in best.reasons)
