"""A small, real-looking library with its own tests, written out for the static analyst's tests.

It has one of each thing the analyst looks for: guards (a loop like seed 004's),
docstrings in the three styles, an exception hierarchy, a public API re-exported by the
package and private helpers behind it, and tests of every supported kind, including
ones the analyst must not link (wrong class, a message that fits nowhere).
"""

from __future__ import annotations

from pathlib import Path

FILES: dict[str, str] = {
    "geompkg/__init__.py": '''\
"""Geometry helpers."""
from geompkg.errors import GeomError, ShapeError
from geompkg.shapes import *

__all__ = ["GeomError", "ShapeError", "Rect", "make_grid", "scale", "align"]
''',
    "geompkg/errors.py": '''\
class GeomError(Exception):
    """Base class for geometry errors."""


class ShapeError(GeomError):
    """Raised when a shape's dimensions do not fit together."""
''',
    "geompkg/_check.py": '''\
from geompkg.errors import ShapeError


def validate_fill(fill, size):
    if fill is not None and len(fill) != size:
        raise ShapeError(f"fill has {len(fill)} values for {size} cells")
    return fill


def align(in_spec, out_spec):
    """Align two partition specs.

    Raises:
        ValueError: If an unsharded input dimension would need sharding.
    """
    for axis, (i, o) in enumerate(zip(in_spec, out_spec)):
        if i == o:
            continue
        if i is None:
            raise ValueError(
                f"cannot align input unsharded on dimension {axis} when {out_spec=}"
            )
    return out_spec
''',
    "geompkg/shapes.py": '''\
import warnings

from geompkg import _check
from geompkg._check import align
from geompkg.errors import ShapeError

__all__ = ["Rect", "align", "make_grid", "scale"]


def make_grid(rows, cols, *, fill=None):
    """Build a grid of cells.

    Parameters
    ----------
    rows : int
        Number of rows.

    Raises
    ------
    ShapeError
        If rows is negative.
    """
    if rows < 0:
        raise ShapeError(f"rows must be non-negative, got {rows}")
    return _check.validate_fill(fill, rows * cols)


class Rect:
    """A rectangle."""

    def __init__(self, w, h):
        """Make a rectangle.

        Raises:
            ValueError: If w or h is zero.
        """
        if w == 0 or h == 0:
            raise ValueError("zero-area rectangle")
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


def scale(shape, factor):
    """Scale a shape.

    :raises TypeError: if factor is not a number
    """
    if not isinstance(factor, (int, float)):
        raise TypeError(f"factor must be a number, not {type(factor).__name__}")
    if factor == 1:
        warnings.warn("scaling by 1 is a no-op; use the shape itself instead", UserWarning)
    return shape


def area_of(rect):
    warnings.warn("area_of is deprecated, use Rect.area instead of area_of", DeprecationWarning)
    return rect.area()
''',
    "tests/test_shapes.py": """\
import unittest

import pytest

import geompkg as gp
from geompkg.errors import ShapeError
from geompkg.shapes import scale


def test_negative_rows():
    with pytest.raises(ShapeError, match=r"rows must be non-negative, got -1"):
        gp.make_grid(-1, 2)


def test_zero_rect():
    with pytest.raises(ValueError):
        gp.Rect(0, 1)


def test_noop_warns():
    with pytest.warns(UserWarning, match="no-op"):
        gp.scale(gp.Rect(1, 1), 1)


def test_literal_check():
    with pytest.raises(ValueError) as exc:
        gp.align([None], ["x"])
    assert "cannot align input" in str(exc.value)


def test_wrong_class_is_not_linked():
    with pytest.raises(KeyError, match="rows must be non-negative"):
        gp.make_grid(-1, 2)


def test_message_that_fits_nothing():
    with pytest.raises(ShapeError, match="completely different words"):
        gp.make_grid(-1, 2)


class TestScale(unittest.TestCase):
    def test_type(self):
        with self.assertRaisesRegex(TypeError, "factor must be a number"):
            scale(1, "x")

    def test_callable_form(self):
        self.assertRaises(TypeError, scale, 1, "x")
""",
}


def write_geompkg(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
