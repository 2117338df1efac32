"""A raise under no condition in a public method or function: its plain call, run."""

from __future__ import annotations

import ast
from typing import Any

from errdex.store import SqliteStore
from errdex.verify.from_methods import plain_call

from .conftest import REPO, Tree
from .test_test_cases import _rescan

SHAPES = """\
import abc
import warnings


class Shape:
    def __init__(self, name, *, sides=0):
        self.name = name

    def area(self, scale, unit="m"):
        raise NotImplementedError("a Shape has no area")

    @property
    def corners(self):
        raise NotImplementedError("a Shape has no corners")

    async def draw(self):
        raise NotImplementedError("a Shape cannot draw")


class Solid(abc.ABC):
    @abc.abstractmethod
    def volume(self):
        raise NotImplementedError("a Solid has no volume")


def old_area(x):
    warnings.warn("old_area() is deprecated", DeprecationWarning)
    return x


def clamp(x, lo=0):
    if x < lo:
        raise ValueError(f"x below {lo}")
    return x
"""

TEST_SHAPES = """\
from acme.shapes import Shape


def test_name():
    assert Shape("sq").name == "sq"
"""


def _reproducer(tree: Tree, line: int) -> dict[str, Any] | None:
    with SqliteStore(tree.db) as store:
        (env,) = [
            e
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == "acme/shapes.py" and e["record"]["lineNumber"] == line
        ]
    found: dict[str, Any] | None = env["evidence"].get("reproducer")
    return found


def test_the_plain_call_of_an_unguarded_raise_reproduces_it(tree: Tree) -> None:
    (tree.root / "acme" / "shapes.py").write_text(SHAPES)
    (tree.root / "tests" / "test_shapes.py").write_text(TEST_SHAPES)
    _rescan(tree)
    assert tree.verify().exit_code == 0
    area = _reproducer(tree, 10)
    assert area is not None and area["raised"] == "NotImplementedError: a Shape has no area"
    assert area["snippet"].endswith("Shape(None).area(None)\n")
    assert area["test"] == ""  # no test holds it: the page says "Built by errdex"
    assert area["built"] == "errdex's plain call of `Shape.area` (the raise has no condition)"
    corners = _reproducer(tree, 14)
    assert corners is not None and corners["snippet"].endswith("Shape(None).corners\n")
    draw = _reproducer(tree, 17)
    assert draw is not None and draw["snippet"].endswith("asyncio.run(Shape(None).draw())\n")
    old = _reproducer(tree, 27)
    assert old is not None and old["raised"].startswith("DeprecationWarning: old_area()")
    assert _reproducer(tree, 23) is None  # an ABC is not made
    # no test calls clamp(): its plain call, with the guard made true, is built all the same
    clamp = _reproducer(tree, 33)
    assert clamp is not None and clamp["snippet"].endswith("clamp(-1)")
    assert clamp["raised"] == "ValueError: x below 0"


def test_private_nested_and_abstract_definitions_get_no_call() -> None:
    tree = ast.parse(SHAPES + "\ndef _hidden():\n    raise ValueError\n")
    assert plain_call(tree, "acme.shapes", ["Shape", "area"]) == (
        "from acme.shapes import Shape\nShape(None).area(None)\n"
    )
    assert plain_call(tree, "acme.shapes", ["_hidden"]) is None
    assert plain_call(tree, "acme.shapes", ["Solid", "volume"]) is None
    assert plain_call(tree, "acme.shapes", ["Shape", "area", "<locals>", "f"]) is None
    assert plain_call(tree, "acme.shapes", ["Shape", "__init__"]) is None


def test_a_plain_call_that_fails_at_the_line_with_another_error_is_no_verdict(
    tree: Tree,
) -> None:
    """``label(None)`` raises AttributeError in the raise's own f-string: not this record's
    TypeError, so no reproducer, and errdex's None is no failure of the record either."""
    (tree.root / "acme" / "labels.py").write_text(
        'def label(box):\n    raise TypeError(f"no label for {box.name}")\n'
    )
    _rescan(tree)
    assert tree.verify().exit_code == 0
    with SqliteStore(tree.db) as store:
        (evidence,) = [
            e["evidence"]
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == "acme/labels.py"
        ]
    assert "reproducer" not in evidence
    check = evidence["verification"]["fields"]["reproducer"]
    assert check["status"] == "not-run", check
    assert "1 raised AttributeError at acme/labels.py:2" in check["reason"], check
