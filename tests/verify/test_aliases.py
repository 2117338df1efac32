"""A guard on a local that only renames a parameter is solved for the parameter."""

from __future__ import annotations

from pathlib import Path

from errdex.verify._aliases import aliases

from .conftest import Tree
from .test_from_guards import _verified

EDGES = """\
def add_edge(u_of_edge, v_of_edge):
    u, v = u_of_edge, v_of_edge
    if v is None:
        raise ValueError("None cannot be a node")
    return (u, v)
"""

TEST_EDGES = """\
import pytest

from acme.edges import add_edge


def test_add_edge_needs_two_nodes():
    with pytest.raises(TypeError):
        add_edge(1)
    add_edge(1, 2)
"""


def test_locals_bound_once_to_a_parameter_before_the_line(tmp_path: Path) -> None:
    file = tmp_path / "m.py"
    file.write_text(
        "def f(a, b, c):\n"
        "    x, y = a, b\n"
        "    z = c\n"
        "    z = 2\n"  # bound twice: not a rename
        "    if y is None:\n"
        "        raise ValueError\n"
        "    w = a\n"
    )
    assert aliases(file, 6) == {"x": "a", "y": "b"}  # w is bound after the raise
    assert aliases(file, 100) == {}


def test_a_guard_on_a_renamed_parameter_reproduces(tree: Tree) -> None:
    env = _verified(tree, "edges", EDGES, TEST_EDGES)
    rep = env["evidence"]["reproducer"]
    assert rep["raised"] == "ValueError: None cannot be a node"
    assert rep["snippet"].endswith("add_edge(1, None)")
