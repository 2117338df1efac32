"""A small real package with its own pytest suite, written into a directory for harvest tests.

``core.py`` raises in the ways errdex's extractor distinguishes (f-string, %-format,
helper-built message, a warning with ``stacklevel=2``) plus one no static reading can
follow: a module constant that a test rebinds (``monkeypatch.setattr``), so the runtime
message differs from the static template and harvest must report the mismatch.
"""

from __future__ import annotations

from pathlib import Path

CORE = '''\
import warnings

NOT_READY = "the engine is not ready"


class SmallError(Exception):
    """Raised by smallpkg for bad names."""


def _bad_value(name, value):
    return f"bad value for {name}: {value!r}"


def check_positive(x):
    if x <= 0:
        raise ValueError(f"expected a positive number, got {x}")
    return x


def check_name(name):
    if not name.isidentifier():
        raise SmallError("not an identifier: %s" % name)
    return name


def check_value(name, value):
    if value is None:
        raise TypeError(_bad_value(name, value))
    return value


def parse(text):
    return int(text)


def old_api():
    warnings.warn(
        "old_api is deprecated; use new_api",
        DeprecationWarning,
        stacklevel=2,
    )
    return 1


def start():
    raise RuntimeError(NOT_READY)
'''

TESTS = """\
import unittest

import pytest

from smallpkg import core
from smallpkg.core import SmallError


@pytest.mark.parametrize("x", [0, -1, -2, -3, -4, -5, -6])
def test_check_positive_many(x):
    with pytest.raises(ValueError, match="positive"):
        core.check_positive(x)


def test_check_positive_again():
    with pytest.raises(ValueError):
        core.check_positive(-1)


def test_check_name():
    with pytest.raises(SmallError):
        core.check_name("a b")


def test_check_value_callable_form():
    pytest.raises(TypeError, core.check_value, "size", None)


def test_parse_builtin_underneath():
    with pytest.raises(ValueError):
        core.parse("x")


def test_raised_in_test_code():
    with pytest.raises(ZeroDivisionError):
        1 / 0


def test_old_api_warns():
    with pytest.warns(DeprecationWarning, match="deprecated"):
        core.old_api()


def test_stopped_engine(monkeypatch):
    monkeypatch.setattr(core, "NOT_READY", "the engine was stopped: overheated")
    with pytest.raises(RuntimeError):
        core.start()


def test_fails_on_purpose():
    assert core.check_positive(2) == 3


class TestUnittestStyle(unittest.TestCase):
    def test_assert_raises_regex(self):
        with self.assertRaisesRegex(SmallError, "identifier"):
            core.check_name("1x")

    def test_assert_warns(self):
        with self.assertWarns(DeprecationWarning):
            core.old_api()
"""


# A module skipped at collection: pytest counts it as one skipped test.
OPTIONAL = """\
import pytest

pytest.importorskip("errdex_no_such_optional_dependency")


def test_never_runs():
    raise AssertionError
"""


def write_package(root: Path) -> Path:
    """Write ``smallpkg`` and its tests under ``root``; return ``root``."""
    pkg = root / "smallpkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""smallpkg."""\n')
    (pkg / "core.py").write_text(CORE)
    tests = root / "tests"
    tests.mkdir()
    (tests / "test_core.py").write_text(TESTS)
    (tests / "test_optional.py").write_text(OPTIONAL)
    return root


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line of ``text`` containing ``needle``."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in text")
