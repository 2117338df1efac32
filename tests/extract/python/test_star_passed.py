"""A class-passing helper raising ``exception(*args)`` (more-itertools' ``raise_``): each
call's one extra argument is the message, in a lambda or a default argument as anywhere,
checked against what the fixture really raises."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract.python import extract_python
from errdex.extract.python.star_passed import one_star_arg, single_star

from ._fixture import raised

MORE = textwrap.dedent(
    """\
    def raise_(exception, *args):
        raise exception(*args)


    def strictly_n(iterable, n, too_short=None, too_long=None):
        if too_short is None:
            too_short = lambda item_count: raise_(
                ValueError,
                f"Too few items in iterable (got {item_count})",
            )
        if too_long is None:
            too_long = lambda item_count: raise_(
                ValueError,
                f"Too many items in iterable (got at least {item_count})",
            )
        items = list(iterable)
        if len(items) < n:
            too_short(len(items))
        if len(items) > n:
            too_long(n + 1)
        return items


    def pick(key, missing=lambda k: raise_(KeyError, k)):
        return missing(key)


    def checked(value, fail=lambda v: raise_(TypeError, "not a number: " + repr(v))):
        return fail(value)
    """
)


def _at_raise(code: str) -> dict[str, list[str]]:
    """Per class, the message displays of the sites at ``raise exception(*args)``."""
    out: dict[str, list[str]] = {}
    for s in extract_python(code, "m.py", module="m"):
        if s.line == 2:
            out.setdefault(s.error_class or "", []).append(s.template.display)
    return out


def test_each_lambda_call_s_message_is_a_message_of_the_raise() -> None:
    sites = [s for s in extract_python(MORE, "m.py", module="m") if s.line == 2]
    values = [s for s in sites if s.error_class == "ValueError"]
    for call in ("strictly_n('ab', 3)", "strictly_n('abcd', 3)"):
        printed = str(raised(MORE, call))
        assert printed.startswith("Too ")
        assert any(
            not s.template.is_opaque and s.template.match(printed) is not None for s in values
        ), printed


def test_a_default_argument_s_lambda_passes_its_class_and_text() -> None:
    by_class = _at_raise(MORE)
    assert "TypeError" in by_class and "KeyError" in by_class
    printed = str(raised(MORE, "checked(1.5)"))
    (typed,) = [
        s
        for s in extract_python(MORE, "m.py", module="m")
        if s.line == 2 and s.error_class == "TypeError" and not s.template.is_opaque
    ]
    assert typed.template.match(printed) is not None, printed


def _fn_and_call(code: str) -> tuple[ast.FunctionDef, ast.Call]:
    tree = ast.parse(code)
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    expr = tree.body[1]
    assert isinstance(expr, ast.Expr) and isinstance(expr.value, ast.Call)
    return fn, expr.value


def test_several_or_starred_arguments_leave_the_line_as_written() -> None:
    for call in ("raise_(ValueError, 'a', 'b')", "raise_(ValueError, *parts)", "raise_(E)"):
        fn, node = _fn_and_call(
            f"def raise_(exception, *args):\n    raise exception(*args)\n{call}\n"
        )
        assert one_star_arg(fn, node, method=False) is None
        raise_stmt = fn.body[0]
        assert isinstance(raise_stmt, ast.Raise) and raise_stmt.exc is not None
        assert single_star(raise_stmt.exc, fn, [node], method=False) is None


def test_a_helper_that_rebinds_its_args_keeps_the_line_as_written() -> None:
    code = textwrap.dedent(
        """\
        def raise_(exception, *args):
            if not args:
                args = ("no details",)
            raise exception(*args)


        def a():
            raise_(ValueError, "low")
        """
    )
    printed = str(raised(code, "a()"))
    assert printed == "low"
    sites = [s for s in extract_python(code, "m.py", module="m") if s.line == 4]
    assert sites
    for s in sites:
        assert "no details" not in s.template.display
        assert s.template.is_opaque or s.template.match(printed) is not None
