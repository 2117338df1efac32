"""Snippets cut out of test modules: imports, helpers, the statements before the raise."""

from __future__ import annotations

import ast
import contextlib
import textwrap
from pathlib import Path

from errdex.verify.from_tests import candidates, module_of

MODULE = textwrap.dedent(
    """
    import os
    import pytest
    import mylib as ml
    from mylib.core import check, Box
    from .helpers import build

    LIMIT = 3


    def make(n):
        return [ml.item(i) for i in range(n)]


    @pytest.fixture
    def box():
        return Box(LIMIT)


    def test_plain():
        '''Negative values are refused.'''
        items = make(2)
        assert items
        with pytest.raises(ValueError, match="negative"):
            check(-1)


    def test_two_expectations():
        with pytest.raises(KeyError):
            check("a")
        x = 5
        with pytest.raises(TypeError) as info:
            check(x, None)
        assert "x" in str(info.value)


    def test_fixture(box):
        with pytest.raises(IndexError):
            box.get(10)


    def test_fixture_out_of_reach(capsys):
        with pytest.raises(OSError):
            check(capsys)


    @pytest.mark.parametrize("value, kind", [(1, "a"), pytest.param(2, "b", id="two")])
    def test_cases(value, kind):
        with pytest.raises(ValueError):
            check(value, kind)


    def test_loop():
        for n in (1, 2):
            with pytest.raises(ValueError):
                check(-n)


    def test_callable_form_and_warns():
        pytest.raises(ZeroDivisionError, check, 0, key="k")
        with pytest.warns(UserWarning):
            ml.old()


    class TestBox:
        size = 4

        def setup_method(self):
            self.box = Box(self.size)

        def test_full(self):
            self.box.fill()
            with pytest.raises(OverflowError):
                self.box.add(1)

        def test_needs_self(self):
            with pytest.raises(ValueError):
                self.helper()
    """
)

UNITTEST = textwrap.dedent(
    """
    import unittest
    import json as j


    class JsonTest(unittest.TestCase):
        def setUp(self):
            self.text = "{"
            self.addCleanup(print)

        def test_decode(self):
            self.assertRaises(j.JSONDecodeError, j.loads, self.text)
            self.assertRaisesRegex(ValueError, "Expecting", j.loads, "[")
            with self.assertRaises(TypeError):
                j.dumps(object())

        def test_try_form(self):
            try:
                j.loads("x")
            except ValueError:
                pass
            else:
                self.fail("no error")
    """
)


