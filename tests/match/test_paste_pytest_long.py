"""pytest's ``--tb=long`` report: a function's whole source is printed above its failing
line, so what the source holds is text, not report structure; the closing location
names the class by its ``__name__`` alone, whatever it looks like."""

from __future__ import annotations

from errdex.match.paste import parse_paste

#: As pytest 9.2 prints it (bench/realerrors/pytest_render.py renders the benchmarks so;
#: the layout checked against a real run): a docstring with a doctest in the source;
#: ``$`` marks the lines pytest ends with a space.
DOCTEST = '''\
=================================== FAILURES ===================================
_________________________________ test_bad_expr _________________________________

    def test_bad_expr():
>       canonicalize("MIT+")

tests/test_licenses.py:113:$
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _$

raw = <…>

    def canonicalize(raw):
        """Canonicalize a license expression.

        >>> canonicalize("MIT+")
        Traceback (most recent call last):
            ...
        InvalidLicenseExpression: Invalid licenseref: 'MIT+'
        """
        message = f"Invalid licenseref: {raw!r}"
>       raise InvalidLicenseExpression(message)
E       packaging.licenses.InvalidLicenseExpression: Invalid licenseref: 'MIT+'

../venv/lib/python3.11/site-packages/packaging/licenses/__init__.py:208: InvalidLicenseExpression
=========================== short test summary info ============================
FAILED tests/test_licenses.py::test_bad_expr - packaging.licenses.InvalidLice...
'''.replace("$\n", " \n")  # pytest ends a location and a rule with a space

PRIVATE = """\
_______________________________ test_missing_url _______________________________

d = <…>

    def _get_required(d):
        if d.get("url") is None:
>           raise _DirectUrlRequiredKeyError("url")
E           packaging.direct_url._DirectUrlRequiredKeyError: Missing required value in 'url'

../venv/lib/python3.11/site-packages/packaging/direct_url.py:67: _DirectUrlRequiredKeyError
"""


def test_a_doctest_in_the_listed_source_is_not_a_traceback() -> None:
    (error,) = parse_paste(DOCTEST)
    assert error.error_class == "packaging.licenses.InvalidLicenseExpression"
    assert error.message == "Invalid licenseref: 'MIT+'"
    assert [(f.path, f.line, f.function) for f in error.frames] == [
        ("tests/test_licenses.py", 113, "test_bad_expr"),
        (
            "../venv/lib/python3.11/site-packages/packaging/licenses/__init__.py",
            208,
            "canonicalize",
        ),
    ]


def test_the_closing_location_may_name_a_private_class() -> None:
    (error,) = parse_paste(PRIVATE)
    assert error.error_class == "packaging.direct_url._DirectUrlRequiredKeyError"
    assert [(f.path, f.line, f.function) for f in error.frames] == [
        ("../venv/lib/python3.11/site-packages/packaging/direct_url.py", 67, "_get_required")
    ]
    assert error.frames[0].source == 'raise _DirectUrlRequiredKeyError("url")'
