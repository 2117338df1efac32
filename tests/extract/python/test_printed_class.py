"""A module that sets ``__name__ = '…'`` at its top level (``_pydecimal``: ``'decimal'``)
gives the classes it defines after that line that name in ``__module__``: tracebacks print
``decimal.InvalidOperation``. The site keeps the defining class (``qualifiedClass``, what
the analyst resolves) and says how it prints (``printedClass``)."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python

from ._fixture import raised

CODE = """\
class Early(Exception):
    pass


__name__ = "public"


class Late(Exception):
    pass


def f(x):
    if x == 1:
        raise Early("early")
    if x == 2:
        raise Late("late")
    raise ValueError("builtin")
"""


def test_classes_defined_after_the_assignment_print_under_the_module_name() -> None:
    sites = {
        s.template.display: s for s in extract_python(CODE, "pkg/_impl.py", module="pkg._impl")
    }
    late, early, builtin = sites["late"], sites["early"], sites["builtin"]
    # what Python itself prints
    assert f"{type(raised(CODE, 'f(2)')).__module__}.Late" == "public.Late"
    assert type(raised(CODE, "f(1)")).__module__ != "public"
    assert late.qualified_class == "pkg._impl.Late"
    assert late.evidence()["printedClass"] == "public.Late"
    assert early.qualified_class == "pkg._impl.Early"
    assert "printedClass" not in early.evidence()  # defined before: the module's own name
    assert "printedClass" not in builtin.evidence()


def test_a_module_without_the_assignment_prints_nothing_more() -> None:
    code = textwrap.dedent(
        """\
        class E(Exception):
            pass


        def f():
            raise E("x")
        """
    )
    (site,) = extract_python(code, "pkg/mod.py", module="pkg.mod")
    assert site.qualified_class == "pkg.mod.E"
    assert "printedClass" not in site.evidence()
