"""A library's message the caller replaced (``error_messages=``, ``error=``): no template
fits, so every site of the class is answered as one group, or none when there are too many."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import answers, rank_override

from .conftest import build_package

CHECKS = """\
class CheckError(Exception):
    pass


def boolean(value):
    raise CheckError("Not a valid boolean.")


def integer(value):
    raise CheckError("Not a valid integer.")
"""


def _line(needle: str) -> int:
    return next(n for n, text in enumerate(CHECKS.splitlines(), 1) if needle in text)


def test_a_message_no_text_fits_is_answered_by_the_class_sites(tmp_path: Path) -> None:
    db = build_package(tmp_path, "checks", {"core.py": CHECKS})
    (answer,) = answers("checks.core.CheckError: bad input", db=db, top=5)
    lines = {c.lineNumber for c in answer.group}
    assert lines == {_line("valid boolean"), _line("valid integer")}
    assert all(c.confidence < 0.5 for c in answer.candidates)
    boolean = next(c for c in answer.group if c.lineNumber == _line("valid boolean"))
    assert any("replaced" in r for r in boolean.reasons)


def test_a_text_that_fits_is_not_read_as_an_override(tmp_path: Path) -> None:
    db = build_package(tmp_path, "checks", {"core.py": CHECKS})
    (answer,) = answers("checks.core.CheckError: Not a valid integer.", db=db, top=5)
    assert answer.candidates[0].lineNumber == _line("valid integer")
    assert not any("replaced" in r for c in answer.candidates for r in c.reasons)


def test_too_many_sites_answer_no_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rank_override, "MAX_OVERRIDDEN", 1)
    db = build_package(tmp_path, "checks", {"core.py": CHECKS})
    (answer,) = answers("checks.core.CheckError: bad input", db=db, top=5)
    assert answer.candidates == []


def test_one_value_sites_and_the_override_sites_are_one_group(tmp_path: Path) -> None:
    """A ``str(e)`` site fits any text exactly as well as an overridden message: the text
    cannot tell it from the class's other sites, so all are one group, it first."""
    wrapped = CHECKS + "\n\ndef wrap(value):\n    try:\n        int(value)\n"
    wrapped += "    except ValueError as e:\n        raise CheckError(str(e)) from e\n"
    lone = len(wrapped.splitlines())
    db = build_package(tmp_path, "checks", {"core.py": wrapped})
    (answer,) = answers("checks.core.CheckError: bad input", db=db, top=5)
    assert [c.lineNumber for c in answer.group][:1] == [lone]
    assert {c.lineNumber for c in answer.group} == {
        lone,
        _line("valid boolean"),
        _line("valid integer"),
    }
    assert all(c.groupSize == 3 and c.errorClass == "CheckError" for c in answer.group)
    assert sum(c.confidence for c in answer.group) < 0.5
