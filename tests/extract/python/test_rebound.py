"""A name a ``for``/``with`` target or a walrus binds after an earlier assignment: the raise
is read with the binding that reaches it, not the earlier one (extract/python/rebound.py).
Each template is checked against what the line really raises."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.python import extract_python

from ._fixture import raised

CODE = textwrap.dedent(
    """\
    import contextlib


    def f(x, items):
        if x == 1:
            key = "a"
            for key in items:
                pass
            raise KeyError(key)
        if x == 2:
            key = "a"
            with contextlib.nullcontext(items[0]) as key:
                raise KeyError(key)
        if x == 3:
            key = "a"
            if (key := items[0]) is not None:
                raise KeyError(key)
        if x == 4:
            key = None
            for key, _ in zip(items, items):
                raise KeyError(key)
        if x == 5:
            msg = "no items"
            while (msg := f"{len(items)} items") is None:
                pass
            raise ValueError(msg)
    """
)


@pytest.mark.parametrize("case", range(1, 6))
def test_the_binding_reaching_the_raise_is_read(case: int) -> None:
    printed = str(raised(CODE, f"f({case}, [7])"))
    start = next(
        n for n, text in enumerate(CODE.splitlines(), 1) if text.strip() == f"if x == {case}:"
    )
    sites = [s for s in extract_python(CODE, "m.py", module="m") if start < s.line <= start + 5]
    (site,) = sites
    assert site.template.match(printed) is not None, (site.template.display, printed)


def test_a_walrus_binds_its_value() -> None:
    """``msg := f"{len(items)} items"``: its words stay in the template."""
    (site,) = [s for s in extract_python(CODE, "m.py", module="m") if s.error_class == "ValueError"]
    assert site.template.display == "{len(items)} items"
