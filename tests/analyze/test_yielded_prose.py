"""An exception a generator yields is made at its line, not raised there: the record's prose
says so, and offers no ``try`` around the call that reaches the ``yield`` (that call hands
the exception over; the consumer raises it, or collects it)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from errdex.analyze.baseline import baseline_fields
from errdex.evidence import site_place
from errdex.extract.python import extract_python
from errdex.scan import scan_checkout
from errdex.source import open_source

CODE = textwrap.dedent(
    """\
    class ValidationError(ValueError):
        pass


    def iter_errors(instance):
        if not isinstance(instance, str):
            yield ValidationError(f"{instance!r} is not a string")


    def validate(instance):
        for error in iter_errors(instance):
            raise error
    """
)


def _yield_record(tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    (tmp_path / "checks.py").write_text(CODE)
    result = scan_checkout(open_source(str(tmp_path), repo="o/checks"), repo="o/checks")
    (found,) = [(r, e) for r, e in result.items if e["site"]["kind"] == "yield"]
    return found


def test_the_prose_says_made_and_yielded_not_raised(tmp_path: Path) -> None:
    record, evidence = _yield_record(tmp_path)
    assert record["lineNumber"] == 7
    assert record["errorMessage"] == "{instance!r} is not a string"
    doc = record["documentation"]
    assert "yields it at checks.py:7" in doc, doc
    assert "raises `ValidationError`" not in doc, doc
    assert "consumes the generator" in doc, doc
    assert "the yielding function itself" in record["triggerScenarios"]
    assert record["tryCatchPattern"] is None
    assert all("around the call that reaches it" not in s for s in record["solutions"])
    assert "yield" in record["tags"]
    assert site_place(evidence) == "Made and yielded at"


def test_the_extractors_own_words_for_a_yield() -> None:
    (site,) = [s for s in extract_python(CODE, "checks.py", module="checks") if s.kind == "yield"]
    fields, _ = baseline_fields(site)
    assert fields["documentation"].startswith(
        "ValidationError made and yielded by the generator `checks.iter_errors` at"
    ), fields["documentation"]
    assert "not raised there" in fields["documentation"]


def test_a_raise_is_still_thrown_at_its_line() -> None:
    assert site_place({"site": {"kind": "raise"}}) == "Thrown at"
    assert site_place({}) == "Thrown at"
