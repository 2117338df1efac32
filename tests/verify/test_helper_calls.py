"""A test's expectation in a helper method it calls, inlined: the helper's parameters bound
to the call's arguments, and the test's statements before the call kept."""

from __future__ import annotations

import ast
import textwrap

from errdex.verify._helper_calls import helper_cuts
from errdex.verify._test_cases import CaseIndex
from errdex.verify.from_tests import candidates, module_of

MODULE = textwrap.dedent(
    """
    import unittest
    import json as j

    if j.__name__ == "json":
        loads = j.loads
    else:
        loads = None
    backend = "py"
    if backend == "py":
        backend = backend.upper()


    class DecodeTests(unittest.TestCase):
        def _check(self, decode, text, kind=ValueError):
            decode("[1]")
            with self.assertRaises(kind):
                decode(text)

        def _no_expectation(self, decode):
            decode("[]")

        def _returns(self, decode):
            if decode is None:
                return
            self.assertRaises(ValueError, decode, "{")

        def test_py(self):
            prefix = "["
            self._no_expectation(loads)
            self._check(loads, prefix + "x")

        def test_kwargs(self):
            for text in ("{", "x"):
                self._check(decode=j.loads, text=text, kind=j.JSONDecodeError)

        def test_returns(self):
            self._returns(loads)

        def test_backend(self):
            with self.assertRaises(ValueError):
                j.loads(backend)
    """
)
PATH = "Lib/test/test_decode.py"


def _cands() -> dict[str, list[tuple[int, str]]]:
    tree = ast.parse(MODULE)
    index = CaseIndex()
    index.add(module_of(PATH), tree, PATH)
    out: dict[str, list[tuple[int, str]]] = {}
    for cand in candidates(tree, PATH, index):
        out.setdefault(cand.test.rsplit("::", 1)[1], []).append((cand.line, cand.program))
    return out


def test_a_helpers_expectation_is_cut_with_its_parameters_bound() -> None:
    ((line, program),) = _cands()["test_py"]
    assert line == MODULE.splitlines().index("        with self.assertRaises(kind):") + 1
    assert program.endswith(
        "prefix = '['\nself._no_expectation(loads)\n"
        "decode = loads\ntext = prefix + 'x'\nkind = ValueError\n"
        "decode('[1]')\ndecode(text)"
    )
    # the module-level 'if' that binds loads comes with it
    assert "if j.__name__ == 'json':\n    loads = j.loads\nelse:\n    loads = None" in program


def test_keywords_and_a_loop_around_the_call() -> None:
    whole, *items = (program for _, program in _cands()["test_kwargs"])
    assert whole.endswith(
        "for text in ('{', 'x'):\n    decode = j.loads\n"
        "    kind = j.JSONDecodeError\n    decode('[1]')\n    decode(text)"
    )
    # each item of the loop is a program of its own too (._loop_items), and a shorter one
    # without what shares no name with the call (._prune): the expectation's class is read
    # through the call's kind=j.JSONDecodeError, so the run needs no 'kind'
    assert [p.split("\n")[1] for p in items] == ["text = '{'"] * 2 + ["text = 'x'"] * 2
    assert items[3] == "import json as j\ntext = 'x'\ndecode = j.loads\ndecode('[1]')\ndecode(text)"
    assert items[2] == (
        "import json as j\ntext = 'x'\ndecode = j.loads\nkind = j.JSONDecodeError\n"
        "decode('[1]')\ndecode(text)"
    )


def test_a_helper_that_returns_is_not_inlined() -> None:
    assert "test_returns" not in _cands()


def test_a_module_rebinding_that_reads_the_name_keeps_the_binding_before_it() -> None:
    ((_, program),) = _cands()["test_backend"]
    assert "backend = 'py'\nif backend == 'py':\n    backend = backend.upper()" in program


def test_at_most_the_helpers_calls_that_hold_an_expectation() -> None:
    tree = ast.parse(MODULE)
    cls = next(s for s in tree.body if isinstance(s, ast.ClassDef))
    methods = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)}
    test = methods["test_py"]
    cuts = list(
        helper_cuts(
            test, lambda n, on_self: methods.get(n), lambda s: "assertRaises" in ast.unparse(s)[:40]
        )
    )
    assert len(cuts) == 1  # _no_expectation holds none
    helper = methods["_check"]
    assert (cuts[0].first, cuts[0].last) == (helper.lineno, helper.end_lineno)
    assert test.body[-1].lineno != cuts[0].func.body[-1].lineno  # the test is not changed
    assert isinstance(test.body[-1], ast.Expr)


PYTEST_MODULE = textwrap.dedent(
    """
    import pytest
    import mylib


    class TestParse:
        sample = "x" * 40
        empty = ""

        def test_file(self, tmp_path):
            path = tmp_path / "a.txt"

            def bad(text):
                pytest.raises(ValueError, mylib.parse, text)

            bad("[")
            bad("]")
            mylib.parse(self.empty)
    """
)


