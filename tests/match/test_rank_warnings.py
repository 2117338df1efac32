"""A warning prints the frame its ``stacklevel`` points at: with ``stacklevel=2`` the line
that called the function that warned, not the ``warn`` call. That line credits the warn
sites in a function it calls; a site that only happens to stand near it gets nothing.

Every warning here is printed by running the code (``python -W always`` and pytest's
warnings summary), so paths, lines and source lines are the real ones.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.match.api import answers

from .conftest import build_package, report_of_pytest

DEPRECATE = """\
import warnings


def old_name(x):
    warnings.warn(f"{x} is deprecated, use the new name", DeprecationWarning, stacklevel=2)
    return x


def older_name(x):
    warnings.warn(f"{x} is deprecated, use the new name", DeprecationWarning, stacklevel=2)
    return x


class Settings:
    def __init__(self, name):
        warnings.warn(f"{name} is deprecated, use the new name", DeprecationWarning, stacklevel=2)
        self.name = name


def caller(x):
    y = older_name(x)
    warnings.warn(f"{x} is deprecated, use the new name", DeprecationWarning)
    return old_name(y)


def build(name):
    warnings.warn(f"{name} is deprecated, use the new name", DeprecationWarning)
    return Settings(name)
"""


#: PEP 562: a module's ``__getattr__`` warns of a name it no longer defines.
LEGACY = """\
import warnings


def __getattr__(name):
    if name == "Gauge":
        warnings.warn(f"{name} is deprecated, use the new name", DeprecationWarning, stacklevel=2)
        return object
    raise AttributeError(name)
"""


def line_of(needle: str, after: str = "") -> int:
    lines = DEPRECATE.splitlines()
    start = next(n for n, text in enumerate(lines) if after in text) if after else 0
    return next(n for n, text in enumerate(lines[start:], start + 1) if needle in text)


@pytest.fixture(scope="module")
def warned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("warned")
    modules = {"api.py": DEPRECATE, "legacy.py": LEGACY, "compat.py": LEGACY}
    return build_package(root, "oldnames", modules)


def warnings_of(db: Path, call: str) -> str:
    """What ``python -W always`` prints on stderr when ``call`` warns."""
    script = f"import sys; sys.path.insert(0, {str(db.parent / 'src')!r})\n"
    script += f"from oldnames.api import *\n{call}\n"
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_the_printed_line_credits_the_function_it_calls_not_the_warn_site_beside_it(
    warned: Path,
) -> None:
    printed = warnings_of(warned, "caller('x')")
    # three warnings of one message: at ``y = older_name(x)``, at caller's own
    # ``stacklevel=1`` warn, and at ``return old_name(y)``, the line below that warn
    assert f"api.py:{line_of('return old_name(y)')}: DeprecationWarning" in printed
    first, own, last = answers(printed, db=warned)
    assert first.candidates[0].lineNumber == line_of("warnings.warn", after="def older_name")
    assert own.candidates[0].lineNumber == line_of("DeprecationWarning)", after="def caller")
    best = last.candidates[0]
    assert best.lineNumber == line_of("warnings.warn", after="def old_name")
    assert any("whose line calls old_name()" in r for r in best.reasons)
    assert best.confidence >= 0.9
    beside = next(c for c in last.candidates if c.lineNumber == own.candidates[0].lineNumber)
    assert beside.confidence < 0.1
    assert not any("line(s) from" in r for r in beside.reasons)


def test_a_class_the_printed_line_constructs_credits_its_init(warned: Path) -> None:
    printed = warnings_of(warned, "build('colour')")
    assert f"api.py:{line_of('return Settings(name)')}: DeprecationWarning" in printed
    own, constructed = answers(printed, db=warned)
    assert own.candidates[0].lineNumber == line_of("DeprecationWarning)", after="def build")
    assert constructed.candidates[0].lineNumber == line_of("warnings.warn", after="__init__")


def test_pytest_warnings_summary_is_read_the_same_way(warned: Path, tmp_path: Path) -> None:
    tests = tmp_path / "test_calls.py"
    tests.write_text(
        textwrap.dedent(
            """\
            from oldnames.api import caller

            def test_caller():
                assert caller('x') == 'x'
            """
        )
    )
    out = report_of_pytest(tests, warned.parent / "src", "-q")
    assert "warnings summary" in out, out
    assert f"api.py:{line_of('return old_name(y)')}: DeprecationWarning" in out
    *_, last = answers(out, db=warned)
    assert last.candidates[0].lineNumber == line_of("warnings.warn", after="def old_name")


@pytest.mark.parametrize("read", ["oldnames.legacy.Gauge", "from oldnames.legacy import Gauge"])
def test_a_name_read_of_a_module_credits_that_modules_getattr(
    warned: Path, tmp_path: Path, read: str
) -> None:
    script = tmp_path / "use_legacy.py"  # a file: the warning prints its line under it
    script.write_text(f"import oldnames.legacy, oldnames.compat\n{read}\n")
    done = subprocess.run(
        [sys.executable, "-W", "always", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(warned.parent / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert "use_legacy.py:2: DeprecationWarning: Gauge is deprecated" in done.stderr
    (answer,) = answers(done.stderr, db=warned)
    best = answer.candidates[0]
    # compat.py warns the very same text: the line read a name of legacy, not of compat
    assert (best.filePath, best.lineNumber) == ("src/oldnames/legacy.py", 6)
    assert any("that module's __getattr__" in r for r in best.reasons)
