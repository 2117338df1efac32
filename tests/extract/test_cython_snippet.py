"""Cython statements read as Python ``ast`` nodes at their place in the file: a statement
that ends on its own row is read without the tokenizer, and reads as the tokenizer reads it."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract.cython.snippet import logical_text, parse_at, parse_expr_at, tokenized_text

PYX = textwrap.dedent(
    """\
    cdef class Reader:
        def read(self, int n):
            if n < 0 or self._closed:  # checked first
                raise ValueError(f"cannot read {n} bytes: 'closed' is {self._closed}")
            elif size := self._size: raise IOError("short read")
            if lambda: n:
                pass
            msg = "a: %s" % n; other = 1
            raise TypeError(
                "no %s" % n)
            raise ValueError(<object>self._err)
            x = ("a" \\
                 "b")
            y = '''a
            b'''  # c
            # only a comment
    """
).splitlines()


def _col(line: int, after: str = "") -> int:
    row = PYX[line - 1]
    return row.index(after) + len(after) if after else len(row) - len(row.lstrip())


def test_every_rows_text_is_the_tokenizers() -> None:
    """From every column of every row, to the end or to a ``:``: one row read at once,
    several by the tokenizer, the same text either way."""
    for line, row in enumerate(PYX, 1):
        for col in range(len(row) + 1):
            for stop in ("", ":"):
                expected = tokenized_text(PYX, line, col, stop)
                assert logical_text(PYX, line, col, stop) == expected, (line, col, stop)


def test_where_a_statement_ends() -> None:
    assert logical_text(PYX, 4, _col(4)) == (PYX[3].strip(), 1)
    assert logical_text(PYX, 3, _col(3, "if "), ":") == ("n < 0 or self._closed", 1)
    assert logical_text(PYX, 8, _col(8))[0] == 'msg = "a: %s" % n'  # up to the ``;``
    # a ``:=`` is one token, no ``:``; a lambda's ``:`` ends the condition
    assert logical_text(PYX, 5, _col(5, "elif "), ":")[0] == "size := self._size"
    assert logical_text(PYX, 6, _col(6, "if "), ":")[0] == "lambda"
    assert logical_text(PYX, 9, _col(9))[1] == 2  # an open bracket
    assert logical_text(PYX, 12, _col(12))[1] == 2  # a backslash
    assert logical_text(PYX, 14, _col(14))[1] == 2  # a triple-quoted string


def test_statements_and_conditions_are_placed_in_the_file() -> None:
    raised = parse_at(PYX, 4, _col(4))
    assert isinstance(raised, ast.Raise) and (raised.lineno, raised.col_offset) == (4, 12)
    assert raised.end_col_offset == len(PYX[3].encode())
    condition = parse_expr_at(PYX, 3, _col(3, "if "), ":")
    assert isinstance(condition, ast.BoolOp) and (condition.lineno, condition.col_offset) == (3, 11)
    # neither ``size := self._size`` alone nor ``lambda`` is an expression
    assert parse_expr_at(PYX, 5, _col(5, "elif "), ":") is None
    assert parse_expr_at(PYX, 6, _col(6, "if "), ":") is None
    call = parse_at(PYX, 9, _col(9))
    assert isinstance(call, ast.Raise) and (call.lineno, call.end_lineno) == (9, 10)
    cast = parse_at(PYX, 11, _col(11))
    assert isinstance(cast, ast.Raise) and isinstance(cast.exc, ast.Call)
    shown = cast.exc.args[0]
    assert (shown.lineno, shown.col_offset) == (11, PYX[10].index("<object>"))
