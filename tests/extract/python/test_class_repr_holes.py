"""An f-string's ``{type(x)}`` in a ``.py`` file prints a class's repr: its hole admits only
``<class '…'>``, as ``"%s" % type(x)`` does (extract/python/__init__.py,
extract/class_holes.py)."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python

from ._fixture import raised

CODE = textwrap.dedent(
    """\
    def f(x):
        if isinstance(x, int):
            raise TypeError(f"expected a str, not {type(x)}")
        raise TypeError(f"expected a str, not {type(x).__name__}")
    """
)


def test_an_f_string_class_hole_admits_only_a_class_repr() -> None:
    printed = str(raised(CODE, "f(1)"))  # expected a str, not <class 'int'>
    sites = {s.line: s for s in extract_python(CODE, "m.py", module="m")}
    typed = sites[3].template
    assert typed.match(printed) is not None
    assert typed.match("expected a str, not int") is None
    # ``__name__`` prints the bare name: that hole stays any text
    named = sites[4].template
    assert named.match(str(raised(CODE, "f(1.5)"))) is not None
    assert named.match("expected a str, not float") is not None


SHADOWED = textwrap.dedent(
    """\
    def f9(x, type=len):
        raise TypeError(f"bad {type(x)}")
    """
)


def test_a_type_that_shadows_the_builtin_keeps_its_hole_any_text() -> None:
    """``type=len``: ``{type(x)}`` prints ``bad 3``, no class repr."""
    printed = str(raised(SHADOWED, "f9('abc')"))
    (site,) = extract_python(SHADOWED, "m.py", module="m")
    assert site.template.match(printed) is not None, (site.template.display, printed)
