"""The reproducer's three conditions, checked on real runs against real records' shapes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.verify.checks import check_reproducer, class_agrees, message_fits
from errdex.verify.sandbox import RunResult, Sandbox
from errdex.verify.sites import RepoSites

CORE = """\
class Error(ValueError):
    pass


class Narrow(Error):
    pass


def check(x):
    if x < 0:
        raise Error(
            f"x must be non-negative, got {x}"
        )
    if x == 0:
        raise Narrow(f"x must be non-negative, got {x}")
    raise KeyError(f"no {x}")
"""


def _envelope(
    path: str, line: int, end: int, cls: str, qualified: str | None, pattern: str
) -> dict[str, Any]:
    return {
        "record": {
            "id": f"{path}:{line}",
            "filePath": path,
            "lineNumber": line,
            "errorClass": cls,
            "messagePattern": pattern,
        },
        "evidence": {"site": {"endLine": end, "qualifiedClass": qualified}},
    }


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site") / "site-packages"
    (root / "acme").mkdir(parents=True)
    (root / "acme" / "__init__.py").write_text("")
    (root / "acme" / "core.py").write_text(CORE)
    return root


def _run(lib: Path, program: str) -> RunResult:
    return Sandbox(sys_path=(str(lib),)).run(program)


NEG = _envelope(
    "src/acme/core.py", 11, 13, "Error", "acme.core.Error", r"x must be non\-negative, got (.*?)"
)
ZERO = _envelope(
    "src/acme/core.py", 15, 15, "Narrow", "acme.core.Narrow", r"x must be non\-negative, got (.*?)"
)
MISSING = _envelope("src/acme/core.py", 16, 16, "KeyError", "builtins.KeyError", r"no (.*?)")


def test_a_raise_at_the_site_with_its_class_and_message_passes(lib: Path) -> None:
    sites = RepoSites.of([NEG, ZERO, MISSING])
    result = _run(lib, "from acme.core import check\ncheck(-2)\n")
    verdict = check_reproducer(NEG, result, sites)
    assert verdict.passed, verdict
    assert verdict.reason == "raised Error at src/acme/core.py:11"
    assert sites.innermost(result.frames) == ("src/acme/core.py", 11)


def test_another_site_of_the_same_file_fails(lib: Path) -> None:
    sites = RepoSites.of([NEG, ZERO, MISSING])
    result = _run(lib, "from acme.core import check\ncheck(0)\n")
    verdict = check_reproducer(NEG, result, sites)
    assert not verdict.passed and "core.py:15" in verdict.reason
    assert check_reproducer(ZERO, result, sites).passed


def test_keyerror_is_matched_on_its_argument_not_its_quoted_str(lib: Path) -> None:
    sites = RepoSites.of([MISSING])
    result = _run(lib, "from acme.core import check\ncheck(5)\n")
    assert result.message == "'no 5'"
    assert check_reproducer(MISSING, result, sites).passed


def test_a_subclass_counts_and_a_sibling_or_a_wrong_message_does_not(lib: Path) -> None:
    result = _run(lib, "from acme.core import check\ncheck(0)\n")
    assert class_agrees(NEG, result)  # Narrow is an Error
    other = _envelope("src/acme/core.py", 15, 15, "TypeError", "builtins.TypeError", "x")
    assert not class_agrees(other, result)
    wrong = _envelope("src/acme/core.py", 15, 15, "Narrow", "acme.core.Narrow", r"y must (.*?)")
    assert not message_fits(wrong["record"]["messagePattern"], result)
    assert not check_reproducer(wrong, result, RepoSites.of([wrong])).passed


def test_no_raise_or_a_raise_outside_the_repository_fails(lib: Path) -> None:
    sites = RepoSites.of([NEG])
    ok = _run(lib, "from acme.core import check\n")
    assert "did not raise" in check_reproducer(NEG, ok, sites).reason
    outside = _run(lib, "raise ValueError('x must be non-negative, got 1')\n")
    assert "outside the repository" in check_reproducer(NEG, outside, sites).reason
