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


MAYBE = textwrap.dedent(
    """\
    def f(x, d, v):
        key = "a"
        if x == 1:
            if d and (key := "b"):
                pass
            else:
                raise KeyError(key)
        if x == 2:
            y = (key := "b") if d else 0
            raise KeyError(key)
        if x == 3:
            assert (key := d.get("x")) is not None
            raise KeyError(key)
        if x == 4:
            match v:
                case [key]:
                    raise KeyError(key)
        if x == 5:
            match v:
                case {"k": 1, **key}:
                    pass
            raise KeyError(key)
        if x == 6:
            match v:
                case [y] if (key := y):
                    pass
            raise KeyError(key)
    """
)
MAYBE_CALLS = {
    1: "f(1, {}, None)",
    2: "f(2, {}, None)",
    3: "f(3, {'x': 1}, None)",
    4: "f(4, {}, [5])",
    5: "f(5, {}, {'k': 1, 'z': 2})",
    6: "f(6, {}, [3])",
}


@pytest.mark.parametrize("case", sorted(MAYBE_CALLS))
def test_a_binding_that_may_not_run_or_a_capture_leaves_a_hole(case: int) -> None:
    """A walrus after ``and``, in a branch of ``… if … else …``, in an ``assert`` or a
    case's guard, and a ``case`` capture: the raise does not quote the earlier ``'a'``."""
    printed = str(raised(MAYBE, MAYBE_CALLS[case]))
    lines = MAYBE.splitlines()
    start = next(n for n, text in enumerate(lines, 1) if text.strip() == f"if x == {case}:")
    end = next((n for n, t in enumerate(lines, 1) if n > start and "if x ==" in t), len(lines) + 1)
    sites = extract_python(MAYBE, "m.py", module="m")
    (site,) = [s for s in sites if start < s.line < end]
    assert site.template.match(printed) is not None, (site.template.display, printed)
