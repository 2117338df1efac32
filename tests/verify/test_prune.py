"""What a snippet can leave out: set-up no statement reads, statements sharing no name."""

from __future__ import annotations

import ast

from errdex.verify._prune import unrelated_dropped, unused_setup_dropped


def _body(code: str) -> list[ast.stmt]:
    return ast.parse(code).body


def _code(statements: list[ast.stmt]) -> str:
    return ast.unparse(ast.Module(body=statements, type_ignores=[]))


def test_setup_assignments_nothing_reads_are_left_out_and_chains_kept() -> None:
    statements = _body("data = 'x' * 40\nsize = 4\nbox = Box(size)\nlog = []\nbox.add(1)")
    assert _code(unused_setup_dropped(statements, 4)) == "size = 4\nbox = Box(size)\nbox.add(1)"


def test_setup_calls_stay() -> None:
    statements = _body("os.mkdir('d')\nunused = 1\nf()")
    assert _code(unused_setup_dropped(statements, 2)) == "os.mkdir('d')\nf()"


def test_statements_sharing_no_name_with_the_call_are_dropped() -> None:
    statements = _body(
        "tmp = make_tmp()\n"
        "with open(tmp / 'x', 'w') as f:\n    f.write('a')\n"
        "G = nx.Graph()\nG.add_edge(1, 2)\n"
        "print(len(G))\n"
        "nx.parse(G)"
    )
    # print/len are builtins: the print(len(G)) line still shares G
    assert _code(unrelated_dropped(statements, 1)) == (
        "G = nx.Graph()\nG.add_edge(1, 2)\nprint(len(G))\nnx.parse(G)"
    )


def test_a_file_written_under_a_name_read_later_stays() -> None:
    statements = _body("path = 'a.txt'\nwith open(path, 'w') as f:\n    f.write('x')\nload(path)")
    assert unrelated_dropped(statements, 1) == statements


def test_a_local_named_as_a_builtin_links_like_any_name() -> None:
    # 'input = 12345' was dropped as a builtin's name: parse(input) then passed the builtin
    statements = _body("input = 12345\nunrelated = 1\nparse(input)")
    assert _code(unrelated_dropped(statements, 1)) == "input = 12345\nparse(input)"


def test_what_the_expectation_reads_and_setup_calls_are_never_pruned() -> None:
    # 'exc = ValueError' bound pytest.raises(exc)'s class: dropped, the class check was off
    statements = _body("patcher = mock.patch('a.b').start()\nexc = ValueError\narg = 1\nf(arg)")
    assert _code(unrelated_dropped(statements, 1, frozenset({"exc"}), setup=1)) == (
        "patcher = mock.patch('a.b').start()\nexc = ValueError\narg = 1\nf(arg)"
    )
    # a set-up assignment made for what its right side does stays, whatever reads the name
    setup = _body("old = os.chdir(tmp())\nunused = 1\nf()")
    assert _code(unused_setup_dropped(setup, 2)) == "old = os.chdir(tmp())\nf()"
