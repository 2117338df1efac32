"""The benchmarks' pytest pastes (bench/realerrors/pytest_render.py) print as pytest does:
a failing test is run under pytest here, and its CPython traceback rendered, line by line
the same (the argument values pytest prints are not known to the renderer: left out)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "realerrors"))
from pytest_render import render

TESTS = textwrap.dedent(
    '''\
    def helper(x):
        """Check x.

        >>> helper(1)
        Traceback (most recent call last):
        ValueError: bad
        """
        if x:
            raise ValueError(f"bad value {x!r}\\nsecond line")


    def test_fails():
        helper(
            3
        )
    '''
)


def _block(report: str, title: str) -> list[str]:
    """The failure's lines from its title to the next section."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line and line.startswith("_"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("==="))
    return lines[start:end]


@pytest.mark.parametrize("style", ["long", "short"])
def test_a_rendered_failure_is_what_pytest_prints(tmp_path: Path, style: str) -> None:
    (tmp_path / "test_x.py").write_text(TESTS)
    real = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", f"--tb={style}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    code = (
        "import json, sys, traceback; sys.path.insert(0, '.'); import test_x\n"
        "try:\n    test_x.test_fails()\n"
        "except Exception as e:\n    tb = e.__traceback__.tb_next  # from the test on, as collected\n"
        "    print(json.dumps(''.join(traceback.format_exception(type(e), e, tb))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    traceback = json.loads(done.stdout)
    mine = render(traceback, style, "test_x.py::test_fails", str(tmp_path), "/site")
    ours, theirs = _block(mine, "test_fails"), _block(real, "test_fails")
    # pytest lists argument values (``x = 3``); the renderer knows the names only
    assert [line for line in theirs if not line.startswith("x = ")] == [
        line for line in ours if not line.startswith("x = ")
    ]
    assert any(line.startswith("E ") and line.endswith("ValueError: bad value 3") for line in ours)
    assert any(line.startswith(">") and "helper(" in line for line in ours) == (style == "long")
