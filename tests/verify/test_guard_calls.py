"""Which tests' calls a guard's candidate is built from: bound names, the method's class."""

from __future__ import annotations

from .conftest import Tree
from .test_from_guards import _verified

LINKS = """\
def link(a, b=None):
    if b is not None and b < 0:
        raise ValueError("b must be non-negative")
    return a
"""

# three short calls inside loops (cut out of the loop, ``a`` is unbound), then one whole
TEST_LINKS = """\
from acme.links import link


def test_one():
    n = 1
    for a in (n,):
        link(a)


def test_two():
    n = 2
    for a in (n,):
        link(a)


def test_three():
    n = 3
    for a in (n,):
        link(a)


def test_bound():
    def first_value():
        return 10

    second_value = 20
    link(first_value, second_value)
"""


def test_a_call_reading_a_name_bound_only_in_its_loop_is_not_built_on(tree: Tree) -> None:
    env = _verified(tree, "links", LINKS, TEST_LINKS)
    rep = env["evidence"]["reproducer"]
    assert rep["raised"] == "ValueError: b must be non-negative"
    assert rep["snippet"].endswith("link(first_value, -1)")  # a helper the snippet defines


CRATES = """\
class Box:
    def put(self, x):
        return x


class Crate:
    def put(self, x):
        if x is None:
            raise ValueError("a crate takes no None")
        return x
"""

# three short calls of Box.put, then a longer one of Crate.put
TEST_CRATES = """\
from acme.crates import Box, Crate


def test_box_one():
    n = 1
    Box().put(n)


def test_box_two():
    n = 2
    Box().put(n)


def test_box_three():
    n = 3
    Box().put(n)


def test_crate():
    crate = Crate()
    value = "a value with a long name"
    crate.put(value)
"""


def test_a_methods_own_class_is_called_first(tree: Tree) -> None:
    env = _verified(tree, "crates", CRATES, TEST_CRATES)
    rep = env["evidence"]["reproducer"]
    assert rep["raised"] == "ValueError: a crate takes no None"
    assert rep["snippet"].endswith("crate.put(None)")