def _by_test(text: str, path: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cand in candidates(text, path):
        out.setdefault(cand.test.split("::", 1)[1], []).append(cand.program)
    return out


def test_module_names_past_src_and_lib() -> None:
    assert module_of("src/mylib/tests/test_x.py") == "mylib.tests.test_x"
    assert module_of("Lib/test/test_json/__init__.py") == "test.test_json"


def test_the_statements_before_the_raise_and_only_the_imports_they_use() -> None:
    got = _by_test(MODULE, "mylib/tests/test_core.py")
    plain, unrelated_dropped = got["test_plain"]
    assert plain == (
        "import mylib as ml\nfrom mylib.core import check, Box\n\n"
        "def make(n):\n    return [ml.item(i) for i in range(n)]\n"
        "items = make(2)\ncheck(-1)"
    )
    ast.parse(plain)
    # and a second program without what shares no name with the call (verify/_prune)
    assert unrelated_dropped == "from mylib.core import check, Box\ncheck(-1)"


def test_each_expectation_is_its_own_snippet_without_the_earlier_ones() -> None:
    first, second = _by_test(MODULE, "mylib/tests/test_core.py")["test_two_expectations"]
    assert first.endswith("check('a')")
    assert second.endswith("x = 5\ncheck(x, None)")
    assert "check('a')" not in second and "str(info.value)" not in second


def test_a_trivial_fixture_is_inlined_and_others_are_out_of_reach() -> None:
    got = _by_test(MODULE, "mylib/tests/test_core.py")
    (fixture,) = got["test_fixture"]
    assert "LIMIT = 3\nbox = Box(LIMIT)\nbox.get(10)" in fixture
    assert "test_fixture_out_of_reach" not in got


def test_parametrize_cases_each_give_a_snippet() -> None:
    cases = _by_test(MODULE, "mylib/tests/test_core.py")["test_cases"]
    assert [c.splitlines()[-3:] for c in cases] == [
        ["value = 1", "kind = 'a'", "check(value, kind)"],
        ["value = 2", "kind = 'b'", "check(value, kind)"],
    ]


def test_loops_callable_form_and_warns() -> None:
    cands = {c.test.split("::")[1]: c for c in candidates(MODULE, "t.py") if c.warns}
    assert cands["test_callable_form_and_warns"].program.endswith("ml.old()")
    got = _by_test(MODULE, "t.py")
    assert got["test_loop"][0].endswith("for n in (1, 2):\n    check(-n)")
    assert got["test_callable_form_and_warns"][0].endswith("check(0, key='k')")


def test_class_attributes_and_setup_become_plain_names() -> None:
    got = _by_test(MODULE, "t.py")
    (full,) = got["TestBox::test_full"]
    assert full.endswith("size = 4\nbox = Box(size)\nbox.fill()\nbox.add(1)")
    assert "TestBox::test_needs_self" not in got  # self.helper() is out of reach


def test_unittest_forms_relative_imports_and_try_except() -> None:
    got = _by_test(UNITTEST, "Lib/test/test_j.py")
    decode = got["JsonTest::test_decode"]
    assert decode[0] == "import json as j\ntext = '{'\nj.loads(text)"
    assert decode[1].endswith("j.loads('[')")
    assert decode[2].endswith("j.dumps(object())")
    assert got["JsonTest::test_try_form"][0].endswith("j.loads('x')")
    rel = candidates(
        "from .helpers import build\n\ndef test_a():\n    with raises(E):\n        build()\n",
        "pkg/tests/test_a.py",
    )
    assert rel == []  # `raises` not imported from pytest: no expectation
    rel = candidates(
        "import pytest\nfrom .helpers import build\n\n"
        "def test_a():\n    with pytest.raises(ValueError):\n        build()\n",
        "pkg/tests/test_a.py",
    )
    assert rel[0].program.startswith("from pkg.tests.helpers import build")


def test_broken_modules_give_nothing() -> None:
    assert candidates("def test_(:\n", "t.py") == []


DEPRECATED = textwrap.dedent(
    """
    import pytest
    import mylib as ml


    def test_old_names_warn():
        with pytest.deprecated_call():
            ml.old(1)
        pytest.deprecated_call(ml.older, 2)


    def test_checks_keep_their_calls(self):
        box = ml.Box()
        assert ml.first(box) == 1
        self.assertEqual(ml.size(box), 1)
        self.assertRaises(ValueError, ml.first, None)
    """
)


def test_deprecated_call_is_a_warning_expectation() -> None:
    cands = [c for c in candidates(DEPRECATED, "t.py") if c.test.endswith("test_old_names_warn")]
    assert [(c.program.splitlines()[-1], c.warns) for c in cands] == [
        ("ml.old(1)", True),
        ("ml.older(2)", True),
    ]


def test_a_body_keeps_the_calls_its_checks_make_and_not_those_expected_to_fail() -> None:
    (body,) = [
        c
        for c in candidates(DEPRECATED, "t.py", bodies=True)
        if c.kind == "body" and c.test.endswith("test_checks_keep_their_calls")
    ]
    assert body.program.splitlines()[-3:] == [
        "box = ml.Box()",
        "ml.first(box) == 1",
        "ml.size(box)",
    ]


def test_a_while_loop_keeps_the_calls_of_its_checks_that_end_it() -> None:
    """``while pairs: self.assertEqual(od.popitem(), pairs.pop())`` cut to ``while pairs:
    pass`` spun until the time-out (CPython's test_ordered_dict); its checks' calls stay,
    and a loop with nothing left to run is dropped."""
    source = textwrap.dedent(
        """
        import unittest
        from collections import OrderedDict


        class T(unittest.TestCase):
            def test_popitem(self):
                pairs = [('c', 1), ('b', 2)]
                od = OrderedDict(pairs)
                while pairs:
                    self.assertEqual(od.popitem(), pairs.pop())
                while od:
                    self.assertTrue(True)
                with self.assertRaises(KeyError):
                    od.popitem()
        """
    )
    (cand,) = candidates(ast.parse(source), "tests/test_od.py")
    assert "while pairs:\n    od.popitem()\n    pairs.pop()\n" in cand.program
    assert "pass" not in cand.program and "while od" not in cand.program
    namespace: dict[str, object] = {}
    try:
        exec(compile(cand.program, "<reproducer>", "exec"), namespace)
    except KeyError:
        pass
    else:
        raise AssertionError("the snippet did not reach the raise")


def test_the_else_of_an_if_and_of_a_for_stays_in_the_loop_they_make_progress_in() -> None:
    """test_pwd's 'a name no user has': cut without the ``else`` branches, the loop spun
    to the time-out."""
    source = textwrap.dedent(
        """
        import unittest
        import pwd


        class T(unittest.TestCase):
            def test_errors(self):
                bynames = {'ab': 1, 'ac': 2}
                fakename = 'ab'
                while fakename in bynames:
                    chars = list(fakename)
                    for i in range(len(chars)):
                        if chars[i] == 'z':
                            chars[i] = 'A'
                            break
                        else:
                            chars[i] = chr(ord(chars[i]) + 1)
                            break
                    else:
                        break
                    fakename = ''.join(chars)
                self.assertRaises(KeyError, pwd.getpwnam, fakename)
        """
    )
    (cand,) = candidates(ast.parse(source), "tests/test_pw.py")
    assert "chars[i] = chr(ord(chars[i]) + 1)" in cand.program
    namespace: dict[str, object] = {}
    with contextlib.suppress(KeyError):  # no user 'bb' here
        exec(compile(cand.program, "<reproducer>", "exec"), namespace)
    assert namespace["fakename"] == "bb"


def test_the_whole_program_keeps_setup_that_acts_and_every_one_what_is_checked() -> None:
    module = textwrap.dedent(
        """
        import os, unittest
        import pytest
        from unittest import mock
        import pkg
        from pkg import f


        class T(unittest.TestCase):
            def setUp(self):
                self.patcher = mock.patch.object(pkg, "STRICT", True).start()
                self.data = "x" * 40
                self.x = 1

            def test_a(self):
                with self.assertRaises(ValueError):
                    f(self.x)


        @pytest.mark.parametrize("arg,exc", [(1, ValueError)])
        def test_p(arg, exc):
            with pytest.raises(exc):
                f(arg)


        def test_builtin_name():
            input = 12345
            with pytest.raises(TypeError):
                f(input)
        """
    )
    got = {c.program: c.expects.classes for c in candidates(module, "tests/test_x.py")}
    patch = "patcher = mock.patch.object(pkg, 'STRICT', True).start()\n"
    # the patch was dropped from every program (nothing reads 'patcher'); the unread
    # constant data only binds a name
    assert (
        "from unittest import mock\nimport pkg\nfrom pkg import f\n" + patch + "x = 1\nf(x)" in got
    )
    assert not [p for p in got if p.endswith("f(x)") and patch not in p]
    # the class check stays on: exc is bound in every program of test_p
    assert got["from pkg import f\narg = 1\nexc = ValueError\nf(arg)"] == ("ValueError",)
    assert [p for p in got if p.endswith("f(input)")] == [
        "from pkg import f\ninput = 12345\nf(input)"
    ]


def test_a_try_around_the_expectation_keeps_its_finally_and_drops_its_handlers() -> None:
    """lock_tests' test_different_thread: cut without ``finally: bunch.do_finish()`` the
    error left the ``with`` while its threads waited, and the run was stopped as blocked."""
    source = textwrap.dedent(
        """
        import unittest


        class Gate:
            def __init__(self):
                self.open = False

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                if not self.open:
                    raise TimeoutError('nobody called finish()')

            def finish(self):
                self.open = True


        def release():
            raise RuntimeError('not held')


        class T(unittest.TestCase):
            def test_release(self):
                with Gate() as gate:
                    try:
                        self.assertRaises(RuntimeError, release)
                    except OSError:
                        pass
                    finally:
                        gate.finish()
        """
    )
    (cand,) = candidates(ast.parse(source), "tests/test_gate.py")
    assert "gate.finish()" in cand.program
    assert "except OSError" not in cand.program
    with contextlib.suppress(RuntimeError):
        exec(compile(cand.program, "<reproducer>", "exec"), {})
        raise AssertionError("the snippet did not raise")


def test_a_module_imported_through_test_support_counts_as_imported(tmp_path: Path) -> None:
    """test_sunau binds ``sunau = warnings_helper.import_deprecated("sunau")`` and has no
    import statement of it: ``verify --only`` dropped the module for a sunau record."""
    from errdex.verify.runner import _may_import

    source = textwrap.dedent(
        """
        import io
        import unittest
        from test.support import warnings_helper

        sunau = warnings_helper.import_deprecated("sunau")


        class SunauLowLevelTest(unittest.TestCase):
            def test_read_bad_magic_number(self):
                with self.assertRaises(sunau.Error):
                    sunau.open(io.BytesIO(b'SPA'))
        """
    )
    cands = candidates(ast.parse(source), "Lib/test/test_sunau.py")
    assert cands and all("sunau" in c.imports for c in cands)
    file = tmp_path / "test_sunau.py"
    file.write_text(source)
    assert _may_import(file, {"sunau"})
    assert not _may_import(file, {"aifc"})
