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


SCOPED = textwrap.dedent(
    """\
    def f9(x, type=len):
        raise TypeError(f"bad {type(x)}")


    def g9(x):
        raise TypeError(f"bad {type(x)}")
    """
)


def test_a_binding_in_one_function_leaves_the_others_typed() -> None:
    """Python scopes names per function: ``g9`` sees the builtin ``type`` although ``f9``
    binds a parameter of that name, so only ``f9``'s hole is any text."""
    sites = {s.line: s.template for s in extract_python(SCOPED, "m.py", module="m")}
    assert sites[2].match(str(raised(SCOPED, "f9('abc')"))) is not None  # 'bad 3'
    printed = str(raised(SCOPED, "g9(1)"))  # bad <class 'int'>
    assert sites[6].match(printed) is not None
    assert sites[6].match("bad 3") is None


def test_a_global_statement_opens_every_hole() -> None:
    code = SCOPED + "\n\ndef h9():\n    global str\n    str = repr\n"
    sites = {s.line: s.template for s in extract_python(code, "m.py", module="m")}
    assert sites[6].match("bad 3") is not None
