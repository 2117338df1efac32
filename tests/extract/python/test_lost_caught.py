"""``raise e`` in a function defined under ``except … as e`` raises NameError once the
handler has ended (numpy's typing/mypy_plugin.py): the site says so, with the words Python
prints (extract/python/lost_caught.py)."""

from __future__ import annotations

import textwrap

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
