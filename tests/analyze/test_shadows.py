"""Python definitions replaced at run time by a later import (issue 10: no dead code described as live)."""

from __future__ import annotations

import ast
import bisect
from pathlib import Path

import pytest

from errdex.analyze.shadows import Shadow, shadowing_imports
from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.source.stdlib import stdlib_checkout


def _shadows(text: str) -> dict[str, Shadow]:
    return shadowing_imports(ast.parse(text))


def test_a_later_import_replaces_the_definition() -> None:
    text = (
        "def f():\n    raise ValueError('py')\n\n"
        "class C:\n    pass\n\n"
        "try:\n    from _speedups import f, C as C\nexcept ImportError:\n    pass\n"
        "from other import g\n"
    )
    assert _shadows(text) == {
        "f": Shadow("_speedups", 8, conditional=True, caught=True),
        "C": Shadow("_speedups", 8, conditional=True, caught=True),
    }


def test_an_unconditional_import_and_a_definition_after_it() -> None:
    text = "def f(): pass\nfrom fast import f\n\nfrom fast import h\ndef h(): pass\n"
    assert _shadows(text) == {"f": Shadow("fast", 2, conditional=False)}


def test_star_imports_are_resolved_only_for_interpreter_modules() -> None:
    assert "bisect_right" in _shadows("def bisect_right(): pass\nfrom _bisect import *\n")
    assert _shadows("def f(): pass\nfrom some_package._native import *\n") == {}


def test_the_record_says_the_python_line_does_not_run(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def parse(text):\n    if not text:\n        raise ValueError('empty')\n    return text\n\n"
        "try:\n    from m_native import parse\nexcept ImportError:\n    pass\n"
    )
    ((record, evidence),) = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m").items
    assert evidence["shadowedBy"] == {"module": "m_native", "line": 7, "conditional": True}
    assert record["documentation"].endswith(
        "At run time `parse` is the one imported from `m_native` at m.py:7 when that import "
        "succeeds, so this line runs only where it fails."
    )


def test_an_import_under_an_if_is_conditional_on_its_test() -> None:
    """distutils' msvccompiler: ``if get_build_version() >= 8.0: from distutils.msvc9compiler
    import MacroExpander`` replaces the class where the test holds, not where an import fails."""
    text = (
        "class MacroExpander:\n    pass\n\ndef g(): pass\n\n"
        "if get_build_version() >= 8.0:\n    from msvc9 import MacroExpander\n"
        "else:\n    from old import g\n"
    )
    assert _shadows(text) == {
        "MacroExpander": Shadow("msvc9", 7, conditional=True, guard="get_build_version() >= 8.0"),
        "g": Shadow("old", 9, conditional=True, guard="not (get_build_version() >= 8.0)"),
    }


def test_the_record_of_an_if_guarded_shadow_names_the_test(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import sys\n\n"
        "def parse(text):\n    if not text:\n        raise ValueError('empty')\n    return text\n\n"
        "if sys.version_info >= (3, 99):\n    from m_native import parse\n"
    )
    ((record, evidence),) = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m").items
    assert evidence["shadowedBy"] == {
        "module": "m_native",
        "line": 9,
        "conditional": True,
        "guard": "sys.version_info >= (3, 99)",
    }
    assert "import succeeds" not in record["documentation"]
    assert record["documentation"].endswith(
        "At run time `parse` is the one imported from `m_native` at m.py:9 where "
        "`sys.version_info >= (3, 99)` holds, so this line runs only where it does not."
    )
    assert record["triggerScenarios"].endswith(
        "It runs only where `sys.version_info >= (3, 99)` does not hold."
    )


def test_the_standard_librarys_c_twins(tmp_path: Path) -> None:
    """bisect's Python functions: the record says so, and this interpreter agrees."""
    import _bisect

    checkout = stdlib_checkout()
    result = scan_checkout(checkout, repo="python/cpython", include=["bisect.py"], read_tests=False)
    shadowed = {r["lineNumber"]: e["shadowedBy"] for r, e in result.items if "shadowedBy" in e}
    if not shadowed:
        pytest.fail("no bisect record was marked, though bisect.py imports _bisect over them")
    assert {s["module"] for s in shadowed.values()} == {"_bisect"}
    assert bisect.insort_left is _bisect.insort_left  # what the records say, checked


def test_a_relative_import_rebound_to_the_defined_name_replaces_it() -> None:
    """frozenlist's ``__init__.py``: ``from ._frozenlist import FrozenList as CFrozenList``,
    then ``FrozenList = CFrozenList`` in the ``try``'s ``else``."""
    text = (
        "class FrozenList:\n    pass\n\nPyFrozenList = FrozenList\n\n"
        "if not NO_EXTENSIONS:\n"
        "    try:\n        from ._frozenlist import FrozenList as CFrozenList\n"
        "    except ImportError:\n        pass\n"
        "    else:\n        FrozenList = CFrozenList\n"
    )
    found = shadowing_imports(ast.parse(text), package="frozenlist")
    assert found == {
        "FrozenList": Shadow(
            "frozenlist._frozenlist", 8, conditional=True, guard="not NO_EXTENSIONS", caught=True
        )
    }
    # bound to another name only, the definition stays what runs
    assert shadowing_imports(ast.parse(text.replace("FrozenList = C", "Other = C"))) == {}


def test_a_relative_import_of_the_name_itself_is_resolved_in_its_package() -> None:
    text = "def f(): pass\nfrom ._speedups import f\n"
    assert shadowing_imports(ast.parse(text), package="pkg.sub") == {
        "f": Shadow("pkg.sub._speedups", 2, conditional=False)
    }
