"""A private helper raising what its callers handed it (stdlib ``statistics._fail_neg``,
packaging's ``_get_object(d, Cls, "vcs")``): the record at the helper's raise line holds
the callers' messages, each checked against ``str()`` of what the fixture really raises."""

from __future__ import annotations

import ast
import sysconfig
from collections.abc import Iterator
from pathlib import Path

from errdex.extract.python.walk import ModuleExtractor

from ._fixture import raised, raises_as_recorded, templates_at

FAIL_NEG = """\
class StatisticsError(ValueError):
    pass


def _fail_neg(values, errmsg='negative value'):
    for x in values:
        if x < 0:
            raise StatisticsError(errmsg)
        yield x


def harmonic_mean(data):
    errmsg = 'harmonic mean does not support negative values'
    return sum(_fail_neg(data, errmsg))


def geometric_mean(data):
    return sum(_fail_neg(data))


def public_check(value, what):
    if value < 0:
        raise StatisticsError(f"{what} must not be negative")


def area(side):
    public_check(side, "side")
"""

CONTEXT = """\
class Invalid(Exception):
    def __init__(self, message, *, context=None):
        self.message = message
        self.context = context

    def __str__(self):
        if self.context:
            return f"{self.message} in {self.context!r}"
        return self.message


def _get_items(d, key):
    value = d.get(key)
    if not isinstance(value, list):
        raise Invalid("Expected a list", context=f"{key}[0]")
    return value


def _get_required_items(d, key):
    return _get_items(d, key)


def load(d):
    return _get_items(d, "wheels"), _get_required_items(d, "packages")


def _unused(key):
    raise Invalid("never called", context=key)
"""


def _printed(code: str, call: str) -> str:
    return str(raised(code, call))


def test_a_private_helper_raises_each_message_its_callers_pass() -> None:
    templates = templates_at(FAIL_NEG, "raise StatisticsError(errmsg)")
    # one caller passes its local, one leaves the default: both print, nothing else does
    assert set(templates) == {"harmonic mean does not support negative values", "negative value"}
    for call in ("harmonic_mean([1, -2])", "geometric_mean([-1])"):
        printed = _printed(FAIL_NEG, call)
        assert any(t.match(printed) is not None for t in templates.values()), printed


def test_a_public_function_keeps_its_own_template_beside_its_callers() -> None:
    """Code outside the module may call ``public_check`` with anything."""
    templates = templates_at(FAIL_NEG, 'raise StatisticsError(f"{what}')
    assert set(templates) == {"{what} must not be negative", "side must not be negative"}
    printed = _printed(FAIL_NEG, "area(-1)")
    assert templates["side must not be negative"].match(printed) is not None


def test_the_context_a_caller_names_is_in_the_template() -> None:
    templates = templates_at(CONTEXT, 'raise Invalid("Expected a list"')
    assert set(templates) == {
        "Expected a list in 'wheels[0]'",
        "Expected a list in 'packages[0]'",
    }
    assert all(not t.holes for t in templates.values())
    wheels = _printed(CONTEXT, "load({})")
    packages = _printed(CONTEXT, "load({'wheels': []})")
    assert templates["Expected a list in 'wheels[0]'"].match(wheels) is not None
    assert templates["Expected a list in 'packages[0]'"].match(packages) is not None
    # a helper nobody calls keeps what its line shows: the context is a parameter
    assert any(t.holes for t in templates_at(CONTEXT, 'raise Invalid("never').values())


def test_each_of_many_callers_keeps_its_own_message() -> None:
    """Ten contexts (``'hashes'``, ``'name'``…) are ten facts, more than one expression's
    alternatives are allowed to be."""
    keys = [f"key{i}" for i in range(10)]
    code = (
        "def _need(d, key):\n"
        "    if key not in d:\n"
        "        raise KeyError(f'missing {key}')\n"
        "\n\n"
        "def load(d):\n" + "".join(f"    _need(d, {k!r})\n" for k in keys)
    )
    templates = templates_at(code, "raise KeyError")
    assert set(templates) == {f"'missing {k}'" for k in keys}
    printed = _printed(code, "load({})")
    assert templates["'missing key0'"].match(printed) is not None


