"""``raise e`` in a function defined under ``except … as e`` raises NameError once the
handler has ended (numpy's typing/mypy_plugin.py): the site says so, with the words Python
prints (extract/python/lost_caught.py)."""

from __future__ import annotations

import sys
import textwrap
import types

import pytest

from errdex.extract.python import extract_python

from ._fixture import raised

CODE = textwrap.dedent(
    """\
    try:
        import no_such_module_here
    except ModuleNotFoundError as e:

        def plugin(version):
            raise e


    def outer():
        try:
            import no_such_module_either
        except ImportError as err:

            def inner():
                raise err

            return inner


    def kept():
        try:
            import no_such_module_at_all
        except ImportError as problem:

            def now():
                raise problem

            now()


    def bound_again():
        try:
            import no_such_module_still
        except ImportError as gone:

            def later():
                raise gone

        gone = ValueError("set again")
        return later
    """
)


def _site(function: str):  # type: ignore[no-untyped-def]
    sites = extract_python(CODE, "m.py", module="m")
    (site,) = [s for s in sites if s.function == function]
    return site


def test_a_module_level_handler_s_name_is_not_defined_when_the_function_runs() -> None:
    exc = raised(CODE, "plugin(1)")
    site = _site("plugin")
    assert (type(exc).__name__, site.error_class) == ("NameError", "NameError")
    assert site.template.display == str(exc)


def test_an_enclosing_function_s_handler_name_is_a_free_variable_without_a_value() -> None:
    exc = raised(CODE, "outer()()")
    site = _site("inner")
    assert (type(exc).__name__, site.error_class) == ("NameError", "NameError")
    assert site.template.display == str(exc)


def test_called_inside_the_handler_or_bound_again_it_is_not_read_so() -> None:
    """``now()`` runs while ``problem`` holds the ImportError; ``gone`` is bound again."""
    assert type(raised(CODE, "kept()")).__name__ == "ModuleNotFoundError"
    assert type(raised(CODE, "bound_again()()")).__name__ == "ValueError"
    assert _site("now").error_class != "NameError"
    assert _site("later").error_class != "NameError"


INDIRECT = textwrap.dedent(
    """\
    import sys


    def g():
        f()


    try:
        raise ValueError("boom")
    except ValueError as e:

        def f():
            raise e

        g()


    try:
        raise KeyError("boom")
    except KeyError as k:

        def h():
            raise k

        getattr(sys.modules[__name__], "h")()
    """
)
REBOUND = textwrap.dedent(
    """\
    try:
        raise ValueError("boom")
    except ValueError as e:

        def f():
            raise e


    globals()["e"] = KeyError("x")
    """
)


def test_a_function_the_handler_may_call_indirectly_raises_the_caught_error() -> None:
    """``g()`` in the handler calls ``f`` while ``e`` holds the ValueError, and
    ``getattr(…)()`` calls ``h``: running the module raises the caught error, not
    NameError, so neither site says NameError."""
    with pytest.raises(ValueError, match="boom"):
        exec(INDIRECT, {"__name__": "m"})
    sys.modules["m_lost_caught"] = module = types.ModuleType("m_lost_caught")
    with pytest.raises(KeyError, match="boom"):
        exec(INDIRECT.replace("    g()\n", ""), module.__dict__)
    del sys.modules["m_lost_caught"]
    for site in extract_python(INDIRECT, "m.py", module="m"):
        assert site.error_class != "NameError", (site.function, site.template.display)


def test_a_module_that_sets_names_through_globals_keeps_no_name_error() -> None:
    assert type(raised(REBOUND, "f()")).__name__ == "KeyError"
    (site,) = [s for s in extract_python(REBOUND, "m.py", module="m") if s.function == "f"]
    assert site.error_class != "NameError"
