"""A small repository with tests, scanned for real, and the same catalogue verified."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from errdex.cli import main

CORE = '''\
import warnings


class BoxError(ValueError):
    """The box refused."""


def check(x):
    if x < 0:
        raise ValueError(f"x must be non-negative, got {x}")
    return x


def fill(box, n):
    if not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n > 3:
        raise BoxError(f"cannot hold {n} items")
    return [box] * n


def old():
    warnings.warn("old() is deprecated; use new() instead", DeprecationWarning)

def unreached(boxes=None):
    boxes = sorted(boxes)
    raise RuntimeError("nothing reaches this")
'''

TESTS = """\
import pytest

from acme.core import check, fill, old


def test_negative():
    with pytest.raises(ValueError, match="non-negative"):
        check(-1)


def test_fill():
    with pytest.raises(TypeError):
        fill("b", 1.5)
    with pytest.raises(ValueError):
        fill("b", 9)


def test_old():
    with pytest.warns(DeprecationWarning):
        old()


def test_wrong_expectation():
    with pytest.raises(KeyError):
        check(-5)
"""

REPO = "acme/box"


@dataclass
class Tree:
    root: Path
    db: Path

    def verify(self, *args: str) -> Result:
        return CliRunner().invoke(
            main,
            [
                "verify",
                REPO,
                "--db",
                str(self.db),
                "--path",
                str(self.root),
                "--tests",
                str(self.root / "tests"),
                "--no-progress",
                *args,
            ],
        )


def write_box(base: Path) -> Path:
    """The repository's files, not yet scanned."""
    root = base / "box"
    (root / "acme").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "acme" / "__init__.py").write_text("")
    (root / "acme" / "core.py").write_text(CORE)
    (root / "tests" / "test_core.py").write_text(TESTS)
    return root


def make_tree(base: Path) -> Tree:
    root = write_box(base)
    db = base / "box.db"
    scanned = CliRunner().invoke(
        main, ["scan", str(root), "--repo", REPO, "--db", str(db), "--no-progress"]
    )
    assert scanned.exit_code == 0, scanned.output
    return Tree(root, db)


@pytest.fixture()
def tree(tmp_path: Path) -> Tree:
    return make_tree(tmp_path)


@pytest.fixture(scope="session")
def verified(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    """Scanned and verified once for the page tests."""
    made = make_tree(tmp_path_factory.mktemp("verified"))
    result = made.verify()
    assert result.exit_code == 0, result.output
    return made


__all__ = ["CORE", "REPO", "TESTS", "Tree", "make_tree", "shutil", "write_box"]