CASE = """\
class Failure(AssertionError):
    pass


class Case:
    def fail(self, msg=None):
        raise Failure(msg)

    def check_positive(self, value):
        if value <= 0:
            self.fail("value must be positive")

    def check_name(self, name):
        if not name:
            self.fail(f"empty name for {self!r}")


class Other:
    def fail(self, msg=None):
        raise Failure(msg)

    def run(self):
        self.fail("other failed")
"""


def test_a_method_raising_its_argument_takes_each_self_call() -> None:
    """``self.fail("…")`` (unittest's form): the record at ``fail``'s raise line holds each
    message its class passes, beside the bare argument (code elsewhere may call it)."""
    found = templates_at(CASE, "raise Failure(msg)")  # the first: ``Case.fail``
    assert {"value must be positive", "empty name for {self!r}"} <= set(found)
    assert "other failed" not in found  # another class's ``self.fail``
    printed = _printed(CASE, "Case().check_positive(0)")
    assert found["value must be positive"].match(printed) is not None
    printed = _printed(CASE, "Case().check_name('')")
    assert found["empty name for {self!r}"].match(printed) is not None


CLASS_PASSED = """\
class _Error(Exception):
    pass


def _get_module_details(mod_name, error=ImportError):
    if mod_name.startswith("."):
        raise error("Relative module names not supported")
    if mod_name.endswith("__main__"):
        return _get_module_details(mod_name[:-9], error)
    return mod_name


def run_module(mod_name):
    return _get_module_details(mod_name)


def run_as_main(mod_name):
    return _get_module_details(mod_name, _Error)
"""


def test_class_given_by_the_callers_or_the_default() -> None:
    """runpy's ``_get_module_details(mod_name, error=ImportError)``: each class a call
    passes (``_Error``) or the default, the record's message as that class prints it."""
    import textwrap

    from errdex.extract.python import extract_python

    found = [
        s for s in extract_python(textwrap.dedent(CLASS_PASSED), "m.py", module="m") if s.line == 7
    ]
    assert sorted(s.qualified_class or "" for s in found) == ["builtins.ImportError", "m._Error"]
    assert {s.template.display for s in found} == {"Relative module names not supported"}
    cases = {"run_module('.x')": "ImportError", "run_as_main('.x')": "_Error"}
    raises_as_recorded(CLASS_PASSED, found, cases)
    assert all("class taken from the 3 call(s)" in " ".join(s.notes) for s in found)


def _calls_spanning(
    body: list[ast.stmt], within: ast.AST | None, lines: list[int]
) -> Iterator[tuple[ast.Call, ast.AST | None]]:
    """The search statement by statement, as it was written before the index."""
    for stmt in body:
        if not any(stmt.lineno <= n <= (stmt.end_lineno or stmt.lineno) for n in lines):
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _calls_spanning(stmt.body, stmt, lines)
        elif isinstance(stmt, ast.ClassDef):
            yield from _calls_spanning(stmt.body, within, lines)
        else:
            yield from ((n, within) for n in ast.walk(stmt) if isinstance(n, ast.Call))


def test_calls_on_lines_are_those_of_the_statements_spanning_them() -> None:
    source = "x = f(1); y = f(\n  2)\nclass C:\n    def m(self):\n        if a:\n            f(3)\n"
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for text in (source, (stdlib / "argparse.py").read_text(encoding="utf-8")):
        reader = ModuleExtractor(text, "m.py", "m", {})
        reader._tree = tree = ast.parse(text)
        for needle in ("f(", "_(", "self._get_formatter(", "ArgumentError(", "zz("):
            lines = reader.lines_with(needle)
            got = list(reader._calls_on(lines))
            assert got == list(_calls_spanning(tree.body, None, lines))
        assert got == []  # "zz(": no line
    # the last reader is argparse's: its ``_(…)`` calls are many, in methods and not
    assert len(list(reader._calls_on(reader.lines_with("_(")))) > 50
