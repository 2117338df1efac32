"""The lines the walk enters are those where ``raise``, ``warn``, ``assert`` or
``yield`` ends a word, as the regular expression ``raise\\b|warn\\b|…`` finds them."""

from __future__ import annotations

import re
import sysconfig
from pathlib import Path

import pytest

from errdex.extract.python.walk import _keyword_lines

STDLIB = Path(sysconfig.get_paths()["stdlib"])
_REGEX = re.compile(r"raise\b|warn\b|assert\b|yield\b")


def _by_regex(source: str) -> list[int]:
    return sorted({source.count("\n", 0, m.start()) + 1 for m in _REGEX.finditer(source)})


@pytest.mark.parametrize(
    "source",
    [
        "raise\nraises\nwarnings.warn(x)\n_warn(x)\nassert_(y)\nyielded = 1\nraiseé\nyield",
        "x = 1  # no raise here\n\n\nwarn",
        "raisewarn\nwarn_\nwarn1\nwarn٣\nwarn-",
        "",
    ],
)
def test_keyword_lines_are_the_regex_lines(source: str) -> None:
    assert _keyword_lines(source) == _by_regex(source)


@pytest.mark.parametrize("module", ["argparse.py", "warnings.py", "asyncio/tasks.py"])
def test_keyword_lines_on_real_modules(module: str) -> None:
    source = (STDLIB / module).read_text(encoding="utf-8")
    assert _keyword_lines(source) == _by_regex(source)
