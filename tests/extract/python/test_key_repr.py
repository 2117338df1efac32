"""``str(KeyError(k))`` is ``repr(k)``: a string is quoted, ``None``, a number, bytes, a
tuple print as themselves. Each site's template is checked against what the line really
raises."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.python import extract_python

from ._fixture import raised

CODE = textwrap.dedent(
    """\
    def f(x):
        if x == 1:
            raise KeyError(None)
        if x == 2:
            raise KeyError(1)
        if x == 3:
            raise KeyError("a")
        if x == 4:
            raise KeyError(True)
        if x == 5:
            raise KeyError(1.5)
        if x == 6:
            raise KeyError(b"a")
        if x == 7:
            raise KeyError(("a", 1))
        if x == 8:
            key = None
            raise KeyError(key)
        if x == 9:
            key = "None"
            raise KeyError(key)
        if x == 10:
            raise KeyError(-1)
        if x == 11:
            key = -1
            raise KeyError(key)
        if x == 12:
            raise KeyError(-2.5)
    """
)


@pytest.mark.parametrize("case", range(1, 13))
def test_a_key_error_prints_the_repr_of_its_argument(case: int) -> None:
    printed = str(raised(CODE, f"f({case})"))
    line = next(
        n for n, text in enumerate(CODE.splitlines(), 1) if text.strip() == f"if x == {case}:"
    )
    sites = [s for s in extract_python(CODE, "m.py", module="m") if line < s.line <= line + 2]
    (site,) = sites
    assert not site.template.holes
    assert site.template.display == printed
