"""A helper passing its ``*args`` on to ``assertRaises`` (test_argparse's
``assertArgumentParserError``, 24 calls) gave ``*args(**kwargs)``: a SyntaxError."""

from __future__ import annotations

import ast
import textwrap

from errdex.verify.from_tests import candidates

SOURCE = textwrap.dedent(
    """
    import unittest
    import argparse


    class ArgumentParserError(Exception):
        pass


    class TestSub(unittest.TestCase):
        def assertArgumentParserError(self, *args, **kwargs):
            self.assertRaises(ArgumentParserError, *args, **kwargs)

        def assertAnything(self, *args):
            self.assertRaises(*args)

        def test_a(self):
            parser = argparse.ArgumentParser()
            self.assertArgumentParserError(parser.parse_args, ['--x'])

        def test_b(self):
            self.assertAnything(ValueError, int, 'x')
    """
)


def test_a_starred_function_is_the_tuples_head() -> None:
    cands = [c for c in candidates(ast.parse(SOURCE), "Lib/test/test_zz.py")]
    programs = [c.program for c in cands if c.test.endswith("test_a")]
    assert programs
    for program in programs:
        assert program.endswith("args[0](*args[1:], **kwargs)")
        try:
            exec(compile(program, "<reproducer>", "exec"), {})
        except SystemExit as exc:  # the parser's own error, no SyntaxError
            assert exc.code == 2
        else:
            raise AssertionError("the parser's error was not raised")
    # assertRaises(*args): neither the class nor the function can be read
    assert not [c for c in cands if c.test.endswith("test_b")]
