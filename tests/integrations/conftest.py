"""A real catalogue for the integration tests: a small package written for them, scanned
with ``errdex scan`` in a subprocess, and scripts that import it and fail."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SHA = "0123456789abcdef0123456789abcdef01234567"
REPO = "example/tinyshapes"

SHAPES = '''\
class ShapeError(ValueError):
    """A shape that does not fit."""


def reshape(size, shape):
    total = 1
    for dim in shape:
        total *= dim
    if total != size:
        raise ShapeError(f"cannot reshape array of size {size} into shape {shape}")
    return shape


def axis_of(ndim, axis):
    if axis >= ndim:
        raise IndexError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis


def wrapped(size, shape):
    try:
        return reshape(size, shape)
    except ShapeError as error:
        raise RuntimeError(f"wrapping failed for {size}") from error
'''


def line_of(needle: str) -> int:
    """The line of ``SHAPES`` that holds ``needle``."""
    for number, text in enumerate(textwrap.dedent(SHAPES).splitlines(), 1):
        if needle in text:
            return number
    raise AssertionError(needle)


def env_for(root: Path, **extra: str) -> dict[str, str]:
    """A child's environment: this errdex, the package, no user catalogue or colour."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ERRDEX_")}
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, str(root / "src")])
    env["XDG_DATA_HOME"] = str(root / "xdg-data")  # no catalogue there
    env["XDG_CACHE_HOME"] = str(root / "xdg-cache")
    env["ERRDEX_OFFLINE"] = "1"
    env.pop("FORCE_COLOR", None)
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The root of the scanned package: ``src/tinyshapes/`` and ``errdex.db`` beside it."""
    root = tmp_path_factory.mktemp("tinyshapes")
    pkg = root / "src" / "tinyshapes"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text(textwrap.dedent(SHAPES))
    db = root / "errdex.db"
    cmd = [sys.executable, "-c", "from errdex.cli import main; main()", "scan", str(root)]
    cmd += ["--repo", REPO, "--sha", SHA, "--db", str(db)]
    done = subprocess.run(cmd, env=env_for(root), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert db.is_file()
    index(root, db)
    return root


def index(root: Path, db: Path) -> None:
    """Build the catalogue's match index as a user would, with ``errdex match`` (the
    hook answers only from a built index)."""
    cmd = [
        sys.executable,
        "-c",
        "from errdex.cli import main; main()",
        "match",
        "--db",
        str(db),
        "x",
    ]
    done = subprocess.run(cmd, env=env_for(root), capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1, 3), done.stderr  # 3: "x" holds no error
    assert (db.parent / (db.name + ".matchindex") / "meta.json").is_file()


@pytest.fixture(scope="session")
def shapes_db(shapes: Path) -> Path:
    return shapes / "errdex.db"
