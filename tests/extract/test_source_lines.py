"""A text's lines are the ones Python numbers: a form feed or U+2028 ends none."""

from __future__ import annotations

import ast

import pytest

from errdex.extract.source_lines import source_lines


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\n\x0c\nb = 2\n",
        "a = 1\r\nb = '\u2028'\rc = '\x0b\x1c\x85'\n",
        "x = 1",
        "",
        "\n\n",
    ],
)
def test_each_statement_is_on_the_line_ast_numbers(text: str) -> None:
    lines = source_lines(text)
    for node in ast.parse(text).body:
        assert lines[node.lineno - 1].lstrip("\x0c").startswith(ast.unparse(node)[:1])


def test_a_page_break_on_its_own_line_is_one_line() -> None:
    assert source_lines("a\n\x0c\nb\n") == ["a", "\x0c", "b"]
    assert "a\n\x0c\nb\n".splitlines() == ["a", "", "", "b"]  # what the old split gave