def test_pytests_tmp_path_a_local_helper_and_no_unused_class_data() -> None:
    got = [(c.line, c.program) for c in candidates(PYTEST_MODULE, "mylib/tests/test_parse.py")]
    line = PYTEST_MODULE.splitlines().index(
        "            pytest.raises(ValueError, mylib.parse, text)"
    )
    head = (
        "import mylib\nimport pathlib\nimport tempfile\n"
        "tmp_path = pathlib.Path(tempfile.mkdtemp(dir='.')).resolve()\npath = tmp_path / 'a.txt'\n"
    )
    # each call of the local helper is a program of its own, without the other call; and
    # each again without the file work that shares no name with the call (._prune)
    assert got == [
        (line + 1, head + "text = '['\nmylib.parse(text)"),
        (line + 1, "import mylib\ntext = '['\nmylib.parse(text)"),
        (line + 1, head + "text = ']'\nmylib.parse(text)"),
        (line + 1, "import mylib\ntext = ']'\nmylib.parse(text)"),
    ]


def test_a_block_left_empty_gets_a_pass_with_a_line() -> None:
    module = textwrap.dedent(
        """
        import pytest
        import mylib


        def bad(text):
            for each in (text, text + " "):
                with pytest.raises(ValueError):
                    mylib.parse(each)


        def test_only_checks():
            with mylib.strict():
                bad("[")
            bad("]")
            with pytest.raises(TypeError):
                mylib.parse(None)
        """
    )
    got = [c.program for c in candidates(module, "mylib/tests/test_p.py")]
    # the second call's copy leaves the with around the first call empty: a pass, with
    # a line (expectation_at reads every statement's line: it crashed a stdlib verify)
    assert (
        "import mylib\nwith mylib.strict():\n    pass\ntext = ']'\neach = text\nmylib.parse(each)"
        in got
    )


STATIC_MODULE = textwrap.dedent(
    """
    import unittest
    from pkg import f


    class T(unittest.TestCase):
        @staticmethod
        def _bad(text=None):
            with self.assertRaises(ValueError):
                f(text)

        @staticmethod
        def _h(a, b=0):
            with self.assertRaises(ValueError):
                f(a, b)

        def test_bad(self):
            self._bad()

        def test_static(self):
            self._h(1)
    """
)
SWAP_MODULE = textwrap.dedent(
    """
    import unittest
    from pkg import f

    LIMIT = 10


    class T(unittest.TestCase):
        def _check(self, lo, hi):
            with self.assertRaises(ValueError):
                f(lo, hi)

        def _limited(self, value):
            with self.assertRaises(ValueError):
                f(value, LIMIT)

        def test_swap(self):
            lo, hi = 1, 2
            self._check(hi, lo)

        def test_shadow(self):
            LIMIT = 3
            self._limited(LIMIT)
    """
)


def _static_programs(module: str = STATIC_MODULE) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cand in candidates(module, "tests/test_s.py"):
        out.setdefault(cand.test.rsplit("::", 1)[-1], []).append(cand.program)
    return out


def test_a_static_helper_binds_its_first_parameter_and_never_crashes() -> None:
    # the first parameter of a staticmethod was skipped as if it were self: zip(strict)
    # raised ValueError out of candidates, and the whole verify died
    got = _static_programs()
    assert got["test_bad"] == ["from pkg import f\ntext = None\nf(text)"]
    assert got["test_static"] == ["from pkg import f\na = 1\nb = 0\nf(a, b)"]


def test_crossed_parameters_keep_their_values_and_test_locals_shadow_no_global() -> None:
    got = _static_programs(SWAP_MODULE)
    # 'lo = hi; hi = lo' passed (2, 2): the helper's parameters get names of their own
    assert got["test_swap"] == [
        "from pkg import f\nlo, hi = (1, 2)\ncheck_lo = hi\ncheck_hi = lo\nf(check_lo, check_hi)"
    ]
    # the test's LIMIT = 3 would stand for the module's LIMIT the helper reads: not inlined
    assert "test_shadow" not in got


def test_an_assert_helper_of_the_module_with_star_parameters_is_inlined() -> None:
    """test_fractions' ``self.assertRaisesMessage(ValueError, msg, F, '3/')``: a helper
    named ``assert...`` taking ``*args, **kwargs`` held the only expectation of the test,
    and no snippet was cut from it."""
    source = textwrap.dedent(
        """
        import unittest
        from fractions import Fraction as F


        class FractionTest(unittest.TestCase):
            def assertRaisesMessage(self, exc_type, message, callable, *args, **kwargs):
                try:
                    callable(*args, **kwargs)
                except exc_type as e:
                    self.assertEqual(message, str(e))
                else:
                    self.fail('not raised')

            def testFromString(self):
                self.assertEqual(F(5), F('5'))
                self.assertRaisesMessage(ValueError, 'Invalid literal for Fraction: 3/', F, '3/')
                self.assertRaisesMessage(TypeError, 'no', int, '1', base=None)
        """
    )
    cands = candidates(ast.parse(source), "Lib/test/test_fractions.py")
    programs = {c.program for c in cands}
    assert any("args = ('3/',)" in p and "kwargs = {}" in p for p in programs)
    assert any("kwargs = {'base': None}" in p for p in programs)
    raised = []
    for program in programs:
        try:
            exec(compile(program, "<reproducer>", "exec"), {})
        except (ValueError, TypeError) as exc:
            raised.append(str(exc))
    assert "Invalid literal for Fraction: '3/'" in raised
