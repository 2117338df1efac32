"""Cython statements read as Python ``ast`` nodes at their place in the file: a statement
that ends on its own row is read without the tokenizer, and reads the same as with it."""

from __future__ import annotations

import ast
import textwrap

from errdex.extract.cython import snippet
from errdex.extract.cython.snippet import logical_text, parse_at, parse_expr_at

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
    """
).splitlines()


def _slow(mode: str, line: int, col: int, stop: str = "") -> str:
    """What the tokenizer's way reads at (line, col), placed, dumped with places."""
    text, _ = logical_text(PYX, line, col, stop)
    parsed = snippet._parse(text.rstrip() if mode == "eval" else text, mode)
    assert parsed is not None
    tree = parsed[0]
    node: ast.AST = tree.body[0] if isinstance(tree, ast.Module) else tree.body  # type: ignore[attr-defined]
    snippet._place(node, line, len(PYX[line - 1][:col].encode()))
    return ast.dump(node, include_attributes=True)


def _col(line: int, after: str = "") -> int:
    row = PYX[line - 1]
    return row.index(after) + len(after) if after else len(row) - len(row.lstrip())


def test_statements_on_one_row_read_as_the_tokenizer_reads_them() -> None:
    for line in (4, 8):
        stmt = parse_at(PYX, line, _col(line))
        assert stmt is not None
        assert ast.dump(stmt, include_attributes=True) == _slow("exec", line, _col(line))
    raised = parse_at(PYX, 4, _col(4))
    assert isinstance(raised, ast.Raise) and (raised.lineno, raised.col_offset) == (4, 12)
    assert raised.end_col_offset == len(PYX[3].encode())
    # ``msg = …; other = 1``: the statement stops at the ``;``
    assert isinstance(parse_at(PYX, 8, _col(8)), ast.Assign)


def test_a_condition_stops_at_its_own_colon() -> None:
    condition = parse_expr_at(PYX, 3, _col(3, "if "), ":")
    assert isinstance(condition, ast.BoolOp)
    assert ast.dump(condition, include_attributes=True) == _slow("eval", 3, _col(3, "if "), ":")
    # the tokenizer reads a ``:=`` as no ``:`` (and ``size := self._size`` alone is no
    # expression), and a lambda's ``:`` as the end of the condition (``lambda`` is none):
    # neither is read as the text up to another ``:`` that would parse (``size``)
    assert parse_expr_at(PYX, 5, _col(5, "elif "), ":") is None
    assert parse_expr_at(PYX, 6, _col(6, "if "), ":") is None


def test_statements_over_several_rows_and_cython_casts_still_read() -> None:
    call = parse_at(PYX, 9, _col(9))
    assert isinstance(call, ast.Raise) and (call.lineno, call.end_lineno) == (9, 10)
    continued = parse_at(PYX, 12, _col(12))
    assert isinstance(continued, ast.Assign) and continued.end_lineno == 13
    cast = parse_at(PYX, 11, _col(11))
    assert isinstance(cast, ast.Raise) and isinstance(cast.exc, ast.Call)
    shown = cast.exc.args[0]
    assert (shown.lineno, shown.col_offset) == (11, PYX[10].index("<object>"))
